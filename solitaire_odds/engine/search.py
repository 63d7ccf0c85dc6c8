"""The perfect-information search: iterative depth-first search with a transposition table.

One kernel, :func:`search`, serves every game. Its verdicts:

* WON: a winning line was found (returned move by move, replayed by the tests through the
  reference);
* LOST: every position reachable from the deal was visited (graph search with a visited set
  is complete: a position already in the table was either fully explored or is on the current
  path, where revisiting it cannot help);
* UNKNOWN: the node budget ran out, or a line grew deeper than the stack.

Reductions (``mode`` bits):

* SOUND: safe foundation moves, pointless-move pruning and dead ends (a card buried in the
  waste for good), each proven below, so a LOST under them is a LOST of the plain search.
* WIN_FIRST: a heuristic dominance (partial runs only when they free a foundation card), used
  only in a first pass that may answer WON; any other outcome is re-searched without it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .core import (
    apply_move, deal_into, fits_found, found_next, is_won, legal_moves, pcard, shuffled_deck, state_key,
)
from .layout import (
    DEAL, MOVE, NO_BASE, O_BASE, O_FOUND, O_PDOWN, O_PLEN, O_WLEN, O_WLIVE, P_BUILD, P_FOUND_KIND,
    P_FRETURN, P_LAYOUT, P_NCARDS, P_NPILES, P_RUN, P_STOCK, P_WASTE_PLAYABLE, PLACE_FOUND, PLACE_WASTE, REDEAL,
    S_SIZE, TURN,
)

LOST, WON, UNKNOWN = 0, 1, 2
NPRIORITY = 8  # move priorities 0 (best) .. 7, see _priority
GENERATIONS = 32  # table generations one solve may use (restarts + the full pass)
SOUND, WIN_FIRST = 1, 2


@njit(cache=True)
def _on_foundation(s, pa, c):
    """Is (a copy of) card ``c`` already on its foundation? One-deck alternating-colour games."""
    cnt = np.int64(s[pa[O_FOUND] + c // 13])
    r = c % 13
    if pa[P_FOUND_KIND] == 0:
        return r < cnt
    return (r - np.int64(s[pa[O_BASE]])) % 13 < cnt


@njit(cache=True)
def safe_to_foundation(s, pa, c):
    """Card ``c`` may go to its foundation at once, ignoring every alternative.

    Holds in the one-deck games built down in alternating colours without foundation returns
    (Westcliff family, Duchess). A tableau card's only use is as a base for the two cards one
    rank lower of the other colour. When both are already on the foundations (they never come
    back), take any winning line L that plays ``c`` up later: drop ``c``'s moves from L and
    play it up first. Every other move of L stays legal: nothing is ever built on ``c``, a run
    that carried ``c`` on top moves without it, a space ``c`` would have filled stays empty
    (spaces only add choices, and Duchess' fills are optional), and ``c``'s suit can only
    gain. So the shortened line wins too, and searching only this move loses no win.
    """
    r = c % 13
    below = r - 1
    if below < 0:
        if pa[P_FOUND_KIND] == 0:
            return True  # nothing is ever built on an Ace
        below = 12
    red = ((c // 13) == 1) | ((c // 13) == 2)
    for sw in range(4):
        sw_red = (sw == 1) | (sw == 2)
        if sw_red != red and not _on_foundation(s, pa, sw * 13 + below):
            return False
    return True


@njit(cache=True)
def _fits_some_foundation(s, pa, c):
    for j in range(4):
        if fits_found(s, pa, c, j):
            return True
    return False


@njit(cache=True)
def twin_swap_dominance_holds(pa):
    """May a partial run be moved onto a card only when the card it uncovers can then go to a
    foundation? Proven for one-deck games built down in alternating colours with partial run
    moves, a turned stock and face-up cards that always form a run (Westcliff, Classic
    Westcliff, Duchess); not for Easthaven (its deals break the argument) nor run_moves
    whole/single.

    A run R on a face-up card Y can only go onto Y's twin W (same rank and colour). Call two
    positions alike when they differ only by exchanging what lies on Y and on W. Every move in
    one has a counterpart in the other that keeps them alike (a run taken from or put onto the
    cards above Y is taken from or put onto those above W; a run that carries Y carries the
    other stack instead; both stacks are valid runs on equal bases), except Y or W going to a
    foundation. So a winning line after "R from Y onto W" can be replayed from before it until
    the moment Y (or W) goes up, where one move "stack from Y onto W" followed by that foundation
    play rejoins it. The rewritten line has one unpaired swap fewer; repeating this gives a
    winning line in which every such swap is followed by its foundation play.
    """
    return (pa[P_BUILD] == 0) & (pa[P_NCARDS] == 52) & (pa[P_RUN] == 2) & (pa[P_STOCK] == 1)


@njit(cache=True)
def dead_card_in_waste(s, pa):
    """With ``waste_playable`` off a turned card is played at once or never: any waste card
    but a live top card can never leave the waste, so no win remains (SOUND dead end)."""
    if pa[P_WASTE_PLAYABLE] == 1:
        return False
    wlen = s[pa[O_WLEN]]
    return (wlen >= 2) | ((wlen == 1) & (s[pa[O_WLIVE]] == 0))


@njit(cache=True)
def has_win_first_pass(pa):
    """The WIN_FIRST heuristic (:func:`_purposeful`) is written for games built down in
    alternating colours; elsewhere a first pass would only repeat the start of the full one."""
    return pa[P_BUILD] == 0


@njit(cache=True)
def _purposeful(s, pa, src, left, down, empty_dst):
    """WIN_FIRST heuristic: a tableau move is worth trying when it turns a face-down card
    up, empties its pile onto a card, or uncovers a card that can go to a foundation."""
    if left == 0:
        return not empty_dst
    if left == down:
        return True
    return _fits_some_foundation(s, pa, pcard(s, pa, src, left - 1))


@njit(cache=True)
def _priority(s, pa, mv):
    kind = mv[0]
    if kind == TURN:
        return 3  # turn after the moves that use what is already showing
    if kind == DEAL:
        return 5  # a row dealt covers every pile: use the tableau first
    if kind == REDEAL:
        return 7
    src = np.int64(mv[1])
    dst = np.int64(mv[2])
    if dst >= PLACE_FOUND:
        return 0
    if src >= PLACE_FOUND:
        return 6
    if src < PLACE_WASTE:
        down = np.int64(s[pa[O_PDOWN] + src])
        m = np.int64(s[pa[O_PLEN] + src])
        if down > 0 and m - mv[3] == down:
            return 2
    return 3


@njit(cache=True)
def ordered_moves(s, pa, mode, out, tmp, salt):
    """The moves the search tries at ``s``, best first, after the reductions ``mode`` allows.
    A non-zero ``salt`` rotates the order of the moves inside each priority class (restarts)."""
    if mode & SOUND and dead_card_in_waste(s, pa):
        return 0
    n = legal_moves(s, pa, tmp)
    alt_one_deck = (pa[P_BUILD] == 0) & (pa[P_NCARDS] == 52) & (pa[P_FRETURN] == 0)
    if mode & SOUND and alt_one_deck and not (pa[P_FOUND_KIND] == 2 and s[pa[O_BASE]] == NO_BASE):
        for i in range(n):
            if tmp[i, 0] == MOVE and tmp[i, 2] >= PLACE_FOUND:
                c = np.int64(found_next(s, pa, tmp[i, 2] - PLACE_FOUND)) + (tmp[i, 2] - PLACE_FOUND) * 13
                if safe_to_foundation(s, pa, c):
                    for k in range(4):
                        out[0, k] = tmp[i, k]
                    return 1
    # pointless (SOUND): a whole pile with no face-down card moved into a space (Westcliff with
    # a turned stock, where piles are interchangeable) gives the same position with two piles
    # swapped, so the reachable positions are the same up to pile order.
    symmetric_piles = (pa[P_LAYOUT] == 0) & (pa[P_STOCK] == 1)
    twin_rule = twin_swap_dominance_holds(pa)
    heuristic = ((mode & WIN_FIRST) != 0) & has_win_first_pass(pa)
    # one pass rates every move (-1: pruned), a counting sort then writes them best first
    rating = np.empty(n, dtype=np.int8)
    count = np.zeros(NPRIORITY, dtype=np.int64)
    for i in range(n):
        pri = _priority(s, pa, tmp[i])
        if tmp[i, 0] == MOVE and tmp[i, 1] < PLACE_WASTE and tmp[i, 2] < PLACE_WASTE:
            src = np.int64(tmp[i, 1])
            dst = np.int64(tmp[i, 2])
            plen_src = np.int64(s[pa[O_PLEN] + src])
            down = np.int64(s[pa[O_PDOWN] + src])
            empty_dst = s[pa[O_PLEN] + dst] == 0
            left = plen_src - tmp[i, 3]
            if mode & SOUND and symmetric_piles and empty_dst and down == 0 and left == 0:
                pri = -1
            elif mode & SOUND and twin_rule and not empty_dst and left > down and src < pa[P_NPILES]:
                if not _fits_some_foundation(s, pa, pcard(s, pa, src, left - 1)):
                    pri = -1
            if pri >= 0 and heuristic and src < pa[P_NPILES] and not _purposeful(s, pa, src, left, down, empty_dst):
                pri = -1
        rating[i] = pri
        if pri >= 0:
            count[pri] += 1
    start = np.zeros(NPRIORITY + 1, dtype=np.int64)
    for pri in range(NPRIORITY):
        start[pri + 1] = start[pri] + count[pri]
    placed = np.zeros(NPRIORITY, dtype=np.int64)
    for i in range(n):
        pri = rating[i]
        if pri >= 0:
            m = start[pri] + (placed[pri] + salt) % count[pri]
            placed[pri] += 1
            for k in range(4):
                out[m, k] = tmp[i, k]
    return start[NPRIORITY]


@njit(cache=True)
def _tt_insert(h1, h2, tt1, tt2, ttg, gen):
    """Record a position; False when it was already recorded in this generation.

    Open addressing, 16 probes. A full neighbourhood answers True without recording, which can
    only cost time (the position may be searched again), never soundness.
    """
    mask = np.uint64(tt1.shape[0] - 1)
    i = h1 & mask
    for probe in range(16):
        k = (i + np.uint64(probe)) & mask
        if ttg[k] != gen:
            ttg[k] = gen
            tt1[k] = h1
            tt2[k] = h2
            return True
        if tt1[k] == h1 and tt2[k] == h2:
            return False
    return True


@njit(cache=True)
def _depth_salt(salt, depth):
    """0 for the first attempt (the plain order); else a pseudo-random rotation per depth."""
    if salt == 0:
        return 0
    x = np.uint64(salt) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(depth) * np.uint64(0xBF58476D1CE4E5B9)
    return np.int64((x >> np.uint64(33)) & np.uint64(0xFFFF))


@njit(cache=True)
def search(root, pa, budget, mode, tt1, tt2, ttg, gen, states, moves, nmoves, idx, tmp, scratch, path, salt):
    """Depth-first search from ``root``. Returns (verdict, nodes, length of the winning line
    written to ``path``). ``states``, ``moves``, ``nmoves``, ``idx`` are the explicit stack
    (its depth is their first dimension); ``tmp`` holds MAX_MOVES moves; ``gen`` marks this
    search's entries in the table (tt1, tt2: key halves; ttg: generation)."""
    size = pa[S_SIZE]
    maxdepth = states.shape[0] - 1
    for i in range(size):
        states[0, i] = root[i]
    if is_won(root, pa):
        return WON, 0, 0
    h1, h2 = state_key(root, pa)
    _tt_insert(h1, h2, tt1, tt2, ttg, gen)
    nodes = 1
    nmoves[0] = ordered_moves(states[0], pa, mode, moves[0], tmp, _depth_salt(salt, 0))
    idx[0] = 0
    depth = 0
    truncated = False
    while depth >= 0:
        if idx[depth] >= nmoves[depth]:
            depth -= 1
            continue
        mv = moves[depth, idx[depth]]
        idx[depth] += 1
        child = states[depth + 1]
        parent = states[depth]
        for i in range(size):
            child[i] = parent[i]
        apply_move(child, pa, mv, scratch)
        if is_won(child, pa):
            for d in range(depth + 1):
                for k in range(4):
                    path[d, k] = moves[d, idx[d] - 1, k]
            return WON, nodes, depth + 1
        h1, h2 = state_key(child, pa)
        if not _tt_insert(h1, h2, tt1, tt2, ttg, gen):
            continue
        nodes += 1
        if nodes >= budget:
            return UNKNOWN, nodes, 0
        if depth + 1 >= maxdepth:
            truncated = True
            continue
        depth += 1
        nmoves[depth] = ordered_moves(child, pa, mode, moves[depth], tmp, _depth_salt(salt, depth))
        idx[depth] = 0
    return (UNKNOWN if truncated else LOST), nodes, 0


@njit(cache=True)
def solve_root(root, pa, budget, win_first, reductions, tt1, tt2, ttg, gen, states, moves, nmoves, idx, tmp,
               scratch, path):
    """Solve from position ``root``: when asked (and the game has one), the WIN_FIRST pass,
    then the full search with the SOUND reductions (the plain search without ``reductions``).

    The WIN_FIRST pass gets half the budget, spent in restarts of growing size (1, 1, 2, 2,
    4, 4, ... units of a hundredth of the budget), each trying the moves of equal priority in
    another order: how long a depth-first search takes to find a win varies enormously with
    the order of its first choices, and short restarts cut that tail. A restart that exhausts
    its (heuristically pruned) space ends the pass. Uses table generations ``gen`` to
    ``gen + GENERATIONS - 1``. Returns (verdict, nodes, line length)."""
    total = 0
    if win_first and has_win_first_pass(pa):
        unit = max(1000, budget // 100)
        left = max(1000, budget // 2)
        attempt = 0
        while left > 0 and attempt < GENERATIONS - 1:
            size = min(left, unit << (attempt // 2))
            verdict, nodes, length = search(root, pa, size, SOUND | WIN_FIRST, tt1, tt2, ttg,
                                            gen + np.uint32(attempt + 1), states, moves, nmoves, idx, tmp,
                                            scratch, path, attempt)
            total += nodes
            if verdict == WON:
                return verdict, total, length
            if verdict == LOST:
                break
            left -= nodes
            attempt += 1
    verdict, nodes, length = search(root, pa, budget, SOUND if reductions else 0, tt1, tt2, ttg, gen,
                                    states, moves, nmoves, idx, tmp, scratch, path, 0)
    return verdict, total + nodes, length


@njit(cache=True)
def solve_deal(deal, pa, budget, win_first, reductions, tt1, tt2, ttg, gen, root, deck, states, moves, nmoves,
               idx, tmp, scratch, path):
    """Deal number ``deal`` dealt into ``root`` and solved by :func:`solve_root`."""
    shuffled_deck(deal, pa[P_NCARDS], deck)
    deal_into(root, pa, deck, scratch)
    return solve_root(root, pa, budget, win_first, reductions, tt1, tt2, ttg, gen, states, moves, nmoves, idx,
                      tmp, scratch, path)
