"""The perfect-information search: depth-first search with a transposition table, making and
unmaking moves on one position.

One kernel, :func:`search`, serves every game. Its verdicts:

* WON: a winning line was found (returned move by move, replayed by the tests through the
  reference);
* LOST: every position reachable from the deal was visited (graph search with a visited set
  is complete: a position already in the table was either fully explored or is on the current
  path, where revisiting it cannot help);
* UNKNOWN: the node budget ran out, or a line grew deeper than the stack.

Reductions (``mode`` bits), each applied only where :mod:`.reductions` says it holds:

* SOUND: safe foundation moves, pointless-move pruning and dead ends, proven in
  :mod:`.reductions`, so a LOST under them is a LOST of the plain search.
* WIN_FIRST: a heuristic dominance (partial runs only when they free a foundation card), used
  only in a first pass that may answer WON; any other outcome is re-searched without it.

Everything a search writes lives in one :class:`Workspace`, allocated once per solver and reused
deal after deal; no kernel allocates.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from .constants import (
    C_INTERCHANGEABLE_PILES, C_TWIN_SWAP, C_WIN_FIRST, DEAL, MAX_MOVES, MOVE, O_PDOWN, O_PLEN, P_NCARDS,
    P_NPILES, PLACE_FOUND, PLACE_WASTE, REDEAL, S_SIZE, TURN,
)
from .core import (
    H_SIZE, U_SIZE, deal_into, do_move, fits_some_foundation, init_hash, is_won, legal_moves, pcard,
    position_key, shuffled_deck, undo_move,
)
from .reductions import dead_end, safe_foundation_move

LOST, WON, UNKNOWN = 0, 1, 2
NPRIORITY = 8  # move priorities 0 (best) .. 7, see _priority
GENERATIONS = 32  # table generations one solve may use (restarts + the full pass)
SOUND, WIN_FIRST = 1, 2
TT_WIDTH = 3  # a table slot: key half 1, key half 2, generation (0: free)

Workspace = namedtuple("Workspace", [
    "tt",       # (slots, TT_WIDTH) uint64: the transposition table
    "root",     # (S,) uint8: the position a solve starts from
    "state",    # (S,) uint8: the position being searched, changed move by move
    "hashes",   # (H_SIZE,) uint64: its hashes (core.init_hash)
    "moves",    # (depth, MAX_MOVES, 4) int16: the moves to try at each depth, best first
    "nmoves",   # (depth,) int64
    "idx",      # (depth,) int64: the next move to try at each depth
    "undo",     # (depth, U_SIZE) uint64: how to take back the move played at each depth
    "save",     # (depth, S) uint8: the position before a move that rebuilds the tableau
    "tmp",      # (MAX_MOVES, 4) int16: legal moves before ordering
    "rating",   # (MAX_MOVES,) int8: each legal move's priority, -1 when pruned
    "counts",   # (3, NPRIORITY + 1) int64: counting sort by priority
    "scratch",  # (ncards,) uint8
    "deck",     # (ncards,) uint8
    "path",     # (depth, 4) int16: the winning line
])


def workspace(pa: np.ndarray, slots: int, max_depth: int) -> Workspace:
    """A workspace for searches of the game ``pa`` with a table of ``slots`` (a power of two)
    and lines of at most ``max_depth`` moves."""
    size, ncards, depth = int(pa[S_SIZE]), int(pa[P_NCARDS]), max_depth + 1
    return Workspace(
        tt=np.zeros((slots, TT_WIDTH), dtype=np.uint64), root=np.zeros(size, dtype=np.uint8),
        state=np.zeros(size, dtype=np.uint8), hashes=np.zeros(H_SIZE, dtype=np.uint64),
        moves=np.zeros((depth, MAX_MOVES, 4), dtype=np.int16), nmoves=np.zeros(depth, dtype=np.int64),
        idx=np.zeros(depth, dtype=np.int64), undo=np.zeros((depth, U_SIZE), dtype=np.uint64),
        save=np.zeros((depth, size), dtype=np.uint8), tmp=np.zeros((MAX_MOVES, 4), dtype=np.int16),
        rating=np.zeros(MAX_MOVES, dtype=np.int8), counts=np.zeros((3, NPRIORITY + 1), dtype=np.int64),
        scratch=np.zeros(ncards, dtype=np.uint8), deck=np.zeros(ncards, dtype=np.uint8),
        path=np.zeros((depth, 4), dtype=np.int16),
    )


@njit(cache=True)
def _purposeful(s, pa, src, left, down, empty_dst):
    """WIN_FIRST heuristic: a tableau move is worth trying when it turns a face-down card
    up, empties its pile onto a card, or uncovers a card that can go to a foundation."""
    if left == 0:
        return not empty_dst
    if left == down:
        return True
    return fits_some_foundation(s, pa, pcard(s, pa, src, left - 1))


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
def ordered_moves(s, pa, mode, out, ws, salt):
    """The moves the search tries at ``s``, best first, after the reductions ``mode`` allows.
    A non-zero ``salt`` rotates the order of the moves inside each priority class (restarts)."""
    if (mode & SOUND) != 0 and dead_end(s, pa):
        return 0
    tmp = ws.tmp
    n = legal_moves(s, pa, tmp)
    if (mode & SOUND) != 0:
        safe = safe_foundation_move(s, pa, tmp, n)
        if safe >= 0:
            for k in range(4):
                out[0, k] = tmp[safe, k]
            return 1
    prune_space_swaps = ((mode & SOUND) != 0) & (pa[C_INTERCHANGEABLE_PILES] == 1)
    twin_rule = ((mode & SOUND) != 0) & (pa[C_TWIN_SWAP] == 1)
    heuristic = ((mode & WIN_FIRST) != 0) & (pa[C_WIN_FIRST] == 1)
    npiles = pa[P_NPILES]
    # one pass rates every move (-1: pruned), a counting sort then writes them best first
    rating = ws.rating
    count = ws.counts[0]
    start = ws.counts[1]
    placed = ws.counts[2]
    for pri in range(NPRIORITY + 1):
        count[pri] = 0
        placed[pri] = 0
    for i in range(n):
        pri = _priority(s, pa, tmp[i])
        if tmp[i, 0] == MOVE and tmp[i, 1] < PLACE_WASTE and tmp[i, 2] < PLACE_WASTE:
            src = np.int64(tmp[i, 1])
            down = np.int64(s[pa[O_PDOWN] + src])
            empty_dst = s[pa[O_PLEN] + tmp[i, 2]] == 0
            left = np.int64(s[pa[O_PLEN] + src]) - tmp[i, 3]
            # pointless: a whole tableau pile with no face-down card into a space, where piles
            # are interchangeable, gives the same position (reductions.interchangeable_piles)
            if prune_space_swaps and empty_dst and down == 0 and left == 0 and src < npiles:
                pri = -1
            elif twin_rule and not empty_dst and left > down and src < npiles:
                if not fits_some_foundation(s, pa, pcard(s, pa, src, left - 1)):
                    pri = -1
            if pri >= 0 and heuristic and src < npiles and not _purposeful(s, pa, src, left, down, empty_dst):
                pri = -1
        rating[i] = pri
        if pri >= 0:
            count[pri] += 1
    start[0] = 0
    for pri in range(NPRIORITY):
        start[pri + 1] = start[pri] + count[pri]
    for i in range(n):
        pri = rating[i]
        if pri >= 0:
            m = start[pri] + (placed[pri] + salt) % count[pri]
            placed[pri] += 1
            for k in range(4):
                out[m, k] = tmp[i, k]
    return start[NPRIORITY]


@njit(cache=True)
def _tt_insert(h1, h2, tt, gen):
    """Record a position; False when it was already recorded in this generation.

    Open addressing, 16 probes; a slot's key halves and generation lie side by side, so a probe
    reads one cache line. A full neighbourhood answers True without recording, which can only
    cost time (the position may be searched again), never soundness.
    """
    mask = np.uint64(tt.shape[0] - 1)
    i = h1 & mask
    for probe in range(16):
        k = (i + np.uint64(probe)) & mask
        if tt[k, 2] != gen:
            tt[k, 0] = h1
            tt[k, 1] = h2
            tt[k, 2] = gen
            return True
        if tt[k, 0] == h1 and tt[k, 1] == h2:
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
def search(pa, budget, mode, gen, ws, salt):
    """Depth-first search from ``ws.root``. Returns (verdict, nodes, length of the winning line
    written to ``ws.path``). ``gen`` marks this search's entries in the table."""
    s = ws.state
    H = ws.hashes
    moves = ws.moves
    idx = ws.idx
    nmoves = ws.nmoves
    maxdepth = moves.shape[0] - 1
    for i in range(pa[S_SIZE]):
        s[i] = ws.root[i]
    if is_won(s, pa):
        return WON, 0, 0
    init_hash(s, pa, H)
    h1, h2 = position_key(s, pa, H)
    _tt_insert(h1, h2, ws.tt, gen)
    nodes = 1
    nmoves[0] = ordered_moves(s, pa, mode, moves[0], ws, _depth_salt(salt, 0))
    idx[0] = 0
    depth = 0
    truncated = False
    while depth >= 0:
        if idx[depth] >= nmoves[depth]:
            depth -= 1
            if depth >= 0:
                undo_move(s, pa, H, moves[depth, idx[depth] - 1], ws.undo[depth], ws.save[depth])
            continue
        mv = moves[depth, idx[depth]]
        idx[depth] += 1
        do_move(s, pa, H, mv, ws.undo[depth], ws.save[depth], ws.scratch)
        if is_won(s, pa):
            for d in range(depth + 1):
                for k in range(4):
                    ws.path[d, k] = moves[d, idx[d] - 1, k]
            return WON, nodes, depth + 1
        h1, h2 = position_key(s, pa, H)
        if not _tt_insert(h1, h2, ws.tt, gen):
            undo_move(s, pa, H, mv, ws.undo[depth], ws.save[depth])
            continue
        nodes += 1
        if nodes >= budget:
            return UNKNOWN, nodes, 0
        if depth + 1 >= maxdepth:
            truncated = True
            undo_move(s, pa, H, mv, ws.undo[depth], ws.save[depth])
            continue
        depth += 1
        nmoves[depth] = ordered_moves(s, pa, mode, moves[depth], ws, _depth_salt(salt, depth))
        idx[depth] = 0
    return (UNKNOWN if truncated else LOST), nodes, 0


