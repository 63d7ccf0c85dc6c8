"""Numba play-outs for the players that cannot see hidden cards: random and greedy.

Two entry points: :func:`playout` plays one game to its end on the engine's flat state, and
:func:`greedy_scores` is greedy's preference over a list of moves (the planner breaks its ties
with it). Both read the true state the way a person reads the table: pile tops and runs above
the face-down cards, down counts, stock size, the waste, the foundations and the reserve. They
never read a face-down card or a stock card, which tests/test_players.py checks by permuting
the hidden cards.

Termination (both players): a move is a candidate only if the position it leads to was not
seen before in this game (positions compared by :func:`~.core.position_key`, so up to pile order
where piles are interchangeable), and a game stops after ``max_moves`` moves. A game that
stops without the win, for either reason, is lost. Whether a child was seen never depends on a
hidden card: a move that turns one up leads to a position with fewer hidden cards than any
position seen so far.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .constants import (
    C_SAFE_FOUNDATION, DEAL, FOUND_CHOSEN_BASE, MAX_MOVES, NO_BASE, O_BASE, O_PDOWN, O_WASTE, O_WLEN,
    P_FOUND_KIND, P_NCARDS, P_NPILES, P_NRES, P_WRAP, PLACE_FOUND, PLACE_WASTE, REDEAL, S_SIZE, TURN,
)
from .core import (
    H_SIZE, U_SIZE, do_move, fits_some_foundation, init_hash, is_won, legal_moves, pcard, plen, position_key,
    undo_move,
)
from .reductions import safe_to_foundation

RANDOM, GREEDY = 0, 1
LAST_RESORT = 3
SEEN_SLOTS = 1 << 13  # visited-position table of one game: > 4 x the move cap below
MAX_PLAY_MOVES = 2000


@njit(cache=True, inline="always")
def _next_random(state):
    """splitmix64: (new state, 64 random bits)."""
    state = state + np.uint64(0x9E3779B97F4A7C15)
    z = state
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return state, z ^ (z >> np.uint64(31))


@njit(cache=True)
def _base_choice_score(s, pa, base):
    """Duchess' opening choice: how many cards in sight (reserve fans and piles, all face up)
    would go up within the first three ranks of foundations based at ``base``."""
    score = 0
    for p in range(pa[P_NPILES] + pa[P_NRES]):
        for i in range(plen(s, pa, p)):
            if (pcard(s, pa, p, i) % 13 - base) % 13 < 3:
                score += 1
    return score


@njit(cache=True)
def _move_score(s, pa, mv):
    """Greedy's preference (at least 1, higher first) for move ``mv`` at ``s``. The rules are
    listed in :class:`solitaire_odds.players.greedy.GreedyPlayer`."""
    kind = mv[0]
    if kind == TURN or kind == DEAL:
        return 10
    if kind == REDEAL:
        return 5
    src = np.int64(mv[1])
    dst = np.int64(mv[2])
    npiles = pa[P_NPILES]
    if dst >= PLACE_FOUND:
        if src >= PLACE_FOUND:
            return 2
        if src == PLACE_WASTE:
            c = np.int64(s[pa[O_WASTE] + s[pa[O_WLEN]] - 1])
        else:
            c = pcard(s, pa, src, plen(s, pa, src) - 1)
        if pa[P_FOUND_KIND] == FOUND_CHOSEN_BASE and s[pa[O_BASE]] == NO_BASE:
            return 100 + _base_choice_score(s, pa, c % 13)
        if pa[C_SAFE_FOUNDATION] == 1 and safe_to_foundation(s, pa, c):
            return 100
        return 70
    if src >= PLACE_FOUND:
        return 1
    dst_empty = plen(s, pa, dst) == 0
    if src < npiles:
        left = plen(s, pa, src) - np.int64(mv[3])
        down = np.int64(s[pa[O_PDOWN] + src])
        if left > 0 and left == down:
            return 90 + down
        if left == 0:
            return LAST_RESORT if dst_empty else 40
        if fits_some_foundation(s, pa, pcard(s, pa, src, left - 1)):
            return 60
        return LAST_RESORT
    if src < PLACE_WASTE:  # a reserve fan
        return 75 if dst_empty else 55
    if not dst_empty:
        return 50
    if pa[P_NRES] > 0:
        return 30
    if src == PLACE_WASTE and pa[P_WRAP] == 0:
        if s[pa[O_WASTE] + s[pa[O_WLEN]] - 1] % 13 == 12:
            return 30
    return LAST_RESORT


@njit(cache=True)
def greedy_scores(s, pa, moves, n, out):
    """Write greedy's preference for each of ``moves[:n]`` into ``out[:n]``."""
    for i in range(n):
        out[i] = _move_score(s, pa, moves[i])


