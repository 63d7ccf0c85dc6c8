"""The win finder alone (engine/winfinder.py): per rule set, the deals it wins, the positions
it rates, CPU-seconds and positions rated per second, at one budget.

    python experiments/benchmark_finder.py --rules "st-helena,louis" --deals 30 --budget 1e6
    python experiments/benchmark_finder.py --rules "st-helena build_suit=any" --deals 60 --budget 3e5
    python experiments/benchmark_finder.py --rules "easthaven space_fill=any foundation_return=on" --deals 200 --budget 1e5

One process, one core; a warm-up call excludes numba's compile or cache load. The finder starts
from each deal's first position with the beam widths and buffers a solver of that budget gives
it (solver.WinFinder), without the relaxation or the search, so that versions of the finder
can be compared on the same deals by wins per position rated. Every win is replayed through the
reference (not timed).
"""

from __future__ import annotations

import argparse
import time

from common import check_win, rules_of

from solitaire_odds import deals as deal_numbers
from solitaire_odds.counts import parse_count
from solitaire_odds.engine import api
from solitaire_odds.solver import WinFinder


def bench(label: str, deals: int, budget: int) -> dict:
    """Run the finder on deals 0..deals-1; check each win through the reference."""
    rules = rules_of(label)
    pa = api.params(rules)
    finder = WinFinder(pa, budget)
    finder.find(api.first_state(pa, deal_numbers.deck(deals, rules["ncards"])), 1_000)  # warm-up
    won, rated, cpu, wins = 0, 0, 0.0, []
    for deal in range(deals):
        root = api.first_state(pa, deal_numbers.deck(deal, rules["ncards"]))
        start = time.process_time()
        length, nodes = finder.find(root, budget)
        cpu += time.process_time() - start
        rated += nodes
        if length >= 0:
            won += 1
            wins.append((deal, [api.move_tuple(row, pa) for row in finder.fs.path[:length]]))
    for deal, line in wins:
        check_win(rules, deal, line, label)
    return {"won": won, "rated": rated, "cpu": cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="st-helena,louis,st-helena build_suit=any",
                        help="comma-separated rule sets, such as 'st-helena build_suit=any'")
    parser.add_argument("--deals", default="30", help="deals 0..N-1 per rule set")
    parser.add_argument("--budget", default="1e6", help="positions the finder may rate per deal")
    args = parser.parse_args()
    deals, budget = parse_count(args.deals, "--deals"), parse_count(args.budget, "--budget")
    print(f"deals 0..{deals - 1}, finder budget {budget:,} positions, one core")
    print(f"{'rules':34} {'won':>5} {'rated':>12} {'CPU-s':>8} {'rated/s':>10} {'won per 1e6 rated':>18}")
    for label in args.rules.split(","):
        r = bench(label.strip(), deals, budget)
        print(f"{label.strip():34} {r['won']:>5} {r['rated']:>12,} {r['cpu']:>8.2f} {r['rated'] / r['cpu']:>10,.0f} "
              f"{r['won'] / r['rated'] * 1e6:>18.2f}", flush=True)


if __name__ == "__main__":
    main()
