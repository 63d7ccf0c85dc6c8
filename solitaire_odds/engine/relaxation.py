"""A loss prover that runs before the search: a relaxed game in which nothing is ever lost
again, after Dang, Gent, Nightingale, Ulrich-Oltean & Waller ("Constraint Models for
Klondike", CP 2025). Where even the relaxed game cannot be won, the position is LOST.

The relaxed game keeps, for the position ``s`` it starts from, only facts that never become
false:

* *left*: a card has left its place in ``s``: in one of its piles or reserve fans, or in the
  waste (a Westcliff or Duchess stock card leaves when it is played from the waste, or from
  the stock into a space; an Easthaven stock card leaves the place where its row put it);
* *open*: a card has been the top card of a tableau pile, so it was once available to build
  on (it stays available for ever, even after it went up); every face-up card of ``s``
  counts as open from the start;
* *up*: how far each foundation has been built (never lower, even where cards may return);
* *space*: some tableau pile has been empty.

and these rules, each a loosening of a real one:

* a card may move when it is *free*: it has left its place, or every card above it in its
  pile has left, or it is face up and the cards above it that have not left form a run on it
  (they move with it, and count as left); a reserve card when every card above it in its fan
  has left (it is the fan's top; nothing is ever put on a fan);
* a Westcliff stock or waste card is free when it is the waste's top: the cards of the
  *talon* (the waste from its bottom card up, then the stock in the order it is turned) are
  turned one at a time, in *stages*; in stage k the first k talon cards have been turned, and
  the top one of them that has not left is free. The closure of stage k is made from that of
  stage k - 1 (anything done before the k-th card was turned stays done). With a redeal left
  that turns the waste over (Duchess) the stages run again from 0 after the last one, once per
  redeal left: the waste turned over is the stock with its cards in the order they were
  turned, so the next pass turns the talon cards that have not left in the talon's order;
* Easthaven's stock is dealt in rows, in stages too: in stage k the first k rows have been
  dealt, each card on top of its pile as it was then. A pile is then the cards it has in
  ``s`` with one stock card per row dealt on top, in order, and "the cards above" a card
  include the stock cards dealt on its pile in those rows: a card that has not left in the
  closure of stage k - 1 had not left in any real line when row k was dealt, so row k's card
  lies above it. Under a run, a dealt card that has not left need only be able to lie above
  the cards below it in one run (cards moved in may lie between);
* a free card goes up when its foundation has reached its rank (from the Ace, or in Duchess
  from the chosen base, round the corner); with foundation returns every card that has gone
  up is *open* (it may come back to the tableau);
* a free card may move onto an *open* card it builds on (in Duchess round the corner: a King
  on an Ace), or into a space where space_fill lets it; Duchess' spaces take any reserve or
  talon card (whether or not the reserve is empty), never a card of a tableau pile of ``s``
  (then it has left; and when nothing lay on it, it is *open*: it is the top card where it
  lands);
* a card is *open* when every card above it has left; a pile all of whose cards have left
  gives a *space*; Easthaven's stock cards are *open* from the stage their row is dealt in
  (each lands on a pile's top), a turned card (Westcliff) is open once it may go onto the
  tableau.

Soundness (Westcliff family with every switch, Easthaven in both readings: one deck built down
in alternating colours on foundations up by suit from the Ace, no reserve, no redeal). Take
any line of real moves from ``s`` and the facts it makes true: the cards that left their place
in ``s``'s piles, the cards that were ever a pile's top, the highest each foundation reached,
whether a pile was ever empty. By induction along the line, each of these facts is also true
in the relaxed game's closure, because every real move meets a relaxed rule's conditions:
the facts of a time when k talon cards have been turned are in stage k's closure (a
turn moves on to the next stage, whose closure holds the last one's); a card played from the
waste is its top: the talon cards turned after it have all left, so it is free in that stage;
the facts of a time when k rows have been dealt are in stage k's closure likewise, the cards
of the rows dealt since it last moved lying above a card that has not left;
the card (or a run's bottom card) a real move takes from a pile has never left and has only
cards that left above it, or is face up under a run that moves with it (a face-down card is
never under a run, and a card face up in play but not in ``s`` was a top card, so all above
it had left); a pile's top it lands on is open; a space it enters was a space, under the same
space_fill rule; a card that comes to lie on another in a run was put there while the other
was a top card, or both were face up in ``s``, so a card uncovered in a run it moved with
builds on an open card and is open too; a foundation it goes onto has its rank reached (the
relaxed foundation is at least as high as the real one ever was); the card uncovered by a move is open by the first
rule on open cards; a returned card went up before; a dealt row opens its cards as the next
stage begins; a turned card changes no pile. A winning line puts every card up, so the last stage's closure has every
foundation complete. Hence: if that closure does not, no line wins, and LOST is sound.

Duchess adds a reserve, a chosen base, building round the corner, its space rule and the
redeal; the same induction covers each. A reserve card a real move takes is its fan's top, so
every card above it in the fan has left: it is free; it never had a card on it, so it is open
only once it lands. The real foundations take base, base + 1, ... round the corner, and the
relaxed ones follow the same order from the same base, at least as far. A real move round the
corner (a King onto an Ace) is a move onto an open card the King builds on by the same
building rule. A real space fill is a reserve top card, the waste's top card or the stock's top card
(a space existed, so the relaxed *space* holds), each free; a card of a tableau pile never
enters a space, and a card on the tableau never goes back to the reserve, the waste or the
stock, so a card of a tableau pile of ``s`` never does either. A stock card played straight into a space, the waste being empty,
is the next talon card with every turned one gone: the waste's top of the next stage, which
the real line has now reached. A real redeal turns a waste over once the stock is empty (the
last stage reached) into a stock whose turning order is the talon's, less the cards that left;
from then on the real waste at each point holds the talon cards of a prefix that have not
left, so the facts of a time in pass p with k cards turned are in the closure of pass p,
stage k, which holds every earlier one's. So the relaxed game covers every real line in every
reading of Duchess (run_moves partial, whole, single; any number of redeals), after the
base is chosen. Before it, the only moves choose it: a fan's top card goes up and sets the
base. :func:`relaxed_lost` tries each (at most four), and the position is LOST only when the
relaxed game is lost after every one.

Without the talon's order (every stock card free from the start) the relaxed game proved 1 of
Classic Westcliff's deals 0..1,999 lost; with it, 23. Without the rows' order (every Easthaven
stock card open and free from the start) it proved none of Easthaven's deals 0..1,999 lost;
with it, 9 (King spaces).

Duchess' deals 0..1,999 (each reading) are none of them relaxed-lost at the deal: the
relaxed space stays a space for ever, and every reserve and talon card may enter it. The
spaces are what a tighter proof must bound: with no card ever entering one (not a sound
rule), 1,465 of those deals of ``duchess redeals=0`` would be relaxed-lost. Later in play the
relaxed game is tighter: of 100 positions 20-90 random moves into deals 0..99 of
``duchess redeals=0``, the plain search (20,000 nodes) proved 75 lost, the relaxed game 37 of
them. The two-deck games are not covered.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from ..rules import Rules
from .constants import (
    FOUND_CHOSEN_BASE, NO_BASE, O_BASE, O_FOUND, O_PDOWN, O_PLEN, O_REDEALS, O_SLEN, O_STOCK, O_WASTE, O_WLEN,
    P_ACCEPT, P_BUILDERS, P_FOUND_KIND, P_FRETURN, P_NPILES, P_NRES, P_REDEAL_KIND, P_REDEALS, P_SPACE, P_STOCK,
    REDEAL_WASTE, S_SIZE, SPACE_ANY, SPACE_KING, SPACE_RESERVE_THEN_WASTE, STOCK_DEAL_ROW, STOCK_TURN,
)
from .core import builds_on, is_red, pcard, plen
from .jit import inline_kernel, kernel

U64 = np.uint64


def applies(rules: Rules) -> bool:
    """The games the soundness argument above covers: the Westcliff family and Easthaven, and
    Duchess in every reading."""
    if rules["ncards"] != 52 or rules["build"] != "alt-colour-down" or rules["foundation_transfer"]:
        return False
    if rules["foundations"] == "suit-up":
        # the stock is turned or dealt in rows from the start (no opening refilling piles from
        # it and dealing it round them), and no redeal
        return (not rules["wrap"] and rules["reserve_fans"] == 0 and rules["redeals"] == 0
                and rules["stock"] in ("turn", "deal-row") and rules["space_fill"] in ("any", "king", "none")
                and rules["opening"] == "none")
    return (rules["foundations"] == "chosen-base" and rules["stock"] == "turn" and not rules["foundation_return"]
            and rules["space_fill"] == "reserve-then-waste" and not rules["first_deal_foundations"]
            and rules["opening"] == "none" and (rules["redeals"] == 0 or rules["redeal_kind"] == "turn-waste"))


@inline_kernel
def _space_takes(pa, c, in_tableau):
    """May card ``c`` enter a space in the relaxed game? ``in_tableau``: it lies in a tableau
    pile of ``s``, and then in Duchess never (its spaces take reserve, waste and stock cards)."""
    rule = pa[P_SPACE]
    return ((rule == SPACE_ANY) | ((rule == SPACE_KING) & (c % 13 == 12))
            | ((rule == SPACE_RESERVE_THEN_WASTE) & (not in_tableau)))


@inline_kernel
def _pile_card(s, pa, p, h, talon):
    """The card at height ``h`` of pile ``p`` extended by the rows dealt onto it: the pile's
    cards in ``s``, then the stock card each row puts on it (``talon`` in dealing order)."""
    m = plen(s, pa, p)
    if h < m:
        return pcard(s, pa, p, h)
    return talon[(h - m) * pa[P_NPILES] + p]


@inline_kernel
def _pile_height(s, pa, p, slen, rows):
    """Cards in pile ``p`` once ``rows`` rows of the ``slen`` stock cards have been dealt
    (its cards in ``s`` and one per row that reaches it; a short last row reaches the first
    piles only)."""
    npiles = pa[P_NPILES]
    dealt = min(slen, rows * npiles)
    return plen(s, pa, p) + dealt // npiles + (1 if p < dealt % npiles else 0)


@inline_kernel
def _in_run_below(a, b):
    """May card ``a`` lie somewhere above card ``b`` in one run built down in alternating
    colours (``a`` lower in rank, of the other colour exactly when the ranks differ by an
    odd number)?"""
    gap = b % 13 - a % 13
    return gap >= 1 and (is_red(a) != is_red(b)) == (gap % 2 == 1)


@inline_kernel
def _free_height(s, pa, p, i, left, talon, top):
    """Is the card at height ``i`` of pile ``p`` (extended by the rows dealt, up to height
    ``top``) free: everything above it has left, or it is face up and the cards above it that
    have not left can lie on it in one run? Returns 0 (not free), 1 (free, nothing on it) or
    2 (free under a run).

    The cards of ``s`` above it that have not left lie on it in order (a card leaves a pile
    only with everything above it), so up to the highest of them they must form a run on it;
    a dealt card that has not left lies above those, with cards moved in perhaps between, so
    it need only be able to lie above them in the run."""
    m = plen(s, pa, p)
    k = top
    while k > i and left[_pile_card(s, pa, p, k, talon)]:
        k -= 1
    if k == i:
        return 1
    if i < np.int64(s[pa[O_PDOWN] + p]):
        return 0
    g = max(i, min(k, m - 1))  # the highest card of s above it that has not left
    while g > i and left[pcard(s, pa, p, g)]:
        g -= 1
    for j in range(i + 1, g + 1):
        if not builds_on(pa, pcard(s, pa, p, j), pcard(s, pa, p, j - 1)):
            return 0
    below = _pile_card(s, pa, p, g, talon)
    for j in range(max(m, i + 1), k + 1):
        c = _pile_card(s, pa, p, j, talon)
        if not left[c]:
            if not _in_run_below(c, below):
                return 0
            below = c
    return 2


@inline_kernel
def _fan_top(s, pa, p, i, left):
    """Is the card at height ``i`` of reserve fan ``p`` its top card once the cards that have
    left are gone (every card above it has left)?"""
    for j in range(i + 1, plen(s, pa, p)):
        if not left[pcard(s, pa, p, j)]:
            return False
    return True


@inline_kernel
def _waste_top(talon, turned, left):
    """The card on top of the waste once ``turned`` talon cards have been turned and those that
    have left it are gone (-1: none)."""
    t = turned - 1
    while t >= 0 and left[talon[t]]:
        t -= 1
    return talon[t] if t >= 0 else -1


@inline_kernel
def _enqueue(queue, queued, n, c):
    """Put card ``c`` on the work stack ``queue[:n]`` unless it is there; return the new n."""
    if c >= 0 and not queued[c]:
        queued[c] = True
        queue[n] = c
        n += 1
    return n


@inline_kernel
def _enqueue_mask(queue, queued, n, mask):
    """Put every card of the bit mask ``mask`` on the work stack; return the new n."""
    while mask != 0:
        n = _enqueue(queue, queued, n, np.int64(trailing_zeros(mask)))
        mask &= mask - U64(1)
    return n




_WORK_SIZE = 10 * 52 + 4
"""The int64 work array :func:`_relaxed_lost_in` cuts its arrays from: ten per card, four per suit."""


@njit(cache=True)
def relaxed_lost(s, pa):
    """Is ``s`` LOST because the relaxed game from it cannot be won (see the module)? Only
    where :func:`applies` holds. In Duchess before the base is chosen, each of the (at most
    four) first moves is tried: LOST when the relaxed game is lost after every one of them."""
    work = np.empty(_WORK_SIZE, dtype=np.int64)
    if pa[P_FOUND_KIND] != FOUND_CHOSEN_BASE or s[pa[O_BASE]] != NO_BASE:
        return _relaxed_lost_in(s, pa, work)
    after = np.empty(pa[S_SIZE], dtype=np.uint8)
    npiles = pa[P_NPILES]
    for r in range(npiles, npiles + pa[P_NRES]):
        m = plen(s, pa, r)
        if m == 0:
            continue
        c = pcard(s, pa, r, m - 1)
        after[:] = s
        after[pa[O_PLEN] + r] = m - 1
        after[pa[O_FOUND] + c // 13] = 1
        after[pa[O_BASE]] = c % 13
        if not _relaxed_lost_in(after, pa, work):
            return False
    return True


@kernel
def _relaxed_lost_in(s, pa, work):
    """:func:`relaxed_lost` once the base is chosen (in Duchess), with its arrays cut from one
    ``work`` array (_WORK_SIZE int64), compiled without
    reference counting (whose updates on every array access cost a third of its time).

    The closure is worked out card by card from a work stack: a card is looked at again only
    when a fact it depends on was added (a card above it in its pile left, a card it builds on
    was opened, its foundation reached its rank, a space appeared, it became the waste's top).
    Each rule only ever adds facts, so this reaches the same closure as sweeping every card
    until nothing changes, at a small part of the cost."""
    npiles = pa[P_NPILES]
    places = npiles + pa[P_NRES]
    left = work[0:52]
    opened = work[52:104]
    pile_of = work[104:156]
    height = work[156:208]
    root_up = work[208:260]
    talon = work[260:312]
    talon_at = work[312:364]
    queue = work[364:416]
    queued = work[416:468]
    up = work[468:472]
    row_of = work[472:524]
    for c in range(52):
        left[c] = 0
        opened[c] = 0
        pile_of[c] = -1
        height[c] = 0
        root_up[c] = 0
        talon_at[c] = -1
        row_of[c] = -1
        queued[c] = 0
    returns = pa[P_FRETURN] == 1
    base = np.int64(s[pa[O_BASE]]) if pa[P_FOUND_KIND] == FOUND_CHOSEN_BASE else 0  # rank of each foundation's first card
    space = False
    for j in range(4):
        up[j] = s[pa[O_FOUND] + j]
        for r in range(up[j]):
            c = j * 13 + (base + r) % 13
            left[c] = True
            opened[c] = returns
            root_up[c] = True
    for p in range(places):  # tableau piles, then reserve fans (whose cards are never built on)
        m = plen(s, pa, p)
        if p < npiles:
            if m == 0:
                space = True
            else:
                opened[pcard(s, pa, p, m - 1)] = True
        for i in range(m):
            pile_of[pcard(s, pa, p, i)] = p
            height[pcard(s, pa, p, i)] = i
            if p < npiles:
                opened[pcard(s, pa, p, i)] |= i >= np.int64(s[pa[O_PDOWN] + p])
    # the talon: the waste from its bottom card up, then the stock in the order it is turned
    wlen, slen = np.int64(s[pa[O_WLEN]]), np.int64(s[pa[O_SLEN]])
    for i in range(wlen):
        talon[i] = s[pa[O_WASTE] + i]
    for i in range(slen):
        talon[wlen + i] = s[pa[O_STOCK] + slen - 1 - i]
    first_stage, last_stage = wlen, wlen + slen
    rows_dealt = pa[P_STOCK] == STOCK_DEAL_ROW  # (no waste then: the talon is the stock)
    passes = 1  # through the talon: one, and one more for each redeal left that turns the waste over
    if pa[P_STOCK] == STOCK_TURN:
        for t in range(wlen + slen):
            talon_at[talon[t]] = t
        if pa[P_REDEAL_KIND] == REDEAL_WASTE:
            passes += pa[P_REDEALS] - np.int64(s[pa[O_REDEALS]])
    else:  # stage k: k rows dealt, each card onto its pile at the height after the row before
        for t in range(slen):
            c = talon[t]
            row_of[c] = t // npiles
            pile_of[c] = t % npiles
            height[c] = plen(s, pa, t % npiles) + t // npiles
        first_stage, last_stage = 0, (slen + npiles - 1) // npiles
    open_bits = U64(0)
    for c in range(52):
        if opened[c]:
            open_bits |= U64(1) << U64(c)
    n = 0
    for pass_ in range(passes):
        for turned in range(first_stage if pass_ == 0 else 0, last_stage + 1):
            waste_top = -1 if rows_dealt else _waste_top(talon, turned, left)
            rows = turned if rows_dealt else 0
            if pass_ == 0 and turned == first_stage:
                for c in range(52):
                    n = _enqueue(queue, queued, n, c)
            elif rows_dealt:  # the row just dealt: each card lands on its pile's top, open
                for t in range((turned - 1) * npiles, min(turned * npiles, slen)):
                    c = talon[t]
                    opened[c] = True
                    open_bits |= U64(1) << U64(c)
                    n = _enqueue_mask(queue, queued, n, U64(pa[P_BUILDERS + c]))
                    n = _enqueue(queue, queued, n, c)
            else:  # what the stage before closed under every rule but for the card just turned
                n = _enqueue(queue, queued, n, waste_top)
            while n > 0:
                n -= 1
                c = queue[n]
                queued[c] = False
                if root_up[c] or row_of[c] >= rows:
                    continue  # on its foundation in s (it comes back only by a return, then open), or not dealt yet
                p = pile_of[c]
                in_tableau = 0 <= p < npiles
                if talon_at[c] >= 0 and not left[c]:
                    if c != waste_top:
                        continue
                    free = 1
                elif left[c]:
                    free = 1
                elif in_tableau:
                    free = _free_height(s, pa, p, height[c], left, talon, _pile_height(s, pa, p, slen, rows) - 1)
                else:  # a reserve card: only a fan's top card plays
                    free = 1 if _fan_top(s, pa, p, height[c], left) else 0
                if free == 0:
                    continue
                gone = left[c]
                opened_before = opened[c]
                if free == 1 and not opened[c] and not left[c] and in_tableau:
                    opened[c] = True  # every card above it has left: it is a pile's top
                suit = c // 13
                if free == 1 and up[suit] < 13 and c % 13 == (base + up[suit]) % 13:
                    up[suit] += 1
                    left[c] = True
                    opened[c] |= returns
                    if up[suit] < 13:
                        n = _enqueue(queue, queued, n, suit * 13 + (base + up[suit]) % 13)
                # a move onto the tableau (also for a card that has gone up: it may go there first)
                if not (left[c] and opened[c]):
                    lands = ((space and _space_takes(pa, c, in_tableau))
                             or (U64(pa[P_ACCEPT + c]) & open_bits) != 0)
                    if lands:
                        if free == 1:
                            opened[c] = True
                        if not left[c]:
                            left[c] = True
                            if in_tableau:
                                for j in range(height[c] + 1, _pile_height(s, pa, p, slen, rows)):
                                    x = _pile_card(s, pa, p, j, talon)
                                    if not left[x]:
                                        left[x] = True
                                        n = _enqueue(queue, queued, n, x)
                if opened[c] and not opened_before:
                    open_bits |= U64(1) << U64(c)
                    n = _enqueue_mask(queue, queued, n, U64(pa[P_BUILDERS + c]))
                    n = _enqueue(queue, queued, n, c)
                if left[c] and not gone:
                    n = _enqueue(queue, queued, n, c)
                    if p >= 0:
                        for j in range(height[c]):
                            n = _enqueue(queue, queued, n, _pile_card(s, pa, p, j, talon))
                        if height[c] == 0 and in_tableau and not space:
                            space = True
                            for x in range(52):
                                n = _enqueue(queue, queued, n, x)
                    elif talon_at[c] >= 0:
                        waste_top = _waste_top(talon, turned, left)
                        n = _enqueue(queue, queued, n, waste_top)
    for j in range(4):
        if up[j] < 13:
            return True
    return False
