"""The repository stands on its own: every game and switch is described in docs/rules.md, and
no tracked file points outside the repository (another machine's files cannot be read)."""

import json
import re
import subprocess
from pathlib import Path

import pytest

from solitaire_odds.rules import GAMES, resolve

ROOT = Path(__file__).resolve().parent.parent
RULES = (ROOT / "docs" / "rules.md").read_text()
SYSTEM_DIRS = {"usr", "dev", "proc", "sys", "bin", "etc"}
"""Absolute paths that name a program or device of any machine (/usr/bin/env, /dev/null)."""
MISSING = "/no/such/"
"""Where tests point at a file that no machine has (the error for a missing file)."""
ABSOLUTE = re.compile(r"(?<![\w.~:/<>${}\\-])/([A-Za-z][\w.-]*)/[\w./-]*")
CLIMBING = re.compile(r"(?:\.\./)+[\w./-]*")


def section(game: str) -> str:
    """The text of the game's section: from its heading to the next heading of its level."""
    match = re.search(rf"^(#+) `{re.escape(game)}`.*?$(.*?)(?=^\1 |^## |\Z)", RULES, re.M | re.S)
    assert match, f"docs/rules.md has no heading for `{game}`"
    return match.group(2)


@pytest.mark.parametrize("game", list(GAMES))
def test_rules_md_describes_every_switch_with_its_default(game):
    text = section(game)
    for name, default in resolve(game).switches.items():
        shown = ("on" if default else "off") if isinstance(default, bool) else str(default)
        entry = re.search(rf"`{name}` = [^\n]*?\(default {re.escape(shown)}\b", text)
        assert entry, f"docs/rules.md, {game}: no `{name}` = ... (default {shown})"


def tracked_text_files():
    names = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    for name in names:
        path = ROOT / name
        if name == ".gitignore" or not path.is_file():  # .gitignore's /patterns are the repository's own
            continue
        data = path.read_bytes()
        if name.endswith(".ipynb"):  # its text, not its pictures' base64 (which holds slashes)
            cells = json.loads(data)["cells"]
            yield name, "\n".join(json.dumps([cell["source"], [{k: v for k, v in output.get("data", {}).items()
                                                                 if not k.startswith("image/")}
                                                                for output in cell.get("outputs", [])]])
                                  for cell in cells)
        elif b"\0" not in data[:4096]:
            yield name, data.decode("utf-8", errors="replace")


def test_no_tracked_file_names_a_path_outside_the_repository():
    found = []
    for name, text in tracked_text_files():
        for match in ABSOLUTE.finditer(text):
            if match.group(1) not in SYSTEM_DIRS and not match.group(0).startswith(MISSING):
                found.append(f"{name}: {match.group(0)}")
        for match in CLIMBING.finditer(text):
            target = (ROOT / name).parent / match.group(0)
            if not target.resolve().is_relative_to(ROOT):
                found.append(f"{name}: {match.group(0)}")
    assert found == []


def test_the_path_check_catches_what_it_is_for():
    home = "/" + "home/alice/notes.md"  # written in two parts, or this file would name it
    assert ABSOLUTE.search(f"see {home}").group(1) == "home"
    assert ABSOLUTE.search("C:/x or /usr/bin/env").group(1) == "usr"
    assert not ABSOLUTE.search("https://example.org/a/b and results/runs/x and <run_dir>/chunks/a")
    assert CLIMBING.search("see ../notes/RULES.md").group(0) == "../notes/RULES.md"
