"""A careful human's rules of thumb, played in numba."""

from __future__ import annotations

from ..engine.playout import GREEDY
from .parameters import SEED
from .playout_player import PlayoutPlayer


class GreedyPlayer(PlayoutPlayer):
    """Scores every legal move by the first rule that fits and plays the best-scored one
    (ties drawn at random from the deal's stream):

    1. Duchess' opening choice: the reserve card whose rank, as the base, has the most cards in
       sight (reserve fans and piles) within three ranks of it (100 + that count).
    2. Safe foundation moves, where nothing can need the card any more (the solver's proven
       rule for one-deck alternating-colour games): 100.
    3. A tableau move that turns up a face-down card: 90 + the cards still face down under it
       (dig where most is hidden).
    4. Filling a Duchess space from the reserve: 75.
    5. Any other foundation move: 70.
    6. A tableau move that uncovers a card that can then go to a foundation: 60.
    7. A reserve or waste card built onto a pile: 55 / 50.
    8. A tableau move that empties its pile onto another card (a space, kept for a purpose): 40.
    9. A waste or stock card into a space: a King in games without wrap (it can never go onto
       a card), any card in Duchess: 30.
    10. Turn the stock or deal a row: 10 (only when nothing better is left); a redeal: 5.
    11. Last resort, when nothing above is left: any other move (a run moved without turning
        up, emptying or uncovering anything useful, another card into a space): 3; a card
        crossing between the two foundations of its suit: 2; a foundation card back to the
        tableau: 1.

    The game ends, lost unless won, when every legal move returns to a position already seen,
    or at the move cap of :mod:`.table`. Every rule reads only what
    the observation shows (pile tops, runs, down counts, waste, foundations, reserve).
    """

    name = "greedy"
    policy = GREEDY
    parameters = (SEED,)