@njit(cache=True)
def solve_root(pa, budget, win_first, reductions, gen, ws):
    """Solve from ``ws.root``: when asked (and the game has one), the WIN_FIRST pass, then the
    full search with the SOUND reductions (the plain search without ``reductions``).

    The WIN_FIRST pass gets half the budget, spent in restarts of growing size (1, 1, 2, 2,
    4, 4, ... units of a hundredth of the budget), each trying the moves of equal priority in
    another order: how long a depth-first search takes to find a win varies enormously with
    the order of its first choices, and short restarts cut that tail. A restart that exhausts
    its (heuristically pruned) space ends the pass. Uses table generations ``gen`` to
    ``gen + GENERATIONS - 1``. Returns (verdict, nodes, line length)."""
    total = 0
    if win_first and pa[C_WIN_FIRST] == 1:
        unit = max(1000, budget // 100)
        left = max(1000, budget // 2)
        attempt = 0
        while left > 0 and attempt < GENERATIONS - 1:
            size = min(left, unit << (attempt // 2))
            verdict, nodes, length = search(pa, size, SOUND | WIN_FIRST, gen + np.uint64(attempt + 1), ws, attempt)
            total += nodes
            if verdict == WON:
                return verdict, total, length
            if verdict == LOST:
                break
            left -= nodes
            attempt += 1
    verdict, nodes, length = search(pa, budget, SOUND if reductions else 0, gen, ws, 0)
    return verdict, total + nodes, length


@njit(cache=True)
def solve_deal(deal, pa, budget, win_first, reductions, gen, ws):
    """Deal number ``deal`` dealt into ``ws.root`` and solved by :func:`solve_root`."""
    shuffled_deck(deal, pa[P_NCARDS], ws.deck)
    deal_into(ws.root, pa, ws.deck, ws.scratch)
    return solve_root(pa, budget, win_first, reductions, gen, ws)
