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

* SOUND: safe foundation moves, pointless-move pruning, dead ends, persistent sets (the moves
  touching some piles only, :mod:`.persistent`) and turning the stock only
  to play (turned positions kept out of the table), proven in :mod:`.reductions`, so a LOST
  under them is a LOST of the plain search.
* WIN_FIRST: a heuristic dominance (partial runs only when they free a foundation card), used
  only in a first pass that may answer WON; any other outcome is re-searched without it.
* SHORTCUTS (and DEAL_FIRST): the unsound shortcuts of :mod:`.shortcuts` (every foundation move
  at once, suits of a colour and pile order ignored in the key; rows dealt first), in a second
  pass that may only answer WON.

Everything a search writes lives in one :class:`Workspace`, allocated once per solver and reused
deal after deal; no kernel allocates.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from .constants import (
    C_PERSISTENT, C_SHORTCUTS, C_TURN_TO_PLAY, C_WIN_FIRST,
    DEAL, MAX_MOVES, MOVE, O_PDOWN, O_PLEN, P_NCARDS, P_NPILES, PLACE_FOUND, PLACE_WASTE, REDEAL, S_SIZE, TURN,
)
from .core import (
    H_SIZE, U_SIZE, do_move, generate, init_hash, interchangeable_now, is_won, pcard, position_key, turned_moves,
    undo_move, wanted,
)
from .jit import inline_kernel, kernel
from .persistent import persistent_piles, touches
from .reductions import dead_end, returns_pointlessly, safe_foundation_play, twin_pruned, twin_swap_now
from .shortcuts import colour_keys, shortcut_order
from .tuning import (
    RESTART_SHARE, SHORTCUT_MIN_UNIT, SHORTCUT_RESTARTS, SHORTCUT_UNIT, WIN_FIRST_MIN_UNIT, WIN_FIRST_RESTARTS,
    WIN_FIRST_UNIT,
)
from .two_deck_proofs import NO_PILE, WORK_SIZE, last_round_unrestricted, moved_onto

LOST, WON, UNKNOWN = 0, 1, 2
NPRIORITY = 8  # move priorities 0 (best) .. 7, see _priority
# table generations: gen+1 .. gen+WIN_FIRST_RESTARTS, then SHORTCUT_RESTARTS more
GENERATIONS = 1 + WIN_FIRST_RESTARTS + SHORTCUT_RESTARTS  # table generations one solve may use
SOUND, WIN_FIRST, SHORTCUTS, DEAL_FIRST = 1, 2, 4, 8
BY_SEARCH, BY_WIN_FIRST, BY_SHORTCUTS = 0, 1, 2  # which pass of solve_root decided
TT_WIDTH = 3  # a table slot: key half 1, key half 2, tag (generation, 0: free; ON_LINE bit)
GEN_MASK = np.uint64(0xFFFFFFFF)
ON_LINE = np.uint64(1 << 32)

Workspace = namedtuple("Workspace", [
    "tt",       # (slots, TT_WIDTH) uint64: the transposition table
    "root",     # (S,) uint8: the position a solve starts from
    "state",    # (S,) uint8: the position being searched, changed move by move
    "hashes",   # (H_SIZE,) uint64: its hashes (core.init_hash)
    "moves",    # (depth, MAX_MOVES, 4) int16: the moves to try at each depth, best first
    "nmoves",   # (depth,) int64
    "idx",      # (depth,) int64: the next move to try at each depth
    "slot",     # (depth,) int64: the table slot of the position at each depth of the line
    "undo",     # (depth, U_SIZE) uint64: how to take back the move played at each depth
    "save",     # (depth, S) uint8: the position before a move that rebuilds the tableau
    "tmp",      # (MAX_MOVES, 4) int16: legal moves before ordering
    "rating",   # (MAX_MOVES,) int8: each legal move's priority, -1 when pruned
    "counts",   # (3, NPRIORITY + 1) int64: counting sort by priority
    "scratch",  # (ncards,) uint8
    "deck",     # (ncards,) uint8
    "path",     # (depth, 4) int16: the winning line
    "relax",    # (two_deck_proofs.WORK_SIZE,) int64: the two-deck relaxation's work array
])


