"""Numba kernels: shuffle, deal, legal moves, apply, win test and the 128-bit state key.

All kernels take the flat ``uint8`` state and the ``params`` vector of :mod:`.layout`; none
allocates. Each kernel mirrors a clause of docs/rules-readings.md and is checked move for move
against the plain-Python reference (tests/test_differential.py).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .layout import (
    DEAL, MOVE, NO_BASE, O_BASE, O_FOUND, O_OPENING, O_PCARDS, O_PDOWN, O_PLEN, O_REDEALS, O_SLEN,
    O_STOCK, O_WASTE, O_WLEN, O_WLIVE, P_ACES_OUT, P_BUILD, P_CAP, P_FOUND_KIND, P_FRETURN,
    P_FTRANSFER, P_LAYOUT, P_NCARDS, P_NFOUND, P_NPILES, P_NRES, P_REDEAL_KIND, P_REDEAL_ORDER,
    P_REDEALS, P_RESTRICT, P_ROWS_DOWN, P_RUN, P_SAME_SUIT, P_SPACE, P_STOCK, P_WASTE_PLAYABLE,
    P_WRAP, PLACE_FOUND, PLACE_STOCK, PLACE_WASTE, REDEAL, REDEAL_KIND_GATHER, REDEAL_KIND_WASTE,
    S_SIZE, TURN,
)

U64 = np.uint64

# ------------------------------------------------------------------------------------------
# numbered deals (the numba twin of solitaire_odds.deals.deck)


@njit(cache=True)
def shuffled_deck(deal, ncards, out):
    """Fill ``out[:ncards]`` with deal number ``deal``'s deck (see solitaire_odds.deals)."""
    for c in range(ncards):
        out[c] = c % 52
    state = U64(deal)
    for i in range(ncards - 1, 0, -1):
        state = state + U64(0x9E3779B97F4A7C15)
        z = state
        z = (z ^ (z >> U64(30))) * U64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> U64(27))) * U64(0x94D049BB133111EB)
        z = z ^ (z >> U64(31))
        j = z % U64(i + 1)
        t = out[i]
        out[i] = out[j]
        out[j] = t


# ------------------------------------------------------------------------------------------
# small accessors


@njit(cache=True, inline="always")
def _rank(c):
    return c % 13


@njit(cache=True, inline="always")
def _suit(c):
    return c // 13


@njit(cache=True, inline="always")
def _red(c):
    s = c // 13
    return (s == 1) | (s == 2)


@njit(cache=True, inline="always")
def plen(s, pa, p):
    return np.int64(s[pa[O_PLEN] + p])


@njit(cache=True, inline="always")
def pcard(s, pa, p, i):
    return np.int64(s[pa[O_PCARDS] + p * pa[P_CAP] + i])


@njit(cache=True, inline="always")
def _push(s, pa, p, c):
    n = s[pa[O_PLEN] + p]
    s[pa[O_PCARDS] + p * pa[P_CAP] + n] = c
    s[pa[O_PLEN] + p] = n + 1


@njit(cache=True, inline="always")
def _stock_push(s, pa, c):
    n = s[pa[O_SLEN]]
    s[pa[O_STOCK] + n] = c
    s[pa[O_SLEN]] = n + 1


@njit(cache=True, inline="always")
def _stock_pop(s, pa):
    n = s[pa[O_SLEN]] - 1
    s[pa[O_SLEN]] = n
    return s[pa[O_STOCK] + n]


@njit(cache=True)
def found_next(s, pa, j):
    """Rank foundation ``j`` takes next, or -1 when it is full or has no base yet."""
    cnt = np.int64(s[pa[O_FOUND] + j])
    if cnt >= 13:
        return -1
    kind = pa[P_FOUND_KIND]
    if kind == 0:
        return cnt
    if kind == 1:
        return 12 - cnt if j < 4 else cnt
    base = np.int64(s[pa[O_BASE]])
    if base == NO_BASE:
        return -1
    return (base + cnt) % 13


@njit(cache=True)
def found_top(s, pa, j):
    """Card on top of foundation ``j`` (it must hold at least one)."""
    cnt = np.int64(s[pa[O_FOUND] + j])
    kind = pa[P_FOUND_KIND]
    if kind == 0:
        r = cnt - 1
    elif kind == 1:
        r = 13 - cnt if j < 4 else cnt - 1
    else:
        r = (np.int64(s[pa[O_BASE]]) + cnt - 1) % 13
    return (j % 4) * 13 + r


@njit(cache=True)
def fits_found(s, pa, c, j):
    if _suit(c) != j % 4:
        return False
    return _rank(c) == found_next(s, pa, j)


