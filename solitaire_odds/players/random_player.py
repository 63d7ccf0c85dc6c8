"""The floor: a uniformly random legal move."""

from __future__ import annotations

from ..engine.playout import RANDOM
from .parameters import SEED
from .playout_player import PlayoutPlayer


class RandomPlayer(PlayoutPlayer):
    """Plays a move drawn uniformly from the legal moves that lead to a position not seen
    before in this game; the game ends (lost unless won) when there is none, or after the
    move cap of :mod:`.table`. Legal moves never depend on a hidden card, so neither does
    the draw."""

    name = "random"
    policy = RANDOM
    parameters = (SEED,)