def workspace(pa: np.ndarray, slots: int, max_depth: int) -> Workspace:
    """A workspace for searches of the game ``pa`` with a table of ``slots`` (a power of two)
    and lines of at most ``max_depth`` moves."""
    size, ncards, depth = int(pa[S_SIZE]), int(pa[P_NCARDS]), max_depth + 1
    return Workspace(
        tt=np.zeros((slots, TT_WIDTH), dtype=np.uint64), root=np.zeros(size, dtype=np.uint8),
        state=np.zeros(size, dtype=np.uint8), hashes=np.zeros(H_SIZE, dtype=np.uint64),
        moves=np.zeros((depth, MAX_MOVES, 4), dtype=np.int16), nmoves=np.zeros(depth, dtype=np.int64),
        idx=np.zeros(depth, dtype=np.int64), slot=np.zeros(depth, dtype=np.int64), undo=np.zeros((depth, U_SIZE), dtype=np.uint64),
        save=np.zeros((depth, size), dtype=np.uint8), tmp=np.zeros((MAX_MOVES, 4), dtype=np.int16),
        rating=np.zeros(MAX_MOVES, dtype=np.int8), counts=np.zeros((3, NPRIORITY + 1), dtype=np.int64),
        scratch=np.zeros(ncards, dtype=np.uint8), deck=np.zeros(ncards, dtype=np.uint8),
        path=np.zeros((depth, 4), dtype=np.int16), relax=np.zeros(WORK_SIZE, dtype=np.int64),
    )


@inline_kernel
def _purposeful(s, pa, src, left, down, empty_dst, want):
    """WIN_FIRST heuristic: a tableau move is worth trying when it turns a face-down card
    up, empties its pile onto a card, or uncovers a card that can go to a foundation."""
    if left == 0:
        return not empty_dst
    if left == down:
        return True
    return (want >> np.uint64(pcard(s, pa, src, left - 1))) & np.uint64(1) != 0


@inline_kernel
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


@inline_kernel
def turned_to_play(pa, mode, kind):
    """Does a move of ``kind`` lead to a *turned* position, where only turns and moves of the
    waste's top are listed (reductions.turn_to_play)? A turned position has one way in: the
    turns since the last position that was not turned, which the table records (see
    reductions.turn_to_play). So it is neither recorded in the table nor counted as a node:
    a turn and the moves after it act as one move of a stock card, as in Bjarnason, Tadepalli
    and Fern's K+ Klondike. Classic Westcliff's deal 3 is proven lost with 7,201 positions
    recorded; 24,156 when turned ones were recorded too."""
    return (kind == TURN) & ((mode & SOUND) != 0) & (pa[C_TURN_TO_PLAY] == 1)


