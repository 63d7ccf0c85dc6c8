"""The result of one deal, whoever played it: the solver, or a player that sees what a person sees."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Outcome:
    verdict: str                 # won | lost | unknown (unknown: only the solver, budget spent)
    nodes: int                   # search nodes spent (0 for players that do not search)
    seconds: float
    line: list = field(default_factory=list)   # the moves played or found (position.py tuples)
    budget: int = 0              # the solver budget that decided it (escalation), else 0
    decided_by: str = ""         # the solver's step that gave the verdict (solver.PASSES, "relaxation")
