"""A SAT prover for the deals the depth-first search leaves unknown (Westcliff games).

:func:`decide` builds the planning model of :mod:`.westcliff` for a position and hands it to a
SAT solver with a deterministic budget. A satisfying assignment is decoded into a line and
replayed through the plain-Python reference before it counts as a win. An unsatisfiable model
says only that no win of at most the model's number of steps exists; it would be a loss only
where a proven bound on the steps of some winning line covers that horizon, and
:func:`covers` names the rule sets where such a bound is proven: none yet (docs/prover.md
says what the argument lacks). So :func:`decide` answers won or unknown, never lost.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ..game.position import Position
from ..rules import Rules
from .cnf import solve_cnf
from .westcliff import NotModelled, WestcliffModel

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
    """Whether an unsatisfiable model may be reported as lost under ``rules``: only where
    docs/prover.md proves that some winning line, if any exists, fits the model's horizon.
    No such bound is proven for any rule set yet."""
    del rules
    return False


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