@inline_kernel
def ordered_moves(s, pa, mode, out, tmp, rating, counts, relax, salt, after_turn, onto):
    """The moves the search tries at ``s``, best first, after the reductions ``mode`` allows;
    with ``after_turn`` (turned_to_play), only turns and moves of the waste's top. ``onto``
    (two_deck_proofs.moved_onto of the move that led here, or NO_PILE) lets the dead-end test
    stop early: the position before was expanded, so not proven lost.
    A non-zero ``salt`` rotates the order of the moves inside each priority class (restarts).
    Works in the workspace arrays ``tmp``, ``rating``, ``counts`` and ``relax``. Inlined into
    the search's loop at its one place of expansion (:func:`search`)."""
    sound = (mode & SOUND) != 0
    if sound:
        if dead_end(s, pa, relax, onto):
            return 0
        src, dst = safe_foundation_play(s, pa)
        if src >= 0:
            out[0, 0] = MOVE
            out[0, 1] = src
            out[0, 2] = dst
            out[0, 3] = 1
            return 1
    interchangeable = sound & interchangeable_now(s, pa)
    n = turned_moves(s, pa, tmp, interchangeable) if after_turn else generate(s, pa, tmp, interchangeable)
    # a whole pile with no face-down card into a space: pointless where piles are
    # interchangeable, and cut by the shortcut pass anywhere
    no_pile_swaps = interchangeable | ((mode & SHORTCUTS) != 0)
    twin_rule = sound and twin_swap_now(s, pa)
    heuristic = ((mode & WIN_FIRST) != 0) & (pa[C_WIN_FIRST] == 1)
    upper, lower = wanted(s, pa)
    want = upper | lower
    npiles = pa[P_NPILES]
    inside = np.int64(0)  # a persistent set's piles: only moves touching them are tried
    if sound and pa[C_PERSISTENT] == 1 and n > 1 and last_round_unrestricted(s, pa):
        inside = persistent_piles(s, pa, tmp, n, relax)
    # one pass rates every move (-1: pruned), a counting sort then writes them best first
    count = counts[0]
    start = counts[1]
    placed = counts[2]
    for pri in range(NPRIORITY + 1):
        count[pri] = 0
        placed[pri] = 0
    for i in range(n):
        pri = _priority(s, pa, tmp[i])
        if sound and returns_pointlessly(s, pa, tmp[i]):
            pri = -1
        if inside != 0 and not touches(inside, tmp[i], npiles):
            pri = -1
        if tmp[i, 0] == MOVE and tmp[i, 1] < npiles and tmp[i, 2] < PLACE_WASTE:
            src = np.int64(tmp[i, 1])
            down = np.int64(s[pa[O_PDOWN] + src])
            empty_dst = s[pa[O_PLEN] + tmp[i, 2]] == 0
            left = np.int64(s[pa[O_PLEN] + src]) - tmp[i, 3]
            # pointless where piles are interchangeable: the same position (reductions.interchangeable_piles)
            if no_pile_swaps and empty_dst and down == 0 and left == 0:
                pri = -1
            elif twin_rule and not empty_dst and twin_pruned(s, pa, src, left, want):
                pri = -1
            if pri >= 0 and heuristic and not _purposeful(s, pa, src, left, down, empty_dst, want):
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


_make = inline_kernel(do_move.py_func)
_unmake = inline_kernel(undo_move.py_func)
"""core.do_move and core.undo_move inlined into the search's loop alone, each at one place in it:
a call hands over seven arrays field by field, and inlining them raised nodes/s by 13-22% on
Classic Westcliff, Easthaven and Duchess (experiments/compare_revisions.py, same verdicts).
Inlining them everywhere (play-outs, win finder) multiplied the compile time instead."""
UNEXPANDED = -1  # nmoves[depth] of a position whose moves are not listed yet

MIN_WINDOW = 1 << 12


@inline_kernel
def _window_mask(tt, budget):
    """The part of the table a search of ``budget`` nodes uses: the smallest power of two of
    at least 4 x budget slots (at least MIN_WINDOW), or the whole table. A short search (a
    restart, an easy deal) then works in the same few hundred kilobytes deal after deal, which
    stay in the processor's cache: a probe of a cold slot was a seventh of an American
    Westcliff solve. The window starts at slot 0, so a smaller one lies inside a larger."""
    window = MIN_WINDOW
    while window < 4 * budget and window < tt.shape[0]:
        window <<= 1
    return np.uint64(min(window, tt.shape[0]) - 1)


MET, NOT_RECORDED = -1, -2  # _tt_insert's answers other than a slot


