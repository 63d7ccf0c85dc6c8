"""The one owner of the engine's state layout: offsets, encoding positions, what is hidden.

A position is one flat ``uint8`` array:

    pile lengths | face-down counts | pile cards (CAP each) | stock length | stock | waste length |
    waste | foundation counts | redeals used | base rank (NO_BASE = none) | opening | waste live

Reserve fans (Duchess) are extra piles after the tableau piles; ``CAP`` is the pack's size, so no
pile can overflow whatever the rules allow. Bytes past a pile's, the stock's or the waste's
length are stale (cards that left) and never read. Everything outside the engine reads and writes
positions through this module: :func:`encode` / :func:`decode` to the readable
:class:`~solitaire_odds.game.position.Position`, :func:`hidden_places` and :func:`public_copy` for
players who must not see face-down cards.
"""

from __future__ import annotations

import numpy as np

from ..game.position import Position
from .constants import (
    NO_BASE, O_BASE, O_FOUND, O_OPENING, O_PCARDS, O_PDOWN, O_PLEN, O_REDEALS, O_SLEN, O_STOCK,
    O_WASTE, O_WLEN, O_WLIVE, P_CAP, P_NFOUND, P_NPILES, P_NRES, P_REDEAL_KIND, REDEAL_WASTE, S_SIZE,
)


def place_offsets(params: np.ndarray, npiles: int, nres: int, ncards: int, nfound: int) -> None:
    """Write the offset slots of ``params`` for a game of these sizes."""
    places = npiles + nres
    offset = 0
    for slot, size in ((O_PLEN, places), (O_PDOWN, places), (O_PCARDS, places * ncards), (O_SLEN, 1),
                       (O_STOCK, ncards), (O_WLEN, 1), (O_WASTE, ncards), (O_FOUND, nfound), (O_REDEALS, 1),
                       (O_BASE, 1), (O_OPENING, 1), (O_WLIVE, 1)):
        params[slot] = offset
        offset += size
    params[S_SIZE] = offset


def empty(pa: np.ndarray) -> np.ndarray:
    return np.zeros(int(pa[S_SIZE]), dtype=np.uint8)


def _pile(s: np.ndarray, pa: np.ndarray, p: int) -> list[int]:
    start = int(pa[O_PCARDS]) + p * int(pa[P_CAP])
    return [int(c) for c in s[start:start + int(s[pa[O_PLEN] + p])]]


def decode(s: np.ndarray, pa: np.ndarray) -> Position:
    """The readable position of state ``s``."""
    npiles, nres = int(pa[P_NPILES]), int(pa[P_NRES])
    slen, wlen = int(s[pa[O_SLEN]]), int(s[pa[O_WLEN]])
    base = int(s[pa[O_BASE]])
    return Position(
        piles=[_pile(s, pa, p) for p in range(npiles)],
        down=[int(s[pa[O_PDOWN] + p]) for p in range(npiles)],
        found=[int(x) for x in s[pa[O_FOUND]:pa[O_FOUND] + pa[P_NFOUND]]],
        stock=[int(c) for c in s[pa[O_STOCK]:pa[O_STOCK] + slen]],
        waste=[int(c) for c in s[pa[O_WASTE]:pa[O_WASTE] + wlen]],
        reserve=[_pile(s, pa, npiles + r) for r in range(nres)],
        redeals_used=int(s[pa[O_REDEALS]]),
        base_rank=-1 if base == NO_BASE else base,
        opening=bool(s[pa[O_OPENING]]),
        waste_live=bool(s[pa[O_WLIVE]]),
    )


def encode(pos: Position, pa: np.ndarray) -> np.ndarray:
    """The state of readable position ``pos``."""
    s = empty(pa)
    cap = int(pa[P_CAP])
    if len(pos.piles) != int(pa[P_NPILES]) or len(pos.reserve) != int(pa[P_NRES]):
        raise ValueError("the position has another number of piles or reserve fans than the game")
    for p, cards_ in enumerate(list(pos.piles) + list(pos.reserve)):
        s[pa[O_PLEN] + p] = len(cards_)
        s[pa[O_PCARDS] + p * cap:pa[O_PCARDS] + p * cap + len(cards_)] = cards_
    for p, d in enumerate(pos.down):
        s[pa[O_PDOWN] + p] = d
    s[pa[O_SLEN]] = len(pos.stock)
    s[pa[O_STOCK]:pa[O_STOCK] + len(pos.stock)] = pos.stock
    s[pa[O_WLEN]] = len(pos.waste)
    s[pa[O_WASTE]:pa[O_WASTE] + len(pos.waste)] = pos.waste
    s[pa[O_FOUND]:pa[O_FOUND] + len(pos.found)] = pos.found
    s[pa[O_REDEALS]] = pos.redeals_used
    s[pa[O_BASE]] = NO_BASE if pos.base_rank < 0 else pos.base_rank
    s[pa[O_OPENING]] = pos.opening
    s[pa[O_WLIVE]] = pos.waste_live
    return s


# --- what a player may not see ---------------------------------------------------------------

def stock_hidden(s: np.ndarray, pa: np.ndarray) -> bool:
    """Is the stock's order unknown? Always, except after a redeal that turned the waste over
    (the player saw every card of it go by)."""
    return not (pa[P_REDEAL_KIND] == REDEAL_WASTE and s[pa[O_REDEALS]] > 0)


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


def public_copy(s: np.ndarray, pa: np.ndarray, hidden_byte: int) -> np.ndarray:
    """``s`` as a player sees it: each hidden card replaced by ``hidden_byte`` and every stale
    byte cleared, so that the copy carries nothing a person could not see."""
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
    out[hidden_places(s, pa)] = hidden_byte
    return out
