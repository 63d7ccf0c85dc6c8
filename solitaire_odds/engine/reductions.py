"""Which search reductions hold for a set of rules, decided once, each beside its soundness
argument; and the per-position tests the kernels run where a reduction holds.

:func:`capabilities` turns :class:`~solitaire_odds.rules.Rules` into flags that the compile step
writes into ``params``; the search, the play-outs and the planner read those flags and never
re-derive them. A reduction that holds is *sound*: a LOST found with it is a LOST of the plain
search. The one exception is ``win_first``, a heuristic used only in a pass that may answer WON.
"""

from __future__ import annotations

import numpy as np

from ..rules import Rules
from .constants import (
    C_DEAD_WASTE, C_WASTE_ROOM, C_POINTLESS_RETURN, C_RELAXED_DEAD_ENDS, C_SAFE_FOUNDATION, C_SAFE_LOW, C_SAFE_OVERLAP,
    C_TWIN_SWAP, C_TWIN_SWAP_WITHOUT_STOCK,
    FOUND_CHOSEN_BASE, FOUND_SUIT_UP, MOVE, NO_BASE, O_BASE, O_FOUND, O_REDEALS, O_STOCK, O_WASTE, O_WLEN, O_WLIVE,
    O_PDOWN, O_SLEN, P_FOUND_KIND, P_NPILES, P_NRES, P_REDEAL_KIND, P_REDEALS, REDEAL_WASTE, P_WASTE_PLAYABLE, P_WRAP, PLACE_FOUND, PLACE_WASTE,
)
from .core import builds_on, found_next, found_top, is_red, pcard, plen, wanted
from .jit import inline_kernel, kernel
from .two_deck_proofs import last_round_unrestricted, never_freed_in


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
    return (rules["build"] == "alt-colour-down" and rules["ncards"] == 52 and not rules["foundation_return"]
            # an Ace goes up at once on Ace-based foundations: nothing may be built on it (no wrap)
            and not (rules["wrap"] and rules["foundations"] == "suit-up")
            and _rows_keep_runs(rules) and _laid_out_once(rules))


def _laid_out_once(rules: Rules) -> bool:
    """What the one-deck arguments (:func:`safe_foundation`, :func:`safe_foundation_low`,
    :func:`twin_swap`) assume of the deal beyond their own conditions: the pack is laid out
    once, at the start, and nothing limits where a pile's cards go up. Not with an opening
    (its refills and its final deal put cards by pile, so a card played up early changes
    where every later card lands), a redeal that gathers the piles (it deals the changed
    piles as another pack), or a first-deal limit (the safe play would ignore it)."""
    return (rules["opening"] == "none" and not (rules["redeal_kind"] == "gather-piles" and rules["redeals"] > 0)
            and not rules["first_deal_foundations"])


def _rows_keep_runs(rules: Rules) -> bool:
    """Where a card played up early leaves a copy of a winning line whose runs are L's runs
    (partial or single run moves, or no rows dealt). A row dealt onto a pile puts a card on
    whatever lies on top; with a card taken out from under it in the copy, the dealt card may
    build on the card below and lengthen the pile's top run, and a "whole" move of L's run is
    then no longer a whole run."""
    return not (rules["stock"] == "deal-row" and rules["run_moves"] == "whole")


def safe_foundation_low(rules: Rules) -> bool:
    """A tableau pile's top card ``c`` of rank r (Ace = 0) that fits its foundation may go up at
    once, ignoring every alternative, when both foundations of the other colour hold at least
    r - 1 cards and the other foundation of its colour at least r - 2
    (:func:`low_enough`), with or without foundation returns. This is the rule of Blake & Gent's
    Theorem 1 (their ``opp <= 2 and same <= 3``); the argument below is this project's own.

    Holds in the one-deck games built down in alternating colours on foundations built up by
    suit from the Ace without wrap: the Westcliff family (every switch: returns, run moves
    partial, whole or single, waste on or off, Aces out) and Easthaven (both readings). Not in
    Duchess: its chosen base and wrap let a card of the rank just below the base sit on a
    base-rank card, which breaks the closure below.

    Let D be the cards the thresholds put up: c's suit below r, the opposite colour below
    r - 1, the other suit of c's colour below r - 2; and D2 = D + {c, x1, x2, y} with x1, x2
    the opposite-colour cards of rank r - 1 and y the other card of c's colour of rank r - 2.
    D2 is closed: a card that can be built on a D2 card (opposite colour, one rank lower) is in
    D2, and D2 meets each suit in its lowest ranks. Take any winning line L from position Q and
    let Q' be Q with c played up. Play L from Q' with these changes: no D2 card ever leaves the
    foundations (a return of one is skipped); a move of a D2 card that is already up in the
    copy is skipped; the first move of x1, x2 or y not yet up plays it up instead (with the D2
    cards lying on it, already up or among x1, x2, y), which is legal because the foundations
    below them (D and c) are always up in the copy; a run whose lower part is not in D2 moves
    only that part (the cards above a D2 card in a run are in D2, by closure). By induction
    along L the copy is always the position of L with the D2 cards that are up in the copy
    taken out of the tableau: every other move of L stays legal (a card that is not in D2
    never goes onto a D2 card, by closure; its foundation has no D2 card above its place; a
    dealt row or a turned card lands on the same cards less the removed ones; the copy only
    has more face-up cards and spaces, which add choices; a run that was whole stays whole, as
    long as no row is dealt onto a card taken out: :func:`_rows_keep_runs`).
    When L wins, every card is up in both. So Q' is winnable whenever Q is: playing c up
    loses no win.
    """
    return (rules["build"] == "alt-colour-down" and rules["ncards"] == 52 and rules["foundations"] == "suit-up"
            and not rules["wrap"] and _rows_keep_runs(rules) and _laid_out_once(rules))