@njit(cache=True)
def builds_on(pa, c, onto):
    """May card ``c`` be placed on card ``onto`` in the tableau?"""
    rc = _rank(c)
    ro = _rank(onto)
    if pa[P_BUILD] == 0:  # down in alternating colours
        if _red(c) == _red(onto):
            return False
        if rc + 1 == ro:
            return True
        return (pa[P_WRAP] == 1) & (rc == 12) & (ro == 0)
    if pa[P_SAME_SUIT] == 1 and _suit(c) != _suit(onto):
        return False
    if rc + 1 == ro or rc == ro + 1:
        return True
    if pa[P_WRAP] != 1:
        return False
    return ((rc == 12) & (ro == 0)) | ((rc == 0) & (ro == 12))


@njit(cache=True)
def space_takes(s, pa, c, source):
    """May a run with bottom card ``c`` coming from ``source`` (a place code) enter a space?"""
    rule = pa[P_SPACE]
    if rule == 1:
        return True
    if rule == 2:
        return _rank(c) == 12
    if rule == 3:  # Duchess: reserve while it lasts, then waste, or stock if no waste
        nres = pa[P_NRES]
        npiles = pa[P_NPILES]
        reserve_left = False
        for r in range(nres):
            if s[pa[O_PLEN] + npiles + r] > 0:
                reserve_left = True
        if npiles <= source < npiles + nres:
            return True
        if reserve_left:
            return False
        if source == PLACE_WASTE:
            return True
        return (source == PLACE_STOCK) & (s[pa[O_WLEN]] == 0)
    return False


@njit(cache=True)
def is_won(s, pa):
    for j in range(pa[P_NFOUND]):
        if s[pa[O_FOUND] + j] != 13:
            return False
    return True


# ------------------------------------------------------------------------------------------
# move generation


@njit(cache=True, inline="always")
def _add(out, n, kind, src, dst, cnt):
    out[n, 0] = kind
    out[n, 1] = src
    out[n, 2] = dst
    out[n, 3] = cnt
    return n + 1


@njit(cache=True)
def run_length(s, pa, p):
    """Face-up cards on top of pile ``p`` that form a movable sequence."""
    n = plen(s, pa, p)
    if n == 0:
        return 0
    down = np.int64(s[pa[O_PDOWN] + p])
    k = 1
    while n - k - 1 >= down and builds_on(pa, pcard(s, pa, p, n - k), pcard(s, pa, p, n - k - 1)):
        k += 1
    return k


@njit(cache=True)
def _card_to_piles(s, pa, out, n, c, src, skip):
    """Moves of one card ``c`` from ``src`` onto a pile by building or into a space."""
    for q in range(pa[P_NPILES]):
        if q == skip:
            continue
        m = plen(s, pa, q)
        if m > 0:
            if builds_on(pa, c, pcard(s, pa, q, m - 1)):
                n = _add(out, n, MOVE, src, q, 1)
        elif space_takes(s, pa, c, src):
            n = _add(out, n, MOVE, src, q, 1)
    return n


@njit(cache=True)
def _card_to_found(s, pa, out, n, c, src):
    for j in range(pa[P_NFOUND]):
        if fits_found(s, pa, c, j):
            n = _add(out, n, MOVE, src, PLACE_FOUND + j, 1)
    return n


