"""Which search reductions hold for a set of rules, decided once, each beside its soundness
argument; and the per-position tests the kernels run where a reduction holds.

:func:`capabilities` turns :class:`~solitaire_odds.rules.Rules` into flags that the compile step
writes into ``params``; the search, the play-outs and the planner read those flags and never
re-derive them. A reduction that holds is *sound*: a LOST found with it is a LOST of the plain
search. The one exception is ``win_first``, a heuristic used only in a pass that may answer WON.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..rules import Rules
from .constants import (
    C_DEAD_WASTE, C_RELAXED_DEAD_ENDS, C_SAFE_FOUNDATION, FOUND_CHOSEN_BASE, FOUND_SUIT_UP, MOVE, NO_BASE, O_BASE, O_FOUND, O_WLEN,
    O_WLIVE, P_FOUND_KIND, PLACE_FOUND,
)
from .core import found_next
from .two_deck_proofs import never_freed


def safe_foundation(rules: Rules) -> bool:
    """A card may go to its foundation at once, ignoring every alternative, when both cards one
    rank lower of the other colour are already up (:func:`safe_to_foundation`).

    Holds in the one-deck games built down in alternating colours without foundation returns
    (Westcliff family, Duchess). A tableau card's only use is as a base for the two cards one
    rank lower of the other colour. When both are already on the foundations (they never come
    back), take any winning line L that plays ``c`` up later: drop ``c``'s moves from L and
    play it up first. Every other move of L stays legal: nothing is ever built on ``c``, a run
    that carried ``c`` on top moves without it, a space ``c`` would have filled stays empty
    (spaces only add choices, and Duchess' fills are optional), and ``c``'s suit can only
    gain. So the shortened line wins too, and searching only this move loses no win.
    """
    return rules["build"] == "alt-colour-down" and rules["ncards"] == 52 and not rules["foundation_return"]


def twin_swap(rules: Rules) -> bool:
    """A partial run may be moved onto a card only when the card it uncovers can then go to a
    foundation. Proven for one-deck games built down in alternating colours with partial run
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
    return (rules["build"] == "alt-colour-down" and rules["ncards"] == 52 and rules["run_moves"] == "partial"
            and rules["stock"] == "turn")


def interchangeable_piles(rules: Rules) -> bool:
    """A pile's number never matters to the rules, so positions that differ only in the order of
    the tableau piles (and, apart, of the reserve fans) are one position, and moving a whole pile
    with no face-down card into a space is pointless (it gives the same position).

    True unless something goes by pile number: a row dealt onto the piles in order
    (Easthaven), a redeal that gathers the piles in order while one is left, a first-deal
    restriction on where a pile's cards may go up, or Louis' opening (refills and the final
    deal go by pile). Sound because the moves legal at a position and their results are then
    the same up to the same renumbering of piles, so the reachable positions are too.
    """
    return (rules["stock"] != "deal-row"
            and not (rules["redeal_kind"] == "gather-piles" and rules["redeals"] > 0)
            and not rules["first_deal_foundations"]
            and rules["opening"] == "none")


def dead_waste(rules: Rules) -> bool:
    """With ``waste_playable`` off a turned card is played at once or never: any waste card
    but a live top card can never leave the waste, so no win remains (a dead end, see
    :func:`dead_card_in_waste`). Holds whenever the waste is not playable and nothing turns
    it back into a stock."""
    return not rules["waste_playable"] and rules["redeal_kind"] != "turn-waste"


def win_first(rules: Rules) -> bool:
    """The heuristic first pass (search.py's ``_purposeful``) is written for games built down in
    alternating colours; elsewhere it would only repeat the start of the full search. It is not
    a sound reduction: only its wins are kept."""
    return rules["build"] == "alt-colour-down"


def relaxed_dead_ends(rules: Rules) -> bool:
    """In the St. Helena family (King and Ace foundations, up-or-down building one card at a
    time, no stock) a position of the last round that the relaxation of
    :func:`~.two_deck_proofs.never_freed` proves lost is a dead end. Sound by that function's
    argument: its fixpoint contains every event of every line of play from the position, and
    no line of it empties the tableau."""
    return (rules["foundations"] == "kings-and-aces" and rules["build"] == "up-or-down"
            and rules["run_moves"] == "single" and rules["stock"] == "none" and rules["reserve_fans"] == 0)


def capabilities(rules: Rules) -> dict:
    return {"relaxed_dead_ends": relaxed_dead_ends(rules), "safe_foundation": safe_foundation(rules), "twin_swap": twin_swap(rules),
            "interchangeable_piles": interchangeable_piles(rules), "dead_waste": dead_waste(rules),
            "win_first": win_first(rules)}


# --- the per-position tests ------------------------------------------------------------------


@njit(cache=True)
def on_foundation(s, pa, c):
    """Is (a copy of) card ``c`` already on its foundation? One-deck games built up by suit."""
    cnt = np.int64(s[pa[O_FOUND] + c // 13])
    r = c % 13
    if pa[P_FOUND_KIND] == FOUND_SUIT_UP:
        return r < cnt
    return (r - np.int64(s[pa[O_BASE]])) % 13 < cnt


@njit(cache=True)
def safe_to_foundation(s, pa, c):
    """Card ``c`` may go up at once (see :func:`safe_foundation`): both cards one rank lower of
    the other colour are up (an Ace with Ace-based foundations always is)."""
    r = c % 13
    below = r - 1
    if below < 0:
        if pa[P_FOUND_KIND] == FOUND_SUIT_UP:
            return True
        below = 12
    red = ((c // 13) == 1) | ((c // 13) == 2)
    for sw in range(4):
        sw_red = (sw == 1) | (sw == 2)
        if sw_red != red and not on_foundation(s, pa, sw * 13 + below):
            return False
    return True


@njit(cache=True)
def dead_card_in_waste(s, pa):
    """Where :func:`dead_waste` holds: a card below the waste's top, or a top card no longer
    live, can never leave the waste."""
    if pa[C_DEAD_WASTE] == 0:
        return False
    wlen = s[pa[O_WLEN]]
    return (wlen >= 2) | ((wlen == 1) & (s[pa[O_WLIVE]] == 0))


@njit(cache=True)
def dead_end(s, pa):
    """No win remains below ``s``, by a sound test that holds for these rules: a dead waste
    card (:func:`dead_waste`) or the two-deck relaxation (:func:`relaxed_dead_ends`)."""
    if dead_card_in_waste(s, pa):
        return True
    return pa[C_RELAXED_DEAD_ENDS] == 1 and never_freed(s, pa)


@njit(cache=True)
def safe_foundation_move(s, pa, moves, n):
    """The index among ``moves[:n]`` of a foundation move safe to play at once (see
    :func:`safe_foundation`), or -1."""
    if pa[C_SAFE_FOUNDATION] == 0 or (pa[P_FOUND_KIND] == FOUND_CHOSEN_BASE and s[pa[O_BASE]] == NO_BASE):
        return -1
    for i in range(n):
        if moves[i, 0] == MOVE and moves[i, 2] >= PLACE_FOUND:
            j = moves[i, 2] - PLACE_FOUND
            if safe_to_foundation(s, pa, np.int64(found_next(s, pa, j)) + j * 13):
                return i
    return -1
