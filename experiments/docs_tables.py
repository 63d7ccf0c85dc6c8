"""Every generated table of README.md and docs/ (the README's answers, the results page's
tables, the benchmarks' scaling table), remade from the committed results under results/
(solitaire_odds.research.pages); tests/test_pages.py fails while a page differs from what
this makes.

    python experiments/docs_tables.py            # rewrite the tables in place
    python experiments/docs_tables.py --check    # only list the stale ones (exit status 1)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from solitaire_odds.research import pages

REPOSITORY = Path(__file__).resolve().parent.parent


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="list the stale tables instead of rewriting them")
    args = parser.parse_args(argv)
    if args.check:
        stale = pages.stale_pages(REPOSITORY)
        for entry in stale:
            print(f"stale: {entry}")
        raise SystemExit(1 if stale else 0)
    try:
        changed = pages.write_pages(REPOSITORY)
    except ValueError as err:
        print(f"docs_tables.py: {err}", file=sys.stderr)
        raise SystemExit(2) from None
    for path in changed:
        print(f"wrote {path.relative_to(REPOSITORY)}")


if __name__ == "__main__":
    main()
