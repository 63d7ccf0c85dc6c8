"""Deals per second against the workers, on the same deals in one run: local workers (1, 2, ...)
and a Dask LocalCluster, each solving the whole range into a fresh run folder, with their rows
checked equal (deal, verdict, budget, nodes). Prints a table and writes results/scaling.csv.

    python experiments/scaling.py                                  # westcliff, 2,000 deals, 1e5
    python experiments/scaling.py --rules "duchess" --deals 500 --workers 1,2 --dask-workers 2

Each time is the wall time of runs.run from start to finish: starting the workers and loading
their numba kernels from the disk cache count too, as they do in a real run. ``solve_s`` is the
sum of the per-deal solve times (the workers' busy time), and ``load`` the machine's one-minute
load average when the mode started: on a shared machine, other jobs slow every mode.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd
from common import rules_of, write_table

from solitaire_odds.counts import parse_budgets, parse_count
from solitaire_odds.research.reproduce import player_params
from solitaire_odds.runs.runner import DEFAULT_CHUNK, RunSpec, run, usable_cpus

COMPARED = ["deal", "verdict", "budget", "nodes"]


def measure(spec: RunSpec, workers: int, dask: str | None, folder: Path) -> tuple[dict, pd.DataFrame]:
    """One mode's row of the table, and the rows it solved."""
    load = os.getloadavg()[0]
    start = time.perf_counter()
    rows = run(spec, folder, workers=workers, progress=False, dask=dask, columns=["budget", "nodes", "seconds"])
    wall = time.perf_counter() - start
    mode = "local" if dask is None else f"dask {dask}"
    return {"mode": mode, "workers": workers, "deals": spec.count, "seconds": wall,
            "deals_per_s": spec.count / wall, "solve_s": rows["seconds"].sum(), "load": load}, rows


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="westcliff", help="game and switches, e.g. 'duchess run_moves=whole'")
    parser.add_argument("--deals", default="2000", help="deals 0..N-1 (default 2000)")
    parser.add_argument("--budget", default="1e5", help="solver node budget or escalation (default 1e5)")
    parser.add_argument("--workers", default="1,2", help="local worker counts to measure (default 1,2)")
    parser.add_argument("--dask-workers", default="2", help="LocalCluster worker processes (default 2)")
    parser.add_argument("--chunk", default=str(DEFAULT_CHUNK), help=f"deals per chunk (default {DEFAULT_CHUNK})")
    parser.add_argument("--csv", type=Path, default=Path("results/scaling.csv"))
    args = parser.parse_args(argv)
    try:
        rules = rules_of(args.rules)
        deals = parse_count(args.deals, "--deals")
        budgets = parse_budgets(args.budget)
        local = [parse_count(w, "--workers") for w in args.workers.split(",")]
        dask_workers = parse_count(args.dask_workers, "--dask-workers")
        chunk = parse_count(args.chunk, "--chunk")
    except ValueError as err:  # InputError, or RulesError for --rules
        print(f"scaling.py: {err}", file=sys.stderr)
        raise SystemExit(2) from None
    spec = RunSpec.of(rules, 0, deals, chunk_size=chunk, **player_params("solver", rules, budgets))
    print(f"{rules.label()}, solver at {args.budget}, deals 0..{deals - 1}, chunks of {chunk}; "
          f"{usable_cpus()} usable cores", flush=True)
    records, reference = [], None
    with tempfile.TemporaryDirectory() as scratch:
        modes = [(w, None) for w in local] + [(dask_workers, "local")]
        for i, (workers, dask) in enumerate(modes):
            record, rows = measure(spec, workers, dask, Path(scratch) / f"mode-{i}")
            reference = rows[COMPARED] if reference is None else reference
            record["same_rows"] = rows[COMPARED].equals(reference)
            records.append(record)
            print(f"  {record['mode']}, {workers} workers: {record['seconds']:.1f} s", flush=True)
    table = pd.DataFrame.from_records(records)
    table["speedup"] = table["deals_per_s"] / table["deals_per_s"].iloc[0]
    print(table.to_string(index=False, float_format=lambda x: f"{x:,.2f}"))
    write_table(table, args.csv)
    if not table["same_rows"].all():
        print("scaling.py: the modes gave different rows; the runs are not reproducible", file=sys.stderr)
        raise SystemExit(1)


if __name__ == "__main__":
    main()
