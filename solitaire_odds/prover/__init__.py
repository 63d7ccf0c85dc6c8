"""A prover for the positions the depth-first search leaves unknown (one-deck games).

:func:`decide` takes the complete schedule model of :mod:`.schedule` (CP-SAT) where its
completeness argument covers the rules and the position (:func:`.schedule.refusal`): there an
infeasible model is a loss. Elsewhere, in the Westcliff games, it takes the step model of
:mod:`.westcliff` (a SAT solver), whose unsatisfiable answer says only that no short win exists,
so it answers won or unknown there. Every solution is decoded into a line and replayed through
the plain-Python reference before it counts as a win; a line that fails the replay is unknown.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ..game.position import Position
from ..rules import Rules
from . import schedule
from .cnf import solve_cnf
from .westcliff import NotModelled, WestcliffModel

DETERMINISTIC_PER_SECOND = 0.4
"""CP-SAT's deterministic seconds per CPU-second on the schedule models: 0.3-0.7 measured on
whole deals of ``westcliff space_fill=king`` (docs/prover.md). It turns a ``cpu_seconds`` budget
into a deterministic one, so that a verdict does not depend on the machine."""

AUTO_SECONDS = 2.0
"""The prover's CPU-seconds a deal in ``--budget auto`` where its complete model covers the
rules (players.auto_prover): on ``westcliff space_fill=king`` most of the losses it proves take
under a second, while the search's next rung costs about 15 CPU-s a deal (docs/prover.md)."""

SPARE_STEPS = 8
"""The model's horizon is the number of cards not yet on the foundations plus this: a step
holds any number of foundation moves or one other move, so a line needs about one step a card
plus its moves to piles that are not made alongside; every position of docs/prover.md's table
and of the tests was won within it. Only a win counts, so the horizon affects which wins are
found, never a verdict's soundness."""


@dataclass
class ProverResult:
    verdict: str                      # won | lost | unknown
    line: list = field(default_factory=list)
    seconds: float = 0.0
    detail: str = ""


def covers(rules: Rules) -> bool:
    """Whether :func:`decide` may answer lost for every position of ``rules`` (Easthaven only
    once its stock is empty, so not for its deals): where the schedule model's completeness
    argument holds whatever the position (docs/prover.md, "The schedule model")."""
    return schedule.uncovered(rules) == "" and rules["stock"] == "turn"


def decide(rules: Rules, position, cpu_seconds: float, backend: str = "cadical",
           horizon: int | None = None) -> ProverResult:
    """Decide ``position`` (a reference :class:`Position`, or an engine state array) within a
    budget of ``cpu_seconds`` made deterministic (CaDiCaL conflicts or CP-SAT deterministic
    time, see :mod:`.cnf`). ``horizon`` overrides the model's number of steps."""
    start = time.process_time()
    if isinstance(position, np.ndarray):
        from ..engine import api
        from ..engine.state import decode

        position = decode(position, api.params(rules))
    if not isinstance(position, Position):
        raise TypeError("decide takes a Position or an engine state")
    if schedule.refusal(rules, position) == "":
        return _schedule(rules, position, cpu_seconds, start)
    in_play = 52 - sum(position.found)
    steps = horizon if horizon is not None else in_play + SPARE_STEPS
    try:
        model = WestcliffModel(rules, position, steps)
    except NotModelled as exc:
        return ProverResult("unknown", [], time.process_time() - start, f"not modelled: {exc}")
    answer = solve_cnf(model.cnf, cpu_seconds, backend)
    seconds = time.process_time() - start
    work = f"{backend} {answer.work:g}"
    if answer.status == "sat":
        return ProverResult("won", model.decode(answer.model), time.process_time() - start,
                            f"model of {steps} steps satisfied ({work}); line replayed")
    if answer.status == "unsat":
        return ProverResult("unknown", [], seconds,
                            f"no win within {steps} steps ({work}); not a loss: no proven bound covers it")
    return ProverResult("unknown", [], seconds, f"budget spent ({work}) on a model of {steps} steps")


def _schedule(rules: Rules, position: Position, cpu_seconds: float, start: float) -> ProverResult:
    try:
        model = schedule.ScheduleModel(rules, position)
    except ImportError:
        raise ImportError("the prover needs ortools: pip install 'solitaire-odds[prover]'") from None
    try:
        answer = model.solve(cpu_seconds * DETERMINISTIC_PER_SECOND)
    except (ValueError, AssertionError) as exc:   # the line failed the reference's replay
        return ProverResult("unknown", [], time.process_time() - start, f"schedule model's line refused: {exc}")
    seconds = time.process_time() - start
    work = f"cpsat {answer.work:.1f} deterministic s"
    if answer.status == "won":
        return ProverResult("won", answer.line, seconds, f"schedule model satisfied ({work}); line replayed")
    if answer.status == "lost":
        return ProverResult("lost", [], seconds, f"schedule model infeasible ({work}): no winning line exists")
    return ProverResult("unknown", [], seconds, f"budget spent on the schedule model ({work})")
