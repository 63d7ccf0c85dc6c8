"""What a player sees: the table as a person sees it, with the hidden cards left out.

Hidden are the face-down tableau cards and the order of the stock (Westcliff family,
Easthaven, Duchess' first pass, Louis' opening). A player is taken to remember what it saw:
the whole waste, and so the order of a Duchess stock made by turning the waste over, which
is therefore not hidden. St. Helena and Box Kite hide nothing.

Every hidden card is a card never seen (cards never turn face down again), so the cards not
yet seen are exactly the cards in hidden places, and since the deal is a uniform shuffle and
a player's moves depend only on what it saw, every assignment of the unseen cards to the
hidden places is equally likely: :meth:`Observation.complete` draws one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine.state import decode, hidden_places, public_copy, stock_hidden

HIDDEN = 255
"""The byte standing for a hidden card in :attr:`Observation.state`."""


@dataclass(frozen=True)
class Observation:
    """One moment of a game as the player sees it.

    ``state`` is the engine's flat state with each hidden card replaced by :data:`HIDDEN`:
    legal moves, the greedy preference and position keys are computed on it directly (none of
    them reads a hidden card). The other fields are the same, readable.
    """

    state: np.ndarray
    pa: np.ndarray
    hidden: np.ndarray                 # offsets of the hidden cards in ``state``
    unseen: tuple[int, ...]            # card codes not yet seen, sorted (a multiset in Louis)
    piles: tuple[tuple[int, ...], ...]  # face-up cards of each pile, bottom to top
    down: tuple[int, ...]              # face-down cards under them
    reserve: tuple[tuple[int, ...], ...]
    stock_size: int
    stock: tuple[int, ...]             # the stock's cards when known (after a Duchess redeal), else ()
    waste: tuple[int, ...]
    found: tuple[int, ...]
    redeals_used: int
    base_rank: int                     # Duchess' base rank, -1 before it is chosen
    opening: bool                      # Louis' opening phase
    waste_live: bool

    @classmethod
    def of(cls, s: np.ndarray, pa: np.ndarray) -> "Observation":
        """What a player sees of the true state ``s`` (``s`` itself is not kept)."""
        hidden = hidden_places(s, pa)
        unseen = tuple(sorted(int(c) for c in s[hidden]))
        state = public_copy(s, pa, HIDDEN)
        pos = decode(state, pa)
        return cls(
            state=state, pa=pa, hidden=hidden, unseen=unseen,
            piles=tuple(tuple(pile[down:]) for pile, down in zip(pos.piles, pos.down)),
            down=tuple(pos.down),
            reserve=tuple(tuple(fan) for fan in pos.reserve),
            stock_size=len(pos.stock),
            stock=() if stock_hidden(state, pa) else tuple(pos.stock),
            waste=tuple(pos.waste),
            found=tuple(pos.found),
            redeals_used=pos.redeals_used,
            base_rank=pos.base_rank,
            opening=pos.opening,
            waste_live=pos.waste_live,
        )

    def complete(self, rng: np.random.Generator) -> np.ndarray:
        """A full state consistent with this observation: the unseen cards dealt at random
        into the hidden places."""
        s = self.state.copy()
        s[self.hidden] = rng.permutation(np.array(self.unseen, dtype=np.uint8))
        return s
