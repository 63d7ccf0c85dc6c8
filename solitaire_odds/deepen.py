"""Deepen a solver's verdict file: solve its unknown deals again at a larger node budget, as
if the run's escalation had one more step, without rerunning the deals it already decided.

A solver run with budgets (1e4, 1e5) searches a deal at 1e5 only when 1e4 left it unknown, and
each step is a fresh search whose result depends only on the deal and the step's budget (the
solver's table and win-finder buffers are sized from the largest budget, which the step
(1e6,) alone shares with the ladder (1e4, 1e5, 1e6)). So solving the unknown deals at 1e6 and
adding the nodes gives exactly the verdict file that the run with budgets (1e4, 1e5, 1e6)
would have exported. tests/test_deepen.py checks that on real deals.

The work goes in batches of :data:`BATCH` unknown deals, each written whole to a part file in
a hidden folder beside the verdict file as it finishes, so Ctrl-C or a crash loses at most the
batches under way and a rerun continues. At the end the deeper file replaces the shallower one
(the new file first, then the old one removed), and the parts are removed.
"""

from __future__ import annotations

import os
import shutil
from concurrent.futures import FIRST_COMPLETED, wait
from pathlib import Path
from typing import Callable

import pandas as pd

from . import runs, store, verdicts
from .results import describe_manifest, verdict_name

BATCH = 20
"""Unknown deals per part file: a deal left unknown at 1e5 costs 0.1 to 30 CPU-s at 1e6-1e7."""


class DeepenError(store.StoreError):
    """The verdict file cannot be deepened as asked (exit status 2): not a solver's, or the
    budget is not above its last step."""


def deepened_manifest(manifest: dict, budget: int) -> dict:
    """The manifest of the run whose escalation ends with one more step, ``budget``."""
    if manifest["player"] != "solver":
        raise DeepenError(f"only the solver's verdicts can be deepened, not the {manifest['player']}'s")
    budgets = [int(b) for b in manifest["player_params"]["budgets"]]
    if budget <= budgets[-1]:
        raise DeepenError(f"the budget {budget:,} must be above the run's last step, {budgets[-1]:,}")
    return {**manifest, "player_params": {**manifest["player_params"], "budgets": [*budgets, int(budget)]}}


def deepen(path: str | os.PathLike, budget: int, workers: int = 1,
           log: Callable[[str], None] | None = None) -> Path:
    """Solve the unknown deals of the verdict file ``path`` at ``budget`` nodes with ``workers``
    local processes, write the deeper verdict file beside it, remove ``path`` and return the
    new file's path."""
    path = Path(path)
    manifest, rows = verdicts.read(path)
    deeper = deepened_manifest(manifest, budget)
    target = path.with_name(verdict_name(describe_manifest(deeper, path)))
    parts = path.with_name(f".{target.stem}.deepening")
    unknown = rows.loc[rows["verdict"] == "unknown", "deal"].to_list()
    batches = [unknown[i:i + BATCH] for i in range(0, len(unknown), BATCH)]
    todo = [batch for batch in batches if not _part_path(parts, batch).exists()]
    if log:
        log(f"{path.name}: {len(unknown):,} unknown deals, {len(unknown) - sum(map(len, todo)):,} already "
            f"solved at {budget:,} nodes -> {target.name}")
    parts.mkdir(exist_ok=True)
    params = dict(manifest["player_params"], budgets=(int(budget),))
    args = (manifest["game"], manifest["switches"], "solver", tuple(sorted(params.items())))
    with runs.process_pool(workers, after="the finished batches are kept: rerun to continue") as (pool, slots):
        pending, queue = {}, list(reversed(todo))
        while queue or pending:
            while queue and len(pending) < slots():
                batch = queue.pop()
                pending[pool.submit(runs.solve_deals, *args, batch)] = batch
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                batch = pending.pop(future)
                table = future.result()[["deal", "verdict", "budget", "nodes"]]
                store.atomic_write(_part_path(parts, batch), table.to_parquet, option="the verdict file's folder")
    solved = pd.concat([pd.read_parquet(_part_path(parts, batch)) for batch in batches]) if batches else None
    verdicts.write(target, deeper, _merged(rows, solved, int(budget)))
    if target != path:
        path.unlink()
    shutil.rmtree(parts)
    return target


def _merged(rows: pd.DataFrame, solved: pd.DataFrame | None, budget: int) -> pd.DataFrame:
    """``rows`` with each re-solved deal's verdict and budget replaced and its nodes added."""
    rows = rows.set_index("deal")
    if solved is not None:
        solved = solved.set_index("deal")
        rows.loc[solved.index, "verdict"] = solved["verdict"]
        rows.loc[solved.index, "budget"] = solved["budget"]
        rows.loc[solved.index, "nodes"] += solved["nodes"]
    return rows.reset_index()


def _part_path(parts: Path, batch: list[int]) -> Path:
    return parts / f"deals-{batch[0]:020d}-{batch[-1]:020d}.part"