@njit(cache=True)
def legal_moves(s, pa, out):
    """Write every legal move into ``out`` (rows [kind, src, dst, n]); return their count."""
    if is_won(s, pa):
        return 0
    npiles = pa[P_NPILES]
    nres = pa[P_NRES]
    n = 0
    if s[pa[O_OPENING]] == 1:  # Louis' opening: foundation plays, else deal the rest
        for p in range(npiles):
            m = plen(s, pa, p)
            if m > 0:
                n = _card_to_found(s, pa, out, n, pcard(s, pa, p, m - 1), p)
        if n == 0:
            n = _add(out, n, DEAL, 0, 0, 0)
        return n
    if pa[P_FOUND_KIND] == 2 and s[pa[O_BASE]] == NO_BASE:  # Duchess: choose the base first
        for r in range(npiles, npiles + nres):
            m = plen(s, pa, r)
            if m > 0:
                c = pcard(s, pa, r, m - 1)
                n = _add(out, n, MOVE, r, PLACE_FOUND + _suit(c), 1)
        return n
    restrict = (pa[P_RESTRICT] == 1) & (s[pa[O_REDEALS]] == 0)
    run_rule = pa[P_RUN]
    # tableau piles: top card to a foundation, runs to other piles or spaces
    for p in range(npiles):
        m = plen(s, pa, p)
        if m == 0:
            continue
        c = pcard(s, pa, p, m - 1)
        for j in range(pa[P_NFOUND]):
            if restrict:
                if p < 4 and j >= 4:
                    continue
                if 6 <= p < 10 and j < 4:
                    continue
            if fits_found(s, pa, c, j):
                n = _add(out, n, MOVE, p, PLACE_FOUND + j, 1)
        longest = run_length(s, pa, p)
        for k in range(1, longest + 1):
            if run_rule == 0 and k > 1:
                break
            if run_rule == 1 and k > 1 and k < longest:
                continue
            bottom = pcard(s, pa, p, m - k)
            for q in range(npiles):
                if q == p:
                    continue
                mq = plen(s, pa, q)
                if mq > 0:
                    if builds_on(pa, bottom, pcard(s, pa, q, mq - 1)):
                        n = _add(out, n, MOVE, p, q, k)
                elif space_takes(s, pa, bottom, p):
                    n = _add(out, n, MOVE, p, q, k)
    # reserve fans (Duchess)
    for r in range(npiles, npiles + nres):
        m = plen(s, pa, r)
        if m > 0:
            c = pcard(s, pa, r, m - 1)
            n = _card_to_found(s, pa, out, n, c, r)
            n = _card_to_piles(s, pa, out, n, c, r, -1)
    # waste
    wlen = np.int64(s[pa[O_WLEN]])
    if wlen > 0 and (pa[P_WASTE_PLAYABLE] == 1 or s[pa[O_WLIVE]] == 1):
        c = np.int64(s[pa[O_WASTE] + wlen - 1])
        n = _card_to_found(s, pa, out, n, c, PLACE_WASTE)
        n = _card_to_piles(s, pa, out, n, c, PLACE_WASTE, -1)
    slen = np.int64(s[pa[O_SLEN]])
    # stock card straight into a space (Duchess, reserve and waste empty)
    if pa[P_SPACE] == 3 and slen > 0 and wlen == 0:
        c = np.int64(s[pa[O_STOCK] + slen - 1])
        for q in range(npiles):
            if plen(s, pa, q) == 0 and space_takes(s, pa, c, PLACE_STOCK):
                n = _add(out, n, MOVE, PLACE_STOCK, q, 1)
    # foundation cards coming back, or crossing to the other foundation of their suit
    nfound = pa[P_NFOUND]
    for j in range(nfound):
        cnt = s[pa[O_FOUND] + j]
        if pa[P_FRETURN] == 1 and cnt > 0:
            n = _card_to_piles(s, pa, out, n, found_top(s, pa, j), PLACE_FOUND + j, -1)
        if pa[P_FTRANSFER] == 1 and cnt > 1:
            other = (j + 4) % 8
            if fits_found(s, pa, found_top(s, pa, j), other):
                n = _add(out, n, MOVE, PLACE_FOUND + j, PLACE_FOUND + other, 1)
    # stock and redeal
    if slen > 0:
        if pa[P_STOCK] == 1:
            n = _add(out, n, TURN, 0, 0, 0)
        elif pa[P_STOCK] == 2:
            n = _add(out, n, DEAL, 0, 0, 0)
    used = s[pa[O_REDEALS]]
    if used < pa[P_REDEALS]:
        kind = pa[P_REDEAL_KIND]
        if kind == REDEAL_KIND_GATHER or (kind == REDEAL_KIND_WASTE and slen == 0 and wlen > 0):
            n = _add(out, n, REDEAL, 0, 0, 0)
    return n


# ------------------------------------------------------------------------------------------
# applying a move


@njit(cache=True)
def _take_card(s, pa, src):
    """Remove and return the single card on top of ``src``."""
    if src == PLACE_WASTE:
        w = s[pa[O_WLEN]] - 1
        s[pa[O_WLEN]] = w
        return np.int64(s[pa[O_WASTE] + w])
    if src == PLACE_STOCK:
        return np.int64(_stock_pop(s, pa))
    if src >= PLACE_FOUND:
        j = src - PLACE_FOUND
        c = found_top(s, pa, j)
        s[pa[O_FOUND] + j] -= 1
        return c
    m = plen(s, pa, src) - 1
    s[pa[O_PLEN] + src] = m
    return pcard(s, pa, src, m)


@njit(cache=True)
def _turn_up(s, pa, p):
    m = s[pa[O_PLEN] + p]
    if m > 0 and s[pa[O_PDOWN] + p] >= m:
        s[pa[O_PDOWN] + p] = m - 1


