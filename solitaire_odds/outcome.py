"""The result of one deal, whoever played it: the solver, or a player that sees what a person sees."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable


@dataclass
class Outcome:
    verdict: str                 # won | lost | unknown (unknown: only the solver, budget spent)
    nodes: int                   # search nodes spent (0 for players that do not search)
    seconds: float
    _line: list | Callable[[], list] = field(default_factory=list, repr=False)  # see `line`
    budget: int = 0              # the solver budget that decided it (escalation), else 0
    decided_by: str = ""         # the solver's step that gave the verdict (steps.STEP_NAMES), "" if unknown
    spent: dict = field(default_factory=dict)  # the solver's nodes per step (step name -> nodes)

    @property
    def line(self) -> list:
        """The moves played or found (position.py tuples). The solver hands over a function
        that makes them, called on first use: most deals of a large run never need their line
        as tuples, and making it cost a quarter of an easy deal's time."""
        if callable(self._line):
            self._line = self._line()
        return self._line

    def __getstate__(self) -> dict:
        """Pickled with its line made: the function making it belongs to the solver, whose
        table would otherwise travel with every outcome sent to another process."""
        return {**self.__dict__, "_line": self.line}