@inline_kernel
def _tt_insert(h1, h2, tt, mask, gen):
    """Record a position met on the current line: its slot, or MET when it is already recorded
    in this generation (NOT_RECORDED: see below).

    Open addressing over 16 slots of the window ``mask`` (:func:`_window_mask`); a slot's key
    halves and tag (generation, and whether the position is on the current line) lie side by
    side, so a probe reads one cache line. When the 16 slots all hold positions of this search,
    the first one not on the current line is replaced, so a table smaller than the search still
    works (the replaced position may be searched again: time, never soundness). Positions on the current line are never replaced, so
    a line can never loop. If all 16 are on the line, nothing is recorded (again only time).
    """
    i = h1 & mask
    victim = -1
    for probe in range(16):
        k = np.int64((i + np.uint64(probe)) & mask)
        tag = tt[k, 2]
        if (tag & GEN_MASK) != gen:
            victim = k
            break
        if tt[k, 0] == h1 and tt[k, 1] == h2:
            return MET
        if victim < 0 and (tag & ON_LINE) == 0:
            victim = k
    if victim < 0:
        return NOT_RECORDED
    tt[victim, 0] = h1
    tt[victim, 1] = h2
    tt[victim, 2] = gen | ON_LINE
    return victim


@inline_kernel
def _tt_leave(tt, slot):
    """The position recorded at ``slot`` is no longer on the current line: it may be replaced."""
    if slot >= 0:
        tt[slot, 2] &= ~ON_LINE


@inline_kernel
def _depth_salt(salt, depth):
    """0 for the first attempt (the plain order); else a pseudo-random rotation per depth."""
    if salt == 0:
        return 0
    x = np.uint64(salt) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(depth) * np.uint64(0xBF58476D1CE4E5B9)
    return np.int64((x >> np.uint64(33)) & np.uint64(0xFFFF))


@inline_kernel
def _key(s, pa, H, mode):
    """The table key of ``s``: the position's, or the shortcut pass's coarser one."""
    if (mode & SHORTCUTS) != 0:
        return colour_keys(s, pa)
    return position_key(s, pa, H)


@inline_kernel
def _expand(s, pa, mode, ws, depth, salt):
    """Fill ``ws.moves[depth]`` with the moves to try at ``s``; return their count."""
    after_turn = False
    onto = NO_PILE
    if depth > 0:
        last = ws.moves[depth - 1, ws.idx[depth - 1] - 1]
        after_turn = turned_to_play(pa, mode, last[0])
        onto = moved_onto(pa, last)
    n = ordered_moves(s, pa, mode, ws.moves[depth], ws.tmp, ws.rating, ws.counts, ws.relax, _depth_salt(salt, depth),
                      after_turn, onto)
    if (mode & SHORTCUTS) != 0:
        n = shortcut_order(s, pa, ws.moves[depth], n, (mode & DEAL_FIRST) != 0)
    return n


@kernel
def search(pa, budget, mode, gen, ws, salt):
    """Depth-first search from ``ws.root``. Returns (verdict, nodes, length of the winning line
    written to ``ws.path``). ``gen`` marks this search's entries in the table. With SHORTCUTS
    it never answers LOST."""
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
    h1, h2 = _key(s, pa, H, mode)
    mask = _window_mask(ws.tt, budget)
    ws.slot[0] = _tt_insert(h1, h2, ws.tt, mask, gen)
    nodes = 1
    nmoves[0] = UNEXPANDED
    depth = 0
    truncated = (mode & SHORTCUTS) != 0
    while depth >= 0:  # one place each expands, makes a move and unmakes it: all three inlined
        if nmoves[depth] == UNEXPANDED:
            nmoves[depth] = _expand(s, pa, mode, ws, depth, salt)
            idx[depth] = 0
        if idx[depth] < nmoves[depth]:
            mv = moves[depth, idx[depth]]
            idx[depth] += 1
            _make(s, pa, H, mv, ws.undo[depth], ws.save[depth], ws.scratch)
            if is_won(s, pa):
                for d in range(depth + 1):
                    for k in range(4):
                        ws.path[d, k] = moves[d, idx[d] - 1, k]
                return WON, nodes, depth + 1
            turned = turned_to_play(pa, mode, mv[0])
            if turned:
                slot = NOT_RECORDED
            else:
                h1, h2 = _key(s, pa, H, mode)
                slot = _tt_insert(h1, h2, ws.tt, mask, gen)
            if slot != MET:  # a position not met before in this search
                if not turned:
                    nodes += 1
                    if nodes >= budget:
                        return UNKNOWN, nodes, 0
                if depth + 1 < maxdepth:
                    depth += 1
                    ws.slot[depth] = slot
                    nmoves[depth] = UNEXPANDED
                    continue
                truncated = True
                _tt_leave(ws.tt, slot)
        else:  # every move tried: back to the position before
            _tt_leave(ws.tt, ws.slot[depth])
            depth -= 1
            if depth < 0:
                break
        _unmake(s, pa, H, moves[depth, idx[depth] - 1], ws.undo[depth], ws.save[depth])
    return (UNKNOWN if truncated else LOST), nodes, 0


