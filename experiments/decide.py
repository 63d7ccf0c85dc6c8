"""How many deals the solver decides, and which step decided them: per rule set won / lost /
unknown, the Wilson 95% interval of the won share, the bracket [won, won + unknown], CPU-seconds
per deal, and how many wins and losses each step gave (Outcome.decided_by: relaxation, win-first,
shortcuts, win finder, search).

    python experiments/decide.py --deals 300 --budgets 100000
    python experiments/decide.py --rules "st-helena build_suit=any,louis" --deals 200 --budgets 1e5,1e6
    python experiments/decide.py --rules duchess --deals 10000 --budgets 1e5,1e6 --escalate
    python experiments/decide.py --markdown    # the CSV as the table of docs/results.md
    python experiments/decide.py --rules "westcliff space_fill=king" --looser westcliff --deals 300

With --looser (or --stricter) a deal left unknown is solved under that reading as well, and its
loss (or its win) carried over where rules.readings proves the two ordered (the transfer step);
the row names the other reading in its column ``relatives``. With --prover-seconds S a deal left
unknown at the last budget goes to the prover (solitaire_odds.prover) for S CPU-seconds made
deterministic; the column ``prover_seconds`` says so. With --unknowns CSV every deal left unknown
is listed with how far the win finders' deepest line got (the cards on the foundations at its
end, and the redeals made along it) and the nodes each step spent on it.

One process by default, or --workers N processes; CPU time is per core, summed over the deals;
Solver.warm_up excludes numba's compile or cache load. Every win is replayed through the
reference (its time is not counted), or with --replay-deals N those of the first N deals. Writes
results/deciding.csv (or --csv), replacing the rows of the rule sets, budgets and deal counts
measured and keeping the others, so rule sets can be measured in separate processes. With
--escalate the budgets are one ladder, as runs use them: a deal still unknown at one budget is
solved again at the next, and the row (under the last budget, its column ``ladder`` naming the
steps) counts the CPU time of every step.
"""

from __future__ import annotations

import argparse
import subprocess
import time
from collections import Counter
from itertools import repeat
from pathlib import Path

import pandas as pd
from common import check_win, rules_of

from solitaire_odds.counts import InputError, parse_count, parse_seconds
from solitaire_odds.research import pages
from solitaire_odds.players import escalate
from solitaire_odds.runs.records import bracket_text, count_text, share_text
from solitaire_odds.runs.runner import process_pool
from solitaire_odds.solver import Solver
from solitaire_odds.stats import wilson
from solitaire_odds.steps import STEP_NAMES

ONE_DECK = ("easthaven", "easthaven space_fill=any foundation_return=on", "westcliff-classic", "duchess", "westcliff")
TWO_DECKS = ("box-kite", "box-kite build_suit=any wrap=on foundation_transfer=on", "st-helena",
             "st-helena build_suit=any", "st-helena space_fill=any", "louis", "louis build_suit=any")
PARTS = STEP_NAMES
KEY = ["rules", "ladder", "deals", "relatives", "prover_seconds"]
UNKNOWN_COLUMNS = ["rules", "ladder", "prover_seconds", "deal", "deepest_cards", "deepest_redeals", "redeals",
                   "cpu_seconds", "nodes_by_step"]
"""--unknowns: a deal per row; deepest_cards (of the cards in play) and deepest_redeals (of the
game's redeals) are -1 where no win finder ran on it."""


CHECKOUT = Path(__file__).resolve().parents[1]


