#!/usr/bin/env bash
# A new user's first session, on a fresh clone of this repository's last commit:
#   install; the README's first command as written; python -m solitaire_odds --help;
#   odds --format json parsed as JSON; a viewer page written and checked in headless Chromium;
#   the Python API page's examples; with FULL=1 also the README's second command (the whole suite).
#
#     bash experiments/fresh_clone.sh            # FULL=1 bash experiments/fresh_clone.sh
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
step() { printf '\n== %s\n' "$*"; }

step "clone"
git clone --quiet "$repo" "$work/clone"
cd "$work/clone"
python -m venv --system-site-packages .venv  # reuse what this machine has; pip fetches the rest
. .venv/bin/activate

block() { awk '/^```/{n++; next} n==1' README.md | sed -n "$1p"; }  # line $1 of the README's first block
step "README command 1: $(block 1)"
bash -c "$(block 1)"

step "python -m solitaire_odds --help"
python -m solitaire_odds --help | head -3

step "odds --format json, parsed"
python -m solitaire_odds odds westcliff --first 10k --deals 200 --budget 1e5 --quiet --format json \
    | python -c 'import json, sys; r = json.load(sys.stdin); print(r["game"], r["budget"], r["deals"], r["won"], r["share"])'

step "solve --html, then the page in headless Chromium; the Python API page's examples"
python -m solitaire_odds solve westcliff --deal 3 --budget 1e5 --html deal3.html | tail -1
python -m pytest -q -p no:cacheprovider tests/test_viewer.py tests/test_readme.py

if [ "${FULL:-0}" = 1 ]; then
    step "README command 2: $(block 2)"
    bash -c "$(block 2)"
fi
step "done: a fresh clone installs, runs the README and shows the viewer"