@njit(cache=True)
def _deal_round_robin(s, pa, cards, count):
    """Deal ``cards[:count]`` onto the piles, card k onto pile k % piles."""
    npiles = pa[P_NPILES]
    for k in range(count):
        _push(s, pa, k % npiles, cards[k])


@njit(cache=True)
def apply_move(s, pa, mv, scratch):
    """Play move ``mv`` (a row [kind, src, dst, n]) on ``s`` in place. ``scratch`` is a uint8
    buffer of at least ``ncards`` used by the St. Helena redeal."""
    kind = mv[0]
    npiles = pa[P_NPILES]
    live = 0
    if kind == MOVE:
        src = np.int64(mv[1])
        dst = np.int64(mv[2])
        k = np.int64(mv[3])
        if src < PLACE_WASTE and dst < PLACE_WASTE:  # pile to pile: a run of k cards
            m = plen(s, pa, src)
            for i in range(m - k, m):
                _push(s, pa, dst, pcard(s, pa, src, i))
            s[pa[O_PLEN] + src] = m - k
            _turn_up(s, pa, src)
        else:
            c = _take_card(s, pa, src)
            if src < PLACE_WASTE:
                _turn_up(s, pa, src)
            if dst >= PLACE_FOUND:
                j = dst - PLACE_FOUND
                if pa[P_FOUND_KIND] == 2 and s[pa[O_BASE]] == NO_BASE:
                    s[pa[O_BASE]] = _rank(c)
                s[pa[O_FOUND] + j] += 1
            else:
                _push(s, pa, dst, c)
            if s[pa[O_OPENING]] == 1 and src < npiles and plen(s, pa, src) == 0 and s[pa[O_SLEN]] > 0:
                _push(s, pa, src, _stock_pop(s, pa))  # Louis: an emptied pile refills at once
    elif kind == TURN:
        w = s[pa[O_WLEN]]
        s[pa[O_WASTE] + w] = _stock_pop(s, pa)
        s[pa[O_WLEN]] = w + 1
        live = 1 - pa[P_WASTE_PLAYABLE]
    elif kind == DEAL:
        if s[pa[O_OPENING]] == 1:
            count = np.int64(s[pa[O_SLEN]])
            for k in range(count):
                scratch[k] = _stock_pop(s, pa)
            _deal_round_robin(s, pa, scratch, count)
            s[pa[O_OPENING]] = 0
        else:
            for p in range(npiles):
                if s[pa[O_SLEN]] == 0:
                    break
                _push(s, pa, p, _stock_pop(s, pa))
    elif kind == REDEAL:
        if pa[P_REDEAL_KIND] == REDEAL_KIND_WASTE:
            w = np.int64(s[pa[O_WLEN]])
            for i in range(w):
                _stock_push(s, pa, s[pa[O_WASTE] + w - 1 - i])
            s[pa[O_WLEN]] = 0
        else:
            count = 0
            for p in range(npiles - 1, -1, -1):
                for i in range(plen(s, pa, p) - 1, -1, -1):
                    scratch[count] = pcard(s, pa, p, i)
                    count += 1
                s[pa[O_PLEN] + p] = 0
            if pa[P_REDEAL_ORDER] == 1:
                for i in range(count // 2):
                    t = scratch[i]
                    scratch[i] = scratch[count - 1 - i]
                    scratch[count - 1 - i] = t
            _deal_round_robin(s, pa, scratch, count)
        s[pa[O_REDEALS]] += 1
    s[pa[O_WLIVE]] = live


# ------------------------------------------------------------------------------------------
# the first position of a deal


@njit(cache=True)
def deal_into(s, pa, deck, scratch):
    """Lay out ``deck`` (face codes, deck[0] dealt first) as the game's first position."""
    for i in range(pa[S_SIZE]):
        s[i] = 0
    s[pa[O_BASE]] = NO_BASE
    ncards = pa[P_NCARDS]
    npiles = pa[P_NPILES]
    layout = pa[P_LAYOUT]
    count = 0  # cards of the deck left after taking out foundation bases, into scratch
    if layout == 0 or layout == 3:
        for i in range(ncards):
            if pa[P_ACES_OUT] == 1 and deck[i] % 13 == 0:
                s[pa[O_FOUND] + deck[i] // 13] = 1
            else:
                scratch[count] = deck[i]
                count += 1
    else:  # St. Helena family: first King and first Ace of each suit start the foundations
        for i in range(ncards):
            c = deck[i]
            r = c % 13
            j = c // 13
            if r == 12 and s[pa[O_FOUND] + j] == 0:
                s[pa[O_FOUND] + j] = 1
            elif r == 0 and s[pa[O_FOUND] + 4 + j] == 0:
                s[pa[O_FOUND] + 4 + j] = 1
            else:
                scratch[count] = c
                count += 1
    used = 0
    if layout == 0:
        rows = pa[P_ROWS_DOWN] + 1
        for row in range(rows):
            for p in range(npiles):
                _push(s, pa, p, scratch[used])
                used += 1
        for p in range(npiles):
            s[pa[O_PDOWN] + p] = rows - 1
    elif layout == 1:
        _deal_round_robin(s, pa, scratch, count)
        used = count
    elif layout == 2:
        for p in range(npiles):
            _push(s, pa, p, scratch[used])
            used += 1
        s[pa[O_OPENING]] = 1
    else:
        for f in range(pa[P_NRES]):
            for i in range(3):
                _push(s, pa, npiles + f, scratch[used])
                used += 1
        for p in range(npiles):
            _push(s, pa, p, scratch[used])
            used += 1
    for k in range(count - 1, used - 1, -1):  # the rest is the stock, next card on top
        _stock_push(s, pa, scratch[k])


# ------------------------------------------------------------------------------------------
# the transposition-table key


@njit(cache=True, inline="always")
def _mix(z):
    z = (z ^ (z >> U64(30))) * U64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> U64(27))) * U64(0x94D049BB133111EB)
    return z ^ (z >> U64(31))