def revision() -> str:
    """The commit of the code measured (with "+changes" when the package differs from it), so
    that each row says which engine it measured; empty outside a git checkout."""
    try:
        commit = subprocess.run(["git", "-C", str(CHECKOUT), "rev-parse", "--short=7", "HEAD"], check=True,
                                capture_output=True, text=True).stdout.strip()
        changed = subprocess.run(["git", "-C", str(CHECKOUT), "status", "--porcelain", "solitaire_odds"], check=True,
                                 capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""
    return commit + ("+changes" if changed else "")


def column(verdict: str, part: str) -> str:
    """The CSV column counting the deals ``part`` decided with ``verdict``: won_by_win_first..."""
    return f"{verdict}_by_{part.replace(' ', '_').replace('-', '_')}"


CHUNK = 10
"""Deals per task with --workers: small, so that two workers finish together even where a few
deals take a hundred times the mean."""

_cached: tuple = (None, None)
"""(rule set and budget, its warmed-up solver) of this process's last chunk."""


def relative_rules(relatives: tuple[str, str]) -> dict:
    """The Solver's ``looser`` and ``stricter`` readings from their labels ("" for none)."""
    return {name: rules_of(label) for name, label in zip(("looser", "stricter"), relatives) if label}


def solve_chunk(label: str, ladder: list[int], deals: range, replayed: int | None,
                relatives: tuple[str, str] = ("", ""), prover_seconds: float = 0.0) -> list[tuple]:
    """(verdict, decided_by, CPU-s, what is known of it if unknown) of each deal of ``deals``,
    solved at the budgets of ``ladder``
    in turn until one decides it; the wins among the first ``replayed`` deals (all when None)
    replayed through the reference. A process keeps the solver of its last rule set and budget,
    warmed up once; only one, as a solver's table takes up to 1.5 GB."""
    global _cached
    key = (label, ladder[-1], relatives, prover_seconds)
    if _cached[0] != key:
        _cached = (None, None)  # free the old table before allocating the new one
        solver = Solver(rules_of(label), budget=ladder[-1], prover_seconds=prover_seconds, **relative_rules(relatives))
        solver.warm_up()
        _cached = (key, solver)
    solver = _cached[1]
    rules = solver.rules
    answers = []
    for deal in deals:
        start = time.process_time()
        result = escalate(solver, ladder, deal=deal)
        seconds = time.process_time() - start
        left = None
        if result.verdict == "unknown":
            left = {"deal": deal, "deepest_cards": solver.deepest_cards(), "deepest_redeals": solver.deepest_redeals(),
                    "redeals": rules["redeals"], "cpu_seconds": round(seconds, 3),
                    "nodes_by_step": "; ".join(f"{step} {nodes}" for step, nodes in result.spent.items())}
        answers.append((result.verdict, result.decided_by, seconds, left))
        if result.verdict == "won" and (replayed is None or deal < replayed):
            check_win(rules, deal, result.line, label)
    return answers


def worker_count(text: str) -> int:
    """--workers as a count of at least 1; argparse turns a bad one into a usage error (exit 2)."""
    try:
        return parse_count(text, "--workers")
    except InputError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def seconds(text: str) -> float:
    """--prover-seconds as a number of seconds, 0 or more; argparse turns a bad one into a usage error."""
    try:
        return parse_seconds(text, "--prover-seconds")
    except InputError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def measure(label: str, deals: int, ladder: list[int], replayed: int | None = None, workers: int = 1,
            relatives: tuple[str, str] = ("", ""), prover_seconds: float = 0.0) -> tuple[dict, list[dict]]:
    """One row of the table, and a record of each deal left unknown: deals 0..deals-1 (in chunks
    over ``workers`` processes), each solved as :func:`solve_chunk` says. A deal's verdict
    depends only on the deal and the ladder, so the row is the same for any number of workers."""
    chunks = [range(first, min(first + CHUNK, deals)) for first in range(0, deals, CHUNK)]
    if workers == 1:
        answers = [a for chunk in chunks for a in solve_chunk(label, ladder, chunk, replayed, relatives, prover_seconds)]
    else:
        with process_pool(workers, kept=None) as (pool, _):
            answers = [a for part in pool.map(solve_chunk, repeat(label), repeat(ladder), chunks, repeat(replayed),
                                              repeat(relatives), repeat(prover_seconds))
                       for a in part]
    verdicts = Counter(verdict for verdict, _, _, _ in answers)
    parts = Counter((verdict, part) for verdict, part, _, _ in answers)
    cpu = sum(seconds for _, _, seconds, _ in answers)
    rules = rules_of(label)
    budget = ladder[-1]
    won, lost, unknown = verdicts["won"], verdicts["lost"], verdicts["unknown"]
    low, high = wilson(won, deals)
    row = {"rules": rules.label(), "budget": budget, "deals": deals, "won": won, "lost": lost, "unknown": unknown,
           "decided": (won + lost) / deals, "share": won / deals, "low": low, "high": high,
           "bracket_low": won / deals, "bracket_high": (won + unknown) / deals, "cpu_per_deal": cpu / deals,
           "wins_replayed_in_first": deals if replayed is None else min(deals, replayed),
           "ladder": ",".join(map(count_text, ladder)), "revision": revision(),
           "relatives": "; ".join(f"{name} {rules_of(text).label()}"
                                  for name, text in zip(("looser", "stricter"), relatives) if text),
           "prover_seconds": prover_seconds}
    for part in PARTS:
        for verdict in ("won", "lost"):
            row[column(verdict, part)] = parts[(verdict, part)]
    left = [{"rules": row["rules"], "ladder": row["ladder"], "prover_seconds": prover_seconds, **record}
            for _, _, _, record in answers if record is not None]
    return row, left


def read(csv: Path) -> pd.DataFrame:
    """The table as written; rows from before ladders existed ran one budget."""
    table = pd.read_csv(csv)
    if "ladder" not in table:
        table["ladder"] = table["budget"].map(count_text)
    if "revision" not in table:
        table["revision"] = ""
    table["revision"] = table["revision"].fillna("")
    table["relatives"] = table["relatives"].astype(object).fillna("") if "relatives" in table else ""
    table["prover_seconds"] = table["prover_seconds"].fillna(0.0) if "prover_seconds" in table else 0.0
    for part in PARTS:  # rows from before a part existed: it decided none
        for verdict in ("won", "lost"):
            if column(verdict, part) not in table:
                table[column(verdict, part)] = 0
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300, help="deals 0..N-1 per rule set")
    parser.add_argument("--budgets", default="100000", help="node budgets per pass, comma-separated")
    parser.add_argument("--rules", default=",".join(ONE_DECK + TWO_DECKS), help="comma-separated rule sets")
    parser.add_argument("--escalate", action="store_true",
                        help="the budgets are one ladder: re-solve a deal unknown at one budget at the next")
    parser.add_argument("--csv", type=Path, default=Path("results/deciding.csv"))
    parser.add_argument("--replay-deals", type=int, default=None, metavar="N",
                        help="replay only the wins among the first N deals (the reference takes ~40 ms a win)")
    parser.add_argument("--workers", type=worker_count, default=1,
                        help="worker processes (default 1; the numbers are the same for any count)")
    parser.add_argument("--looser", default="", help="a reading whose losses carry over (the transfer step)")
    parser.add_argument("--stricter", default="", help="a reading whose wins carry over (the transfer step)")
    parser.add_argument("--unknowns", type=Path, default=None, metavar="CSV",
                        help="also write each deal left unknown: how far the win finders got (deepest_cards, deepest_redeals) "
                             "and the nodes each step spent")
    parser.add_argument("--prover-seconds", type=seconds, default=0.0,
                        help="CPU-seconds of the prover step on a deal left unknown at the last budget (default 0: off)")
    parser.add_argument("--markdown", action="store_true",
                        help="only print the CSV as the table of docs/results.md (each rule set's largest measurement)")
    args = parser.parse_args()
    if args.markdown:
        print(pages.deciding(read(args.csv)), end="")
        return
    rows, unknowns = [], []
    budgets = [int(float(b)) for b in args.budgets.split(",")]
    ladders = [budgets] if args.escalate else [[b] for b in budgets]
    for label in args.rules.split(","):
        for ladder in ladders:
            row, left = measure(label, args.deals, ladder, args.replay_deals, args.workers,
                                (args.looser, args.stricter), args.prover_seconds)
            rows.append(row)
            unknowns += left
            by = ", ".join(f"{k}={row[k]}" for k in row if "_by_" in k and row[k])
            print(f"{row['rules']} at {row['ladder']}: won {row['won']} lost {row['lost']} unknown {row['unknown']} of "
                  f"{row['deals']} ({row['decided']:.1%} decided); won {share_text(row['share'], row['low'], row['high'], 1)}, "
                  f"bracket {bracket_text(row['bracket_low'], row['bracket_high'], 1)}; "
                  f"{row['cpu_per_deal']:.3f} CPU-s/deal; {by}", flush=True)
    table = pd.DataFrame(rows)
    if args.csv.exists():
        old = read(args.csv)
        measured = set(map(tuple, table[KEY].values.tolist()))
        old = old[[tuple(k) not in measured for k in old[KEY].values.tolist()]]
        table = pd.concat([old, table], ignore_index=True)
    args.csv.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(args.csv, index=False, float_format="%.5f")
    print(f"wrote {args.csv}")
    if args.unknowns is not None:
        args.unknowns.parent.mkdir(parents=True, exist_ok=True)
        pd.DataFrame(unknowns, columns=UNKNOWN_COLUMNS).to_csv(args.unknowns, index=False)
        print(f"wrote {args.unknowns}: {len(unknowns)} deals left unknown")


if __name__ == "__main__":
    main()
