"""The prover after the search: how many of the deals the search leaves unknown it decides.

    python experiments/prove.py --rules "westcliff space_fill=king" --deals 0..199 --budget 1e6 --seconds 30
    python experiments/prove.py --rules westcliff-classic --deals 0..199 --budget 1e5 --seconds 20

Runs the solver's default search at ``--budget`` on every deal, then the prover
(solitaire_odds.prover, ``--seconds`` of deterministic budget a deal: the schedule model where it
covers the rules, else the step model with ``--backend``) on the deals left unknown,
and, with ``--check N``, on the first N deals the search proved lost and the first N it won, to
compare verdicts. Prints
per step the deals decided (won / lost), the unknown share, CPU-seconds a deal, and the
disagreements with the search on deals both decide (a prover win on a deal the search proved
lost, or the other way). Every win of either step is replayed through the reference.
"""

from __future__ import annotations

import argparse
import sys
import time

from common import check_win, rules_of

from solitaire_odds.counts import InputError, parse_count
from solitaire_odds.game import deals, reference
from solitaire_odds.prover import decide
from solitaire_odds.rules import RulesError
from solitaire_odds.solver import Solver


def deal_range(text: str) -> range:
    first, sep, last = text.partition("..")
    if sep:
        return range(int(first), int(last) + 1)
    return range(parse_count(text, "deals"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="westcliff-classic")
    parser.add_argument("--deals", default="0..199", help="A..B (inclusive) or a count N (0..N-1)")
    parser.add_argument("--budget", default="1e5", help="the search's node budget")
    parser.add_argument("--seconds", type=float, default=20.0, help="the prover's budget a deal")
    parser.add_argument("--backend", default="cadical", choices=("cadical", "cpsat"))
    parser.add_argument("--check", type=int, default=0,
                        help="also prove the first N deals the search proved lost and the first N it won")
    args = parser.parse_args()
    try:
        rules = rules_of(args.rules)
        numbers = deal_range(args.deals)
        budget = parse_count(args.budget, "budget")
    except (InputError, RulesError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)

    solver = Solver(rules, budget=budget)
    solver.warm_up()
    verdicts, search_cpu = {}, 0.0
    for d in numbers:
        start = time.process_time()
        outcome = solver.solve(deal=d)
        search_cpu += time.process_time() - start
        verdicts[d] = outcome.verdict
        if outcome.verdict == "won":
            check_win(rules, d, outcome.line, args.rules)
    n = len(numbers)
    unknown = [d for d in numbers if verdicts[d] == "unknown"]
    decided = [d for d in numbers if verdicts[d] != "unknown"]
    count = {v: sum(1 for d in numbers if verdicts[d] == v) for v in ("won", "lost", "unknown")}
    print(f"{args.rules}, deals {numbers.start}..{numbers.stop - 1} ({n})")
    print(f"search at {budget:g}: won {count['won']}, lost {count['lost']}, unknown {count['unknown']} "
          f"({100 * count['unknown'] / n:.2f}%), {search_cpu / n:.3f} CPU-s a deal")

    proven, prover_cpu, disagree = {}, 0.0, 0
    checked_deals = ([d for d in decided if verdicts[d] == "lost"][:args.check]
                     + [d for d in decided if verdicts[d] == "won"][:args.check])
    for d in unknown + checked_deals:
        pos = reference.initial_position(rules, deals.deck(d, rules["ncards"]))
        start = time.process_time()
        result = decide(rules, pos, args.seconds, args.backend)
        prover_cpu += time.process_time() - start
        proven[d] = result.verdict
        if result.verdict == "won":
            check_win(rules, d, result.line, args.rules)
        if verdicts[d] != "unknown" and result.verdict != "unknown" and result.verdict != verdicts[d]:
            disagree += 1
            print(f"  DISAGREEMENT deal {d}: search {verdicts[d]}, prover {result.verdict}")
        print(f"  deal {d}: search {verdicts[d]}, prover {result.verdict}, {time.process_time() - start:.1f} CPU-s, "
              f"{result.detail}", flush=True)
    won = sum(1 for d in unknown if proven[d] == "won")
    lost = sum(1 for d in unknown if proven[d] == "lost")
    left = len(unknown) - won - lost
    tried = len(proven)
    print(f"prover ({args.backend}, {args.seconds:g} s a deal) on {len(unknown)} unknown deals: won {won}, "
          f"lost {lost}, still unknown {left}; {prover_cpu / max(tried, 1):.2f} CPU-s a deal over {tried} deals")
    checked = [d for d in checked_deals if proven[d] != "unknown"]
    print(f"checked against the search on {len(checked_deals)} decided deals: {len(checked)} decided by "
          f"both, {disagree} disagreements")
    print(f"unknown share: {100 * len(unknown) / n:.2f}% before, {100 * left / n:.2f}% after")


if __name__ == "__main__":
    main()
