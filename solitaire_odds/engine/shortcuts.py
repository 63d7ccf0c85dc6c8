"""A first pass that looks only for wins, with shortcuts that are not sound:

* every foundation move is played at once, ignoring the alternatives (a card may still be
  needed in the tableau, so this can miss wins);
* positions that differ only by exchanging the two suits of one colour, or by the order of
  the tableau piles, count as one (:func:`colour_keys`): after one of them is searched the
  other is skipped, although the suits' foundations, the cards buried under them or the
  piles a row is dealt onto may make them differ;
* a whole pile with no face-down card never moves into a space (in Easthaven the piles'
  order matters while rows are dealt).

They only cut the search, so every line the pass finds is made of legal moves: a WON it
returns is a real win (and is replayed through the reference like every other). It never
answers LOST; whatever it does not win goes to the sound search. The pass is the search of
:mod:`.search` with its SHORTCUTS mode, which reads the key and the move filter here.
Blake & Gent's Solvitaire runs the first two (its "streamliners") before its full search.
"""

from __future__ import annotations

import numpy as np

from .constants import (
    DEAL, FOUND_CHOSEN_BASE, MOVE, NO_BASE, O_BASE, O_FOUND, O_OPENING, O_PDOWN, O_REDEALS,
    O_SLEN, O_STOCK, O_WASTE, O_WLEN, O_WLIVE, P_FOUND_KIND, P_NFOUND, P_NPILES, P_NRES, PLACE_FOUND,
)
from .core import mix, pcard, plen
from .jit import inline_kernel, kernel

U64 = np.uint64


COLOUR_CODE = np.array([(c % 13) * 2 + (c // 13 in (1, 2)) + 1 for c in range(52)], dtype=np.uint8)
"""A card as (rank, colour), plus one: the two suits of a colour look alike."""
K1 = U64(0x9E3779B97F4A7C15)  # odd multiplier of the sequence hashes


@kernel
def colour_keys(s, pa):
    """The table key of ``s`` for the shortcut pass, blind to which suit of a colour a card has
    and to the order of the tableau piles. Each pile, the stock and the waste are hashed as
    sequences (h * K1 + card code, mixed once per pile), and the piles' mixed hashes summed:
    one cheap pass over the cards at every node of the pass. The foundations of a colour enter
    as their two counts in order. One 64-bit hash, its second half drawn from the first: a
    pass that only keeps wins needs no more (two positions it wrongly took for one would only
    leave a line untried, a chance of about 2**-64 per pair)."""
    total = U64(0)
    npiles = pa[P_NPILES]
    for p in range(npiles + pa[P_NRES]):
        h = U64(s[pa[O_PDOWN] + p]) + U64(1)
        for i in range(plen(s, pa, p)):
            h = h * K1 + U64(COLOUR_CODE[pcard(s, pa, p, i)])
        salt = U64(0xA0761D6478BD642F) if p >= npiles else U64(0)
        total += mix(h ^ salt)
    h = U64(7)
    for i in range(s[pa[O_SLEN]]):
        h = h * K1 + U64(COLOUR_CODE[s[pa[O_STOCK] + i]])
    h = h * K1 + U64(99)
    for i in range(s[pa[O_WLEN]]):
        h = h * K1 + U64(COLOUR_CODE[s[pa[O_WASTE] + i]])
    for pair in range(pa[P_NFOUND] // 4 * 2):  # suits 0, 3 black and 1, 2 red, per group of four
        g = pair // 2 * 4
        a = np.int64(s[pa[O_FOUND] + g + (0 if pair % 2 == 0 else 1)])
        b = np.int64(s[pa[O_FOUND] + g + (3 if pair % 2 == 0 else 2)])
        h = h * K1 + U64(min(a, b) * 16 + max(a, b))
    word = U64(np.int64(s[pa[O_REDEALS]]) | (np.int64(s[pa[O_BASE]]) << 8) | (np.int64(s[pa[O_OPENING]]) << 16)
               | (np.int64(s[pa[O_WLIVE]]) << 24))
    key = total ^ mix(h * K1 + word)
    return key, mix(key ^ U64(0x589965CC75374CC3))


@kernel
def shortcut_order(s, pa, moves, n, deal_first):
    """Shortcut: when the best move (foundation moves come first) plays a card up, keep only
    it (not while Duchess' base is still to choose: that choice is the whole game). With
    ``deal_first``, a row dealt from the stock is tried before the tableau moves. (Its third
    shortcut, no whole face-up pile into a space, is cut in search.ordered_moves.)"""
    if n > 1 and moves[0, 0] == MOVE and moves[0, 2] >= PLACE_FOUND and moves[0, 1] < PLACE_FOUND:
        if not (pa[P_FOUND_KIND] == FOUND_CHOSEN_BASE and s[pa[O_BASE]] == NO_BASE):
            return 1
    if deal_first:
        for i in range(n):
            if moves[i, 0] == DEAL:
                for j in range(i, 0, -1):
                    for k in range(4):
                        t = moves[j, k]
                        moves[j, k] = moves[j - 1, k]
                        moves[j - 1, k] = t
                break
    return n
