"""Memory benchmark: a run's peak resident memory, in the main process and per worker, for
several deal counts. It must not grow with the number of deals: a worker holds one solver
(a fixed-size transposition table and stack) and one chunk of rows at a time.

    python experiments/benchmark_memory.py --deals 2000,20000 --budget 1e6 --workers 2
    python experiments/benchmark_memory.py --deals 2000,20000 --budget 1e6 --table-mb 16

Each deal count runs in a fresh process (peaks only ever grow within one) through the same
``runs.run`` that ``solitaire-odds odds`` uses, into a temporary folder. Peaks come from
getrusage: the process's own, and the largest of its reaped children (the pool workers).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np

MIB = 2**20


def solver_workspace(game: str, budget: int, table_mb: int | None) -> tuple[float, float]:
    """(table MiB, whole workspace MiB: table, stack, buffers) of the solver a worker builds."""
    from solitaire_odds.rules import resolve
    from solitaire_odds.solver import SLOT_BYTES, Solver, slots_for_megabytes, table_size

    slots = slots_for_megabytes(table_mb) if table_mb else table_size(budget)
    solver = Solver(resolve(game), budget=budget, table_slots=slots)
    workspace = sum(a.nbytes for a in vars(solver).values() if isinstance(a, np.ndarray))
    return slots * SLOT_BYTES / MIB, workspace / MIB


def measure(game: str, deals: int, budget: int, workers: int, table_mb: int | None, chunk: int) -> dict:
    """Run the deals in this process; peaks in MiB (Linux reports ru_maxrss in KiB)."""
    from solitaire_odds.runs import runner as runs
    from solitaire_odds.rules import resolve

    params = {"budgets": (budget,), "win_first": True, **({"table_mb": table_mb} if table_mb else {})}
    spec = runs.RunSpec.of(resolve(game), 0, deals, chunk_size=chunk, **params)
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        rows = runs.run(spec, folder, workers=workers, progress=False, columns=["verdict"])
        seconds = time.perf_counter() - start
    counts = runs.summary(rows)
    return {"main": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "worker": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
            "seconds": seconds, "won": counts.won, "unknown": counts.unknown}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="westcliff")
    parser.add_argument("--deals", default="2000,20000", help="comma-separated deal counts")
    parser.add_argument("--budget", default="1e6")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--table-mb", type=int, default=None)
    parser.add_argument("--chunk-size", type=int, default=1000)
    parser.add_argument("--child", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    budget = int(float(args.budget))
    if args.workers < 2:
        parser.error("--workers must be at least 2 (with one worker the deals are solved in the main process)")
    if args.child is not None:
        print(json.dumps(measure(args.game, args.child, budget, args.workers, args.table_mb, args.chunk_size)))
        return
    table, workspace = solver_workspace(args.game, budget, args.table_mb)
    print(f"{args.game}, budget {budget:,}, {args.workers} workers, chunks of {args.chunk_size}: "
          f"solver workspace {workspace:.1f} MiB per worker, of which table {table:.1f} MiB")
    print(f"{'deals':>8} {'main peak MiB':>14} {'worker peak MiB':>16} {'deals/s':>8} {'won':>7} {'unknown':>8}")
    for deals in (int(float(d)) for d in args.deals.split(",")):
        child = [sys.executable, __file__, "--child", str(deals), "--game", args.game, "--budget", str(budget),
                 "--workers", str(args.workers), "--chunk-size", str(args.chunk_size)]
        if args.table_mb:
            child += ["--table-mb", str(args.table_mb)]
        r = json.loads(subprocess.run(child, check=True, capture_output=True, text=True).stdout)
        print(f"{deals:>8,} {r['main']:>14.0f} {r['worker']:>16.0f} {deals / r['seconds']:>8.0f} "
              f"{r['won']:>7,} {r['unknown']:>8,}", flush=True)


if __name__ == "__main__":
    main()
