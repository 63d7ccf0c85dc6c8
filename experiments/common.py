"""What the experiment scripts share: command-line flags that override the parameters written at
the top of each script, and writing a table where the committed results live.

Every script resumes the runs it finds under ``--root`` (results/ by default), so rerunning
it with a larger ``--deals`` solves only the new deals and regenerates its files.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from solitaire_odds.game import deals as deal_numbers
from solitaire_odds.game import reference
from solitaire_odds.counts import parse_budgets, parse_count
from solitaire_odds.rules import Rules, parse_settings, resolve


def arguments(description: str, deals: int, budgets: tuple[int, ...], workers: int | None,
              root: str = "results", players: tuple[str, ...] | None = None,
              from_verdicts: bool = False) -> argparse.Namespace:
    """Parse --deals, --budget, --workers, --root, --from-csv (and --players when the script
    has players, --from-verdicts when it can read the committed verdict files), defaulting to
    the script's parameters."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--deals", default=str(deals), help=f"deals 0..N-1 per rule set (default {deals:,})")
    parser.add_argument("--budget", default=",".join(str(b) for b in budgets),
                        help="solver node budget or escalation, e.g. 1e5,1e6")
    parser.add_argument("--workers", type=int, default=workers, help="worker processes (default: every core)")
    parser.add_argument("--root", type=Path, default=Path(root), help="results folder (default: results)")
    if players is not None:
        parser.add_argument("--players", default=",".join(players), help="comma-separated players")
    parser.add_argument("--from-csv", action="store_true",
                        help="redraw from the committed tables under --root instead of the runs "
                             "(runs that only a chart needs are still made or resumed)")
    if from_verdicts:
        parser.add_argument("--from-verdicts", action="store_true",
                            help="make the tables from the committed verdict files under --root (every deal "
                                 "each holds: experiments/campaign.py's runs) instead of runs of --deals, "
                                 "and the README's table too")
        parser.add_argument("--readme", type=Path, default=Path("README.md"),
                            help="README whose table --from-verdicts remakes (default: README.md)")
    args = parser.parse_args()
    args.deals = parse_count(args.deals, "--deals")
    args.budget = parse_budgets(args.budget)
    if players is not None:
        args.players = args.players.split(",")
    return args


def rules_of(label: str) -> Rules:
    """The rules named by a label such as ``easthaven space_fill=any foundation_return=on``."""
    game, *settings = label.split()
    return resolve(game, **parse_settings(settings))


def check_win(rules: Rules, deal: int, line, label: str) -> None:
    """Replay a winning ``line`` of deal ``deal`` through the plain-Python reference; fail
    loudly if a move is illegal there or the line does not end won."""
    position = reference.replay(rules, deal_numbers.deck(deal, rules["ncards"]), line)
    assert reference.is_won(rules, position), f"{label} deal {deal}: the line does not win"


def log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def write_table(table: pd.DataFrame, path: Path) -> None:
    """Write a CSV table of results with shares rounded to what the deal counts support."""
    path.parent.mkdir(parents=True, exist_ok=True)
    table.drop(columns=[c for c in ("run_dir",) if c in table]).to_csv(path, index=False, float_format="%.5f")
    print(f"wrote {path}")


def table_of_runs(args: argparse.Namespace, name: str, specs, tabulate) -> pd.DataFrame:
    """The table ``name`` (a CSV under ``--root``): read as committed with ``--from-csv``, else
    made by running (or resuming) ``specs`` and tabulating their folders over deals 0..N-1,
    then written."""
    if args.from_csv:
        return pd.read_csv(args.root / name)
    from solitaire_odds.research.reproduce import run_specs

    folders = run_specs(specs, args.root, args.workers, log)
    table = tabulate(folders, 0, args.deals - 1)
    write_table(table, args.root / name)
    return table


def replace_between(readme: Path, begin: str, end: str, text: str) -> None:
    """Put ``text`` between the README's lines ``begin`` and ``end`` (a generated table),
    leaving the rest untouched; a README without them is refused (exit status 2)."""
    old = readme.read_text(encoding="utf-8")
    start, stop = old.find(begin), old.find(end)
    if start < 0 or stop < start:
        print(f"{Path(sys.argv[0]).name}: {readme} lacks the lines {begin} and {end} around its generated "
              "table; add them", file=sys.stderr)
        raise SystemExit(2)
    readme.write_text(old[:start + len(begin)] + "\n" + text + old[stop:], encoding="utf-8")
