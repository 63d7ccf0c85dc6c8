"""A win finder: beam search on a heuristic, with restarts of growing width, for every game.

It never proves anything lost: it only looks for a winning line, which the caller replays like
every other win. Each step expands every position of the beam by every legal move, follows
each move by foundation plays (only those the search's sound rule plays at once,
reductions.safe_foundation_play, so that a card stays where a later move may need it; in the
St. Helena family every other attempt plays every one that fits, greedily: see
:func:`find_win`), rates the result and keeps the best ``width`` positions not met before in
this attempt and not a dead end by the sound tests of :func:`.reductions.dead_end` (in the
St. Helena family greedy foundation play otherwise fills the beam with dead ends: one pile
left and nowhere to park its cards), taking each beam position's best few children before any other child
(:func:`_spread_out`). The rating (:func:`rating`) ranks positions by the redeals they have left first, so
that the beam plays each deal out before it redeals; then by the cards on the foundations;
then, for each foundation, by how deep the copies of the next few cards it needs lie (in a
pile, a reserve fan, the waste or the stock; the shallower twin counts), so that moves
uncovering them rank higher; then by spaces. A restart widens the beam fourfold (in the St.
Helena family after both kinds of attempt) and perturbs ties, until the node budget
(positions rated) is spent. In games that gather their piles to redeal, a finder may also plan
each round for what the next gathered pack will deal where (``rounds``: see
:func:`beam_search`).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from .constants import (
    FOUND_CHOSEN_BASE,
    FOUND_KINGS_AND_ACES,
    LOWER,
    MAX_MOVES,
    MOVE,
    O_FOUND,
    O_OPENING,
    O_REDEALS,
    O_SLEN,
    O_STOCK,
    O_WASTE,
    O_WLEN,
    P_FIRST_DEAL_LIMITS,
    P_FOUND_KIND,
    P_NCARDS,
    P_NFOUND,
    P_NPILES,
    P_NRES,
    P_PILE_FOUND,
    P_REDEAL_KIND,
    P_REDEAL_ORDER,
    P_REDEALS,
    P_SPACE,
    P_STOCK,
    REDEAL,
    REDEAL_BOTTOM_FIRST,
    REDEAL_GATHER,
    SPACE_ANY,
    SPACE_NONE,
    STOCK_DEAL_ROW,
    S_SIZE,
    UPPER,
)
from .core import (
    H_SIZE,
    U_SIZE,
    do_move,
    found_next,
    hash_words,
    is_won,
    legal_moves,
    mix,
    pcard,
    plen,
    position_key,
    state_key,
    to_foundations,
    undo_move,
    wanted,
)
from .jit import inline_kernel, kernel
from .reductions import dead_end, safe_foundation_play
from .two_deck_proofs import NO_PILE, WORK_SIZE, moved_onto

MAX_AUTO = 112     # foundation plays after one move (more than the cards in play)
LOOKAHEAD = 3      # next cards of each foundation the rating looks at
PARKING = 300.0    # rating lost per empty pile where spaces stay empty
ROUND = 1e6        # rating per redeal left: more than all the rest of the rating can add up to
MAX_ATTEMPTS = 48  # restarts per call (each uses one generation of the seen table)
PER_PARENT = 3     # children of one beam position offered to the next beam before any other's fourth
BLOCKED = 30.0     # rating lost per blocked pair (:func:`blocked`) in the first position of a gathered deal

FinderSpace = namedtuple("FinderSpace", [
    "beam", "nxt",          # (width, S) uint8: the beam and the next one
    "node", "node_next",    # (width,) int64: each beam position's entry in the node log
    "cand_par", "cand_move", "cand_score", "cand_key",  # children of one step: parent slot, move, rating, key
    "parent", "mstart", "mlen",  # the node log: parent node, its moves in ``mbuf``
    "mbuf",                 # (nodes * 4, 4) int16: the moves of every logged node
    "seen", "tmp", "H", "undo", "save", "scratch", "auto", "path",
    "depth",                # (52,) int64: rating's work array
    "hb", "hb_next",        # (width, core.hash_words) uint64: each beam position's hashes (core.init_hash)
    "relax",                # (two_deck_proofs.WORK_SIZE,) int64: the relaxation's work array
    "spread", "per_parent",  # (width * CANDIDATES_PER_POSITION,), (width,) int64: _spread_out's buffers
    "deepest", "deepest_path",  # the deepest line met (see find_win): DEEPEST_* fields; its moves
    # the redeal archive (see beam_search): (2 * width) parents of gathering redeals met this
    # attempt, their hashes, nodes, the children's ratings and keys, and the redeal row
    "arch", "arch_hb", "arch_node", "arch_score", "arch_key", "arch_move", "arch_index",
    "pack",                 # (cards,) int64: next_deal's work array
])
DEEPEST_CARDS, DEEPEST_LENGTH, ATTEMPT_CARDS, ATTEMPT_NODE = range(4)
"""Fields of ``FinderSpace.deepest``: the cards on the foundations at the end of the deepest
line kept and its length in moves; the current attempt's deepest position so far and its node."""


