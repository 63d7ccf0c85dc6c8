"""Each game's strength curve: the share a player without sight of the hidden cards wins,
against how hard it thinks, beside the share that is winnable at all.

For every rule set below and every player setting (random, greedy, the planner at two sizes,
the hindsight player at two, the uct player), deals 0..N-1 are played as ordinary resumable runs under
``--root`` (results/ by default). It writes results/strength.csv, one row a point: game,
rules, player, parameters, deals, won, share with its Wilson 95% bounds (low, high),
seconds_per_game (the mean CPU-seconds a game took in its worker process; rows measured before
the players timed themselves on the CPU clock hold the wall time, CPU-seconds on an unloaded
core and more on a loaded one), nodes_per_game (the solver nodes it spent thinking, a machine-free
cost), and the solvable share's bracket (solvable_low, solvable_high: won and won + unknown of
the tightest committed solver measurement of those rules, from docs_tables' data), then
results/strength.png.

    python experiments/strength.py --deals 2000 --workers 2
    python experiments/strength.py --deals 2000 --rules duchess --players hindsight   # some points
    python experiments/strength.py --deals 300 --rules easthaven --point hindsight:samples=32,budget=2e3
    python experiments/strength.py --from-csv          # redraw the chart from the table
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd
from common import log, rules_of, write_table

from solitaire_odds.players import describe_params, player_class
from solitaire_odds.counts import InputError
from solitaire_odds.players.parameters import recorded
from solitaire_odds.research import pages
from solitaire_odds.research.plots import plot_strength, save
from solitaire_odds.research.reproduce import run_specs
from solitaire_odds.runs import store
from solitaire_odds.runs.runner import RunSpec
from solitaire_odds.stats import wilson

READINGS = (
    "westcliff-classic",
    "duchess",
    "easthaven",
    "easthaven space_fill=any foundation_return=on",
    "westcliff",
)
POINTS = (
    ("random", {}),
    ("greedy", {}),
    ("planner", {}),
    ("planner", {"samples": 8, "budget": 5_000}),
    ("hindsight", {"samples": 4, "budget": 500}),
    ("hindsight", {}),
    ("uct", {}),
)
CHUNK = 10
"""Deals a chunk: a point of slow games is shared by every worker and keeps each ten it finishes."""
KEY = ["rules", "player", "parameters"]
"""A point's identity in the table: measuring it again replaces its row."""


def specs(deals: int, readings=READINGS, players=None, points=POINTS) -> list[RunSpec]:
    """The runs of deals 0..deals-1 for ``readings`` and the ``points`` of ``players`` (default all)."""
    return [RunSpec.of(rules_of(label), 0, deals, player, chunk_size=CHUNK, **params) for label in readings
            for player, params in points if players is None or player in players]


def parse_point(text: str) -> tuple[str, dict]:
    """``hindsight:samples=32,budget=2e3`` -> ("hindsight", {"samples": 32, "budget": 2000}): a
    player and the parameters it declares, each value read by that parameter's own parser;
    those not given take their defaults."""
    name, _, settings = text.partition(":")
    try:
        cls = player_class(name)
    except ValueError as err:
        raise InputError(str(err)) from None
    declared = {param.name: param for param in cls.parameters if param.parse is not None}
    params = {}
    for setting in filter(None, settings.split(",")):
        key, equals, value = setting.partition("=")
        if not equals or key not in declared:
            raise InputError(f"--point {text!r}: {setting!r} is not NAME=VALUE for a parameter of the {name} "
                             f"player ({', '.join(declared) or 'none'})")
        params[key] = declared[key].parse(value)
    return name, params


def merged(old: pd.DataFrame, new: pd.DataFrame) -> pd.DataFrame:
    """``old`` with the points measured in ``new`` replaced or added, ordered by READINGS and
    then by the players' order in POINTS, so that points can be measured on more deals one run
    at a time."""
    kept = old[~old.set_index(KEY).index.isin(new.set_index(KEY).index)]
    table = pd.concat([kept, new], ignore_index=True)
    readings = {rules_of(label).label(): i for i, label in enumerate(READINGS)}
    players = {player: i for i, player in enumerate(dict.fromkeys(player for player, _ in POINTS))}
    rank = table["rules"].map(readings).fillna(len(readings)) * len(players) + table["player"].map(players)
    return table.iloc[rank.argsort(kind="stable")].reset_index(drop=True)


COMMITTED = Path(__file__).resolve().parents[1] / "results"
"""Where the committed solver measurements (the winnable brackets) are read from."""


def tabulate(folders: list[Path], planned: list[RunSpec]) -> pd.DataFrame:
    data = pages.Results(COMMITTED)
    records = []
    for spec, folder in zip(planned, folders):
        rows = store.load_rows([folder], spec.first, spec.last, ["seconds", "nodes"])
        won = int((rows["verdict"] == "won").sum())
        low, high = wilson(won, len(rows))
        solvable = pages.tightest(data, spec.rules.label())
        bracket = solvable.bracket if solvable else (float("nan"), float("nan"))
        records.append({
            "game": spec.rules.game, "rules": spec.rules.label(), "player": spec.player,
            "parameters": describe_params(spec.player, recorded(player_class(spec.player), spec.params)),
            "deals": len(rows), "won": won, "share": won / len(rows), "low": low, "high": high,
            "seconds_per_game": float(rows["seconds"].mean()), "nodes_per_game": float(rows["nodes"].mean()),
            "solvable_low": bracket[0], "solvable_high": bracket[1],
        })
    return pd.DataFrame.from_records(records)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2_000, help="deals 0..N-1 a point (default 2,000)")
    parser.add_argument("--workers", type=int, default=None, help="worker processes (default: every core)")
    parser.add_argument("--root", type=Path, default=Path("results"), help="results folder (default: results)")
    parser.add_argument("--rules", default=",".join(READINGS),
                        help="comma-separated readings to measure (default: every one of READINGS)")
    parser.add_argument("--players", default=None, help="comma-separated players whose points to measure "
                        "(default: all); the table keeps the other points' rows")
    parser.add_argument("--point", action="append", default=[], metavar="PLAYER[:NAME=VALUE,...]",
                        help="measure this point instead of the default ones, e.g. hindsight:samples=32,budget=2e3 "
                             "(repeatable); the table keeps the other points' rows")
    parser.add_argument("--from-csv", action="store_true", help="redraw the chart from the committed table")
    args = parser.parse_args()
    path = args.root / "strength.csv"
    if args.from_csv:
        table = pd.read_csv(path)
    else:
        players = args.players.split(",") if args.players else None
        try:
            points = [parse_point(text) for text in args.point] or POINTS
        except InputError as err:
            print(f"strength.py: {err}", file=sys.stderr)
            sys.exit(2)
        planned = specs(args.deals, args.rules.split(","), players, points)
        table = tabulate(run_specs(planned, args.root, args.workers, log), planned)
        if path.exists():
            table = merged(pd.read_csv(path), table)
        write_table(table, path)
    print(f"wrote {save(plot_strength(table), args.root / 'strength.png')}")


if __name__ == "__main__":
    main()
