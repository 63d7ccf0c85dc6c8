"""What suit projections (solitaire_odds/engine/projection.py) decide: for each deal whose root
is in its last round and builds by suit, the solver's verdict, then each projection on ``--suits``
suits searched exhaustively by the plain search with the reductions (no win-first pass) within
``--projection-budget`` positions. A projection found lost proves the deal lost.

    python experiments/projections.py --rules box-kite --deals 100 --budget 1e5 --suits 1
    python experiments/projections.py --rules box-kite --deals 0..59 --only unknown --suits 2 --projection-budget 3e5

Prints one line per deal (its verdict, the step that gave it, and per projection w/l/u with the
positions searched) and at the end the counts of (verdict, decided by, some projection lost).
One process. Bad input: a one-line error, exit status 2.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from itertools import combinations

from common import rules_of

from solitaire_odds.counts import InputError, parse_budgets, parse_count
from solitaire_odds.engine import api, projection
from solitaire_odds.solver import Solver


def deal_range(text: str) -> range:
    """``N`` (deals 0..N-1) or ``A..B`` (deals A..B-1)."""
    if ".." in text:
        first, last = text.split("..", 1)
        return range(parse_count(first, "--deals", least=0), parse_count(last, "--deals"))
    return range(parse_count(text, "--deals"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="box-kite", help="one rule set, e.g. 'box-kite space_fill=any'")
    parser.add_argument("--deals", default="100", help="N (deals 0..N-1) or A..B")
    parser.add_argument("--budget", default="1e5", help="the solver's budget for the whole deal")
    parser.add_argument("--projection-budget", default="2e4", help="positions per projection")
    parser.add_argument("--suits", type=int, default=1, choices=(1, 2, 3), help="suits kept in a projection")
    parser.add_argument("--only", choices=("lost", "unknown"), help="project only deals with this verdict")
    args = parser.parse_args()
    try:
        rules = rules_of(args.rules)
        deals = deal_range(args.deals)
        budget, = parse_budgets(args.budget)
        projection_budget, = parse_budgets(args.projection_budget)
    except (InputError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    pa = api.params(rules)
    solver = Solver(rules, budget=budget)
    plain = Solver(rules, budget=projection_budget, win_first=False)
    counts = Counter()
    start = time.process_time()
    for deal in deals:
        outcome = solver.solve(deal=deal)
        root = solver._ws.root.copy()
        if not projection.applies(root, pa):
            print(f"error: the projection's proof does not cover {args.rules} at the deal", file=sys.stderr)
            return 2
        if args.only and outcome.verdict != args.only:
            continue
        marks, lost = [], False
        for suits in combinations(range(4), args.suits):
            seen = plain.solve_state(projection.project(root, pa, suits))
            marks.append(f"{seen.verdict[0]}{seen.nodes}")
            lost |= seen.verdict == "lost"
        counts[(outcome.verdict, outcome.decided_by or "-", lost)] += 1
        print(deal, outcome.verdict, outcome.decided_by or "-", outcome.nodes, " ".join(marks), flush=True)
    print(f"{args.rules}: (verdict, decided by, a projection lost): deals")
    for key, count in sorted(counts.items()):
        print(f"  {key}: {count}")
    print(f"CPU {time.process_time() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