@njit(cache=True)
def _seen_slot(h1, h2, keys1, keys2, used):
    """Where a position sits in the seen-set, or the free slot where it would go (open
    addressing)."""
    mask = np.uint64(keys1.shape[0] - 1)
    k = h1 & mask
    while used[k]:
        if keys1[k] == h1 and keys2[k] == h2:
            return k
        k = (k + np.uint64(1)) & mask
    return k


@njit(cache=True)
def _seen_insert(h1, h2, keys1, keys2, used):
    """Record a position; False when it was already recorded."""
    k = _seen_slot(h1, h2, keys1, keys2, used)
    if used[k]:
        return False
    used[k] = True
    keys1[k] = h1
    keys2[k] = h2
    return True


@njit(cache=True)
def _seen(h1, h2, keys1, keys2, used):
    return used[_seen_slot(h1, h2, keys1, keys2, used)]


@njit(cache=True)
def playout(s, pa, policy, stream, max_moves, line):
    """Play from ``s`` (changed in place) with ``policy`` (RANDOM: a uniformly random
    candidate; GREEDY: the best-scored candidate by :func:`_move_score`, ties drawn at random)
    until the game is won, no candidate is left or
    ``max_moves`` moves were played. ``stream`` seeds the random draws. The moves go into
    ``line``; returns (won, moves played)."""
    moves = np.zeros((MAX_MOVES, 4), dtype=np.int16)
    scores = np.zeros(MAX_MOVES, dtype=np.int64)
    fresh = np.zeros(MAX_MOVES, dtype=np.bool_)
    H = np.zeros(H_SIZE, dtype=np.uint64)
    undo = np.zeros(U_SIZE, dtype=np.uint64)
    save = np.zeros(pa[S_SIZE], dtype=np.uint8)
    scratch = np.zeros(pa[P_NCARDS], dtype=np.uint8)
    keys1 = np.zeros(SEEN_SLOTS, dtype=np.uint64)
    keys2 = np.zeros(SEEN_SLOTS, dtype=np.uint64)
    used = np.zeros(SEEN_SLOTS, dtype=np.bool_)
    rng = np.uint64(stream)
    init_hash(s, pa, H)
    h1, h2 = position_key(s, pa, H)
    _seen_insert(h1, h2, keys1, keys2, used)
    played = 0
    while played < max_moves:
        if is_won(s, pa):
            return True, played
        n = legal_moves(s, pa, moves)
        best = -1
        count = 0
        for i in range(n):
            fresh[i] = False
            if policy == GREEDY:
                scores[i] = _move_score(s, pa, moves[i])
                if scores[i] < best:
                    continue
            do_move(s, pa, H, moves[i], undo, save, scratch)
            c1, c2 = position_key(s, pa, H)
            undo_move(s, pa, H, moves[i], undo, save)
            if _seen(c1, c2, keys1, keys2, used):
                continue
            fresh[i] = True
            if policy == GREEDY and scores[i] > best:
                best = scores[i]
                count = 0
            count += 1
        if count == 0:
            return False, played
        rng, bits = _next_random(rng)
        pick = np.int64(bits % np.uint64(count))
        for i in range(n):
            if not fresh[i]:
                continue
            if policy == GREEDY and scores[i] != best:
                continue
            if pick == 0:
                for k in range(4):
                    line[played, k] = moves[i, k]
                do_move(s, pa, H, moves[i], undo, save, scratch)
                break
            pick -= 1
        played += 1
        h1, h2 = position_key(s, pa, H)
        _seen_insert(h1, h2, keys1, keys2, used)
    return is_won(s, pa), played
