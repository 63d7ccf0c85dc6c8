"""Numba kernels: shuffle, deal, legal moves, making and unmaking moves, the win test, and the
128-bit position key kept up to date move by move.

All kernels take the flat ``uint8`` state of :mod:`.state` and the ``params`` vector of
:mod:`.compile`; none allocates. Each kernel mirrors a clause of the rules and is checked move
for move against the plain-Python reference (tests/test_differential.py).

The key. Each pile keeps a hash of its own (``H``, see :func:`init_hash`): the XOR of one
pseudo-random 64-bit value per (height, card) and one for its face-down count, in two
independent halves. Stock, waste and foundations are hashed the same way. A move changes only
the values of the cards it moves, so the hashes are updated as cards are pushed and popped,
never recomputed. The piles enter the key as a sum of a mixed value per pile: salted by the
pile's number, or, where piles are interchangeable, by its group only (tableau or reserve), so
that positions differing in pile order share a key and are searched once. For two different
positions the chance that both 64-bit halves agree is about 2**-128: a search of 10**9 deals
of 10**7 nodes each meets a collision with probability below 10**-19, so the table never
mistakes an unexplored position for an explored one.
"""

from __future__ import annotations

import numpy as np

from .constants import (
    C_INTERCHANGEABLE_PILES, C_INTERCHANGEABLE_WITHOUT_STOCK, DEAL, DEAL_ONE_EACH, DEAL_ROUND_ROBIN, DEAL_ROWS, MAX_CARDS,
    FOUND_CHOSEN_BASE, FOUND_KINGS_AND_ACES, FOUND_SUIT_UP, LOWER, MAX_PLACES, MOVE, NO_BASE,
    O_BASE, O_FOUND, O_OPENING, O_PCARDS, O_PDOWN, O_PLEN, O_REDEALS, O_SLEN, O_STOCK, O_WASTE,
    O_WLEN, O_WLIVE, OPENING_NONE, P_ACES_OUT, P_ACCEPT, P_CAP, P_DEAL_PATTERN, P_FAN_SIZE,
    P_FIRST_DEAL_LIMITS, P_FOUND_KIND, P_FRETURN, P_FTRANSFER, P_NCARDS, P_NFOUND, P_NPILES,
    P_NRES, P_OPENING, P_PILE_FOUND, P_REDEAL_KIND, P_REDEAL_ORDER, P_REDEALS, P_ROWS_DOWN, P_RUN,
    P_SPACE, P_STOCK, P_WASTE_PLAYABLE, PLACE_FOUND, PLACE_STOCK, PLACE_WASTE,
    REDEAL, REDEAL_BOTTOM_FIRST, REDEAL_GATHER, REDEAL_WASTE, RUN_PARTIAL, RUN_SINGLE, RUN_WHOLE, S_SIZE,
    SPACE_ANY, SPACE_KING, SPACE_RESERVE_THEN_WASTE, STOCK_DEAL_ROW, STOCK_TURN, TURN, UPPER,
)
from .jit import inline_kernel, kernel

U64 = np.uint64

# --- the hash workspace H (uint64), two halves per value: stock, waste, foundations, the pile
# sum; then per pile its hash and its part of the pile sum (so a move subtracts a pile's old
# part without mixing it again). A position's hashes fill the first hash_words(pa) words.
H_STOCK, H_WASTE, H_FOUND, H_PSUM = 0, 2, 4, 6
H_PILES = 8
H_PILE_WORDS = 4
H_SIZE = H_PILES + H_PILE_WORDS * MAX_PLACES
# regions of the per-card values
Z_PILE, Z_DOWN, Z_STOCK, Z_WASTE, Z_FOUND = 1, 2, 3, 4, 5
# --- the undo record of one move (uint64)
U_FLAGS, U_WLIVE, U_COUNT, U_PSUM, U_SRC_PART, U_DST_PART = 0, 1, 2, 3, 5, 7  # the last three: pairs
U_SIZE = 9
F_TURNED, F_BASE_SET, F_REFILL, F_RESTORE = 1, 2, 4, 8

# ------------------------------------------------------------------------------------------
# numbered deals (the numba twin of solitaire_odds.game.deals.deck)


@kernel
def shuffled_deck(deal, ncards, out):
    """Fill ``out[:ncards]`` with deal number ``deal``'s deck (see solitaire_odds.game.deals)."""
    for c in range(ncards):
        out[c] = c % 52
    state = U64(deal)
    for i in range(ncards - 1, 0, -1):
        state = state + U64(0x9E3779B97F4A7C15)
        z = mix(state)
        j = z % U64(i + 1)
        t = out[i]
        out[i] = out[j]
        out[j] = t