def pointless_return(rules: Rules) -> bool:
    """A foundation card may not come back to the tableau when :func:`safe_foundation_low`
    would play it straight back up (see :func:`returns_pointlessly`). Holds where that rule
    holds and foundation returns are allowed.

    Such a return m from position P leads to P1, from which playing the card up gives P again.
    The construction of :func:`safe_foundation_low` turns a winning line L from P1 into one
    from P that has no more returns than L: so a winning line from P with the fewest returns
    never starts with m, and pruning m at every position keeps a win whenever there is one.
    The test reads the position only (not the move that led to it), so the transposition
    table cannot carry a pruning from one path to another.
    """
    return safe_foundation_low(rules) and rules["foundation_return"]


def twin_swap(rules: Rules) -> bool:
    """Blake and Gent's partial-pile rule (their Theorem 4) for these rules, argued here afresh:
    a part of a built run is moved off a face-up card onto another card only when the card it
    uncovers can then go to its foundation. Holds in the one-deck games built down in
    alternating colours with partial run moves, where nothing lands on a pile but by building
    (no row dealt onto the piles: see :func:`twin_swap_without_stock`) and the pack is laid out
    once (:func:`_laid_out_once`); with or without spaces of any kind (a part moved into a
    space is never pruned), waste on or off, Aces out, and foundation returns where the piles
    do not wrap. With wrap (Duchess) it applies from a position where both foundations of one
    colour hold a card and nothing comes back from them (see (b) below). The test is
    :func:`twin_pruned`; the search applies it where :func:`twin_swap_now` says.

    The pruned move. m takes a run R off a face-up card Y whose rank and colour R's bottom card
    builds on, and puts it on a pile's top card W. W takes R's bottom card, so W is Y's twin
    (same rank and colour, other suit: one pack). Let P be the position before m, P' after it.
    Call two positions *alike* when one is the other with the cards lying above Y and the
    cards lying above W exchanged, each of those two stacks being a built run on its twin (so
    each stack is also a built run on the other twin). P and P' are alike: R above Y and
    nothing above W in P, the reverse in P'.

    Counterparts. Let Q' and Q be alike. Every move of Q' has a counterpart in Q moving the
    same cards to the corresponding place: cards taken from the top of the stack above Y are
    taken from the top of the same stack, which lies above W in Q (and the other way round);
    a move that carries Y (with cards from below it, perhaps) carries Y with Q's stack on it,
    still a built run since that stack is built on Y's rank and colour; cards put on the top
    card of a stack, or on Y or W when its stack is empty, go on the corresponding top card,
    which has the same rank and colour; anything else (spaces, the waste, the stock, the
    reserve, the foundations, the other piles) is the same in both. Whether the counterpart is
    legal reads only those cards, the spaces and the foundations, so it is, and the two
    positions after the moves are alike again, except in three cases:
    (a) Y or W goes to a foundation; (b) a run carrying one twin lands on the other twin's
    pile above it; (c) the whole stack above one twin moves onto the other twin. (c) leaves in
    Q' exactly Q's position: the counterpart line simply drops that move. (b) cannot happen:
    the pile would then hold a built run from W round to Y, which goes down one rank at a time
    in alternating colours through all 26 (rank, colour) pairs and more, impossible without
    wrap (ranks only fall), and with wrap impossible from P on once some pair has both its
    cards on the foundations (both foundations of one colour hold a card: their first ranks
    are the same) and the foundations never shrink. In (a), say Y goes up from Q': then Y is a
    top card in Q', so in Q the stack on W is empty and a stack T lies on Y; the move "T from Y
    onto W" gives Q' itself (if T is empty, Q is Q' already), and the foundation play follows.
    That move is never pruned: the card it uncovers goes up next. W going up is the same with
    the twins' roles exchanged.

    No win is lost. Measure a winning line by (its foundation returns, its length, its moves
    the test prunes), compared in that order. Take any winning line L from P starting with m,
    and L' its rest (from P'). Replay L' from P by counterparts until case (a) or (c), then
    insert the one move of (a) before the foundation play (or drop the move of (c)), and
    continue with L' as it is. The new line wins, has as many returns (a return's counterpart
    is a return; the moves added or dropped are pile moves), is no longer (m is gone, at most
    one move is added), and prunes fewer moves: m is gone, the added move is kept, and every
    counterpart is pruned exactly when its move is (the test reads the foundations, whether
    the stock is empty, the card under the moved cards and the moved bottom card: equal in
    alike positions, but for a whole stack leaving a twin, which either goes into a space,
    never pruned, or onto the other twin, case (c), dropped). So a winning line that is least
    in the measure never starts with a pruned move. The new line keeps the form the other
    reductions' arguments give winning lines: counterparts of turns are turns, of waste moves
    waste moves, and the added or dropped move is a pile move next to a move that is not a
    waste move, so no turn comes to stand before it. The other reductions fit the same
    measure: a safe foundation play leads to a child with a line of no more returns and a
    shorter length (their constructions skip a card's own moves), a pointless return leaves a
    line with fewer returns, a pile moved whole into a space a shorter one. So from every
    winnable position the search tries a move to a child whose least line is smaller, and by
    induction it reaches a won position: a LOST under the rule is a LOST of the plain search.
    """
    return _twin_swap_holds(rules) and rules["stock"] != "deal-row"


