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

from ..game import deals
from ..engine import api
from .observation import Observation


def stream(seed: int, key: int) -> int:
    """A 64-bit random stream number for deal ``key`` of a player seeded with ``seed``."""
    _, mixed = deals.splitmix64(int(seed) & deals.MASK64)
    return deals.splitmix64(mixed ^ (int(key) & deals.MASK64))[1]


class DealPlayer:
    """The entry points every player that cannot see hidden cards shares; a subclass sets
    ``rules`` and ``pa`` and plays on from a state in ``play_state(state, key)``."""

    def play(self, deal: int):
        return self.play_deck(deals.deck(deal, self.rules["ncards"]), deal)

    def play_deck(self, deck, key: int = 0):
        """Play ``deck``; ``key`` (the deal number for numbered deals) picks the random stream."""
        return self.play_state(api.first_state(self.pa, deck), key)


class Table:
    """One game in progress. The player gets :meth:`observation` and :meth:`candidates`,
    never the state itself."""

    def __init__(self, pa: np.ndarray, state: np.ndarray):
        self.pa = pa
        self._state = state.copy()
        self._seen = {api.key(self._state, pa)}
        self.line: list[np.ndarray] = []

    @property
    def won(self) -> bool:
        return api.is_won_state(self._state, self.pa)

    def observation(self) -> Observation:
        return Observation.of(self._state, self.pa)

    def candidates(self) -> list[np.ndarray]:
        """The legal moves that lead to a position not seen before, in the engine's order."""
        out = []
        for row in api.legal_rows(self._state, self.pa):
            child = self._state.copy()
            api.play_row(child, self.pa, row)
            if api.key(child, self.pa) not in self._seen:
                out.append(row.copy())
        return out

    def play(self, row: np.ndarray) -> None:
        if not is_offered(row, self.candidates()):
            raise ValueError(f"move {api.move_tuple(row, self.pa)} is not offered at this position")
        api.play_row(self._state, self.pa, row)
        self._seen.add(api.key(self._state, self.pa))
        self.line.append(row.copy())

    def moves(self) -> list[tuple]:
        """The line played so far, as position.py tuples."""
        return [api.move_tuple(row, self.pa) for row in self.line]


def is_offered(row: np.ndarray, offered: list[np.ndarray]) -> bool:
    """Is the move ``row`` one of the moves ``offered`` (rows, as Table.candidates gives)?"""
    return any(np.array_equal(row, move) for move in offered)
