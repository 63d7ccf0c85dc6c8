"""Players whose whole game runs in one numba call (random, greedy): fast enough for
100,000 deals, under the termination rule of :mod:`.table`."""

from __future__ import annotations

import time

import numpy as np

from ..engine import api
from ..engine.playout import MAX_PLAY_MOVES, playout
from ..rules import Rules
from ..outcome import Outcome
from .table import DealPlayer, stream


class PlayoutPlayer(DealPlayer):
    """Plays a deal with the numba policy ``policy`` of :mod:`solitaire_odds.engine.playout`;
    ``seed`` (with the deal number) drives its random draws."""

    name = ""
    policy = -1

    def __init__(self, rules: Rules, seed: int = 0):
        self.rules = rules
        self.seed = int(seed)
        self.pa = api.params(rules)
        self._line = np.zeros((MAX_PLAY_MOVES, 4), dtype=np.int16)

    def params(self) -> dict:
        return {"seed": self.seed}

    def play_state(self, state: np.ndarray, key: int) -> Outcome:
        """Play on from the engine state ``state`` (left unchanged); its seconds are CPU time."""
        start = time.process_time()
        s = state.copy()
        won, played = playout(s, self.pa, self.policy, np.uint64(stream(self.seed, key)), MAX_PLAY_MOVES,
                              self._line)
        line = [api.move_tuple(row, self.pa) for row in self._line[:played]]
        return Outcome("won" if won else "lost", 0, time.process_time() - start, line)