CANDIDATES_PER_POSITION = 96
"""Room for the children of a beam position, on average: a step that would rate more keeps the
children of the better positions (the beam is in rating order)."""


def finder_space(pa: np.ndarray, width: int, max_nodes: int, max_depth: int = 4000) -> FinderSpace:
    """Buffers for beams up to ``width`` wide and ``max_nodes`` logged positions; the seen
    table holds at least ``max_nodes`` positions (a full table only lets repeats into the beam)."""
    size, ncand = int(pa[S_SIZE]), width * CANDIDATES_PER_POSITION
    words = hash_words.py_func(pa)  # a beam position's hashes: only the words its piles use
    seen_slots = 1 << 19
    while seen_slots < max_nodes:
        seen_slots <<= 1
    return FinderSpace(
        beam=np.zeros((width, size), np.uint8), nxt=np.zeros((width, size), np.uint8),
        node=np.zeros(width, np.int64), node_next=np.zeros(width, np.int64),
        cand_par=np.zeros(ncand, np.int64), cand_move=np.zeros((ncand, 4), np.int16),
        cand_score=np.zeros(ncand, np.float64), cand_key=np.zeros((ncand, 2), np.uint64),
        parent=np.zeros(max_nodes, np.int64), mstart=np.zeros(max_nodes, np.int64),
        mlen=np.zeros(max_nodes, np.int64), mbuf=np.zeros((max_nodes * 4, 4), np.int16),
        seen=np.zeros((seen_slots, 3), np.uint64), tmp=np.zeros((MAX_MOVES, 4), np.int16),
        H=np.zeros(H_SIZE, np.uint64), undo=np.zeros((MAX_AUTO + 2, U_SIZE), np.uint64),
        save=np.zeros((MAX_AUTO + 2, size), np.uint8), scratch=np.zeros(int(pa[S_SIZE]), np.uint8),
        auto=np.zeros((MAX_AUTO + 1, 4), np.int16), path=np.zeros((max_depth, 4), np.int16),
        depth=np.zeros(52, np.int64), hb=np.zeros((width, words), np.uint64),
        hb_next=np.zeros((width, words), np.uint64), relax=np.zeros(WORK_SIZE, np.int64),
        spread=np.zeros(ncand, np.int64), per_parent=np.zeros(width, np.int64),
        deepest=np.zeros(4, np.int64), deepest_path=np.zeros((max_depth, 4), np.int16),
        arch=np.zeros((2 * width, size), np.uint8), arch_hb=np.zeros((2 * width, words), np.uint64),
        arch_node=np.zeros(2 * width, np.int64), arch_score=np.zeros(2 * width, np.float64),
        arch_key=np.zeros((2 * width, 2), np.uint64), arch_move=_redeal_rows(2 * width),
        arch_index=np.arange(2 * width, dtype=np.int64), pack=np.zeros(int(pa[P_NCARDS]), np.int64),
    )


def _redeal_rows(n: int) -> np.ndarray:
    rows = np.zeros((n, 4), np.int16)
    rows[:, 0] = REDEAL
    return rows


@inline_kernel
def _foundation_play(s, pa, out, k):
    """Write into ``out[k]`` a legal move of a pile's top card to a foundation, the first by
    pile and then foundation (the King one first); False if none. ``out`` needs a spare row
    after ``k``: a card both foundations of its suit want is written twice."""
    limited = (pa[P_FIRST_DEAL_LIMITS] == 1) & (s[pa[O_REDEALS]] == 0) & (s[pa[O_OPENING]] == 0)
    upper, lower = wanted(s, pa)
    for p in range(pa[P_NPILES]):
        m = plen(s, pa, p)
        if m > 0 and to_foundations(out, k, pcard(s, pa, p, m - 1), p,
                                    pa[P_PILE_FOUND + p] if limited else UPPER | LOWER, upper, lower) > k:
            return True
    return False