@inline_kernel
def mix(z):
    """splitmix64's finaliser: a bijection of 64-bit words that scatters every input bit."""
    z = (z ^ (z >> U64(30))) * U64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> U64(27))) * U64(0x94D049BB133111EB)
    return z ^ (z >> U64(31))


# ------------------------------------------------------------------------------------------
# small accessors


@inline_kernel
def plen(s, pa, p):
    return np.int64(s[pa[O_PLEN] + p])


@inline_kernel
def pcard(s, pa, p, i):
    return np.int64(s[pa[O_PCARDS] + p * pa[P_CAP] + i])


# ------------------------------------------------------------------------------------------
# hashing: one pseudo-random value per (region, index, card), XORed in and out


Z_VALUES = 64  # values hashed at a place: card values 0..51, foundation counts 0..13


def _zobrist_table() -> np.ndarray:
    """Two pseudo-random 64-bit values per (region, index, value): splitmix64's output stream
    from a fixed start, so every machine and run hashes alike. A numba kernel reads this
    global as a constant; looking values up instead of mixing them on the fly raised nodes/s
    by 11-32% on five games (medians of three alternating runs of experiments/benchmark_solver.py,
    deals 0..199 at 1e5: Classic Westcliff 1.32, Easthaven 1.13, Duchess 1.19, St. Helena 1.11,
    Louis 1.17; same verdicts)."""
    count = (Z_FOUND + 1) * MAX_CARDS * Z_VALUES * 2
    return mix.py_func(np.arange(1, count + 1, dtype=np.uint64) * U64(0x9E3779B97F4A7C15)).reshape(-1, 2)


ZOBRIST = _zobrist_table()


@inline_kernel
def _zob(H, slot, region, i, c):
    """Toggle the value of ``c`` (a card, or a foundation's count) at index ``i`` (a height, a
    foundation, or a face-down count with ``c`` 0) of ``region`` in H[slot:slot+2]."""
    k = (region * MAX_CARDS + i) * Z_VALUES + c
    H[slot] ^= ZOBRIST[k, 0]
    H[slot + 1] ^= ZOBRIST[k, 1]


@inline_kernel
def _pile_slot(p):
    """Where pile ``p``'s hash is in H; its part of the pile sum follows it."""
    return H_PILES + H_PILE_WORDS * p


@inline_kernel
def hash_words(pa):
    """How many leading words of H hold a position's hashes (what a copy of them needs)."""
    return H_PILES + H_PILE_WORDS * (pa[P_NPILES] + pa[P_NRES])


@inline_kernel
def interchangeable_now(s, pa):
    """Are the piles interchangeable at ``s`` (always, or once the stock is empty)?"""
    return (pa[C_INTERCHANGEABLE_PILES] == 1) | ((pa[C_INTERCHANGEABLE_WITHOUT_STOCK] == 1) & (s[pa[O_SLEN]] == 0))


@inline_kernel
def _salt(s, pa, p):
    """Pile ``p``'s salt in the pile sum: its number, or only its group (tableau 0, reserve 1)
    where piles are interchangeable, always or, where the deal order stops mattering with the
    stock, once the stock is empty (then a dealt row that empties it rebuilds the sum, see
    :func:`_rebuild_pile_sum`)."""
    if interchangeable_now(s, pa):
        return U64(1) if p >= pa[P_NPILES] else U64(0)
    return U64(p + 2)


@inline_kernel
def _part_out(H, p):
    """Take pile ``p``'s part (kept beside its hash) out of the pile sum."""
    at = _pile_slot(p) + 2
    H[H_PSUM] -= H[at]
    H[H_PSUM + 1] -= H[at + 1]


@inline_kernel
def _part_in(s, pa, H, p):
    """Mix pile ``p``'s hash with its salt into its part, keep the part, add it to the sum:
    mixing makes the sum of parts a hash of the set of piles where salts are shared."""
    at = _pile_slot(p)
    salt = _salt(s, pa, p) * U64(0xA0761D6478BD642F)
    a = mix(H[at] + salt)
    b = mix(H[at + 1] ^ salt)
    H[at + 2] = a
    H[at + 3] = b
    H[H_PSUM] += a
    H[H_PSUM + 1] += b


@inline_kernel
def _rebuild_pile_sum(s, pa, H):
    """Every pile's part and the pile sum afresh from the piles' hashes."""
    H[H_PSUM] = U64(0)
    H[H_PSUM + 1] = U64(0)
    for p in range(pa[P_NPILES] + pa[P_NRES]):
        _part_in(s, pa, H, p)


@inline_kernel
def _save_part(H, p, undo, at):
    q = _pile_slot(p) + 2
    undo[at] = H[q]
    undo[at + 1] = H[q + 1]


@inline_kernel
def _restore_part(H, p, undo, at):
    q = _pile_slot(p) + 2
    H[q] = undo[at]
    H[q + 1] = undo[at + 1]