def twin_swap_without_stock(rules: Rules) -> bool:
    """:func:`twin_swap` once the stock is empty, where the stock deals rows onto the piles and
    nothing refills it (Easthaven). A row lands on whatever lies on top, so a dealt card would
    lie on Y in one position and on the stack above it in the other: the two stop being alike
    (the face-up cards a row leaves need not be in sequence either, which is why the test asks
    that the moved bottom card builds on the card it leaves). With the stock empty no row is
    dealt again, and the argument of :func:`twin_swap` holds from then on."""
    return (_twin_swap_holds(rules) and rules["stock"] == "deal-row"
            and (rules["redeal_kind"] == "none" or rules["redeals"] == 0))


def _twin_swap_holds(rules: Rules) -> bool:
    """The conditions :func:`twin_swap` and :func:`twin_swap_without_stock` share."""
    return (rules["build"] == "alt-colour-down" and rules["ncards"] == 52 and rules["run_moves"] == "partial"
            # with wrap, the guard against case (b) needs foundations that never shrink
            and not (rules["wrap"] and rules["foundation_return"])
            and _laid_out_once(rules))


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


def interchangeable_without_stock(rules: Rules) -> bool:
    """Piles become interchangeable once the stock is empty, where only the stock's rows went
    by pile number (Easthaven): with the stock gone no row is ever dealt again (nothing refills
    it), and the argument of :func:`interchangeable_piles` holds from then on."""
    return (rules["stock"] == "deal-row" and (rules["redeal_kind"] == "none" or rules["redeals"] == 0)
            and not rules["first_deal_foundations"] and rules["opening"] == "none")


def dead_waste(rules: Rules) -> bool:
    """With ``waste_playable`` off a turned card is played at once or never: any waste card
    but a live top card can never leave the waste, so no win remains (a dead end, see
    :func:`dead_card_in_waste`). Holds whenever the waste is not playable and nothing turns
    it back into a stock."""
    return not rules["waste_playable"] and rules["redeal_kind"] != "turn-waste"


def win_first(rules: Rules) -> bool:
    """The heuristic first pass (search.py's ``_purposeful``) is written for games built down in
    alternating colours; elsewhere it would only repeat the start of the full search. It is not
    a sound reduction: only its wins are kept. Not where rows are dealt onto the piles
    (Easthaven): there it cuts the moves that build the piles up before the next row; without
    it the search has the whole budget, and the shortcut pass (engine.shortcuts) looks for
    wins (measured with experiments/decide.py, Easthaven deals 0..199 at 1e5 nodes:
    54 unknown with it, 53 without, in less time)."""
    return rules["build"] == "alt-colour-down" and rules["stock"] != "deal-row"


def shortcuts(rules: Rules) -> bool:
    """The shortcut pass (engine.shortcuts) is written for the one-deck games; the St. Helena
    family has its own win finder (engine.winfinder). Not a sound reduction: only its wins count."""
    return rules["ncards"] == 52


