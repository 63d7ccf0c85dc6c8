"""Persistent sets: in the last round of the St. Helena family, the search may try only the
moves that touch a set of piles Π, when no line of play that keeps off Π can change what those
moves do (a partial-order reduction, after Godefroid, "Partial-Order Methods for the
Verification of Concurrent Systems", 1996). Where it holds is :func:`.reductions.persistent_sets`,
with the argument that no win is lost.

A move of these games is named by its two places: a pile and a pile, or a pile and a
foundation. Call a move *inside* when one of its places is a pile of Π and *outside* when
neither is. :func:`persistent_piles` looks for a Π with these properties at position s:

1. every inside move legal at s stays legal after any sequence of outside moves, and
2. no sequence of outside moves makes an inside move legal that is not legal at s.

An outside move changes only its two places, so it leaves a Π pile's top card alone; what it
can change is a pile outside Π or a foundation. So Π is closed under four conditions, over
what outside moves can ever bring about; that is over-approximated by the two-deck relaxation
(:func:`.two_deck_proofs.fixpoint`) run with Π frozen, whose card mask ``tops`` holds every
card value that can become a top card of a pile outside Π by outside moves:

a. a card value that builds on a Π top card, or that a Π top card builds on (either way for
   these rules: the building rule is symmetric), is not in ``tops``; a pile outside Π holding
   a copy of such a card joins Π (then the copy can no longer move by outside moves);
b. a Π top card that its foundation wants next has no copy in ``tops`` (an outside play of
   the twin would take that foundation's place);
c. a Π top card that a foundation will want later (its rank beyond the foundation's next)
   is not reached by outside plays: the relaxation's range for that foundation must stop
   short of the card's rank; else the piles holding the foundation's next card join Π (its
   copies outside Π then cannot move, so the foundation cannot grow by outside plays);
d. (with a) a pile-to-pile move between Π and a pile outside it pulls that pile in, its top
   card building with a Π top card.

Each condition only adds piles, and the fixpoint is run again with the larger Π (fewer piles
left outside, so ``tops`` can only shrink) until nothing more joins. The search tries the
closures of the piles that legal moves touch and keeps the one with the fewest legal inside
moves (at least one: its seed's).
"""

from __future__ import annotations

import numpy as np

from .constants import MAX_PLACES, O_FOUND, P_ACCEPT, P_BUILDERS, P_NPILES
from .core import pcard, plen
from .jit import inline_kernel, kernel
from .two_deck_proofs import LOW_HI, NO_PILE, REACH, UP_LO, fixpoint

U64 = np.uint64
CONTENTS = REACH + MAX_PLACES
"""Where the piles' contents (a card value mask each) start in the work array, after the
fixpoint's facts; then the number of legal moves touching each pile (two_deck_proofs.WORK_SIZE
covers all three)."""
COUNTS = CONTENTS + MAX_PLACES


@inline_kernel
def touches(piles, mv, npiles):
    """Does move ``mv`` (a row) have a place among the piles of the bit mask ``piles``?"""
    src = np.int64(mv[1])
    dst = np.int64(mv[2])
    return (src < npiles and (piles >> src) & 1 == 1) or (dst < npiles and (piles >> dst) & 1 == 1)


@kernel
def persistent_piles(s, pa, moves, n, work):
    """The bit mask of a Π (module docstring) whose inside moves are fewer than the ``n``
    legal ``moves``, or 0 when none is found. ``work``: two_deck_proofs.WORK_SIZE int64.
    Seeds go in order of how many moves touch their pile alone, and a closure is given up
    as soon as it holds as many moves as the best so far (it only grows): most positions
    find a set of one move at the first or second seed."""
    npiles = pa[P_NPILES]
    for p in range(npiles):
        m = U64(0)
        for i in range(plen(s, pa, p)):
            m |= U64(1) << U64(pcard(s, pa, p, i))
        work[CONTENTS + p] = np.int64(m)
        work[COUNTS + p] = 0
    for i in range(n):
        for p in (np.int64(moves[i, 1]), np.int64(moves[i, 2])):
            if p < npiles:
                work[COUNTS + p] += 1
    best, best_count = np.int64(0), n
    for alone in range(1, n):
        for seed in range(npiles):
            if work[COUNTS + seed] == alone and alone < best_count:
                piles = _closure(s, pa, moves, n, work, seed, best_count)
                if piles != 0:
                    best, best_count = piles, _inside_count(piles, moves, n, npiles)
    return best


@inline_kernel
def _inside_count(piles, moves, n, npiles):
    count = 0
    for j in range(n):
        if touches(piles, moves[j], npiles):
            count += 1
    return count


@inline_kernel
def _closure(s, pa, moves, n, work, seed, limit):
    """The least Π holding pile ``seed`` that conditions a-d of the module docstring allow,
    or 0 once it holds ``limit`` moves or more."""
    npiles = pa[P_NPILES]
    piles = np.int64(1) << seed
    while True:
        if _inside_count(piles, moves, n, npiles) >= limit:
            return np.int64(0)
        _, tops = fixpoint(s, pa, work, piles, NO_PILE)
        need = U64(0)  # card values whose copies outside Π must join it
        for p in range(npiles):
            m = plen(s, pa, p)
            if (piles >> p) & 1 == 0 or m == 0:
                continue
            x = pcard(s, pa, p, m - 1)
            need |= (U64(pa[P_ACCEPT + x]) | U64(pa[P_BUILDERS + x])) & tops  # a, d
            u = x // 13
            r = x % 13
            ace_next = np.int64(s[pa[O_FOUND] + 4 + u])
            king_next = 12 - np.int64(s[pa[O_FOUND] + u])
            if r == ace_next or r == king_next:
                need |= (U64(1) << U64(x)) & tops  # b
            if r > ace_next and work[LOW_HI + u] >= r - 1:  # c
                need |= U64(1) << U64(u * 13 + ace_next)
            if r < king_next and work[UP_LO + u] <= r + 1:
                need |= U64(1) << U64(u * 13 + king_next)
        joins = np.int64(0)
        for q in range(npiles):
            if (piles >> q) & 1 == 0 and (U64(work[CONTENTS + q]) & need) != 0:
                joins |= np.int64(1) << q
        if joins == 0:
            return piles
        piles |= joins
