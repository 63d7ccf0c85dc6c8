"""Loss proofs by relaxation for the St. Helena family (two decks, King and Ace foundations,
one card moved at a time, no stock).

:func:`never_freed` computes, for a position in its last round (no redeal left, Louis' opening
over), an over-approximation of everything that can ever happen in the rest of the game, as
the least fixpoint of monotone rules; when that over-approximation cannot empty the tableau,
nor can any real line of play, and the position is lost.

The facts, all "can ever happen from here":

* The ranks each foundation's top card can ever show: ``[low_lo, low_hi]`` for the Ace
  foundation of suit u (built up), ``[up_lo, up_hi]`` for its King foundation (built down).
  Both start at the current top. Without ``foundation_transfer`` only ``low_hi`` grows and
  ``up_lo`` falls; with it a top card may cross to the other foundation of its suit, which
  lowers ``low_lo`` (raises ``up_hi``), never past the base card.
* ``reach[p]``: the deepest card of pile ``p`` that can become its top card; every card above
  it (in the pile as it is now) can leave, and so can ``reach[p]`` itself once marked
  ``-1`` (the pile can become empty).
* bit ``c`` of the mask ``top``: some copy of card ``c`` can be a top card somewhere (a pile's
  top, where it lies or wherever it is moved to).

Rules (each a necessary condition for the event, so the fixpoint contains every real event):

1. A card becomes a top card in its pile only after every card now above it has left.
   Cards put on it later must leave too, which the relaxation ignores.
2. A top card ``x`` leaves only (a) to a foundation whose top is one rank away in its suit,
   i.e. that top rank lies in the foundation's range, or (b) onto a top card ``y`` one rank
   away (same suit unless ``build_suit=any``; King and Ace meet with ``wrap``); ``y`` was
   then a top card of its own pile first, so bit ``y`` of ``top``; or
   (c) into a space, where spaces take any card, once some pile can become empty.
3. A foundation's top reaches rank r only if a copy of that card is at some time a top
   card, or (with ``foundation_transfer``) it crosses from the other foundation, whose top
   must then show r while this one's next rank is r: r lies in the other's range. Crossing
   away (the Ace foundation's top t going to the King foundation, whose top must show t + 1)
   needs t + 1 in the King foundation's range, and the same way round.

Each rule only drops conditions of the real game (when things happen, that the two copies of a
card are distinct, that a card used as a base or put on a foundation is gone), so every event
of a real line satisfies the rules' premises at its time, by induction along the line: the
least fixpoint contains it. A win needs every pile emptied and every foundation complete; if
some ``reach[p]`` stays >= 0, or some ``low_hi < 12`` or ``up_lo > 0``, the position is lost.
The first-deal foundation restriction is ignored (another relaxation).

A child of a position the relaxation does not prove lost, reached by moving one card ``x``
from pile p onto pile q, needs only part of the work (:func:`moved_onto`): once the child's
relaxation shows that ``x`` can leave q again, it is not proven lost either, and
:func:`never_freed_in` stops there. At that point the child's facts include all the parent's
starting facts: the same foundation ranges, every top card of the parent (``x``, the card
``x`` covers, which is q's top once ``x`` leaves, and the others), and every pile at least as
far along (p is one card shorter, q back where it was). The rules are monotone, so the child's
fixpoint then contains the parent's, which empties every pile and completes every foundation.
The answer is the one the full fixpoint gives, only sooner: on the children of unproven
positions met by random play (St. Helena, Louis and Box Kite, six readings), in 37-53% of the
time the full fixpoint takes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .constants import (
    C_RELAXED_DEAD_ENDS,
    MAX_PLACES,
    MOVE,
    O_FOUND,
    O_OPENING,
    O_REDEALS,
    O_SLEN,
    P_ACCEPT,
    P_FIRST_DEAL_LIMITS,
    P_FTRANSFER,
    P_NPILES,
    P_REDEALS,
    P_SPACE,
    SPACE_ANY,
)
from .core import pcard, plen
from .jit import inline_kernel, kernel

U64 = np.uint64


@kernel
def applies(s, pa):
    """The relaxation's assumptions hold: rules where reductions.relaxed_dead_ends does (a St.
    Helena family game: up-or-down building one card at a time, no stock, no reserve, no
    foundation returns, spaces that take any card or none), in its last round."""
    return pa[C_RELAXED_DEAD_ENDS] == 1 and last_round(s, pa)


@inline_kernel
def last_round(s, pa):
    """No redeal left, Louis' opening over and its stock dealt: the piles as they are now are
    all the rest of the game has."""
    return s[pa[O_REDEALS]] >= pa[P_REDEALS] and s[pa[O_OPENING]] == 0 and s[pa[O_SLEN]] == 0


@inline_kernel
def last_round_unrestricted(s, pa):
    """:func:`last_round`, with any first-deal foundation restriction over (a game without
    redeals plays its one deal under it)."""
    return last_round(s, pa) and not (pa[P_FIRST_DEAL_LIMITS] == 1 and s[pa[O_REDEALS]] == 0)


WORK_SIZE = 16 + 3 * MAX_PLACES
"""Length of the int64 work array of :func:`never_freed_in` (the fixpoint's facts in its first
16 + MAX_PLACES) and of engine.persistent (two per-pile tables after them)."""
NO_PILE = -1  # no last move onto a pile to start from (:func:`moved_onto`)
LOW_HI, UP_LO, REACH = 0, 8, 16
"""Where :func:`fixpoint` leaves, in its work array, each suit's highest reachable Ace
foundation rank, each suit's lowest reachable King foundation rank, and each pile's reach."""


@njit(cache=True)
def never_freed(s, pa):
    """True when the relaxation proves the position lost (see the module docstring): some pile
    can never be emptied. False when it proves nothing, or does not apply."""
    return never_freed_in(s, pa, np.zeros(WORK_SIZE, np.int64), NO_PILE)


@inline_kernel
def moved_onto(pa, mv):
    """The pile move ``mv`` put one card on, where it moved that card from another pile (see
    the module docstring); else NO_PILE."""
    npiles = pa[P_NPILES]
    if mv[0] == MOVE and mv[1] < npiles and mv[2] < npiles:
        return np.int64(mv[2])
    return NO_PILE


@kernel
def never_freed_in(s, pa, work, onto):
    """:func:`never_freed` in the caller's ``work`` array (WORK_SIZE int64), for kernels that
    may not allocate (the search's). ``onto``: NO_PILE, or the pile the last move put a card
    on (:func:`moved_onto`) where the position before that move was not proven lost; then
    the answer is False as soon as that card can leave again (module docstring)."""
    if not applies(s, pa):
        return False
    freed, _ = fixpoint(s, pa, work, 0, onto)
    if freed:
        return False
    for p in range(pa[P_NPILES]):
        if work[REACH + p] >= 0:
            return True
    for u in range(4):
        if work[LOW_HI + u] < 12 or work[UP_LO + u] > 0:
            return True
    return False


@inline_kernel
def fixpoint(s, pa, work, frozen, onto):
    """The least fixpoint of the module docstring's rules over the piles not in the bit mask
    ``frozen``: their cards never move, are never built on and count as no space, as in a
    line of play that never touches them. Leaves in ``work`` the foundation ranges (low_hi,
    low_lo, up_lo, up_hi: four each) and from index 16 each pile's ``reach``; returns (True,
    0) as soon as the card on pile ``onto`` can leave (see :func:`never_freed_in`), else
    (False, the mask of card values that can be top cards)."""
    npiles = pa[P_NPILES]
    transfer = pa[P_FTRANSFER] == 1
    low_hi = work[LOW_HI:LOW_HI + 4]   # highest rank the Ace foundation may reach
    low_lo = work[4:8]   # lowest top rank it may have
    up_lo = work[UP_LO:UP_LO + 4]    # lowest rank the King foundation may reach
    up_hi = work[12:16]    # highest top rank it may have
    for u in range(4):
        ku = np.int64(s[pa[O_FOUND] + u])
        al = np.int64(s[pa[O_FOUND] + 4 + u])
        up_lo[u] = 13 - ku
        up_hi[u] = 13 - ku
        low_hi[u] = al - 1
        low_lo[u] = al - 1
    reach = work[REACH:REACH + npiles]
    top = U64(0)  # bit c set where card value c can be a top card
    space = False
    for p in range(npiles):
        reach[p] = plen(s, pa, p) - 1
        if (frozen >> p) & 1:
            continue
        if reach[p] < 0:
            space = True
        else:
            top |= U64(1) << U64(pcard(s, pa, p, reach[p]))
    changed = True
    while changed:
        changed = False
        # foundations grow by cards that can be tops (or cross from the other foundation)
        for u in range(4):
            while low_hi[u] < 12 and (((top >> U64(u * 13 + low_hi[u] + 1)) & U64(1)) != 0
                                      or (transfer and up_lo[u] <= low_hi[u] + 1 <= up_hi[u])):
                low_hi[u] += 1
                changed = True
            while up_lo[u] > 0 and (((top >> U64(u * 13 + up_lo[u] - 1)) & U64(1)) != 0
                                    or (transfer and low_lo[u] <= up_lo[u] - 1 <= low_hi[u])):
                up_lo[u] -= 1
                changed = True
            while transfer and low_lo[u] > 0 and up_lo[u] <= low_lo[u] + 1 <= up_hi[u]:
                low_lo[u] -= 1  # the Ace foundation's top crosses to the King foundation
                changed = True
            while transfer and up_hi[u] < 12 and low_lo[u] <= up_hi[u] - 1 <= low_hi[u]:
                up_hi[u] += 1
                changed = True
        # piles shrink while their deepest reachable top card can leave
        for p in range(npiles):
            if (frozen >> p) & 1:
                continue
            while reach[p] >= 0:
                x = pcard(s, pa, p, reach[p])
                if not _can_leave(pa, x, top, space, low_lo, low_hi, up_lo, up_hi):
                    break
                reach[p] -= 1
                if p == onto:
                    return True, U64(0)  # the parent's starting facts are all in: see the docstring
                changed = True
                if reach[p] >= 0:
                    top |= U64(1) << U64(pcard(s, pa, p, reach[p]))
                elif pa[P_SPACE] == SPACE_ANY:
                    space = True
    return False, top


@inline_kernel
def _can_leave(pa, x, top, space, low_lo, low_hi, up_lo, up_hi):
    """Rule 2: top card ``x`` has somewhere to go: a foundation, a space, or a card it builds
    on (compile.builds_on, as a mask) that can be a top card (``top``, a mask of card values)."""
    u = x // 13
    r = x % 13
    if low_lo[u] <= r - 1 <= low_hi[u]:
        return True
    if up_lo[u] <= r + 1 <= up_hi[u]:
        return True
    if space and pa[P_SPACE] == SPACE_ANY:
        return True
    return (U64(pa[P_ACCEPT + x]) & top) != 0