@kernel
def _restarts(pa, budget, mode, gen, ws, unit, count):
    """Searches in ``mode`` of growing size (1, 1, 2, 2, 4, 4, ... ``unit``s, 1/RESTART_SHARE of
    ``budget`` in all), each with the moves of equal priority in another order, and with SHORTCUTS every
    other one with rows dealt first: how long a depth-first search takes to find a win varies
    enormously with its first choices, and short restarts cut that tail. Stops at a win, or when
    a restart exhausts its (heuristically pruned) space. Uses generations ``gen`` .. ``gen +
    count - 1``. Returns (WON or UNKNOWN, nodes, line length)."""
    total = 0
    left = max(unit, budget // RESTART_SHARE)
    for attempt in range(count):
        size = min(left, unit << (attempt // 2))
        order = DEAL_FIRST if (mode & SHORTCUTS) != 0 and attempt % 2 == 1 else 0
        salt = attempt // 2 if (mode & SHORTCUTS) != 0 else attempt
        verdict, nodes, length = search(pa, size, mode | order, gen + np.uint64(attempt), ws, salt)
        total += nodes
        left -= nodes
        if verdict == WON:
            return WON, total, length
        if verdict == LOST or left <= 0:
            break
    return UNKNOWN, total, 0


@kernel
def solve_root(pa, budget, win_first, reductions, gen, ws):
    """Solve from ``ws.root`` in up to three passes; the first verdict gives the answer:

    1. with ``win_first``, where the game has one, the WIN_FIRST heuristic in restarts;
    2. with ``win_first``, where the game has one, the SHORTCUTS pass in restarts;
    3. the full search with the SOUND reductions (the plain search without ``reductions``).

    Uses table generations ``gen`` to ``gen + GENERATIONS - 1``. Returns (verdict, nodes, line
    length, which pass decided: BY_WIN_FIRST, BY_SHORTCUTS or BY_SEARCH)."""
    total = 0
    if win_first:
        if pa[C_WIN_FIRST] == 1:
            unit = max(WIN_FIRST_MIN_UNIT, budget // WIN_FIRST_UNIT)
            verdict, nodes, length = _restarts(pa, budget, SOUND | WIN_FIRST, gen + np.uint64(1), ws, unit,
                                               WIN_FIRST_RESTARTS)
            total += nodes
            if verdict == WON:
                return WON, total, length, BY_WIN_FIRST
        if pa[C_SHORTCUTS] == 1:
            unit = max(SHORTCUT_MIN_UNIT, budget // SHORTCUT_UNIT)
            verdict, nodes, length = _restarts(pa, budget, SOUND | WIN_FIRST | SHORTCUTS,
                                               gen + np.uint64(1 + WIN_FIRST_RESTARTS), ws, unit, SHORTCUT_RESTARTS)
            total += nodes
            if verdict == WON:
                return WON, total, length, BY_SHORTCUTS
    # the salt as an int64, not the literal 0, so that this call shares the restarts' compiled search
    verdict, nodes, length = search(pa, budget, SOUND if reductions else 0, gen, ws, np.int64(0))
    return verdict, total + nodes, length, BY_SEARCH
