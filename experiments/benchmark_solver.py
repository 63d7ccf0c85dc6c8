"""Solver benchmark: per game at default rules, won / lost / unknown counts, deals per
CPU-second and nodes per second, at each node budget.

    python experiments/benchmark_solver.py --deals 10000 --budgets 100000,1000000
    python experiments/benchmark_solver.py --games westcliff,duchess --deals 2000

Runs in this one process (one core): deals per CPU-second is per core. The first deal's numba
compilation (or cache load) is excluded by :meth:`Solver.warm_up`.
"""

from __future__ import annotations

import argparse
import time

from solitaire_odds.rules import GAMES, parse_settings, resolve
from solitaire_odds.solver import Solver
from solitaire_odds.stats import wilson

DEFAULT_GAMES = "westcliff,westcliff-classic,easthaven"


def bench(rules, deals: int, first: int, budget: int) -> dict:
    solver = Solver(rules, budget=budget)
    solver.warm_up()  # load or compile the kernels
    counts = {"won": 0, "lost": 0, "unknown": 0}
    nodes = 0
    cpu = time.process_time()
    for deal in range(first, first + deals):
        result = solver.solve(deal)
        counts[result.verdict] += 1
        nodes += result.nodes
    cpu = time.process_time() - cpu
    low, high = wilson(counts["won"], deals)
    return {**counts, "nodes": nodes, "cpu": cpu, "low": low, "high": high}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=DEFAULT_GAMES, help="comma-separated game names, or 'all'")
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--budgets", default="100000,1000000")
    parser.add_argument("--set", dest="settings", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args()
    games = list(GAMES) if args.games == "all" else args.games.split(",")
    budgets = [int(float(b)) for b in args.budgets.split(",")]
    print(f"deals {args.first}..{args.first + args.deals - 1}, one core")
    print(f"{'rules':32} {'budget':>9} {'won':>6} {'lost':>6} {'unknown':>7} {'win share (95% CI)':>24} "
          f"{'deals/CPU-s':>11} {'nodes/s':>10}")
    for game in games:
        rules = resolve(game, **parse_settings(args.settings))
        for budget in budgets:
            r = bench(rules, args.deals, args.first, budget)
            share = f"{r['won'] / args.deals:.2%} ({r['low']:.1%}-{r['high']:.1%})"
            print(f"{rules.label():32} {budget:>9,} {r['won']:>6} {r['lost']:>6} {r['unknown']:>7} {share:>24} "
                  f"{args.deals / r['cpu']:>11,.1f} {r['nodes'] / r['cpu']:>10,.0f}", flush=True)


if __name__ == "__main__":
    main()
