"""How hard the winnable deals of each game are: the share of deals 0..N-1 the solver wins and,
among them, how many are easy, medium and hard (solitaire_odds.difficulty: greedy wins it; the
planner wins at least half of its games; neither). Writes results/difficulty.csv (one row per
rule set, replacing the rows of the rule sets measured) for the docs' table.

    python experiments/difficulty.py --rules "westcliff-classic,duchess" --deals 300
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

import pandas as pd

from solitaire_odds.difficulty import PLANNER_GAMES, Rater
from solitaire_odds.rules import parse_settings, resolve

CSV = Path(__file__).resolve().parents[1] / "results" / "difficulty.csv"
ONE_DECK = "westcliff-classic,westcliff,easthaven,duchess"


def rules_of(label: str):
    game, *settings = label.split()
    return resolve(game, **parse_settings(settings))


def measure(label: str, deals: int) -> dict:
    rater = Rater(rules_of(label))
    counts, lines, start = Counter(), [], time.process_time()
    for deal in range(deals):
        rating = rater.rate(deal)
        counts[rating.difficulty if rating else "not won"] += 1
        if rating:
            lines.append(rating.line_length)
    won = deals - counts["not won"]
    return {"rules": label, "deals": deals, "won": won, "easy": counts["easy"], "medium": counts["medium"],
            "hard": counts["hard"], "planner_games": PLANNER_GAMES,
            "mean_line": round(sum(lines) / max(len(lines), 1), 1),
            "cpu_per_deal": round((time.process_time() - start) / deals, 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default=ONE_DECK, help="comma-separated rule sets")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--csv", type=Path, default=CSV)
    args = parser.parse_args()
    rows = []
    for label in args.rules.split(","):
        row = measure(label.strip(), args.deals)
        print(row, flush=True)
        rows.append(row)
    new = pd.DataFrame(rows)
    old = pd.read_csv(args.csv) if args.csv.exists() else new.iloc[:0]
    table = pd.concat([old[~old["rules"].isin(new["rules"])], new], ignore_index=True)
    table.to_csv(args.csv, index=False)
    print(f"wrote {args.csv}")


if __name__ == "__main__":
    main()
