"""Suit projections of a St. Helena family position in its last round, and why an unwinnable
projection proves the position lost.

The projection of a position on a set K of suits deletes every card of the other suits from
the piles (the kept cards keep their order and their pile) and counts the other suits'
foundations as complete. It is a position of the same game, with fewer cards.

**Claim.** Where it :func:`applies`, every winning line of the position, with the moves of
cards of other suits struck out, is a winning line of the projection. So a projection that
cannot be won (by an exhaustive search of it) proves the position lost.

**Proof.** Write P(x) for the projection of position x. Let x0, x1, ... be the positions of
a line from x0, and show by induction that P(x_i) is the position reached in the projection by
the kept-suit moves among the first i moves. A move of a card of another suit is a move of a
card c onto a foundation of its own suit, from that suit's other foundation (foundation
transfer), into a space, or onto a top card y with c on y allowed. The building rule here
joins only cards of one suit (checked on the rules' masks, so a King on an Ace with ``wrap``
is included), so y is of c's suit, not kept either: the move leaves the order of the kept
cards in every pile as it was, and no kept foundation changes. P(x_{i+1}) = P(x_i). A move of
a kept card c: c was the top card of its pile in x_i, and the cards above it in P(x_i) are
a subset of those above it in x_i, so none; the foundation it goes to is a kept suit's, the
same in x_i and in P(x_i) (only kept cards ever reach it); a card y it goes onto is of its
suit, so kept, and a top card in x_i, hence in P(x_i); a space it goes into holds no card in
x_i, hence none in P(x_i). Where piles restrict their cards' foundations (St. Helena's first
deal), the restriction reads the pile and the deal number, which the projection keeps. Only
one card moves at a time in this family, and no stock, waste or reserve exists (the rules'
relaxed_dead_ends capability), and in the last round there is no redeal, so no other move
exists. The move is legal in P(x_i) and gives P(x_{i+1}). A won x_n has every card on the
foundations, so P(x_n) has too. Spaces taking any card or none are the family's two
readings; a projection has at least as many spaces as the position, which only adds moves.

**Where it does not hold.**

* Across a redeal. The gathered pack is dealt one card to each pile in turn, so where a kept
  card lands and what lies on it depend on how many cards of every suit are gathered before
  it: in the projection the kept cards are dealt into other piles, in another order. A line
  with a redeal ahead has no image in the projection, so the claim is only for the last
  round (no redeal left, Louis' opening over, the stock dealt).
* Where cards build regardless of suit (``build_suit=any``): a kept card may be put on a
  card of another suit; in the projection that card is gone, so the move has no counterpart
  (the pile's kept top card may not take it, or the pile may be empty under
  ``space_fill=none``). Where a kept card sits on a deleted one, the kept card's moves stay,
  but not the cards that can go onto the deleted one.

The family deals every card face up, so the projection has no face-down cards either.

**What it decides (measured, docs/solver.md).** On Box Kite by the book, no projection on one,
two or three suits of a deal of 0..299 the search leaves unknown at 1e5 was found lost
within 3e5 positions (two suits: tried on those of 0..59); one-suit projections were lost only where the relaxation
(two_deck_proofs.never_freed) proves the deal lost anyway. Deleting the other suits frees the
very cards whose blocking makes the deal lost, and the freed cards can be shuffled in more ways
than the whole deal's. The projection is therefore not a step of the solve;
``experiments/projections.py`` measures it.
"""

from __future__ import annotations

import numpy as np

from .constants import (
    C_RELAXED_DEAD_ENDS,
    O_FOUND,
    O_PCARDS,
    O_PDOWN,
    O_PLEN,
    P_ACCEPT,
    P_CAP,
    P_NPILES,
    P_RUN,
    RUN_SINGLE,
)
from .two_deck_proofs import last_round

SUITS = 4


def builds_by_suit(pa: np.ndarray) -> bool:
    """Every card may be built only on cards of its own suit (read from the building masks,
    so that the check is the property the proof uses, whatever switch gave it)."""
    suit_mask = [sum(1 << (u * 13 + r) for r in range(13)) for u in range(SUITS)]
    return all(int(pa[P_ACCEPT + card]) & ~suit_mask[card // 13] == 0 for card in range(52))


def applies(s: np.ndarray, pa: np.ndarray) -> bool:
    """The claim of the module docstring holds for state ``s``: a St. Helena family game (one
    card moved at a time, no stock or reserve), building by suit, in its last round."""
    return (int(pa[C_RELAXED_DEAD_ENDS]) == 1 and int(pa[P_RUN]) == RUN_SINGLE and builds_by_suit(pa)
            and bool(last_round(s, pa)))


def project(s: np.ndarray, pa: np.ndarray, suits) -> np.ndarray:
    """The projection of state ``s`` on ``suits`` (suit numbers 0..3): the other suits' cards
    deleted from every pile (the rest in their order), their foundations complete."""
    keep = {int(u) for u in suits}
    out = s.copy()
    cap = int(pa[P_CAP])
    for p in range(int(pa[P_NPILES])):
        start = int(pa[O_PCARDS]) + p * cap
        pile = [int(c) for c in s[start:start + int(s[pa[O_PLEN] + p])] if int(c) // 13 in keep]
        out[pa[O_PLEN] + p] = len(pile)
        out[pa[O_PDOWN] + p] = 0
        out[start:start + len(pile)] = pile
    for u in range(SUITS):
        if u not in keep:
            out[pa[O_FOUND] + u] = 13
            out[pa[O_FOUND] + SUITS + u] = 13
    return out