def relaxed_dead_ends(rules: Rules) -> bool:
    """In the St. Helena family (King and Ace foundations, up-or-down building one card at a
    time, no stock) a position of the last round that the relaxation of
    :func:`~.two_deck_proofs.never_freed` proves lost is a dead end. Sound by that function's
    argument: its fixpoint contains every event of every line of play from the position, and
    no line of it empties the tableau."""
    return (rules["foundations"] == "kings-and-aces" and rules["build"] == "up-or-down"
            and rules["run_moves"] == "single" and rules["stock"] == "none" and rules["reserve_fans"] == 0
            # its foundations only grow and a card put up never serves as a base again; its
            # spaces take any card or none (with no reserve and no stock, reserve-then-waste
            # takes none): a King-only space is neither
            and not rules["foundation_return"] and rules["space_fill"] != "king")


def safe_overlap(rules: Rules) -> bool:
    """In the last round of the St. Helena family built by suit (no redeal left, the opening and
    any first-deal restriction over), a pile's top card may go up at once, ignoring every
    alternative, when its suit's two foundations overlap: together they hold every rank at
    least once (King foundation down to rank k, Ace foundation up to rank a, k <= a;
    :func:`overlap_play`). Holds with same-suit building one card at a time, without wrap and
    without foundation transfers, whatever the space rule.

    Once they overlap, each rank the Ace foundation still needs (a + 1 .. King) has one copy
    in play, the other being on the King foundation, and each rank the King foundation needs
    (k - 1 .. Ace) likewise; the two sets are at least two ranks apart (k <= a), so without
    wrap no card of one can be built on a card of the other, nor on a card of another suit.
    Each set is then a single chain of one card per rank, wanted by one foundation only.
    Take the chain of the Ace foundation (the King one is the mirror image), its lowest card
    c on a pile top, and any winning line L from position Q; let Q' be Q with c played up.
    Play L from Q' with these changes: a move of a chain card that is already up in the copy
    is skipped; a move putting a chain card x onto a chain card that is up in the copy plays
    x up instead. The copy's foundation then always holds a run of the chain from c upwards
    and, by induction along L, the copy is always L's position with those cards taken out of
    the tableau: x onto an up card y is x one rank above the highest up card (one below
    would be up already, the chain having one card per rank), so playing it up is legal; a
    foundation play of L finds its foundation at least as far along in the copy; every other
    move of L stays legal (its cards are not in the chain; L only ever puts a chain card on
    a chain card or into a space, so taking up chain cards out of the tableau keeps the order
    of every other card and uncovers cards only earlier, and leaves only more spaces). L ends with every card up, and so does the copy: Q' is
    winnable whenever Q is, and searching only the move to the foundation loses no win. No
    redeal may follow (it would gather the changed piles into another pack), nor a
    restricted first deal (the copy's foundation plays would break it)."""
    return (rules["foundations"] == "kings-and-aces" and rules["build"] == "up-or-down" and rules["build_suit"] == "same"
            and not rules["wrap"] and not rules["foundation_transfer"] and rules["run_moves"] == "single"
            and rules["stock"] == "none" and rules["reserve_fans"] == 0
            # the copy's foundations are further along than L's: a return of L's would take another card
            and not rules["foundation_return"])


def persistent_sets(rules: Rules) -> bool:
    """In the last round of the St. Helena family without spaces, the search tries only the
    moves of a persistent set (engine.persistent): those touching a set of piles Π that no
    line of outside moves (touching neither Π nor, through the closure's conditions, what Π's
    moves need) can affect. Holds with same-suit or any-suit building, with or without wrap;
    not with foundation transfers or returns (moves between two foundations or back to a pile),
    nor with spaces (any card could go into a pile that outside moves empty), nor where a redeal
    is left (it gathers every pile).

    No win is lost. Let L be a shortest winning line from s and T the inside moves legal at s
    (at least one). The won position has no legal move, so some move of L is inside: were
    none, the moves of T, legal at s, would stay legal along all of L (property 1 of the
    module), and L would end with a legal move left. Take the first inside move t of L,
    L = u t v with u outside moves only. By property 2, t was legal at s already, so t is in
    T; by property 1 it stays legal along u. Outside and inside moves have no place in common
    (a foundation that t plays to receives no outside play along u: that would be the card t
    plays or its twin, which property 1 excludes), so t u v is a legal line from s to the same
    won position, of the same length. Its tail u v wins from t's child in one move fewer than
    L. By induction on the length of a shortest winning line, a position with a win always has
    a child in T with a shorter one: searching T alone finds a win wherever there is one.
    The other reductions keep this form: a safe foundation play (the overlap rule) also leads
    to a child with a shorter winning line (its construction drops the card's own play from
    L), dead ends have no win, and the transposition table only merges positions with the
    same shortest winning length."""
    return (relaxed_dead_ends(rules) and rules["space_fill"] == "none" and not rules["foundation_transfer"]
            and not rules["foundation_return"])


