"""The table: deals a game, keeps its true state away from the player, and enforces the
termination rule shared by every player that cannot see hidden cards.

Termination: a move is offered only if the position it leads to was not seen before in this
game (compared by the engine's position key, so up to pile order where piles are
interchangeable), and a game stops after :data:`~solitaire_odds.engine.playout.MAX_PLAY_MOVES`
moves. A game that stops without the win is lost. (The numba play-outs of random and greedy
apply the same rule in :func:`solitaire_odds.engine.playout.playout`.)

Random draws: each deal's come from its own stream, derived from the player's ``seed`` and
the deal number only, so results do not depend on how deals are spread over workers.
"""

from __future__ import annotations

import numpy as np

from .. import deals
from ..engine import api, core
from ..engine.layout import MAX_MOVES, P_NCARDS, S_SIZE
from ..engine.playout import MAX_PLAY_MOVES
from .observation import Observation


def stream(seed: int, key: int) -> int:
    """A 64-bit random stream number for deal ``key`` of a player seeded with ``seed``."""
    _, mixed = deals.splitmix64(int(seed) & deals.MASK64)
    return deals.splitmix64(mixed ^ (int(key) & deals.MASK64))[1]


def first_state(pa: np.ndarray, deck) -> np.ndarray:
    """The engine's flat state right after dealing ``deck``."""
    s = np.zeros(int(pa[S_SIZE]), dtype=np.uint8)
    core.deal_into(s, pa, np.asarray(deck, dtype=np.uint8), np.zeros(int(pa[P_NCARDS]), dtype=np.uint8))
    return s


class DealPlayer:
    """The entry points every player that cannot see hidden cards shares; a subclass sets
    ``rules`` and ``pa`` and plays on from a state in ``play_state(state, key)``."""

    def play(self, deal: int):
        return self.play_deck(deals.deck(deal, self.rules["ncards"]), deal)

    def play_deck(self, deck, key: int = 0):
        """Play ``deck``; ``key`` (the deal number for numbered deals) picks the random stream."""
        return self.play_state(first_state(self.pa, deck), key)


class Table:
    """One game in progress. The player gets :meth:`observation` and :meth:`candidates`,
    never the state itself."""

    def __init__(self, pa: np.ndarray, state: np.ndarray):
        self.pa = pa
        self._state = state.copy()
        self._scratch = np.zeros(int(pa[P_NCARDS]), dtype=np.uint8)
        self._rows = np.zeros((MAX_MOVES, 4), dtype=np.int16)
        self._seen = {core.state_key(self._state, pa)}
        self.line: list[np.ndarray] = []

    @property
    def won(self) -> bool:
        return bool(core.is_won(self._state, self.pa))

    def observation(self) -> Observation:
        return Observation.of(self._state, self.pa)

    def candidates(self) -> list[np.ndarray]:
        """The legal moves that lead to a position not seen before, in the engine's order."""
        n = core.legal_moves(self._state, self.pa, self._rows)
        out = []
        for row in self._rows[:n]:
            child = self._state.copy()
            core.apply_move(child, self.pa, row, self._scratch)
            if core.state_key(child, self.pa) not in self._seen:
                out.append(row.copy())
        return out

    def play(self, row: np.ndarray) -> None:
        if not any(np.array_equal(row, c) for c in self.candidates()):
            raise ValueError(f"move {api.move_tuple(row, self.pa)} is not offered at this position")
        core.apply_move(self._state, self.pa, row, self._scratch)
        self._seen.add(core.state_key(self._state, self.pa))
        self.line.append(row.copy())

    def moves(self) -> list[tuple]:
        """The line played so far, as position.py tuples."""
        return [api.move_tuple(row, self.pa) for row in self.line]
