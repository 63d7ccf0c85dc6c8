"""The one-call Python API: ``solitaire_odds.odds("westcliff", deals=10_000, budget=1e5)``.

It runs (or resumes) an ordinary run folder, exactly as the ``odds`` command does, and hands
back the summary, the run's record (:mod:`.tables`) and the per-deal rows as a DataFrame.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ..players import params_from_options
from ..rules import resolve
from .runner import RunSpec, run
from ..stats import Summary, summarize
from .records import render, run_record


@dataclass
class Estimate:
    """What :func:`odds` measured."""

    summary: Summary      # counts, share, Wilson interval, bracket (``summary.format()`` to read)
    record: dict          # game, switches, player, budget, counts, share, interval, bracket
    rows: pd.DataFrame    # one row per deal: deal, verdict, budget, nodes, seconds, moves, line
    run_dir: Path         # the run folder (``summary``/``table`` commands, catalog.load_run)

    def table(self) -> pd.DataFrame:
        """The record as a one-row DataFrame (``pd.concat`` several to compare them)."""
        return pd.DataFrame([self.record])

    def __str__(self) -> str:
        return render([self.record], "text")


def odds(game: str, deals: int = 10_000, budget=None, player: str = "solver", first: int = 0,
         samples: int | None = None, seed: int | None = None, workers: int | None = None,
         root: str | os.PathLike = "results", progress: bool | None = None, allow_other_engine: bool = False,
         **switches) -> Estimate:
    """Deals ``first .. first + deals - 1`` of ``game`` (a declared game's name, or a rules
    file ``"my-variant.toml"``) under ``switches`` (keywords such as ``space_fill="king"``, or
    part fields ``**{"tableau.piles": 8}``), played by ``player``. ``budget``: the solver's node
    budget, or an escalation such as ``(1e5, 1e6)`` or ``"1e5,1e6"``; the planner's budget per
    solve. Finished chunks under ``root`` are reused, so calling again costs nothing; chunks of
    another engine only with ``allow_other_engine``."""
    rules = resolve(game, **switches)
    params = _player_params(player, budget, samples, seed)
    spec = RunSpec.of(rules, int(first), int(deals), player=player, **params)
    run_dir = spec.default_dir(Path(root))
    rows = run(spec, run_dir, workers=workers, resume=True, progress=progress, allow_other_engine=allow_other_engine)
    return Estimate(summarize(rows["verdict"]), run_record([run_dir], rows), rows, run_dir)


def _player_params(player: str, budget, samples, seed) -> dict:
    """The parameters the run records, every default written out, read and checked as the
    command line's ``--budget``, ``--samples`` and ``--seed`` are (a ValueError names what is
    wrong)."""
    given = {"--budget": None if budget is None else _budget_text(budget), "--samples": samples, "--seed": seed}
    return params_from_options(player, {option: str(value) for option, value in given.items() if value is not None})


def _budget_text(budget) -> str:
    """``1e5``, ``"1e5,1e6"`` or ``[1e5, 1e6]`` as the text ``--budget`` takes."""
    if isinstance(budget, str):
        return budget
    parts = budget if isinstance(budget, (list, tuple)) else [budget]
    return ",".join(str(int(part)) if isinstance(part, float) and part.is_integer() else str(part) for part in parts)