@kernel
def init_hash(s, pa, H):
    """Compute every part of H from scratch (at a root, and after a move that rebuilds the
    tableau)."""
    for i in range(hash_words(pa)):
        H[i] = U64(0)
    for p in range(pa[P_NPILES] + pa[P_NRES]):
        for i in range(plen(s, pa, p)):
            _zob(H, _pile_slot(p), Z_PILE, i, pcard(s, pa, p, i))
        _zob(H, _pile_slot(p), Z_DOWN, s[pa[O_PDOWN] + p], 0)
    _rebuild_pile_sum(s, pa, H)
    for i in range(s[pa[O_SLEN]]):
        _zob(H, H_STOCK, Z_STOCK, i, s[pa[O_STOCK] + i])
    for i in range(s[pa[O_WLEN]]):
        _zob(H, H_WASTE, Z_WASTE, i, s[pa[O_WASTE] + i])
    for j in range(pa[P_NFOUND]):
        _zob(H, H_FOUND, Z_FOUND, j, s[pa[O_FOUND] + j])


@inline_kernel
def position_key(s, pa, H):
    """The 128-bit key (two uint64) of ``s``, whose hashes H are up to date."""
    word = (U64(s[pa[O_REDEALS]]) | (U64(s[pa[O_BASE]]) << U64(8)) | (U64(s[pa[O_OPENING]]) << U64(16))
            | (U64(s[pa[O_WLIVE]]) << U64(24)))
    k1 = H[H_PSUM] ^ H[H_STOCK] ^ H[H_WASTE] ^ H[H_FOUND] ^ mix(word + U64(0x8EBC6AF09C88C6E3))
    k2 = H[H_PSUM + 1] ^ H[H_STOCK + 1] ^ H[H_WASTE + 1] ^ H[H_FOUND + 1] ^ mix(word ^ U64(0x589965CC75374CC3))
    return k1, k2


@kernel
def state_key(s, pa, H):
    """The key of ``s`` computed from scratch (H is overwritten): for callers that do not keep
    H up to date move by move."""
    init_hash(s, pa, H)
    return position_key(s, pa, H)


# ------------------------------------------------------------------------------------------
# card operations that keep H up to date


@inline_kernel
def _push(s, pa, H, p, c):
    _stack_push(s, H, pa[O_PLEN] + p, pa[O_PCARDS] + p * pa[P_CAP], _pile_slot(p), Z_PILE, c)


@inline_kernel
def _pop(s, pa, H, p):
    return _stack_pop(s, H, pa[O_PLEN] + p, pa[O_PCARDS] + p * pa[P_CAP], _pile_slot(p), Z_PILE)


@inline_kernel
def _set_down(s, pa, H, p, d):
    _zob(H, _pile_slot(p), Z_DOWN, s[pa[O_PDOWN] + p], 0)
    s[pa[O_PDOWN] + p] = d
    _zob(H, _pile_slot(p), Z_DOWN, d, 0)


@inline_kernel
def _stack_push(s, H, length_at, start, slot, region, c):
    """Push ``c`` on the stack of cards at ``start`` whose length is at ``length_at``."""
    n = s[length_at]
    s[start + n] = c
    s[length_at] = n + 1
    _zob(H, slot, region, n, c)


@inline_kernel
def _stack_pop(s, H, length_at, start, slot, region):
    n = s[length_at] - 1
    s[length_at] = n
    c = np.int64(s[start + n])
    _zob(H, slot, region, n, c)
    return c


@inline_kernel
def _stock_push(s, pa, H, c):
    _stack_push(s, H, pa[O_SLEN], pa[O_STOCK], H_STOCK, Z_STOCK, c)


@inline_kernel
def _stock_pop(s, pa, H):
    return _stack_pop(s, H, pa[O_SLEN], pa[O_STOCK], H_STOCK, Z_STOCK)


@inline_kernel
def _waste_push(s, pa, H, c):
    _stack_push(s, H, pa[O_WLEN], pa[O_WASTE], H_WASTE, Z_WASTE, c)


@inline_kernel
def _waste_pop(s, pa, H):
    return _stack_pop(s, H, pa[O_WLEN], pa[O_WASTE], H_WASTE, Z_WASTE)


@inline_kernel
def _found_add(s, pa, H, j, delta):
    _zob(H, H_FOUND, Z_FOUND, j, s[pa[O_FOUND] + j])
    s[pa[O_FOUND] + j] += delta
    _zob(H, H_FOUND, Z_FOUND, j, s[pa[O_FOUND] + j])


# ------------------------------------------------------------------------------------------
# the rules


