"""Deepen a solver's verdict file: solve its unknown deals again at larger node budgets, as
if the run's escalation had more steps, without rerunning the deals it already decided.

A solver run with budgets (1e4, 1e5) searches a deal at 1e5 only when 1e4 left it unknown, and
each step is a fresh search. In the one-deck games a step's verdict depends only on the deal
and the step's budget (the table is used up to a window that the budget sets), so solving the
unknown deals with the escalation (1e6,) and adding the nodes gives exactly the file that the
run with budgets (1e4, 1e5, 1e6) exports (tests/test_campaign.py checks it on real deals). In
the St. Helena family the win finder's widest beam follows the escalation's largest budget, so
the longer run's first steps may decide a few deals that the shorter run left to the new
step; every verdict is sound either way.

A step may also be :class:`Prove`: the prover (solitaire_odds.prover) on each deal still unknown
after the steps before it, for a number of CPU-seconds made deterministic. Its verdicts are
those of the solver run whose prover step follows that rung (``prover_after``), which records
the rung in the budget column, so the deeper file is again exactly the longer run's.

The work goes in batches of :data:`BATCH` unknown deals, each written whole to a part file in
a hidden folder beside the verdict file as it finishes, so Ctrl-C or a crash loses at most the
batches under way and a rerun continues. At the end the deeper file replaces the shallower one
(the new file first, then the old one removed), and the parts are removed.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Union

import pandas as pd

from . import runner as runs, store, verdicts
from ..rules import recorded as rules_of
from .catalog import describe_manifest, shared_seconds, verdict_engines, verdict_name
from .engine_identity import engine_digest

BATCH = 20
"""Unknown deals per part file: a deal left unknown at 1e5 costs 0.1 to 30 CPU-s at 1e6-1e7."""


class DeepenError(store.StoreError):
    """The verdict file cannot be deepened as asked (exit status 2): not a solver's, or the
    budget is not above its last step."""


@dataclass(frozen=True)
class Prove:
    """A deepening step: the prover for ``seconds`` CPU-seconds (made deterministic) a deal."""

    seconds: float


Step = Union[int, Prove]
PROVER_KEYS = ("prover_seconds", "prover_after")


def deepened_manifest(manifest: dict, steps: tuple[Step, ...]) -> dict:
    """The manifest of the run whose escalation ends with the further ``steps``."""
    if manifest["player"] != "solver":
        raise DeepenError(f"only the solver's verdicts can be deepened, not the {manifest['player']}'s")
    params = dict(manifest["player_params"])
    budgets = [int(b) for b in params["budgets"]]
    added = [int(step) for step in steps if not isinstance(step, Prove)]
    ladder = [*budgets, *added]
    if not steps or ladder != sorted(set(ladder)):
        raise DeepenError(f"the budgets {', '.join(f'{b:,}' for b in added)} must rise above the run's last "
                          f"step, {budgets[-1]:,}")
    for step in steps:
        if isinstance(step, Prove):
            if "prover_seconds" in params:
                raise DeepenError(f"the run has its prover step already (after {params['prover_after']:,}); "
                                  "one a run")
            params.update(prover_seconds=float(step.seconds), prover_after=budgets[-1])
        else:
            budgets.append(int(step))
    params["budgets"] = budgets
    return {**manifest, "player_params": params}


def deepen(path: str | os.PathLike, steps: tuple[Step, ...], workers: int = 1,
           log: Callable[[str], None] | None = None, allow_other_engine: bool = False) -> Path:
    """Solve the unknown deals of the verdict file ``path`` with the escalation ``steps`` on
    ``workers`` local processes, write the deeper verdict file beside it, remove ``path`` and
    return the new file's path. Each :class:`Prove` step and each run of node budgets between
    them makes a file of its own in turn, replacing the one before. Where the deeper file
    exists already (a deepening of fewer deals: the run has grown since), its deals are kept
    and only the others are solved. A file of another engine than this process's is deepened
    only with ``allow_other_engine`` (the deeper file then records both: its verdicts mix engines)."""
    path = Path(path)
    deepened_manifest(verdicts.read(path)[0], tuple(steps))  # refuse a bad ladder before any work
    for part in _parts(tuple(steps)):
        path = _deepen_once(path, part, workers, log, allow_other_engine)
    return path


def _parts(steps: tuple[Step, ...]) -> list[tuple[Step, ...]]:
    """``steps`` cut into runs of node budgets and single prover steps, in order."""
    parts: list[tuple[Step, ...]] = []
    for step in steps:
        if isinstance(step, Prove) or not parts or isinstance(parts[-1][0], Prove):
            parts.append((step,))
        else:
            parts[-1] += (step,)
    return parts


def _deepen_once(path: Path, steps: tuple[Step, ...], workers: int, log, allow_other_engine: bool) -> Path:
    manifest, rows = verdicts.read(path)
    deeper = deepened_manifest(manifest, steps)
    target = path.with_name(verdict_name(describe_manifest(deeper, path)))
    done = _earlier(target, deeper)
    held = set(verdict_engines(manifest)) | (set(verdict_engines(verdicts.read(target)[0])) if len(done) else set())
    others = store.other_engines(held, engine_digest())
    if others and not allow_other_engine and (rows["verdict"] == "unknown").any():
        raise store.OtherEngine(str(path), others, engine_digest())
    parts = path.with_name(f".{target.stem}.deepening")
    unknown = rows.loc[(rows["verdict"] == "unknown") & ~rows["deal"].isin(done["deal"]), "deal"].to_list()
    batches = [unknown[i:i + BATCH] for i in range(0, len(unknown), BATCH)]
    todo = [batch for batch in batches if not _part_path(parts, batch).exists()]
    rules = rules_of(manifest)
    if isinstance(steps[0], Prove):
        what = f"the prover, {steps[0].seconds:g} s a deal"
        args = (rules, float(steps[0].seconds), int(manifest["player_params"]["budgets"][-1]))
        work = runs.prove_deals
    else:
        what = f"{' then '.join(f'{b:,}' for b in steps)} nodes"
        params = {k: v for k, v in manifest["player_params"].items() if k not in PROVER_KEYS}
        args = (rules, "solver", tuple(sorted({**params, "budgets": tuple(int(b) for b in steps)}.items())))
        work = runs.solve_deals
    if log:
        log(f"{path.name}: {len(unknown):,} unknown deals to solve with {what} "
            f"({len(unknown) - sum(map(len, todo)):,} already solved) -> {target.name}")
    parts.mkdir(exist_ok=True)
    with runs.process_pool(workers, kept="the finished batches are kept") as (pool, slots):
        for batch, table in runs.in_pool(pool, slots, lambda batch: (work, *args, batch), todo):
            table = table[["deal", "verdict", "budget", "nodes", "seconds"]]
            store.atomic_write(_part_path(parts, batch), table.to_parquet, target=verdicts.VERDICT_FILE)
    solved = [pd.read_parquet(_part_path(parts, batch)) for batch in batches]
    again = float(sum(part["seconds"].sum() for part in solved))
    # the cost: the new steps, the first steps of the deals not deepened before, the earlier deepening
    seconds = shared_seconds(path, int((~rows["deal"].isin(done["deal"])).sum()), len(rows), again)
    if len(done):
        seconds = shared_seconds(target, len(done), len(done), seconds)
    engines = sorted(held | ({engine_digest()} if solved else set()))
    verdicts.write(target, {**deeper, "engines": engines}, _merged(rows, solved, done), seconds)
    path.unlink()
    shutil.rmtree(parts)
    return target


def _earlier(target: Path, deeper: dict) -> pd.DataFrame:
    """The rows of an earlier deepening into ``target`` (none if there is no such file); a file
    there of another run is refused."""
    if not target.exists():
        return pd.DataFrame({"deal": pd.Series([], dtype="uint64")})
    manifest, rows = verdicts.read(target)
    if store.settings_digest(manifest) != store.settings_digest(deeper):  # the store's rule for merging runs
        raise DeepenError(f"{target} holds another run's verdicts; move it away or remove it")
    return rows


def _merged(rows: pd.DataFrame, solved: list[pd.DataFrame], done: pd.DataFrame) -> pd.DataFrame:
    """``rows`` with each re-solved deal's verdict and budget replaced and its nodes added,
    and the deals of an earlier deepening as it left them."""
    rows = rows.set_index("deal")
    if solved:
        again = pd.concat(solved).set_index("deal")
        rows.loc[again.index, "verdict"] = again["verdict"]
        rows.loc[again.index, "budget"] = again["budget"]
        rows.loc[again.index, "nodes"] += again["nodes"]
    rows = rows.reset_index()
    return pd.concat([rows[~rows["deal"].isin(done["deal"])], done], ignore_index=True)


def _part_path(parts: Path, batch: list[int]) -> Path:
    return parts / f"deals-{batch[0]:020d}-{batch[-1]:020d}.part"
