"""Perfect-information solving: is a deal winnable with every card known?

:class:`Solver` owns the search's preallocated workspace (stack, transposition table) for one
set of rules and reuses it deal after deal; the table is never wiped between deals, each
search marks its entries with a fresh generation number instead.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from .engine import api
from .engine.layout import MAX_MOVES, P_NCARDS, S_SIZE
from .engine.search import GENERATIONS, LOST, UNKNOWN, WON, solve_deal, solve_root
from .position import Position
from .rules import Rules

VERDICTS = {WON: "won", LOST: "lost", UNKNOWN: "unknown"}
DEFAULT_BUDGET = 1_000_000
MAX_DEPTH = 1500


@dataclass
class SolveResult:
    verdict: str                 # won | lost | unknown
    nodes: int                   # positions expanded, over both passes
    seconds: float
    line: list = field(default_factory=list)  # the winning moves, as position.py tuples


SLOT_BYTES = 20
"""Bytes of one table slot: two uint64 key halves and a uint32 generation."""


def table_size(budget: int) -> int:
    """Slots for a search of ``budget`` nodes (two passes): a power of two >= 4 x budget,
    capped at 2**26 (1.34 GB); beyond the cap searches stay sound, only slower."""
    size = 1 << 12
    while size < 4 * budget and size < (1 << 26):
        size <<= 1
    return size


def slots_for_megabytes(megabytes: float) -> int:
    """The most slots that fit in ``megabytes`` MiB: a power of two, at least 2**12. A table
    smaller than :func:`table_size` stays sound but may leave more deals unknown."""
    size = 1 << 12
    while 2 * size * SLOT_BYTES <= megabytes * 2**20:
        size <<= 1
    return size


class Solver:
    """Solves deals of one rule set. ``win_first`` runs the heuristic first pass (see
    engine.search); ``reductions`` the proven reductions in the exhaustive pass. Both off
    gives the plain search, which the tests compare with the reduced one."""

    def __init__(self, rules: Rules, budget: int = DEFAULT_BUDGET, win_first: bool = True,
                 reductions: bool = True, table_slots: int | None = None):
        if budget < 1:
            raise ValueError("the node budget must be at least 1")
        self.rules = rules
        self.budget = int(budget)
        self.win_first = bool(win_first)
        self.reductions = bool(reductions)
        self.pa = api.params(rules)
        size, ncards = int(self.pa[S_SIZE]), int(self.pa[P_NCARDS])
        slots = table_slots or table_size(self.budget)
        self._tt1 = np.zeros(slots, dtype=np.uint64)
        self._tt2 = np.zeros(slots, dtype=np.uint64)
        self._ttg = np.zeros(slots, dtype=np.uint32)
        self._gen = 0
        self._root = np.zeros(size, dtype=np.uint8)
        self._states = np.zeros((MAX_DEPTH + 1, size), dtype=np.uint8)
        self._moves = np.zeros((MAX_DEPTH + 1, MAX_MOVES, 4), dtype=np.int16)
        self._nmoves = np.zeros(MAX_DEPTH + 1, dtype=np.int64)
        self._idx = np.zeros(MAX_DEPTH + 1, dtype=np.int64)
        self._tmp = np.zeros((MAX_MOVES, 4), dtype=np.int16)
        self._scratch = np.zeros(ncards, dtype=np.uint8)
        self._deck = np.zeros(ncards, dtype=np.uint8)
        self._path = np.zeros((MAX_DEPTH + 1, 4), dtype=np.int16)
        self._moves_seen: dict = {}

    def _next_generation(self) -> np.uint32:
        """The first of GENERATIONS fresh table generations for one solve (0 marks a free slot)."""
        if self._gen + GENERATIONS >= 2**32 - 1:
            self._ttg[:] = 0
            self._gen = 0
        first = self._gen + 1
        self._gen += GENERATIONS
        return np.uint32(first)

    def solve(self, deal: int | None = None, deck: list[int] | None = None,
              budget: int | None = None) -> SolveResult:
        """Solve deal number ``deal``, or the given ``deck``, within ``budget`` nodes per pass
        (default: the solver's budget)."""
        if (deal is None) == (deck is None):
            raise ValueError("give a deal number or a deck")
        if deck is not None:
            return self.solve_position(api.initial_position(self.rules, deck), budget)
        return self._run(solve_deal, (np.uint64(deal), self.pa), (self._root, self._deck), budget)

    def solve_position(self, position: Position, budget: int | None = None) -> SolveResult:
        """Solve from any position of this game (a constructed one, or one met in play)."""
        return self.solve_state(api.from_position(position, self.pa), budget)

    def solve_state(self, state: np.ndarray, budget: int | None = None) -> SolveResult:
        """Solve from an engine state (the flat array players and kernels hold)."""
        return self._run(solve_root, (state, self.pa), (), budget)

    def _run(self, kernel, head, tail, budget) -> SolveResult:
        start = time.perf_counter()
        verdict, nodes, length = kernel(
            *head, int(budget or self.budget), self.win_first, self.reductions, self._tt1, self._tt2, self._ttg,
            self._next_generation(), *tail, self._states, self._moves, self._nmoves, self._idx, self._tmp,
            self._scratch, self._path)
        seconds = time.perf_counter() - start
        return SolveResult(VERDICTS[verdict], int(nodes), seconds, self._line(length))

    def _line(self, length: int) -> list:
        """The first ``length`` moves of the path as tuples; each distinct row is converted
        once per solver (converting every move anew cost a third of an easy deal's time)."""
        line = []
        for row in self._path[:length].tolist():
            key = tuple(row)
            move = self._moves_seen.get(key)
            if move is None:
                move = self._moves_seen[key] = api.move_tuple(row, self.pa)
            line.append(move)
        return line