@njit(cache=True)
def _absorb(s, start, m, head, h1, h2):
    """Fold the sequence [m, head, s[start:start+m]] into the two hash halves, 8 bytes a time."""
    word = (U64(m) << U64(8)) | U64(head)
    nb = 2
    for i in range(m):
        word = (word << U64(8)) | U64(s[start + i])
        nb += 1
        if nb == 8:
            h1 = _mix(h1 ^ word)
            h2 = _mix(h2 + word * U64(0x9E3779B97F4A7C15))
            word = U64(0)
            nb = 0
    h1 = _mix(h1 ^ word ^ U64(0xA0761D6478BD642F))
    h2 = _mix(h2 + word * U64(0x9E3779B97F4A7C15) + U64(0xE7037ED1A0B428DB))
    return h1, h2


@njit(cache=True)
def piles_interchangeable(pa):
    """Does a pile's number never matter to the rules? True for Westcliff with a turned stock and
    for Duchess (tableau piles among themselves, reserve fans among themselves); not where a
    deal, a redeal or a foundation restriction goes by pile number."""
    return ((pa[P_LAYOUT] == 0) & (pa[P_STOCK] == 1)) | (pa[P_LAYOUT] == 3)


@njit(cache=True)
def state_key(s, pa):
    """128-bit key (two uint64) of the position.

    Every part of the position (each pile with its face-down count, stock, waste, foundations,
    counters) is folded as a length-prefixed sequence through two independent splitmix64-style
    mixers. Where piles are interchangeable (:func:`piles_interchangeable`) the piles' own keys
    are added up instead of chained, so positions that differ only in pile order share a key and
    are searched once. For two different positions the chance that both halves agree is about
    2**-128: a search of 10**9 deals of 10**7 nodes each meets a collision with probability
    below 10**-19, so the table never mistakes an unexplored position for an explored one.
    """
    h1 = U64(0x243F6A8885A308D3)
    h2 = U64(0x13198A2E03707344)
    npiles = pa[P_NPILES]
    nres = pa[P_NRES]
    cap = pa[P_CAP]
    symmetric = piles_interchangeable(pa)
    sum1 = U64(0)
    sum2 = U64(0)
    for p in range(npiles + nres):
        start = pa[O_PCARDS] + p * cap
        m = np.int64(s[pa[O_PLEN] + p])
        head = np.int64(s[pa[O_PDOWN] + p])
        if symmetric:
            group = U64(1) if p >= npiles else U64(0)
            a, b = _absorb(s, start, m, head, U64(0x452821E638D01377) + group, U64(0xBE5466CF34E90C6C) + group)
            sum1 += a
            sum2 += b
        else:
            h1, h2 = _absorb(s, start, m, head, h1, h2)
    h1, h2 = _absorb(s, pa[O_STOCK], np.int64(s[pa[O_SLEN]]), 0, h1 ^ sum1, h2 ^ sum2)
    h1, h2 = _absorb(s, pa[O_WASTE], np.int64(s[pa[O_WLEN]]), 0, h1, h2)
    h1, h2 = _absorb(s, pa[O_FOUND], pa[P_NFOUND], 0, h1, h2)
    return _absorb(s, pa[O_REDEALS], 4, 0, h1, h2)
