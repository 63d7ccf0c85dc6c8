"""The prover after the search: how many of the deals the search leaves unknown it decides.

    python experiments/prove.py --rules "westcliff space_fill=king" --deals 0..199 --budget 1e6 --seconds 30
    python experiments/prove.py --rules westcliff-classic --deals 0..199 --budget 1e5 --seconds 20
    python experiments/prove.py --verdicts results/verdicts/westcliff/space_fill=king--solver-b10k+100k+1M+10M.parquet \
        --seconds 60 --check 20 --csv results/unknowns/westcliff-space_fill=king-prover.csv
    python experiments/prove.py --verdicts results/verdicts/westcliff/space_fill=king--solver-b10k+100k+1M+10M.parquet \
        --left-at 1e6 --seconds 2

Runs the solver's default search at ``--budget`` on every deal (or, with ``--verdicts``, takes
a committed verdict file's deals, rules and verdicts instead, so the prover starts where a
whole escalation stopped; with ``--left-at B``, where its rung B stopped: the deals it
decided only at a larger budget count as unknown to the prover, and their final verdicts
check its answers), then the prover
(solitaire_odds.prover, ``--seconds`` of deterministic budget a deal: the schedule model where it
covers the rules, else the step model with ``--backend``) on the deals left unknown,
and, with ``--check N``, on the first N deals the search proved lost and the first N it won, to
compare verdicts. Prints
per step the deals decided (won / lost), the unknown share, CPU-seconds a deal, and the
disagreements with the search on deals both decide (a prover win on a deal the search proved
lost, or the other way). Every win of either step is replayed through the reference.
``--csv`` keeps each deal the prover tried: its search verdict, the prover's, CPU-seconds and why.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import pandas as pd
from common import check_win, rules_of, write_table

from solitaire_odds.counts import InputError, parse_count
from solitaire_odds.game import deals, reference
from solitaire_odds.prover import decide
from solitaire_odds.rules import RulesError, recorded
from solitaire_odds.runs import store
from solitaire_odds.runs import verdicts as verdict_files
from solitaire_odds.solver import Solver


def deal_range(text: str) -> range:
    first, sep, last = text.partition("..")
    if sep:
        return range(int(first), int(last) + 1)
    return range(parse_count(text, "deals"))


def searched(rules, label: str, numbers: range, budget: int) -> tuple[dict[int, str], float]:
    """Each deal's verdict from the solver's default search at ``budget`` (wins replayed), and
    the search's CPU-seconds."""
    solver = Solver(rules, budget=budget)
    solver.warm_up()
    found, cpu = {}, 0.0
    for d in numbers:
        start = time.process_time()
        outcome = solver.solve(deal=d)
        cpu += time.process_time() - start
        found[d] = outcome.verdict
        if outcome.verdict == "won":
            check_win(rules, d, outcome.line, label)
    return found, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="westcliff-classic")
    parser.add_argument("--deals", default="0..199", help="A..B (inclusive) or a count N (0..N-1)")
    parser.add_argument("--budget", default="1e5", help="the search's node budget")
    parser.add_argument("--seconds", type=float, default=20.0, help="the prover's budget a deal")
    parser.add_argument("--backend", default="cadical", choices=("cadical", "cpsat"))
    parser.add_argument("--check", type=int, default=0,
                        help="also prove the first N deals the search proved lost and the first N it won")
    parser.add_argument("--verdicts", type=Path,
                        help="a verdict file whose rules and verdicts stand for the search (--rules, --deals "
                             "and --budget are then not used)")
    parser.add_argument("--left-at", help="with --verdicts: start from the deals the file's rung B left unknown")
    parser.add_argument("--csv", type=Path, help="write each deal the prover tried to this CSV")
    args = parser.parse_args()
    try:
        if args.verdicts:
            manifest, rows = verdict_files.read(args.verdicts)
            rules = recorded(manifest)
            label = rules.label()
            verdicts = dict(zip(rows["deal"].tolist(), rows["verdict"].tolist()))
            numbers = sorted(verdicts)
            left_at = None if args.left_at is None else parse_count(args.left_at, "--left-at")
            if left_at is not None and left_at not in manifest["player_params"]["budgets"]:
                raise InputError(f"--left-at must be a rung of the file's ladder, not {args.left_at}")
            later = set() if left_at is None else set(rows.loc[rows["budget"] > left_at, "deal"].tolist())
        else:
            rules, label = rules_of(args.rules), args.rules
            numbers = deal_range(args.deals)
            budget = parse_count(args.budget, "budget")
    except (InputError, RulesError, ValueError, store.StoreError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)

    n = len(numbers)
    if args.verdicts:
        print(f"{label}, the {n:,} deals of {args.verdicts}")
        step = "the file"
        if later:
            step = f"the file at its rung {args.left_at} ({len(later):,} deals decided later or not at all)"
    else:
        later = set()
        verdicts, search_cpu = searched(rules, label, numbers, budget)
        print(f"{label}, deals {numbers[0]}..{numbers[-1]} ({n})")
        step = f"search at {budget:g} ({search_cpu / n:.3f} CPU-s a deal)"
    unknown = [d for d in numbers if verdicts[d] == "unknown" or d in later]
    decided = [d for d in numbers if verdicts[d] != "unknown" and d not in later]
    count = {v: sum(1 for d in decided if verdicts[d] == v) for v in ("won", "lost")} | {"unknown": len(unknown)}
    print(f"{step}: won {count['won']}, lost {count['lost']}, unknown {count['unknown']} "
          f"({100 * count['unknown'] / n:.2f}%)")

    proven, prover_cpu, disagree, tried_rows = {}, 0.0, 0, []
    checked_deals = ([d for d in decided if verdicts[d] == "lost"][:args.check]
                     + [d for d in decided if verdicts[d] == "won"][:args.check])
    for d in unknown + checked_deals:
        pos = reference.initial_position(rules, deals.deck(d, rules["ncards"]))
        start = time.process_time()
        result = decide(rules, pos, args.seconds, args.backend)
        seconds = time.process_time() - start
        prover_cpu += seconds
        proven[d] = result.verdict
        tried_rows.append({"deal": d, "search": verdicts[d], "prover": result.verdict,
                           "cpu_seconds": round(seconds, 2), "detail": result.detail})
        if result.verdict == "won":
            check_win(rules, d, result.line, label)
        if verdicts[d] != "unknown" and result.verdict != "unknown" and result.verdict != verdicts[d]:
            disagree += 1
            print(f"  DISAGREEMENT deal {d}: search {verdicts[d]}, prover {result.verdict}")
        print(f"  deal {d}: search {verdicts[d]}, prover {result.verdict}, {seconds:.1f} CPU-s, "
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
    if later:
        final = [d for d in unknown if verdicts[d] == "unknown"]
        extra = sum(1 for d in final if proven[d] != "unknown")
        print(f"the file's later rungs leave {len(final)} of them unknown, the prover decides {extra} of those: "
              f"{100 * (len(final) - extra) / n:.2f}% unknown after the whole ladder with the prover at rung "
              f"{args.left_at}")
    if args.csv:
        write_table(pd.DataFrame(tried_rows, columns=["deal", "search", "prover", "cpu_seconds", "detail"]), args.csv)


if __name__ == "__main__":
    main()