def turn_to_play(rules: Rules) -> bool:
    """A stock card is turned only to be played: after a turn the search lists only another
    turn or a move of the waste's top card (to a foundation, a pile or a space), and it keeps
    a *turned* position (one reached by a turn) out of its table and its node count.

    Holds with a turned stock that nothing refills (no redeal of the waste). What a move of
    the tableau, a reserve fan or a foundation may do then depends on neither the stock nor
    the waste: in Duchess too, where a space takes a reserve card while the reserve has cards
    (the waste and stock play no part), and a waste card or the stock's top card (the waste
    being empty) only once the reserve is empty; those are moves of the waste and the stock.
    So a turn and such a move commute: the turn needs only a card in the stock, the other move
    reads and changes neither stock nor waste, so either order is legal and both end in the
    same position.

    No win is lost. Take any winning line L. Every card turned is played from the waste later
    (a win puts every card up), so each run of turns in L is followed, sooner or later, by a
    move of the waste's top. No move of the stock's top card into a space (Duchess) comes
    between: it needs an empty waste, and the card last turned lies on the waste until that
    waste move. Move each run of turns rightwards, past the moves between it and
    that waste move, to just before it: the line stays legal, ends in the same position, and
    has the same moves other than turns in the same order, at positions with the same tableau
    and foundations. So it keeps the form the other reductions' arguments give a winning line
    (they look at tableau moves, returns and foundation plays, and at the tableau and the
    foundations), and a safe foundation play, which the search makes first, is never a turn.
    Every turn in it is followed by a turn or a waste move: it is a line of this search.

    Turned positions need no table. Let T be turned and P the last position before T's run of
    turns that is not: T is P with the cards turned since put on the waste. Could another
    position Q, not turned, with a stock between P's and T's, reach T by turns alone? The
    line to Q has a turn (its stock is shorter than the root's), and after its last turn
    comes a move that is not a turn (Q is not turned), so a waste move: the card that turn
    showed, which P had in its stock, left the waste and is missing from Q's waste and from
    T's. (In Duchess a stock card may also leave the stock straight into a space, but only
    with the waste empty: Q's waste holds, on top of P's, the cards P turned first, so from
    the first of them being turned on the waste was never empty, every card leaving the stock
    was turned, and the card turned after Q's waste top, still in Q's stock, would have been
    turned already.) So T has one way in, from one P that the table lets the search expand once (or again
    after its entry was replaced: time only), and no line meets T twice (turns only shorten
    the stock). Leaving T out of the table only stops it being found again, which cannot
    happen: the search stays complete. A turn is counted with the move it leads to, as in
    Bjarnason, Tadepalli and Fern's K+ Klondike, where a stock card's move includes its turns.
    """
    return rules["stock"] == "turn" and (rules["redeals"] == 0 or rules["redeal_kind"] == "none")


def waste_room(rules: Rules) -> bool:
    """Duchess once no redeal is left: a waste card that cannot leave the waste before the
    tableau would need more than its piles makes the position a dead end
    (:func:`no_room_to_dig`). Holds where every tableau pile is always one run built down in
    alternating colours (one card dealt to each pile, no rows dealt, cards arrive only by
    building or one at a time into a space), cards never come back from the foundations, and
    the foundations build up by suit from one base rank; the test runs only once no redeal is
    left, so that the waste is a stack that only its top card leaves.

    Levels. A card built down in alternating colours lies directly on a card one rank higher
    of the other colour (round the corner: a King on an Ace). Number the 26 (rank, colour)
    pairs so that a card lies directly only on a card of the level before, round a cycle
    (:func:`_level`): two cards (the two suits of that colour) share each level.

    Bottoms. Let T be the tableau's cards at some time and m(l) how many of them are at level
    l. Every card of T at level l is a pile's bottom card or lies directly on a card of T at
    level l - 1, and each card has at most one card directly on it; so level l holds at least
    m(l) - m(l - 1) bottom cards, and the tableau has at least the sum over l (round the cycle)
    of max(0, m(l) - m(l - 1)) piles that are not empty. With P piles that sum is at most P.

    The checkpoint. Let x be the card at height i of the waste (0 the bottom). A winning line
    puts x up, so x leaves the waste, as its top card (no redeal is left: nothing turns the
    waste over). Just before, the waste is exactly its first i + 1 cards of now (cards turned
    later lay on x and have left). Let the *ceiling* of a suit be the lowest place, counted
    from the base, of a card of that suit among those i + 1 cards (none: 13). No card of the
    suit at or above its ceiling is up then (the card at the ceiling is still in the waste).
    So each such card is then in the tableau if it is now in the tableau (a tableau card only
    goes up or moves within the tableau) or in the waste above x (it has left the waste and
    is not up): these are *mandatory*. The others are *possible*, every card that is neither
    up now nor among the first i + 1 waste cards: a reserve or stock card may still be there
    or be in the tableau, a card below its ceiling may be up or in the tableau. So T then has,
    at each level, between the mandatory and the possible number of cards. When even the
    fewest bottom cards over every such count (:func:`_fewest_bottoms`, exact over the cycle)
    are more than the piles, that time cannot come: x never leaves the waste and no line
    wins. Nothing here depends on how the cards moved, so it holds with every run-move rule
    and every space rule.

    It is switched on only where the rules give no redeal at all: with one (Duchess by the
    book) it would run in every deal's last pass, which made Duchess four times slower at 1e5
    (experiments/compare_revisions.py, deals 0..99: 70.8 against 295.7 deals a CPU-second)
    and decided none of its deals more.
    """
    return (rules["ncards"] == 52 and rules["build"] == "alt-colour-down" and rules["foundations"] == "chosen-base"
            and rules["pattern"] == "one-each" and rules["stock"] == "turn" and not rules["foundation_return"]
            and not rules["foundation_transfer"] and rules["opening"] == "none" and rules["redeals"] == 0)


