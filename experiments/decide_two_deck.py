"""How many St. Helena, Louis and Box Kite deals the solver decides, and which part decided
them (relaxation, win finder, full search): per rule set won / lost / unknown, the Wilson 95%
interval of the won share, the bracket [won, won + unknown], CPU-seconds per deal.

    python experiments/decide_two_deck.py --deals 300 --budget 100000

One process, one core (CPU time is per core); a warm-up solve excludes numba's compile or
cache load. Every win is replayed through the reference (its time is not counted). Writes
results/two_deck.csv (or --csv), replacing the rows of the rule sets and budget measured and
keeping the others (so rule sets can be measured in separate processes).
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

import pandas as pd

from solitaire_odds import deals as deal_numbers
from solitaire_odds import reference
from solitaire_odds.rules import parse_settings, resolve
from solitaire_odds.solver import Solver
from solitaire_odds.stats import wilson

RULE_SETS = ("box-kite", "box-kite build_suit=any wrap=on foundation_transfer=on",
             "st-helena", "st-helena build_suit=any", "st-helena space_fill=any",
             "louis", "louis build_suit=any")
PARTS = ("relaxation", "win finder", "search")


def measure(label: str, deals: int, budget: int) -> dict:
    game, *settings = label.split()
    rules = resolve(game, **parse_settings(settings))
    solver = Solver(rules, budget=budget)
    solver.solve(deals + 10_000)  # warm-up
    verdicts, parts = Counter(), Counter()
    cpu = 0.0
    for deal in range(deals):
        start = time.process_time()
        result = solver.solve(deal)
        cpu += time.process_time() - start
        verdicts[result.verdict] += 1
        parts[(result.verdict, result.decided_by)] += 1
        if result.verdict == "won":
            position = reference.initial_position(rules, deal_numbers.deck(deal, rules["ncards"]))
            for move in result.line:
                position = reference.apply_move(rules, position, move)
            assert reference.is_won(rules, position), f"{label} deal {deal}: the line does not win"
    won, lost, unknown = verdicts["won"], verdicts["lost"], verdicts["unknown"]
    low, high = wilson(won, deals)
    row = {"rules": label, "deals": deals, "budget": budget, "won": won, "lost": lost, "unknown": unknown,
           "decided": (won + lost) / deals, "share": won / deals, "low": low, "high": high,
           "bracket_low": won / deals, "bracket_high": (won + unknown) / deals, "cpu_per_deal": cpu / deals}
    for part in PARTS:
        row[f"won_by_{part.replace(' ', '_')}"] = parts[("won", part)]
        row[f"lost_by_{part.replace(' ', '_')}"] = parts[("lost", part)]
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300, help="deals 0..N-1 per rule set")
    parser.add_argument("--budget", type=float, default=1e5, help="node budget per pass")
    parser.add_argument("--rules", default=",".join(RULE_SETS), help="comma-separated rule sets")
    parser.add_argument("--csv", type=Path, default=Path("results/two_deck.csv"))
    args = parser.parse_args()
    rows = []
    for label in args.rules.split(","):
        row = measure(label, args.deals, int(args.budget))
        rows.append(row)
        by = ", ".join(f"{k}={row[k]}" for k in row if "_by_" in k and row[k])
        print(f"{label}: won {row['won']} lost {row['lost']} unknown {row['unknown']} of {row['deals']} "
              f"({row['decided']:.1%} decided); won {row['share']:.1%} [{row['low']:.1%}, {row['high']:.1%}], "
              f"bracket [{row['bracket_low']:.1%}, {row['bracket_high']:.1%}]; "
              f"{row['cpu_per_deal']:.2f} CPU-s/deal; {by}", flush=True)
    table = pd.DataFrame(rows)
    if args.csv.exists():  # keep the rows of rule sets (or budgets) measured in another run
        old = pd.read_csv(args.csv)
        measured = set(zip(table["rules"], table["budget"]))
        keep = [(r, b) not in measured for r, b in zip(old["rules"], old["budget"])]
        table = pd.concat([old[keep], table], ignore_index=True)
    args.csv.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(args.csv, index=False, float_format="%.5f")
    print(f"wrote {args.csv}")


if __name__ == "__main__":
    main()
