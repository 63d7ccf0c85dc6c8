"""How many one-deck deals the solver decides, and which step decided them: per rule set,
won / lost / unknown, CPU-seconds per deal and the count decided by each step
(Outcome.decided_by), at each node budget.

    python experiments/decide_one_deck.py --deals 300 --budgets 100000
    python experiments/decide_one_deck.py --deals 300 --budgets 100000 --csv results/one_deck_deciding.csv

Runs in this one process (one core); the kernels' compilation or cache load is excluded by a
warm-up solve. Every WON line is replayed through the reference (solitaire_odds.reference)
unless --no-replay.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

import pandas as pd

from solitaire_odds import deals, reference
from solitaire_odds.rules import parse_settings, resolve
from solitaire_odds.solver import Solver

RULE_SETS = [("easthaven", []), ("easthaven", ["space_fill=any", "foundation_return=on"]),
             ("westcliff-classic", []), ("duchess", []), ("westcliff", [])]


def replays(rules, deal: int, line: list) -> bool:
    position = reference.initial_position(rules, deals.deck(deal, rules["ncards"]))
    for move in line:
        position = reference.apply_move(rules, position, move)
    return reference.is_won(rules, position)


def measure(rules, n: int, budget: int, replay: bool) -> dict:
    solver = Solver(rules, budget=budget)
    solver.solve(n + 1)  # warm-up
    verdicts, parts = Counter(), Counter()
    cpu = 0.0
    for deal in range(n):
        start = time.process_time()
        result = solver.solve(deal)
        cpu += time.process_time() - start
        verdicts[result.verdict] += 1
        if result.verdict != "unknown":
            parts[result.decided_by] += 1
        if replay and result.verdict == "won" and not replays(rules, deal, result.line):
            raise SystemExit(f"{rules.label()} deal {deal}: the winning line does not replay")
    return {"rules": rules.label(), "budget": budget, "deals": n, "won": verdicts["won"], "lost": verdicts["lost"],
            "unknown": verdicts["unknown"], "unknown_share": verdicts["unknown"] / n, "cpu_s_per_deal": cpu / n,
            **{f"by_{part}": parts[part] for part in ("relaxation", "win-first", "shortcuts", "search")}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300, help="deals 0..N-1 per rule set")
    parser.add_argument("--budgets", default="100000")
    parser.add_argument("--only", type=int, action="append", help="index into the rule sets (repeatable)")
    parser.add_argument("--csv", type=Path, help="append the rows to this table (replacing equal keys)")
    parser.add_argument("--no-replay", action="store_true")
    args = parser.parse_args()
    rows = []
    for i, (game, settings) in enumerate(RULE_SETS):
        if args.only and i not in args.only:
            continue
        rules = resolve(game, **parse_settings(settings))
        for budget in (int(float(b)) for b in args.budgets.split(",")):
            row = measure(rules, args.deals, budget, not args.no_replay)
            rows.append(row)
            print(" ".join(f"{k}={v:.4f}" if isinstance(v, float) else f"{k}={v}" for k, v in row.items()), flush=True)
    if args.csv:
        table = pd.DataFrame(rows)
        if args.csv.exists():
            old = pd.read_csv(args.csv)
            keys = set(zip(table["rules"], table["budget"], table["deals"]))
            old = old[[k not in keys for k in zip(old["rules"], old["budget"], old["deals"])]]
            table = pd.concat([old, table], ignore_index=True)
        table.to_csv(args.csv, index=False)


if __name__ == "__main__":
    main()