def capabilities(rules: Rules) -> dict:
    return {"safe_foundation": safe_foundation(rules), "safe_foundation_low": safe_foundation_low(rules),
            "pointless_return": pointless_return(rules), "twin_swap": twin_swap(rules),
            "twin_swap_without_stock": twin_swap_without_stock(rules),
            "relaxed_dead_ends": relaxed_dead_ends(rules), "shortcuts": shortcuts(rules),
            "interchangeable_piles": interchangeable_piles(rules), "dead_waste": dead_waste(rules),
            "win_first": win_first(rules), "interchangeable_without_stock": interchangeable_without_stock(rules),
            "safe_overlap": safe_overlap(rules), "turn_to_play": turn_to_play(rules),
            "persistent_sets": persistent_sets(rules), "waste_room": waste_room(rules)}


# --- the per-position tests ------------------------------------------------------------------


@inline_kernel
def on_foundation(s, pa, c):
    """Is (a copy of) card ``c`` already on its foundation? One-deck games built up by suit."""
    cnt = np.int64(s[pa[O_FOUND] + c // 13])
    r = c % 13
    if pa[P_FOUND_KIND] == FOUND_SUIT_UP:
        return r < cnt
    return (r - np.int64(s[pa[O_BASE]])) % 13 < cnt


@inline_kernel
def safe_to_foundation(s, pa, c):
    """Card ``c`` may go up at once (see :func:`safe_foundation`): both cards one rank lower of
    the other colour are up (an Ace with Ace-based foundations always is)."""
    r = c % 13
    below = r - 1
    if below < 0:
        if pa[P_FOUND_KIND] == FOUND_SUIT_UP:
            return True
        below = 12
    for sw in range(4):
        if is_red(sw * 13) != is_red(c) and not on_foundation(s, pa, sw * 13 + below):
            return False
    return True


@inline_kernel
def low_enough(s, pa, c):
    """Card ``c`` of rank r passes the thresholds of :func:`safe_foundation_low`: each
    foundation of the other colour holds at least r - 1 cards, the other one of its colour at
    least r - 2 (its own foundation is not looked at)."""
    r = np.int64(c % 13)
    suit = c // 13
    red = (suit == 1) | (suit == 2)
    for j in range(4):
        if j == suit:
            continue
        j_red = (j == 1) | (j == 2)
        need = r - 1 if j_red != red else r - 2
        if np.int64(s[pa[O_FOUND] + j]) < need:
            return False
    return True


@inline_kernel
def returns_pointlessly(s, pa, mv):
    """Where :func:`pointless_return` holds: ``mv`` brings a foundation card to the tableau
    that :func:`safe_foundation_low` would play straight back."""
    if pa[C_POINTLESS_RETURN] == 0 or mv[0] != MOVE or mv[1] < PLACE_FOUND or mv[2] >= PLACE_WASTE:
        return False
    return low_enough(s, pa, found_top(s, pa, np.int64(mv[1]) - PLACE_FOUND))


@inline_kernel
def twin_swap_now(s, pa):
    """Does :func:`twin_swap`'s test apply at ``s``: where it holds, or once the stock is empty
    where :func:`twin_swap_without_stock` does; with wrap, only once both foundations of one
    colour hold a card (case (b) of its argument)."""
    if pa[C_TWIN_SWAP] == 0 and not (pa[C_TWIN_SWAP_WITHOUT_STOCK] == 1 and s[pa[O_SLEN]] == 0):
        return False
    if pa[P_WRAP] == 0:
        return True
    f = pa[O_FOUND]  # suits 0 and 3 black, 1 and 2 red
    return ((s[f] > 0) & (s[f + 3] > 0)) | ((s[f + 1] > 0) & (s[f + 2] > 0))


@inline_kernel
def twin_pruned(s, pa, src, left, want):
    """Where :func:`twin_swap_now` holds: is a move of the cards above the first ``left`` of
    tableau pile ``src`` onto a pile's top card one the rule prunes? It is when the card left
    on top is face up, the moved bottom card builds on it, and no foundation wants it
    (``want``: :func:`~.core.wanted`'s masks together)."""
    if left <= np.int64(s[pa[O_PDOWN] + src]):
        return False
    under = pcard(s, pa, src, left - 1)
    return builds_on(pa, pcard(s, pa, src, left), under) and (want >> np.uint64(under)) & np.uint64(1) == 0


@inline_kernel
def dead_card_in_waste(s, pa):
    """Where :func:`dead_waste` holds: a card below the waste's top, or a top card no longer
    live, can never leave the waste."""
    if pa[C_DEAD_WASTE] == 0:
        return False
    wlen = s[pa[O_WLEN]]
    return (wlen >= 2) | ((wlen == 1) & (s[pa[O_WLIVE]] == 0))


@inline_kernel
def _level(c):
    """Card ``c``'s level on the cycle of :func:`waste_room`: 0 for a black King, then one rank
    lower and the other colour at each step, a red King at 13; a card lies directly only on a
    card of the level before (mod 26)."""
    t = np.int64(12 - c % 13)
    return t if is_red(c) == (t % 2 == 1) else t + 13


@inline_kernel
def _fewest_bottoms(lo, hi):
    """The fewest bottom cards a tableau can have whose count at each level l lies between
    ``lo[l]`` and ``hi[l]`` (each 0..2): the least sum over the cycle of max(0, m(l) - m(l -
    1)), by dynamic programming over the levels for each count at level 0."""
    big = np.int64(1 << 20)
    best = big
    for first in range(lo[0], hi[0] + 1):
        c0, c1, c2 = big, big, big
        if first == 0:
            c0 = 0
        elif first == 1:
            c1 = 0
        else:
            c2 = 0
        for lev in range(1, 26):
            n0, n1, n2 = big, big, big
            if lo[lev] == 0:
                n0 = min(c0, c1, c2)
            if lo[lev] <= 1 <= hi[lev]:
                n1 = min(c0 + 1, c1, c2)
            if hi[lev] == 2:
                n2 = min(c0 + 2, c1 + 1, c2)
            c0, c1, c2 = n0, n1, n2
        best = min(best, c0 + max(0, first), c1 + max(0, first - 1), c2 + max(0, first - 2))
    return best


@inline_kernel
def no_room_to_dig(s, pa, work):
    """Where :func:`waste_room` holds and no redeal is left: is there a waste card that can
    never leave the waste, because the tableau would need more piles than it has by then?
    Uses 2 x 52 + 26 x 2 of ``work``."""
    if pa[C_WASTE_ROOM] == 0 or s[pa[O_BASE]] == NO_BASE:
        return False
    if pa[P_REDEAL_KIND] == REDEAL_WASTE and s[pa[O_REDEALS]] < pa[P_REDEALS]:
        return False
    wlen = np.int64(s[pa[O_WLEN]])
    if wlen < 2:
        return False
    where = work[0:52]   # 0: up, 1: tableau, 2: reserve or stock, 3 + j: height j of the waste
    lo = work[52:78]
    hi = work[78:104]
    place = work[104:156]  # each card's place from the base, in its suit's foundation
    base = np.int64(s[pa[O_BASE]])
    for c in range(52):
        where[c] = 0
        place[c] = (c % 13 - base) % 13
    npiles = pa[P_NPILES]
    for p in range(npiles + pa[P_NRES]):
        for h in range(plen(s, pa, p)):
            where[pcard(s, pa, p, h)] = 1 if p < npiles else 2
    for j in range(np.int64(s[pa[O_SLEN]])):
        where[s[pa[O_STOCK] + j]] = 2
    for j in range(wlen):
        where[s[pa[O_WASTE] + j]] = 3 + j
    c0, c1, c2, c3 = 13, 13, 13, 13  # the suits' ceilings
    for i in range(wlen - 1):  # x at the top needs no room: it leaves first
        x = np.int64(s[pa[O_WASTE] + i])
        u = x // 13
        if u == 0:
            c0 = min(c0, place[x])
        elif u == 1:
            c1 = min(c1, place[x])
        elif u == 2:
            c2 = min(c2, place[x])
        else:
            c3 = min(c3, place[x])
        for lev in range(26):
            lo[lev] = 0
            hi[lev] = 0
        for c in range(52):
            w = where[c]
            if w == 0 or (w >= 3 and w - 3 <= i):
                continue
            u = c // 13
            ceiling = c0 if u == 0 else (c1 if u == 1 else (c2 if u == 2 else c3))
            lev = _level(c)
            hi[lev] += 1
            if w != 2 and place[c] >= ceiling:
                lo[lev] += 1
        if _fewest_bottoms(lo, hi) > npiles:
            return True
    return False


@kernel
def dead_end(s, pa, work, onto):
    """No win remains below ``s``, by a sound test that holds for these rules: a dead waste
    card (:func:`dead_waste`) or the two-deck relaxation (:func:`relaxed_dead_ends`), worked out
    in ``work`` (two_deck_proofs.WORK_SIZE int64); ``onto`` as for
    :func:`~.two_deck_proofs.never_freed_in`."""
    if dead_card_in_waste(s, pa) or no_room_to_dig(s, pa, work):
        return True
    return pa[C_RELAXED_DEAD_ENDS] == 1 and never_freed_in(s, pa, work, onto)


@inline_kernel
def _safe_up(s, pa, c, from_pile):
    """May card ``c``, wanted by its foundation, go up at once: by :func:`safe_foundation`'s
    rule, or (from a tableau pile) by :func:`safe_foundation_low`'s?"""
    if pa[C_SAFE_FOUNDATION] == 1 and safe_to_foundation(s, pa, c):
        return True
    return from_pile and pa[C_SAFE_LOW] == 1 and low_enough(s, pa, c)


@inline_kernel
def overlap_play(s, pa):
    """Where :func:`safe_overlap` holds: the first pile top that goes up by its rule, as
    (pile, foundation place), or (-1, -1). Foundation j < 4 is suit j's King foundation (its
    count n, base included: next rank 12 - n), 4 + j its Ace foundation (next rank n); they
    overlap when the counts add up to 14 or more."""
    if not last_round_unrestricted(s, pa):
        return -1, -1
    for p in range(pa[P_NPILES]):
        m = plen(s, pa, p)
        if m > 0:
            c = np.int64(pcard(s, pa, p, m - 1))
            u = c // 13
            kings = np.int64(s[pa[O_FOUND] + u])
            aces = np.int64(s[pa[O_FOUND] + 4 + u])
            if kings + aces >= 14:
                if c % 13 == aces:
                    return p, PLACE_FOUND + 4 + u
                if c % 13 == 12 - kings:
                    return p, PLACE_FOUND + u
    return -1, -1


@inline_kernel
def safe_foundation_play(s, pa):
    """The first foundation move safe to play at once, as (source place, foundation place), or
    (-1, -1). Looks only at the cards that can go up in these games (tableau and reserve tops, a
    playable waste top), in the order the move generator lists them, so the search need not
    generate the other moves at all."""
    if pa[C_SAFE_OVERLAP] == 1:
        return overlap_play(s, pa)
    if (pa[C_SAFE_FOUNDATION] == 0 and pa[C_SAFE_LOW] == 0) or (
            pa[P_FOUND_KIND] == FOUND_CHOSEN_BASE and s[pa[O_BASE]] == NO_BASE):
        return -1, -1
    upper, lower = wanted(s, pa)
    want = upper | lower
    npiles = pa[P_NPILES]
    for p in range(npiles + pa[P_NRES]):
        m = plen(s, pa, p)
        if m > 0:
            c = pcard(s, pa, p, m - 1)
            if (want >> np.uint64(c)) & np.uint64(1) and _safe_up(s, pa, c, p < npiles):
                return p, PLACE_FOUND + c // 13
    wlen = s[pa[O_WLEN]]
    if wlen > 0 and (pa[P_WASTE_PLAYABLE] == 1 or s[pa[O_WLIVE]] == 1):
        c = np.int64(s[pa[O_WASTE] + wlen - 1])
        if (want >> np.uint64(c)) & np.uint64(1) and _safe_up(s, pa, c, False):
            return PLACE_WASTE, PLACE_FOUND + c // 13
    return -1, -1


@kernel
def is_safe_foundation_move(s, pa, mv):
    """Is move ``mv`` (a row) a foundation play the search would make at once?"""
    if pa[P_FOUND_KIND] == FOUND_CHOSEN_BASE and s[pa[O_BASE]] == NO_BASE:
        return False
    if mv[0] != MOVE or mv[2] < PLACE_FOUND or mv[1] >= PLACE_FOUND:
        return False
    j = np.int64(mv[2]) - PLACE_FOUND
    return _safe_up(s, pa, found_next(s, pa, j) + j * 13, mv[1] < pa[P_NPILES])
