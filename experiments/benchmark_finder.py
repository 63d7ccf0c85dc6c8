"""The win finder alone (engine/winfinder.py): per rule set, the deals it wins, the positions
it rates, CPU-seconds and positions rated per second, at one budget.

    python experiments/benchmark_finder.py --rules "st-helena,louis" --deals 30 --budget 1e6
    python experiments/benchmark_finder.py --rules "st-helena build_suit=any" --deals 60 --budget 3e5
    python experiments/benchmark_finder.py --rules "easthaven space_fill=any foundation_return=on" \
        --deals 1000 --unknown-at 1e6 --budget 1e6

One process, one core; a warm-up call excludes numba's compile or cache load. The finder starts
from each deal's first position with the beam widths and buffers a solver of that budget gives
it (solver.WinFinder), without the relaxation or the search, so that versions of the finder
can be compared on the same deals by wins per position rated. With ``--unknown-at B`` only the
deals the solver's search leaves unknown at B nodes are kept (those the solver at B gives to
the finder or leaves unknown; the selection is not timed): what the finder adds in the one-deck
games, where it runs after the search. Every win is replayed through the reference (not timed).
"""

from __future__ import annotations

import argparse
import time

from common import check_win, rules_of

from solitaire_odds.game import deals as deal_numbers
from solitaire_odds.counts import parse_count
from solitaire_odds.engine import api
from solitaire_odds.solver import Solver, WinFinder


def unknown_to_the_search(rules, deals: int, budget: int) -> list[int]:
    """The deals of 0..deals-1 that the solver's search leaves unknown at ``budget``: the
    solver then runs the finder, or answers unknown."""
    solver = Solver(rules, budget)
    return [deal for deal in range(deals) if solver.solve(deal).decided_by in ("", "win finder")]


def bench(label: str, deals: int, budget: int, unknown_at: int | None) -> dict:
    """Run the finder on deals 0..deals-1 (or those the search leaves unknown at
    ``unknown_at``); check each win through the reference."""
    rules = rules_of(label)
    pa = api.params(rules)
    numbers = unknown_to_the_search(rules, deals, unknown_at) if unknown_at else range(deals)
    finder = WinFinder(pa, budget)
    finder.find(api.first_state(pa, deal_numbers.deck(deals, rules["ncards"])), 1_000)  # warm-up
    won, rated, cpu, wins = 0, 0, 0.0, []
    for deal in numbers:
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
    return {"deals": len(numbers), "won": won, "rated": rated, "cpu": cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="st-helena,louis,st-helena build_suit=any",
                        help="comma-separated rule sets, such as 'st-helena build_suit=any'")
    parser.add_argument("--deals", default="30", help="deals 0..N-1 per rule set")
    parser.add_argument("--budget", default="1e6", help="positions the finder may rate per deal")
    parser.add_argument("--unknown-at", default=None, help="only the deals the search leaves unknown at this budget")
    args = parser.parse_args()
    deals, budget = parse_count(args.deals, "--deals"), parse_count(args.budget, "--budget")
    unknown_at = parse_count(args.unknown_at, "--unknown-at") if args.unknown_at else None
    chosen = f", those the search leaves unknown at {unknown_at:,} nodes" if unknown_at else ""
    print(f"deals 0..{deals - 1}{chosen}, finder budget {budget:,} positions, one core")
    print(f"{'rules':46} {'deals':>6} {'won':>5} {'rated':>12} {'CPU-s':>8} {'rated/s':>10} {'won per 1e6 rated':>18}")
    for label in args.rules.split(","):
        r = bench(label.strip(), deals, budget, unknown_at)
        print(f"{label.strip():46} {r['deals']:>6} {r['won']:>5} {r['rated']:>12,} {r['cpu']:>8.2f} {r['rated'] / max(r['cpu'], 1e-9):>10,.0f} "
              f"{r['won'] / max(r['rated'], 1) * 1e6:>18.2f}", flush=True)


if __name__ == "__main__":
    main()
