"""The one-call Python API: ``solitaire_odds.odds("westcliff", deals=10_000, budget=1e5)``.

It runs (or resumes) an ordinary run folder, exactly as the ``odds`` command does, and hands
back the summary, the run's record (:mod:`.tables`) and the per-deal rows as a DataFrame.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from .players import make_player
from .rules import resolve
from .runs import RunSpec, run
from .solver import DEFAULT_BUDGET
from .stats import Summary, summarize
from .tables import render, run_record


@dataclass
class Estimate:
    """What :func:`odds` measured."""

    summary: Summary      # counts, share, Wilson interval, bracket (``summary.format()`` to read)
    record: dict          # game, switches, player, budget, counts, share, interval, bracket
    rows: pd.DataFrame    # one row per deal: deal, verdict, budget, nodes, seconds, moves, line
    run_dir: Path         # the run folder (``summary``/``table`` commands, results.load_run)

    def table(self) -> pd.DataFrame:
        """The record as a one-row DataFrame (``pd.concat`` several to compare them)."""
        return pd.DataFrame([self.record])

    def __str__(self) -> str:
        return render([self.record], "text")


def odds(game: str, deals: int = 10_000, budget=None, player: str = "solver", first: int = 0,
         samples: int | None = None, seed: int | None = None, workers: int | None = None,
         root: str | os.PathLike = "results", progress: bool | None = None, **switches) -> Estimate:
    """Deals ``first .. first + deals - 1`` of ``game`` under ``switches`` (keywords such as
    ``space_fill="king"``), played by ``player``. ``budget``: the solver's node budget, or an
    escalation such as ``(1e5, 1e6)`` or ``"1e5,1e6"``; the planner's budget per solve.
    Finished chunks under ``root`` are reused, so calling again costs nothing."""
    rules = resolve(game, **switches)
    params = _player_params(rules, player, budget, samples, seed)
    spec = RunSpec.of(rules, int(first), int(deals), player=player, **params)
    run_dir = spec.default_dir(Path(root))
    rows = run(spec, run_dir, workers=workers, resume=True, progress=progress)
    return Estimate(summarize(rows["verdict"]), run_record([run_dir], rows), rows, run_dir)


def _player_params(rules, player: str, budget, samples, seed) -> dict:
    """The parameters the run records, every default written out (as ``reproduce`` does)."""
    if player == "solver":
        if samples is not None or seed is not None:
            raise ValueError("samples and seed apply to the random, greedy and planner players, not the solver")
        return {"budgets": _budgets(DEFAULT_BUDGET if budget is None else budget), "win_first": True}
    given = {"samples": samples, "seed": seed}
    if budget is not None:
        if player != "planner":
            raise ValueError(f"budget applies to the solver and the planner; the {player} player does not search")
        (given["budget"],) = _budgets(budget)
    return make_player(player, rules, **{k: v for k, v in given.items() if v is not None}).params()


def _budgets(budget) -> tuple[int, ...]:
    """``1e5``, ``"1e5,1e6"`` or ``[1e5, 1e6]`` as growing whole node counts."""
    parts = budget.split(",") if isinstance(budget, str) else budget if isinstance(budget, (list, tuple)) else [budget]
    values = tuple(int(float(part)) for part in parts)
    if any(v < 1 or v != float(part) for v, part in zip(values, parts)) or list(values) != sorted(set(values)):
        raise ValueError(f"budget must be whole node counts >= 1, growing: {budget!r}")
    return values
