"""The CPU cost of the committed verdict files that kept no time (exported before runs recorded
it), measured on a sample: every k-th deal of the file solved again here, on one core, with
the run's own player and parameters (the solver along its whole escalation).

    python experiments/run_costs.py                  # every file without a time, 500 deals each
    python experiments/run_costs.py --sample 2000 --only westcliff

A deal's cost is a fixed part (dealing, the player's set-up, the row written) plus a part per
node searched; both are fitted to the sample's deals (least squares on each deal's seconds,
scaled so that they add up to the sample's CPU) and applied to the whole file's deals and
nodes, since the few deals that use up the largest budgets dominate a solver file's cost and
a sample rarely holds them. So it is a measured figure with a sampling error, not the file's
own time; results/run_costs.csv keeps the sample's size, how many of its verdicts came out as
the file has them (a file made by an older engine may have deals this one decides: newly
decided; a deal won in one and lost in the other would be a conflict), and the estimate.
experiments/headline.py shows these estimates, marked "~", where a file kept no time.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

from common import write_table

from solitaire_odds.research.pages import verdict_key as file_key
from solitaire_odds.rules import recorded
from solitaire_odds.runs import catalog
from solitaire_odds.runs import runner as runs, verdicts

OUT = "run_costs.csv"


def untimed_files(root: Path) -> list[Path]:
    """The verdict files under ``root`` that kept no CPU time."""
    return [path for path in catalog.find_verdicts(root) if verdicts.cpu_seconds(path) is None]


def sample_cost(path: Path, size: int) -> dict:
    """Solve every k-th deal of the file at ``path`` (about ``size`` deals) and scale its CPU."""
    manifest, rows = verdicts.read(path)
    sample = rows.iloc[::max(1, len(rows) // size)]
    described = catalog.describe_manifest(manifest, path)
    args = (recorded(manifest), manifest["player"], tuple(sorted(described["params"].items())))
    runs.solve_deals(*args, [int(sample["deal"].iloc[0])])  # compile or load the kernels first
    cpu = time.process_time()
    again = runs.solve_deals(*args, sample["deal"].tolist())
    cpu = time.process_time() - cpu
    old, new = sample["verdict"].to_numpy(), again["verdict"].to_numpy()
    per_deal, per_node = fixed_and_per_node(again["nodes"].to_numpy(float), again["seconds"].to_numpy(float) * (
        cpu / max(again["seconds"].sum(), 1e-9)))
    return {"rules": described["rules"], "player": manifest["player"], "file": file_key(path), "deals": len(rows),
            "sampled": len(sample), "same_verdicts": int((new == old).sum()),
            "newly_decided": int(((old == "unknown") & (new != "unknown")).sum()),
            "conflicts": int(((old != "unknown") & (new != "unknown") & (new != old)).sum()),
            "sample_cpu_s": round(cpu, 3), "cpu_hours": (per_deal * len(rows) + per_node * float(rows["nodes"].sum())) / 3600}


def fixed_and_per_node(nodes: np.ndarray, seconds: np.ndarray) -> tuple[float, float]:
    """(seconds a deal, seconds a node) fitted to deals of ``nodes`` that took ``seconds``
    (least squares; without a positive per-node slope, the mean as a fixed cost)."""
    if np.ptp(nodes) > 0:
        slope, intercept = np.polyfit(nodes, seconds, 1)
        if slope > 0 and intercept >= 0:
            return float(intercept), float(slope)
        if slope > 0:
            return 0.0, float(seconds.sum() / nodes.sum())
    return float(seconds.mean()), 0.0


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path("results"), help="results folder (default: results)")
    parser.add_argument("--sample", type=int, default=500, help="deals solved again per file (default 500)")
    parser.add_argument("--only", help="comma-separated games (default: every game)")
    args = parser.parse_args(argv)
    only = args.only.split(",") if args.only else None
    untimed = untimed_files(args.root)
    table = pd.DataFrame([sample_cost(path, args.sample) for path in untimed
                          if only is None or path.parent.name in only])
    out = args.root / OUT
    if out.exists():  # keep the estimates of the other files that still have no time of their own
        earlier = pd.read_csv(out)
        still = {file_key(path) for path in untimed} - set(table.get("file", []))
        table = pd.concat([earlier[earlier["file"].isin(still)], table], ignore_index=True)
    write_table(table, out)
    print(table.to_string(index=False))


if __name__ == "__main__":
    main()
