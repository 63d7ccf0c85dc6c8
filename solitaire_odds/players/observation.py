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

from ..engine.layout import (
    NO_BASE, O_BASE, O_FOUND, O_OPENING, O_PCARDS, O_PDOWN, O_PLEN, O_REDEALS, O_SLEN, O_STOCK,
    O_WASTE, O_WLEN, O_WLIVE, P_CAP, P_NFOUND, P_NPILES, P_NRES, P_REDEAL_KIND, REDEAL_KIND_WASTE,
)

HIDDEN = 255
"""The byte standing for a hidden card in :attr:`Observation.state`."""


def stock_hidden(s: np.ndarray, pa: np.ndarray) -> bool:
    """Is the stock's order unknown? Always, except after a Duchess redeal."""
    return not (pa[P_REDEAL_KIND] == REDEAL_KIND_WASTE and s[pa[O_REDEALS]] > 0)


def hidden_places(s: np.ndarray, pa: np.ndarray) -> np.ndarray:
    """Offsets in the flat state of the hidden cards: the face-down cards of every pile, and
    the stock while its order is unknown. Depends only on what is public (down counts and
    the stock's size)."""
    cap = int(pa[P_CAP])
    places = [np.arange(pa[O_PCARDS] + p * cap, pa[O_PCARDS] + p * cap + int(s[pa[O_PDOWN] + p]))
              for p in range(int(pa[P_NPILES] + pa[P_NRES]))]
    if stock_hidden(s, pa):
        places.append(np.arange(pa[O_STOCK], pa[O_STOCK] + int(s[pa[O_SLEN]])))
    return np.concatenate(places).astype(np.int64)


def _public_copy(s: np.ndarray, pa: np.ndarray) -> np.ndarray:
    """``s`` with every byte beyond a pile's, the stock's or the waste's length cleared (they
    hold cards that left, which the engine never reads)."""
    out = np.zeros_like(s)
    out[pa[O_PLEN]:pa[O_PCARDS]] = s[pa[O_PLEN]:pa[O_PCARDS]]  # pile lengths and down counts
    cap = int(pa[P_CAP])
    for p in range(int(pa[P_NPILES] + pa[P_NRES])):
        start = int(pa[O_PCARDS]) + p * cap
        n = int(s[pa[O_PLEN] + p])
        out[start:start + n] = s[start:start + n]
    for length, start in ((O_SLEN, O_STOCK), (O_WLEN, O_WASTE)):
        n = int(s[pa[length]])
        out[pa[length]] = n
        out[pa[start]:pa[start] + n] = s[pa[start]:pa[start] + n]
    out[pa[O_FOUND]:] = s[pa[O_FOUND]:]  # foundations and counters
    return out


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
        state = _public_copy(s, pa)
        state[hidden] = HIDDEN
        cap, npiles, nres = int(pa[P_CAP]), int(pa[P_NPILES]), int(pa[P_NRES])

        def face_up(p):
            start = int(pa[O_PCARDS]) + p * cap
            return tuple(int(c) for c in state[start + int(state[pa[O_PDOWN] + p]):start + int(state[pa[O_PLEN] + p])])

        slen, wlen = int(state[pa[O_SLEN]]), int(state[pa[O_WLEN]])
        base = int(state[pa[O_BASE]])
        return cls(
            state=state, pa=pa, hidden=hidden, unseen=unseen,
            piles=tuple(face_up(p) for p in range(npiles)),
            down=tuple(int(d) for d in state[pa[O_PDOWN]:pa[O_PDOWN] + npiles]),
            reserve=tuple(face_up(npiles + r) for r in range(nres)),
            stock_size=slen,
            stock=() if stock_hidden(state, pa) else tuple(int(c) for c in state[pa[O_STOCK]:pa[O_STOCK] + slen]),
            waste=tuple(int(c) for c in state[pa[O_WASTE]:pa[O_WASTE] + wlen]),
            found=tuple(int(n) for n in state[pa[O_FOUND]:pa[O_FOUND] + pa[P_NFOUND]]),
            redeals_used=int(state[pa[O_REDEALS]]),
            base_rank=-1 if base == NO_BASE else base,
            opening=bool(state[pa[O_OPENING]]),
            waste_live=bool(state[pa[O_WLIVE]]),
        )

    def complete(self, rng: np.random.Generator) -> np.ndarray:
        """A full state consistent with this observation: the unseen cards dealt at random
        into the hidden places."""
        s = self.state.copy()
        s[self.hidden] = rng.permutation(np.array(self.unseen, dtype=np.uint8))
        return s
