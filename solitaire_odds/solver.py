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
from .engine.constants import FOUND_KINGS_AND_ACES, P_FOUND_KIND, P_NCARDS
from .engine.core import deal_into, shuffled_deck
from .engine.search import (
    GENERATIONS,
    LOST,
    TT_WIDTH,
    UNKNOWN,
    WON,
    solve_deal,
    solve_root,
    workspace,
)
from .engine.state import encode
from .engine.two_deck_proofs import never_freed
from .engine.winfinder import find_win, finder_space
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
    decided_by: str = ""         # "search", or for the St. Helena family "relaxation" / "win finder"


SLOT_BYTES = 8 * TT_WIDTH
"""Bytes of one table slot: two uint64 key halves and a uint64 generation."""


def table_size(budget: int) -> int:
    """Slots for a search of ``budget`` nodes (two passes): a power of two >= 4 x budget,
    capped at 2**26 (1.6 GB); beyond the cap searches stay sound, only slower."""
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
        self._ws = workspace(self.pa, table_slots or table_size(self.budget), MAX_DEPTH)
        self._gen = 0
        self._moves_seen: dict = {}
        self._two_deck = TwoDeckSteps(self.pa, self.budget) if self.pa[P_FOUND_KIND] == FOUND_KINGS_AND_ACES else None

    def _next_generation(self) -> np.uint64:
        """The first of GENERATIONS fresh table generations for one solve (0 marks a free slot)."""
        first = self._gen + 1
        self._gen += GENERATIONS
        return np.uint64(first)

    def solve(self, deal: int | None = None, deck: list[int] | None = None,
              budget: int | None = None) -> SolveResult:
        """Solve deal number ``deal``, or the given ``deck``, within ``budget`` nodes per pass
        (default: the solver's budget)."""
        if (deal is None) == (deck is None):
            raise ValueError("give a deal number or a deck")
        if deck is not None:
            return self.solve_position(api.initial_position(self.rules, deck), budget)
        if self._two_deck is not None:  # the steps before the search need the dealt position
            ws = self._ws
            shuffled_deck(np.uint64(deal), self.pa[P_NCARDS], ws.deck)
            deal_into(ws.root, self.pa, ws.deck, ws.scratch)
            return self._run(solve_root, None, budget)
        return self._run(solve_deal, np.uint64(deal), budget)

    def solve_position(self, position: Position, budget: int | None = None) -> SolveResult:
        """Solve from any position of this game (a constructed one, or one met in play)."""
        return self.solve_state(encode(position, self.pa), budget)

    def solve_state(self, state: np.ndarray, budget: int | None = None) -> SolveResult:
        """Solve from an engine state (the flat array players and kernels hold)."""
        self._ws.root[:] = state
        return self._run(solve_root, None, budget)

    def _run(self, kernel, deal, budget) -> SolveResult:
        start = time.perf_counter()
        budget = int(budget or self.budget)
        before, nodes_before = None, 0
        if self._two_deck is not None and deal is None:
            before, nodes_before, path, length = self._two_deck.run(self._ws.root, budget, self.win_first,
                                                                   self.reductions)
            if before is not None:
                won = before == "win finder"
                return SolveResult("won" if won else "lost", nodes_before, time.perf_counter() - start,
                                   self._line(path, length) if won else [], before)
        head = () if deal is None else (deal,)
        verdict, nodes, length = kernel(*head, self.pa, budget, self.win_first, self.reductions,
                                        self._next_generation(), self._ws)
        seconds = time.perf_counter() - start
        return SolveResult(VERDICTS[verdict], int(nodes) + nodes_before, seconds, self._line(self._ws.path, length),
                           "" if verdict == UNKNOWN else "search")

    def _line(self, path: np.ndarray, length: int) -> list:
        """The first ``length`` moves of ``path`` as tuples; each distinct row is converted
        once per solver (converting every move anew cost a third of an easy deal's time)."""
        line = []
        for row in path[:length].tolist():
            key = tuple(row)
            move = self._moves_seen.get(key)
            if move is None:
                move = self._moves_seen[key] = api.move_tuple(row, self.pa)
            line.append(move)
        return line


class TwoDeckSteps:
    """The St. Helena family's steps before the main search: the relaxation's loss proof
    (engine.two_deck_proofs, sound: only with ``reductions``) and the beam-search win finder
    (engine.winfinder, a heuristic: only with ``win_first``, and only its wins count)."""

    FIRST_WIDTH = 16
    MAX_WIDTH = 1024

    def __init__(self, pa: np.ndarray, budget: int):
        self.pa = pa
        self.fs = finder_space(pa, self.MAX_WIDTH, max(1 << 16, budget // 2))
        self._gen = 0

    def run(self, root: np.ndarray, budget: int, win_first: bool, reductions: bool):
        """(who decided or None, nodes, path, line length): "relaxation" for a proven loss,
        "win finder" for a win found with half the budget."""
        if reductions and never_freed(root, self.pa):
            return "relaxation", 0, None, 0
        if not win_first:
            return None, 0, None, 0
        self._gen += 64
        length, nodes, _ = find_win(root, self.pa, budget // 2, self.FIRST_WIDTH, np.uint64(self._gen), self.fs)
        return ("win finder" if length >= 0 else None), int(nodes), self.fs.path, int(length)