@inline_kernel
def found_next(s, pa, j):
    """Rank foundation ``j`` takes next, or -1 when it is full or has no base yet."""
    cnt = np.int64(s[pa[O_FOUND] + j])
    if cnt >= 13:
        return -1
    kind = pa[P_FOUND_KIND]
    if kind == FOUND_SUIT_UP:
        return cnt
    if kind == FOUND_KINGS_AND_ACES:
        return 12 - cnt if j < 4 else cnt
    base = np.int64(s[pa[O_BASE]])
    if base == NO_BASE:
        return -1
    return (base + cnt) % 13


@inline_kernel
def found_top(s, pa, j):
    """Card on top of foundation ``j`` (it must hold at least one)."""
    cnt = np.int64(s[pa[O_FOUND] + j])
    kind = pa[P_FOUND_KIND]
    if kind == FOUND_SUIT_UP:
        r = cnt - 1
    elif kind == FOUND_KINGS_AND_ACES:
        r = 13 - cnt if j < 4 else cnt - 1
    else:
        r = (np.int64(s[pa[O_BASE]]) + cnt - 1) % 13
    return (j % 4) * 13 + r


@inline_kernel
def fits_found(s, pa, c, j):
    if c // 13 != j % 4:
        return False
    return c % 13 == found_next(s, pa, j)


@inline_kernel
def _bit(c):
    return U64(1) << U64(c)