@inline_kernel
def _safe_play(s, pa, out, k):
    src, dst = safe_foundation_play(s, pa)
    if src < 0:
        return False
    out[k, 0] = MOVE
    out[k, 1] = src
    out[k, 2] = dst
    out[k, 3] = 1
    return True


@inline_kernel
def _autoplay(s, pa, H, auto, undo, save, scratch, greedy):
    """Play foundation moves while there are any: with ``greedy`` every one that fits, else
    only the sound rule's (reductions.safe_foundation_play; see :func:`find_win` for when
    each is used), keeping the hashes ``H`` of ``s`` up to date; return how many (moves in
    ``auto``, undo records in ``undo[1:]`` and ``save[1:]``)."""
    k = 0
    while k < MAX_AUTO and (_foundation_play(s, pa, auto, k) if greedy else _safe_play(s, pa, auto, k)):
        do_move(s, pa, H, auto[k], undo[k + 1], save[k + 1], scratch)
        k += 1
    return k


@inline_kernel
def rating(s, pa, noise, depth):
    """Higher is better: unused redeals (weight ROUND), foundation cards (weight 1000), minus
    the depth of the shallower copy of each of the next LOOKAHEAD cards every foundation needs
    (weights 8, 3, 1), plus spaces (where any card may fill them; minus PARKING each where none
    may; nothing for King spaces); ``noise`` (0..6) breaks ties differently in restarts. Works
    in ``depth`` (52 int64). A card's depth is the cards above it in its pile, fan or waste;
    in the stock, the turns before it shows (one more than the cards above it when the stock
    is turned, than the rows above it when rows are dealt). A term for face-down cards made
    no difference (Easthaven with spaces and returns, the 21 deals of 0..999 the search left
    unknown at 1e6: 10 won with weight 0 and 5, and 25 per card; Classic Westcliff's 59: 11, 11
    and 9), so there is none.

    The redeals come first because a redeal is always legal and the next deal's first
    position often rates higher than the current deal's (St. Helena's first-deal restriction
    lifts, and fresh tops play up): with a weight of 40 per redeal the beam redealt within a
    few moves of the start and played most of the game in its last deal. St. Helena, deals
    0..29, finder alone at 1e6 positions: 8 won with weight 40, 13 with 3,000, 19 with 10,000,
    20 with 30,000 and with 1e6, the lexicographic order kept here. A term for the moves left
    (few moves: near a dead end) then made no difference (the same 20 wins; st-helena
    build_suit=any at 3e5, deals 0..59: 58 won without it, 54 with) and cost a move count for
    every child rated, so there is none."""
    npiles = pa[P_NPILES]
    for c in range(52):
        depth[c] = 200
    spaces = 0
    for p in range(npiles + pa[P_NRES]):
        m = plen(s, pa, p)
        if m == 0 and p < npiles:
            spaces += 1
        for i in range(m):
            c = pcard(s, pa, p, i)
            depth[c] = min(depth[c], m - 1 - i)
    wlen = np.int64(s[pa[O_WLEN]])
    for i in range(wlen):
        c = s[pa[O_WASTE] + i]
        depth[c] = min(depth[c], wlen - 1 - i)
    slen = np.int64(s[pa[O_SLEN]])
    for i in range(slen):
        c = s[pa[O_STOCK] + i]
        t = slen - 1 - i
        depth[c] = min(depth[c], 1 + (t // npiles if pa[P_STOCK] == STOCK_DEAL_ROW else t))
    score = 0.0
    kind = pa[P_FOUND_KIND]
    for j in range(pa[P_NFOUND]):
        score += 1000.0 * np.float64(s[pa[O_FOUND] + j])
        r = found_next(s, pa, j)
        if r < 0:
            continue
        w = 8.0
        for look in range(LOOKAHEAD):
            if kind == FOUND_KINGS_AND_ACES and j < 4:
                rank = r - look
            elif kind == FOUND_CHOSEN_BASE:
                rank = (r + look) % 13
            else:
                rank = r + look
            if rank < 0 or rank > 12:
                break
            d = depth[(j % 4) * 13 + rank]
            if d < 200:
                score -= w * np.float64(d)
            w = 3.0 if look == 0 else 1.0
    if pa[P_SPACE] == SPACE_ANY:
        score += 15.0 * spaces
    elif pa[P_SPACE] == SPACE_NONE:  # a pile emptied for good is a place lost to park cards on
        score -= PARKING * spaces
    score += ROUND * np.float64(pa[P_REDEALS] - s[pa[O_REDEALS]])
    return score + noise


@inline_kernel
def _needs(s, pa, need):
    """Fill ``need`` (52 int64) with each card's need: how many cards its suit's nearer
    foundation takes before it (the St. Helena family's King and Ace foundations; 99 for a
    card neither takes)."""
    for suit in range(4):
        down = found_next(s, pa, suit)     # the King foundation's next rank, -1 when full
        up = found_next(s, pa, suit + 4)   # the Ace foundation's
        for rank in range(13):
            d = 99
            if down >= 0 and rank <= down:
                d = down - rank
            if up >= 0 and rank >= up:
                d = min(d, rank - up)
            need[suit * 13 + rank] = d


@inline_kernel
def blocked(s, pa, need):
    """Pairs of cards in one pile with the upper one needed later than the lower one (see
    :func:`_needs`): how many cards must leave a pile, onto other piles, before the ones they
    cover can go up. Works in ``need`` (52 int64)."""
    _needs(s, pa, need)
    count = 0
    for p in range(pa[P_NPILES]):
        m = plen(s, pa, p)
        for i in range(m):
            below = need[pcard(s, pa, p, i)]
            for j in range(i + 1, m):
                if need[pcard(s, pa, p, j)] > below:
                    count += 1
    return count


@inline_kernel
def next_deal(s, pa, need, pack):
    """What the gathered pack of ``s`` would deal where, without dealing it: minus the depth
    each card soon needed would have in its new pile (weights 8, 3, 1 for a card the
    foundations take first, second, third; see :func:`_needs`, which fills ``need``) and
    BLOCKED per blocked pair of the new piles (as :func:`blocked` counts them). ``pack``
    (int64, room for the cards in play) holds the pack's needs in dealing order; its k-th card
    of n goes onto pile k mod piles under (n - 1 - k) // piles others, as core's gathering
    redeal deals it."""
    npiles = pa[P_NPILES]
    _needs(s, pa, need)
    n = 0
    for p in range(npiles - 1, -1, -1):
        for i in range(plen(s, pa, p) - 1, -1, -1):
            pack[n] = need[pcard(s, pa, p, i)]
            n += 1
    if pa[P_REDEAL_ORDER] == REDEAL_BOTTOM_FIRST:
        for i in range(n // 2):
            t = pack[i]
            pack[i] = pack[n - 1 - i]
            pack[n - 1 - i] = t
    score = 0.0
    pairs = 0
    for k in range(n):
        d = pack[k]
        if d < 3:
            score -= (8.0 if d == 0 else 3.0 if d == 1 else 1.0) * np.float64((n - 1 - k) // npiles)
        for k2 in range(k + npiles, n, npiles):
            if pack[k2] > d:
                pairs += 1
    return score - BLOCKED * np.float64(pairs)


@inline_kernel
def _noise(seed, a, b):
    if seed == 0:
        return 0.0
    x = mix(np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(a) * np.uint64(1000003) + np.uint64(b))
    return np.float64(x >> np.uint64(11)) / 9007199254740992.0 * 6.0


@inline_kernel
def _seen_probe(seen, h1, h2, gen):
    """(slot, present): the slot holding the key (h1, h2) in this generation, or the first free
    slot of its probe run (-1 when its 16 probes are all taken by other keys)."""
    mask = np.uint64(seen.shape[0] - 1)
    i = h1 & mask
    for probe in range(16):
        k = (i + np.uint64(probe)) & mask
        if seen[k, 2] != gen:
            return np.int64(k), False
        if seen[k, 0] == h1 and seen[k, 1] == h2:
            return np.int64(k), True
    return np.int64(-1), False


@inline_kernel
def _seen_insert(seen, h1, h2, gen):
    """Record the key; False when it was already there (a full probe run records nothing)."""
    k, present = _seen_probe(seen, h1, h2, gen)
    if present:
        return False
    if k >= 0:
        seen[k, 0] = h1
        seen[k, 1] = h2
        seen[k, 2] = gen
    return True


@njit(cache=True)
def _write_line(fs, node, path):
    """Write the moves from the root to ``node`` into ``path``; return their count (-1 when
    they do not fit)."""
    total = 0
    x = node
    while x > 0:
        total += fs.mlen[x]
        x = fs.parent[x]
    if total > path.shape[0]:
        return -1
    pos = total
    x = node
    while x > 0:
        for t in range(fs.mlen[x] - 1, -1, -1):
            pos -= 1
            for q in range(4):
                path[pos, q] = fs.mbuf[fs.mstart[x] + t, q]
        x = fs.parent[x]
    return total


@kernel
def _rate_children(beam, hb, nbeam, pa, seed, step, tmp, H, undo, save, scratch, auto, depth,
                   cand_par, cand_move, cand_score, cand_key, greedy, archive, pack):
    """Rate every child of the ``nbeam`` beam positions (each move followed by its foundation
    plays) into ``cand_*``, with its key; return their count. A kernel without reference
    counting, handed the arrays it uses one by one: most of a step's time is spent here."""
    ncand = 0
    ncand_max = cand_par.shape[0]
    for b in range(nbeam):
        s = beam[b]
        for w in range(hb.shape[1]):
            H[w] = hb[b, w]
        n = legal_moves(s, pa, tmp)
        for i in range(n):
            if ncand >= ncand_max:
                break
            do_move(s, pa, H, tmp[i], undo[0], save[0], scratch)
            k = _autoplay(s, pa, H, auto, undo, save, scratch, greedy)
            cand_score[ncand] = rating(s, pa, _noise(seed, step, ncand), depth)
            if archive:
                if tmp[i, 0] == REDEAL:
                    cand_score[ncand] -= BLOCKED * np.float64(blocked(s, pa, depth))
                if s[pa[O_REDEALS]] < pa[P_REDEALS] and s[pa[O_SLEN]] == 0 and s[pa[O_OPENING]] == 0:
                    cand_score[ncand] += next_deal(s, pa, depth, pack)
            cand_key[ncand, 0], cand_key[ncand, 1] = position_key(s, pa, H)
            for t in range(k - 1, -1, -1):
                undo_move(s, pa, H, auto[t], undo[t + 1], save[t + 1])
            undo_move(s, pa, H, tmp[i], undo[0], save[0])
            cand_par[ncand] = b
            for q in range(4):
                cand_move[ncand, q] = tmp[i, q]
            ncand += 1
    return ncand


@kernel
def _spread_out(order, ncand, cand_par, nbeam, spread, per_parent):
    """Write into ``spread`` the candidates of ``order`` (best first) with each beam position's
    best PER_PARENT children first, then the others, each part still best first, leaving out
    the candidates without a parent (-1: kept in the redeal archive instead); return
    ``spread``'s length.

    Without it a few positions with many good moves fill the beam with their children, which
    differ by one move each, and the beam dies in one corner of the game. Measured with the
    finder alone at 1e6 positions, deals won of 0..59 and of 60..119: St. Helena 39 and 28 in
    rating order, 43 and 38 with 3 children first (on 60..119 ten more, none fewer); Louis 38
    and 43 against 42 and 44. With 1, 2 or 5 children first (deals 0..59): St. Helena 38, 38
    and 39, Louis 37, 41 and 38; with 3 and the others dropped instead of put last (the beam
    then runs narrower): 41 and 41. From the first position of each of deals 0..199 at 1e5:
    Easthaven 32 won, 39 with 3 first; Classic Westcliff 88 and 105; PySolFC's Box Kite
    (deals 0..59, 1e6) 8 and 10."""
    for b in range(nbeam):
        per_parent[b] = 0
    n = 0
    for oi in range(ncand):
        c = order[oi]
        b = cand_par[c]
        if b < 0:
            continue
        if per_parent[b] < PER_PARENT:
            spread[n] = c
            n += 1
        per_parent[b] += 1
    for b in range(nbeam):
        per_parent[b] = 0
    for oi in range(ncand):
        c = order[oi]
        b = cand_par[c]
        if b < 0:
            continue
        if per_parent[b] >= PER_PARENT:
            spread[n] = c
            n += 1
        per_parent[b] += 1
    return n


STEP_ON, STEP_WON, STEP_LOG_FULL = 0, 1, 2


@kernel
def _take_best(order, ncand, width, taken, pa, gen, beam, nxt, hb, hb_next, node, node_next, cand_par, cand_move, cand_key,
               undo, save, scratch, auto, seen, relax, parent, mstart, mlen, mbuf, nlog, mused, greedy):
    """Fill the next beam (``nxt``) with the best-rated children (``order``) not met before
    in this attempt and not proven lost, logging each. Returns (its width, nlog, mused,
    STEP_ON | STEP_WON (the last logged node is won) | STEP_LOG_FULL). A child met before is
    passed over by its key alone, before it is made again: most are (St. Helena, width 4,096:
    3.4 of 5.1 million children looked at, 1.7 taken). The beam's first ``taken`` places are
    already filled."""
    size = pa[S_SIZE]
    for oi in range(ncand):
        if taken >= width:
            break
        c = order[oi]
        if not _seen_insert(seen, cand_key[c, 0], cand_key[c, 1], gen):
            continue
        b = cand_par[c]
        t_state = nxt[taken]
        t_hash = hb_next[taken]
        for i in range(size):
            t_state[i] = beam[b, i]
        for i in range(t_hash.shape[0]):
            t_hash[i] = hb[b, i]
        do_move(t_state, pa, t_hash, cand_move[c], undo[0], save[0], scratch)
        k = _autoplay(t_state, pa, t_hash, auto, undo, save, scratch, greedy)
        # a child one pile move away from its parent (which passed this test) needs only the
        # dead-end test's shorter form (two_deck_proofs.moved_onto)
        onto = moved_onto(pa, cand_move[c]) if k == 0 else NO_PILE
        if dead_end(t_state, pa, relax, onto):
            continue
        if nlog >= parent.shape[0] or mused + k + 1 > mbuf.shape[0]:
            return taken, nlog, mused, STEP_LOG_FULL
        parent[nlog] = node[b]
        mstart[nlog] = mused
        mlen[nlog] = k + 1
        for q in range(4):
            mbuf[mused, q] = cand_move[c, q]
        for t in range(k):
            for q in range(4):
                mbuf[mused + 1 + t, q] = auto[t, q]
        mused += k + 1
        node_next[taken] = nlog
        nlog += 1
        if is_won(t_state, pa):
            return taken, nlog, mused, STEP_WON
        taken += 1
    return taken, nlog, mused, STEP_ON


@kernel
def _archive_redeals(ncand, cand_par, cand_move, cand_score, cand_key, beam, hb, node,
                     arch, arch_hb, arch_node, arch_score, arch_key, na):
    """Move the gathering redeals among the ``ncand`` candidates into the archive (its first
    ``na`` places are taken; room for all is made first), each as its parent's state, hashes
    and node with the child's rating and key, their ``cand_par`` set to -1; return the
    archive's new length."""
    for c in range(ncand):
        if cand_move[c, 0] != REDEAL:
            continue
        b = cand_par[c]
        for i in range(arch.shape[1]):
            arch[na, i] = beam[b, i]
        for i in range(arch_hb.shape[1]):
            arch_hb[na, i] = hb[b, i]
        arch_node[na] = node[b]
        arch_score[na] = cand_score[c]
        arch_key[na, 0] = cand_key[c, 0]
        arch_key[na, 1] = cand_key[c, 1]
        na += 1
        cand_par[c] = -1
    return na


@njit(cache=True)
def _compact_archive(fs, na, keep, gen):
    """Keep the archive's best ``keep`` entries not yet met in this attempt; return how many."""
    order = np.argsort(-fs.arch_score[:na])
    kept = np.empty(keep, np.int64)
    n = 0
    for oi in range(na):
        if n >= keep:
            break
        e = order[oi]
        if not _seen_probe(fs.seen, fs.arch_key[e, 0], fs.arch_key[e, 1], gen)[1]:
            kept[n] = e
            n += 1
    kept = np.sort(kept[:n])  # moved in place in increasing order: each row lands at or before its source
    for t in range(n):
        e = kept[t]
        fs.arch[t] = fs.arch[e]
        fs.arch_hb[t] = fs.arch_hb[e]
        fs.arch_node[t] = fs.arch_node[e]
        fs.arch_score[t] = fs.arch_score[e]
        fs.arch_key[t] = fs.arch_key[e]
    return n


@njit(cache=True)
def beam_search(root, pa, width, budget, seed, gen, fs, greedy, track, rounds=False):
    """One beam search of ``width`` from ``root``, each move followed by every foundation play
    that fits (``greedy``) or by the sound rule's only. Returns (line length or -1, nodes rated);
    a found line is in ``fs.path``. With ``track``, a beam that ends without a win leaves its
    deepest line in ``fs.deepest_path`` when it is deeper than the one there (see
    :func:`find_win`). Allocates (argsort), so it is compiled with reference counting; the work
    per child is done in the kernels it calls.

    With ``rounds``, in a game that gathers its piles to redeal, each round is planned for the
    next: a position with a redeal ahead gains :func:`next_deal`'s rating of what its gathered
    pack would deal where, and a redeal's child, rated after the deal by its own layout too
    (minus BLOCKED per pair :func:`blocked` counts), is not offered to the next beam among the
    other children but kept in an archive (up to twice the widest beam; when full, its better
    half not yet met) over every step of the round; wherever the round's children leave
    places in the beam, the archive's best fill them. Without it a redeal enters the beam only
    from the few steps where the round runs dry, and among those positions only by how the
    round's cards lie. St. Helena by the book, ladder 1e5 then 1e6, the 36 deals of 0..299
    the solver left unknown: the archive alone in every finder and relay won 3, with the
    ratings 5; but of the first 32 deals it had won, 6 were lost (the beams spend their width
    on the next deals and win fewer rounds), so ``rounds`` is a step of its own after the
    relay (solver.WinFinder.by_rounds), not the finder's way everywhere."""
    size = pa[S_SIZE]
    beam, nxt = fs.beam, fs.nxt  # swapped after each step, as are the next two pairs
    hb, hb_next = fs.hb, fs.hb_next
    node, node_next = fs.node, fs.node_next
    for i in range(size):
        beam[0, i] = root[i]
    if is_won(beam[0], pa):
        return 0, 0
    node[0] = 0
    fs.parent[0] = -1
    fs.mlen[0] = 0
    nlog = 1
    mused = 0
    h1, h2 = state_key(beam[0], pa, hb[0])
    _seen_insert(fs.seen, h1, h2, gen)
    nbeam = 1
    nodes = 0
    step = 0
    fs.deepest[ATTEMPT_CARDS] = -1
    archive = rounds and pa[P_REDEAL_KIND] == REDEAL_GATHER
    na = 0
    while nbeam > 0 and nodes < budget:
        step += 1
        ncand = _rate_children(beam, hb, nbeam, pa, seed, step, fs.tmp, fs.H, fs.undo, fs.save, fs.scratch,
                               fs.auto, fs.depth, fs.cand_par, fs.cand_move, fs.cand_score, fs.cand_key, greedy,
                               archive, fs.pack)
        nodes += ncand
        if archive:
            if na + nbeam > fs.arch.shape[0]:
                na = _compact_archive(fs, na, fs.arch.shape[0] // 2, gen)
            na = _archive_redeals(ncand, fs.cand_par, fs.cand_move, fs.cand_score, fs.cand_key, beam, hb, node,
                                  fs.arch, fs.arch_hb, fs.arch_node, fs.arch_score, fs.arch_key, na)
        n = _spread_out(np.argsort(-fs.cand_score[:ncand]), ncand, fs.cand_par, nbeam, fs.spread, fs.per_parent)
        taken, nlog, mused, status = _take_best(fs.spread, n, width, 0, pa, gen, beam, nxt, hb, hb_next, node,
                                                node_next, fs.cand_par, fs.cand_move, fs.cand_key, fs.undo, fs.save,
                                                fs.scratch, fs.auto, fs.seen, fs.relax, fs.parent, fs.mstart, fs.mlen,
                                                fs.mbuf, nlog, mused, greedy)
        if status == STEP_ON and taken < width and na > 0:  # the round runs dry: the best redeals so far
            taken, nlog, mused, status = _take_best(np.argsort(-fs.arch_score[:na]), na, width, taken, pa, gen,
                                                    fs.arch, nxt, fs.arch_hb, hb_next, fs.arch_node, node_next,
                                                    fs.arch_index, fs.arch_move, fs.arch_key, fs.undo, fs.save,
                                                    fs.scratch, fs.auto, fs.seen, fs.relax, fs.parent, fs.mstart,
                                                    fs.mlen, fs.mbuf, nlog, mused, greedy)
        if status == STEP_WON:
            return _write_line(fs, nlog - 1, fs.path), nodes
        if status == STEP_LOG_FULL:
            break
        if track:
            _note_deepest(nxt, node_next, taken, pa, fs.deepest)
        beam, nxt = nxt, beam
        hb, hb_next = hb_next, hb
        node, node_next = node_next, node
        nbeam = taken
    if track and fs.deepest[ATTEMPT_CARDS] > fs.deepest[DEEPEST_CARDS]:
        length = _write_line(fs, fs.deepest[ATTEMPT_NODE], fs.deepest_path)
        if length >= 0:
            fs.deepest[DEEPEST_CARDS] = fs.deepest[ATTEMPT_CARDS]
            fs.deepest[DEEPEST_LENGTH] = length
    return -1, nodes


@kernel
def _note_deepest(beam, node, nbeam, pa, deepest):
    """Note the beam position with the most cards on the foundations, if more than the
    attempt's deepest so far (the first met wins a tie)."""
    for b in range(nbeam):
        cards = np.int64(0)
        for f in range(pa[P_NFOUND]):
            cards += beam[b, pa[O_FOUND] + f]
        if cards > deepest[ATTEMPT_CARDS]:
            deepest[ATTEMPT_CARDS] = cards
            deepest[ATTEMPT_NODE] = node[b]


@njit(cache=True)
def find_win(root, pa, budget, first_width, gen, fs, first_attempt, spent, track, rounds=False):
    """Beam searches of width ``first_width``, 4x, 16x, ... (capped by the buffers) until one
    finds a win, ``budget`` positions have been rated or MAX_ATTEMPTS ran. Uses ``seen`` generations ``gen``
    onwards (one per attempt). Starts at attempt ``first_attempt`` with ``spent`` of the budget
    counted as used: the attempts before it ended, without a win, in an earlier call on the same
    root (each attempt depends only on the root, its number and, when cut short, the budget
    left, so skipping them changes nothing but the time). Returns (line length or -1, positions
    rated in this call, attempts, and the attempts that ended on their own, not cut by the
    budget, with the budget counted through them: where a later call may start). With
    ``track`` the deepest line of the attempts that ended without a win (the most cards on
    the foundations at its end) is kept in ``fs.deepest_path``, over all calls on the root:
    a fresh call (``first_attempt`` 0) starts it anew.

    In the one-deck games a move is followed only by the foundation plays of the search's
    sound rule (with every one that fits, the finder won 2 instead of 10 of Easthaven's 21
    deals in the rating's docstring, 8 instead of 11 of Classic's 59). In the St. Helena
    family each width is tried twice: first with every foundation play that fits made at once
    (greedy), then with only the sound rule's, so that a card may stay in the tableau as a base
    or to shape the next gathered pack. Greedy beams win the easy deals sooner; on the hard ones
    they die out, every line a dead end. St. Helena by the book, the finder alone
    (experiments/benchmark_finder.py): deals 0..59 at 1e5 positions, 25 won greedy only, 13
    sound only, 29 both ways (Louis 30, 10, 30); the 12 deals of 0..39 the solver left unknown
    at 1e6, at 1e7 positions: 2, 7 and 7 (deal 4 has two moves at the start; its greedy beams
    all died within 294 positions, the sound-only ones won it)."""
    ways = 2 if pa[P_FOUND_KIND] == FOUND_KINGS_AND_ACES else 1
    width = first_width
    for _ in range(first_attempt // ways):
        width *= 4
    total = spent
    rated = 0
    attempt = first_attempt
    ended, ended_total = first_attempt, spent
    if track and first_attempt == 0:
        fs.deepest[DEEPEST_CARDS] = -1
        fs.deepest[DEEPEST_LENGTH] = 0
    while total < budget and attempt < MAX_ATTEMPTS:
        w = min(width, fs.beam.shape[0])
        greedy = ways == 2 and attempt % 2 == 0
        left = budget - total
        length, nodes = beam_search(root, pa, w, left, attempt, gen + np.uint64(attempt), fs, greedy, track, rounds)
        total += nodes
        rated += nodes
        attempt += 1
        if length >= 0:
            return length, rated, attempt, ended, ended_total
        if nodes < left:
            ended, ended_total = attempt, total
        if attempt % ways == 0:
            width *= 4
    return -1, rated, attempt, ended, ended_total