@inline_kernel
def is_red(c):
    """Is card value ``c`` a heart or a diamond (suits 1 and 2)?"""
    return ((c // 13) == 1) | ((c // 13) == 2)


@inline_kernel
def wanted(s, pa):
    """The card values the foundations take next, as two bit masks: the UPPER group's (the King
    foundations, or every foundation of a one-deck game) and the LOWER group's (Ace foundations)."""
    upper = U64(0)
    lower = U64(0)
    for j in range(pa[P_NFOUND]):
        r = found_next(s, pa, j)
        if r >= 0:
            if j < 4:
                upper |= _bit((j % 4) * 13 + r)
            else:
                lower |= _bit((j % 4) * 13 + r)
    return upper, lower


@inline_kernel
def fits_some_foundation(s, pa, c):
    upper, lower = wanted(s, pa)
    return ((upper | lower) & _bit(c)) != 0


@inline_kernel
def builds_on(pa, c, onto):
    """May card ``c`` be placed on card ``onto`` in the tableau? (compile.builds_on, as a mask)"""
    return ((U64(pa[P_ACCEPT + c]) >> U64(onto)) & U64(1)) != 0


@inline_kernel
def space_takes(s, pa, c, source):
    """May a run with bottom card ``c`` coming from ``source`` (a place code) enter a space?"""
    rule = pa[P_SPACE]
    if rule == SPACE_ANY:
        return True
    if rule == SPACE_KING:
        return c % 13 == 12
    if rule == SPACE_RESERVE_THEN_WASTE:  # reserve while it lasts, then waste, or stock if no waste
        nres = pa[P_NRES]
        npiles = pa[P_NPILES]
        if npiles <= source < npiles + nres:
            return True
        for r in range(nres):
            if s[pa[O_PLEN] + npiles + r] > 0:
                return False
        if source == PLACE_WASTE:
            return True
        return (source == PLACE_STOCK) & (s[pa[O_WLEN]] == 0)
    return False


@inline_kernel
def is_won(s, pa):
    for j in range(pa[P_NFOUND]):
        if s[pa[O_FOUND] + j] != 13:
            return False
    return True


# ------------------------------------------------------------------------------------------
# move generation: the per-position facts (top cards, what the foundations want) are gathered
# once, then each source card finds its destinations with one mask test


@inline_kernel
def _add(out, n, kind, src, dst, cnt):
    out[n, 0] = kind
    out[n, 1] = src
    out[n, 2] = dst
    out[n, 3] = cnt
    return n + 1


@inline_kernel
def run_length(s, pa, p):
    """Face-up cards on top of pile ``p`` that form a movable sequence."""
    n = plen(s, pa, p)
    if n == 0:
        return 0
    if pa[P_RUN] == RUN_SINGLE:
        return 1
    down = np.int64(s[pa[O_PDOWN] + p])
    k = 1
    while n - k - 1 >= down and builds_on(pa, pcard(s, pa, p, n - k), pcard(s, pa, p, n - k - 1)):
        k += 1
    return k


@inline_kernel
def tableau_tops(s, pa):
    """The bit mask of the tableau piles' top card values, and the number of spaces."""
    tops = U64(0)
    spaces = 0
    for q in range(pa[P_NPILES]):
        m = plen(s, pa, q)
        if m > 0:
            tops |= _bit(pcard(s, pa, q, m - 1))
        else:
            spaces += 1
    return tops, spaces


@inline_kernel
def _to_piles(s, pa, out, n, c, src, k, tops, spaces, first_space_only):
    """Moves of ``k`` cards with bottom card ``c`` from ``src`` onto every tableau pile whose top
    card takes it, and into the spaces (only the first one when ``first_space_only``)."""
    hits = U64(pa[P_ACCEPT + c]) & tops
    into_space = spaces > 0 and space_takes(s, pa, c, src)
    if hits == 0 and not into_space:
        return n
    one_deck = pa[P_NCARDS] == 52  # each card value tops at most one pile: a found hit is done
    for q in range(pa[P_NPILES]):
        if q == src:
            continue
        m = plen(s, pa, q)
        if m > 0:
            top = _bit(pcard(s, pa, q, m - 1))
            if (hits & top) != 0:
                n = _add(out, n, MOVE, src, q, k)
                if one_deck:
                    hits &= ~top
                    if hits == 0 and not into_space:
                        break
        elif into_space:
            n = _add(out, n, MOVE, src, q, k)
            if first_space_only:
                into_space = False
                if hits == 0:
                    break
    return n


@inline_kernel
def to_foundations(out, n, c, src, groups, upper, lower):
    """Write at ``out[n]`` the moves of card ``c`` from ``src`` to the foundations of ``groups``
    that want it (``wanted``'s masks), the UPPER one first; return the new count."""
    if (groups & UPPER) != 0 and (upper & _bit(c)) != 0:
        n = _add(out, n, MOVE, src, PLACE_FOUND + c // 13, 1)
    if (groups & LOWER) != 0 and (lower & _bit(c)) != 0:
        n = _add(out, n, MOVE, src, PLACE_FOUND + 4 + c // 13, 1)
    return n


@inline_kernel
def _waste_moves(s, pa, out, n, upper, lower, tops, spaces, first_space_only):
    """The moves of the waste's top card, where it is playable."""
    wlen = np.int64(s[pa[O_WLEN]])
    if wlen > 0 and (pa[P_WASTE_PLAYABLE] == 1 or s[pa[O_WLIVE]] == 1):
        c = np.int64(s[pa[O_WASTE] + wlen - 1])
        n = to_foundations(out, n, c, PLACE_WASTE, UPPER | LOWER, upper, lower)
        n = _to_piles(s, pa, out, n, c, PLACE_WASTE, 1, tops, spaces, first_space_only)
    return n


@inline_kernel
def turned_moves(s, pa, out, first_space_only):
    """The moves the search lists at a position reached by a turn where reductions.turn_to_play
    holds: the waste top's, then another turn; as :func:`generate` lists them, without the rest."""
    upper, lower = wanted(s, pa)
    tops, spaces = tableau_tops(s, pa)
    n = _waste_moves(s, pa, out, 0, upper, lower, tops, spaces, first_space_only)
    if s[pa[O_SLEN]] > 0:
        n = _add(out, n, TURN, 0, 0, 0)
    return n


@kernel
def generate(s, pa, out, first_space_only):
    """Write the legal moves into ``out`` (rows [kind, src, dst, n]); return their count. With
    ``first_space_only`` a card or run enters only the first space, not each of them: for the
    search where piles are interchangeable, the others give the same position renumbered."""
    if is_won(s, pa):
        return 0
    npiles = pa[P_NPILES]
    nres = pa[P_NRES]
    both = UPPER | LOWER
    upper, lower = wanted(s, pa)
    n = 0
    if s[pa[O_OPENING]] == 1:  # the opening: foundation plays, else deal the rest
        for p in range(npiles):
            m = plen(s, pa, p)
            if m > 0:
                n = to_foundations(out, n, pcard(s, pa, p, m - 1), p, both, upper, lower)
        if n == 0:
            n = _add(out, n, DEAL, 0, 0, 0)
        return n
    if pa[P_FOUND_KIND] == FOUND_CHOSEN_BASE and s[pa[O_BASE]] == NO_BASE:  # choose the base first
        for r in range(npiles, npiles + nres):
            m = plen(s, pa, r)
            if m > 0:
                n = _add(out, n, MOVE, r, PLACE_FOUND + pcard(s, pa, r, m - 1) // 13, 1)
        return n
    tops, spaces = tableau_tops(s, pa)
    limited = (pa[P_FIRST_DEAL_LIMITS] == 1) & (s[pa[O_REDEALS]] == 0)
    rule = pa[P_RUN]
    # tableau piles: top card to a foundation, runs to other piles or spaces
    for p in range(npiles):
        m = plen(s, pa, p)
        if m == 0:
            continue
        n = to_foundations(out, n, pcard(s, pa, p, m - 1), p, pa[P_PILE_FOUND + p] if limited else both, upper, lower)
        longest = run_length(s, pa, p)
        for k in range(1, longest + 1):
            if k == 1 or rule == RUN_PARTIAL or (rule == RUN_WHOLE and k == longest):
                n = _to_piles(s, pa, out, n, pcard(s, pa, p, m - k), p, k, tops, spaces, first_space_only)
    # reserve fans: their top cards go up or onto the tableau
    for r in range(npiles, npiles + nres):
        m = plen(s, pa, r)
        if m > 0:
            c = pcard(s, pa, r, m - 1)
            n = to_foundations(out, n, c, r, both, upper, lower)
            n = _to_piles(s, pa, out, n, c, r, 1, tops, spaces, first_space_only)
    n = _waste_moves(s, pa, out, n, upper, lower, tops, spaces, first_space_only)
    wlen = np.int64(s[pa[O_WLEN]])
    slen = np.int64(s[pa[O_SLEN]])
    # a stock card straight into a space (reserve and waste empty)
    if pa[P_SPACE] == SPACE_RESERVE_THEN_WASTE and slen > 0 and wlen == 0 and spaces > 0:
        n = _to_piles(s, pa, out, n, np.int64(s[pa[O_STOCK] + slen - 1]), PLACE_STOCK, 1, U64(0), spaces,
                      first_space_only)
    # foundation cards coming back, or crossing to the other foundation of their suit
    for j in range(pa[P_NFOUND]):
        cnt = s[pa[O_FOUND] + j]
        if pa[P_FRETURN] == 1 and cnt > 0:
            n = _to_piles(s, pa, out, n, found_top(s, pa, j), PLACE_FOUND + j, 1, tops, spaces, first_space_only)
        if pa[P_FTRANSFER] == 1 and cnt > 1:
            other = (j + 4) % 8
            if fits_found(s, pa, found_top(s, pa, j), other):
                n = _add(out, n, MOVE, PLACE_FOUND + j, PLACE_FOUND + other, 1)
    # stock and redeal
    if slen > 0:
        if pa[P_STOCK] == STOCK_TURN:
            n = _add(out, n, TURN, 0, 0, 0)
        elif pa[P_STOCK] == STOCK_DEAL_ROW:
            n = _add(out, n, DEAL, 0, 0, 0)
    if s[pa[O_REDEALS]] < pa[P_REDEALS]:
        kind = pa[P_REDEAL_KIND]
        if kind == REDEAL_GATHER or (kind == REDEAL_WASTE and slen == 0 and wlen > 0):
            n = _add(out, n, REDEAL, 0, 0, 0)
    return n


@kernel
def legal_moves(s, pa, out):
    """Write every legal move into ``out`` (rows [kind, src, dst, n]); return their count."""
    return generate(s, pa, out, False)


# ------------------------------------------------------------------------------------------
# making and unmaking a move


@kernel
def _deal_round_robin(s, pa, H, cards, count):
    """Deal ``cards[:count]`` onto the piles, card k onto pile k % piles."""
    npiles = pa[P_NPILES]
    for k in range(count):
        _push(s, pa, H, k % npiles, cards[k])


@kernel
def _gather_and_redeal(s, pa, H, scratch):
    """St. Helena's redeal: pile 12 onto 11, ..., all onto pile 1, the pack dealt round the
    piles again from its top (or, turned over, from its bottom)."""
    npiles = pa[P_NPILES]
    count = 0
    for p in range(npiles - 1, -1, -1):
        for i in range(plen(s, pa, p) - 1, -1, -1):
            scratch[count] = pcard(s, pa, p, i)
            count += 1
        s[pa[O_PLEN] + p] = 0
    if pa[P_REDEAL_ORDER] == REDEAL_BOTTOM_FIRST:
        for i in range(count // 2):
            t = scratch[i]
            scratch[i] = scratch[count - 1 - i]
            scratch[count - 1 - i] = t
    _deal_round_robin(s, pa, H, scratch, count)


@inline_kernel
def _take_card(s, pa, H, src):
    """Remove and return the single card on top of ``src``."""
    if src == PLACE_WASTE:
        return _waste_pop(s, pa, H)
    if src == PLACE_STOCK:
        return _stock_pop(s, pa, H)
    if src >= PLACE_FOUND:
        j = src - PLACE_FOUND
        c = found_top(s, pa, j)
        _found_add(s, pa, H, j, -1)
        return c
    return _pop(s, pa, H, src)


@inline_kernel
def _put_card(s, pa, H, dst, c):
    """Put card ``c`` on ``dst`` (a pile, the waste, the stock or a foundation)."""
    if dst == PLACE_WASTE:
        _waste_push(s, pa, H, c)
    elif dst == PLACE_STOCK:
        _stock_push(s, pa, H, c)
    elif dst >= PLACE_FOUND:
        _found_add(s, pa, H, dst - PLACE_FOUND, 1)
    else:
        _push(s, pa, H, dst, c)


@kernel
def do_move(s, pa, H, mv, undo, save, scratch):
    """Play move ``mv`` (a row [kind, src, dst, n]) on ``s`` in place, keeping H up to date, and
    write into ``undo`` what :func:`undo_move` needs. A move that rebuilds the tableau (a
    gathering redeal, the end of an opening) first copies ``s`` into ``save``. ``scratch``
    holds at least ``ncards`` bytes."""
    kind = mv[0]
    npiles = pa[P_NPILES]
    flags = 0
    undo[U_PSUM] = H[H_PSUM]
    undo[U_PSUM + 1] = H[H_PSUM + 1]
    undo[U_WLIVE] = s[pa[O_WLIVE]]
    live = 0
    if kind == MOVE:
        src = np.int64(mv[1])
        dst = np.int64(mv[2])
        if src < PLACE_WASTE:
            _save_part(H, src, undo, U_SRC_PART)
            _part_out(H, src)
        if dst < PLACE_WASTE:
            _save_part(H, dst, undo, U_DST_PART)
            _part_out(H, dst)
        if src < PLACE_WASTE and dst < PLACE_WASTE:  # pile to pile: a run of k cards
            k = np.int64(mv[3])
            m = plen(s, pa, src)
            for i in range(m - k, m):
                _push(s, pa, H, dst, pcard(s, pa, src, i))
            for i in range(k):
                _pop(s, pa, H, src)
        else:
            c = _take_card(s, pa, H, src)
            if dst >= PLACE_FOUND and pa[P_FOUND_KIND] == FOUND_CHOSEN_BASE and s[pa[O_BASE]] == NO_BASE:
                s[pa[O_BASE]] = c % 13
                flags |= F_BASE_SET
            _put_card(s, pa, H, dst, c)
        if src < PLACE_WASTE:
            m = plen(s, pa, src)
            if m > 0 and s[pa[O_PDOWN] + src] >= m:
                _set_down(s, pa, H, src, m - 1)
                flags |= F_TURNED
            if s[pa[O_OPENING]] == 1 and src < npiles and m == 0 and s[pa[O_SLEN]] > 0:
                _push(s, pa, H, src, _stock_pop(s, pa, H))  # the opening: an emptied pile refills at once
                flags |= F_REFILL
            _part_in(s, pa, H, src)
        if dst < PLACE_WASTE:
            _part_in(s, pa, H, dst)
    elif kind == TURN:
        _waste_push(s, pa, H, _stock_pop(s, pa, H))
        live = 1 - pa[P_WASTE_PLAYABLE]
    elif kind == DEAL and s[pa[O_OPENING]] == 0:  # a row: one card onto each pile in turn
        count = min(npiles, np.int64(s[pa[O_SLEN]]))
        for p in range(count):
            _part_out(H, p)
            _push(s, pa, H, p, _stock_pop(s, pa, H))
            _part_in(s, pa, H, p)
        undo[U_COUNT] = count
        if pa[C_INTERCHANGEABLE_WITHOUT_STOCK] == 1 and s[pa[O_SLEN]] == 0:
            _rebuild_pile_sum(s, pa, H)  # the salts change: piles are interchangeable from now on
    elif kind == REDEAL and pa[P_REDEAL_KIND] == REDEAL_WASTE:
        w = np.int64(s[pa[O_WLEN]])
        for i in range(w):
            _stock_push(s, pa, H, _waste_pop(s, pa, H))
        undo[U_COUNT] = w
        s[pa[O_REDEALS]] += 1
    else:  # the opening's final deal, or a gathering redeal: rebuild, then hash afresh
        for i in range(pa[S_SIZE]):
            save[i] = s[i]
        flags |= F_RESTORE
        if kind == DEAL:
            count = np.int64(s[pa[O_SLEN]])
            for i in range(count):
                scratch[i] = s[pa[O_STOCK] + count - 1 - i]
            s[pa[O_SLEN]] = 0
            s[pa[O_OPENING]] = 0
            for i in range(count):
                _place(s, pa, i % npiles, scratch[i])
        else:
            _gather_and_redeal(s, pa, H, scratch)
            s[pa[O_REDEALS]] += 1
        init_hash(s, pa, H)
    s[pa[O_WLIVE]] = live
    undo[U_FLAGS] = flags


@kernel
def undo_move(s, pa, H, mv, undo, save):
    """Take back move ``mv`` played by :func:`do_move` with record ``undo`` (and ``save``)."""
    kind = mv[0]
    flags = undo[U_FLAGS]
    if flags & F_RESTORE:
        for i in range(pa[S_SIZE]):
            s[i] = save[i]
        init_hash(s, pa, H)
        return
    s[pa[O_WLIVE]] = undo[U_WLIVE]
    if kind == MOVE:
        src = np.int64(mv[1])
        dst = np.int64(mv[2])
        if flags & F_REFILL:
            _stock_push(s, pa, H, _pop(s, pa, H, src))
        if flags & F_TURNED:
            _set_down(s, pa, H, src, s[pa[O_PDOWN] + src] + 1)
        if src < PLACE_WASTE and dst < PLACE_WASTE:
            k = np.int64(mv[3])
            m = plen(s, pa, dst)
            for i in range(m - k, m):
                _push(s, pa, H, src, pcard(s, pa, dst, i))
            for i in range(k):
                _pop(s, pa, H, dst)
        else:
            if dst >= PLACE_FOUND:
                c = found_top(s, pa, dst - PLACE_FOUND)
                _found_add(s, pa, H, dst - PLACE_FOUND, -1)
            else:
                c = _take_card(s, pa, H, dst)
            if flags & F_BASE_SET:
                s[pa[O_BASE]] = NO_BASE
            if src >= PLACE_FOUND:
                _found_add(s, pa, H, src - PLACE_FOUND, 1)
            else:
                _put_card(s, pa, H, src, c)
        if src < PLACE_WASTE:
            _restore_part(H, src, undo, U_SRC_PART)
        if dst < PLACE_WASTE:
            _restore_part(H, dst, undo, U_DST_PART)
    elif kind == TURN:
        _stock_push(s, pa, H, _waste_pop(s, pa, H))
    elif kind == DEAL:
        for p in range(np.int64(undo[U_COUNT]) - 1, -1, -1):
            _stock_push(s, pa, H, _pop(s, pa, H, p))
        _rebuild_pile_sum(s, pa, H)  # rare: the parts of the dealt piles (and, if salts changed, all)
        return
    else:
        for i in range(np.int64(undo[U_COUNT])):
            _waste_push(s, pa, H, _stock_pop(s, pa, H))
        s[pa[O_REDEALS]] -= 1
    H[H_PSUM] = undo[U_PSUM]
    H[H_PSUM + 1] = undo[U_PSUM + 1]


# ------------------------------------------------------------------------------------------
# the first position of a deal


@kernel
def deal_into(s, pa, deck, scratch):
    """Lay out ``deck`` (face codes, deck[0] dealt first) as the game's first position."""
    for i in range(pa[S_SIZE]):
        s[i] = 0
    s[pa[O_BASE]] = NO_BASE
    ncards = pa[P_NCARDS]
    npiles = pa[P_NPILES]
    count = 0  # the deck but the cards that start the foundations, into scratch
    for i in range(ncards):
        c = deck[i]
        r = c % 13
        j = c // 13
        if pa[P_FOUND_KIND] == FOUND_KINGS_AND_ACES and r == 12 and s[pa[O_FOUND] + j] == 0:
            s[pa[O_FOUND] + j] = 1
        elif pa[P_FOUND_KIND] == FOUND_KINGS_AND_ACES and r == 0 and s[pa[O_FOUND] + 4 + j] == 0:
            s[pa[O_FOUND] + 4 + j] = 1
        elif pa[P_ACES_OUT] == 1 and r == 0:
            s[pa[O_FOUND] + j] = 1
        else:
            scratch[count] = c
            count += 1
    used = 0
    for f in range(pa[P_NRES]):  # reserve fans are dealt first
        for i in range(pa[P_FAN_SIZE]):
            _place(s, pa, npiles + f, scratch[used])
            used += 1
    pattern = pa[P_DEAL_PATTERN]
    if pattern == DEAL_ROWS:
        rows = pa[P_ROWS_DOWN] + 1
        for row in range(rows):
            for p in range(npiles):
                _place(s, pa, p, scratch[used])
                used += 1
        for p in range(npiles):
            s[pa[O_PDOWN] + p] = rows - 1
    elif pattern == DEAL_ROUND_ROBIN:
        for k in range(count - used):
            _place(s, pa, k % npiles, scratch[used + k])
        used = count
    elif pattern == DEAL_ONE_EACH:
        for p in range(npiles):
            _place(s, pa, p, scratch[used])
            used += 1
    s[pa[O_OPENING]] = pa[P_OPENING] != OPENING_NONE
    for k in range(count - 1, used - 1, -1):  # the rest is the stock, next card on top
        n = s[pa[O_SLEN]]
        s[pa[O_STOCK] + n] = scratch[k]
        s[pa[O_SLEN]] = n + 1


@inline_kernel
def _place(s, pa, p, c):
    """Put ``c`` on pile ``p`` while dealing (the key is computed afterwards)."""
    n = s[pa[O_PLEN] + p]
    s[pa[O_PCARDS] + p * pa[P_CAP] + n] = c
    s[pa[O_PLEN] + p] = n + 1
