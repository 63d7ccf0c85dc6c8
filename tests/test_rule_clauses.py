"""One test per rule clause of docs/rules.md (as read by docs/rules-readings.md) and per switch value.

Each test builds a small position by hand and states the exact set of legal moves, written out
from the rules, and where a move changes things in a non-obvious way the exact position after
it. They run against every implementation in ``conftest.IMPLEMENTATIONS`` (the ``impl``
fixture): the plain-Python reference and, later, the numba engine.

Cards are written by name (``"7H"``); piles, stock and waste strings run bottom -> top.
"""

import pytest

from solitaire_odds.game import cards
from solitaire_odds.game.position import Position
from solitaire_odds.rules import resolve

TURN, DEAL, REDEAL = ("turn",), ("deal",), ("redeal",)


def M(src, dst, n=1):
    return ("move", src, dst, n)


def cs(text):
    """Card names, bottom -> top, as codes."""
    return [cards.parse(t) for t in text.split()]


def pos(piles, down=None, found=(0, 0, 0, 0), stock="", waste="", reserve=None, **extra):
    return Position(
        piles=[cs(p) for p in piles],
        down=list(down) if down is not None else [0] * len(piles),
        found=list(found), stock=cs(stock), waste=cs(waste),
        reserve=[cs(r) for r in reserve] if reserve is not None else [], **extra,
    )


def foundation_cards(rules, position):
    """The cards a position's foundation counts stand for."""
    out = []
    for j, count in enumerate(position.found):
        if len(position.found) == 8:  # f0-f3 King foundations down, f4-f7 Ace foundations up
            out += [cards.make(12 - k if j < 4 else k, j % 4) for k in range(count)]
        else:
            base = max(position.base_rank, 0)
            out += [cards.make((base + k) % 13, j) for k in range(count)]
    return out


def check_real(rules, position):
    """A hand-built position must be one the game could hold: no card more often than the
    pack has it, top cards face up."""
    copies = 2 if len(position.found) == 8 else 1
    held = foundation_cards(rules, position) + position.stock + position.waste
    for pile in position.piles + position.reserve:
        held += pile
    for code in set(held):
        assert held.count(code) <= copies, f"test position holds {cards.name(code)} too often"
    for pile, down in zip(position.piles, position.down):
        assert down == 0 if not pile else down < len(pile)


def moves(impl, rules, position):
    check_real(rules, position)
    listed = impl.legal_moves(rules, position)
    assert len(listed) == len(set(listed)), "a move is listed twice"
    return set(listed)


def play(impl, rules, position, move):
    check_real(rules, position)
    before = position.copy()
    after = impl.apply_move(rules, position, move)
    assert position == before, "apply_move changed its input"
    return after


ORDERED_DECK = list(range(52))  # AC 2C .. KC AD .. KD AH .. KH AS .. KS
DOUBLE_DECK = [c % 52 for c in range(104)]


# ====================================================================== Westcliff-classic

CLASSIC = resolve("westcliff-classic")


def test_classic_layout_7_piles_two_down_one_up_stock_31(impl):
    p = impl.initial_position(CLASSIC, ORDERED_DECK)
    assert p.piles == [[0, 7, 14], [1, 8, 15], [2, 9, 16], [3, 10, 17], [4, 11, 18],
                       [5, 12, 19], [6, 13, 20]]
    assert p.down == [2] * 7
    assert p.found == [0, 0, 0, 0]
    assert p.stock == list(range(51, 20, -1))  # deck[21] on top
    assert p.waste == [] and p.reserve == []
    assert (p.redeals_used, p.base_rank, p.opening, p.waste_live) == (0, -1, False, False)


def test_classic_aces_out_first_layout(impl):
    rules = resolve("westcliff-classic", aces_out_first="on")
    p = impl.initial_position(rules, ORDERED_DECK)
    # Aces (codes 0, 13, 26, 39) leave the deck; the rest keep their order.
    assert p.found == [1, 1, 1, 1]
    assert p.piles == [[1, 8, 16], [2, 9, 17], [3, 10, 18], [4, 11, 19], [5, 12, 20],
                       [6, 14, 21], [7, 15, 22]]
    assert p.down == [2] * 7
    assert p.stock == ([51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40]
                       + [38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27] + [25, 24, 23])


def test_classic_aces_out_first_off_keeps_aces_in_deal(impl):
    rules = resolve("westcliff-classic", aces_out_first="off")
    p = impl.initial_position(rules, ORDERED_DECK)
    assert p.found == [0, 0, 0, 0] and p.piles[0] == [0, 7, 14]


BUILD_POS = dict(piles=["5S AH", "8S", "7D", "7H", "6C", "KD", "2S"], down=[1, 0, 0, 0, 0, 0, 0])


def test_classic_build_down_alternating_colours_and_aces_to_foundation(impl):
    # 7D/7H on 8S; 6C on 7D/7H; AH up to its foundation or onto 2S; KD on nothing (no wrap).
    assert moves(impl, CLASSIC, pos(**BUILD_POS)) == {
        M("p0", "f2"), M("p0", "p6"), M("p2", "p1"), M("p3", "p1"), M("p4", "p2"), M("p4", "p3"),
    }


def test_classic_face_down_card_turns_up_when_uncovered(impl):
    after = play(impl, CLASSIC, pos(**BUILD_POS), M("p0", "f2"))
    assert after == pos(["5S", "8S", "7D", "7H", "6C", "KD", "2S"], found=[0, 0, 1, 0])


RUN_PILES = ["3C 9H 8S 7D", "TC", "9D", "8C", "4H", "4D", "JC"]


def test_classic_runs_move_partly_or_wholly(impl):
    p = pos(RUN_PILES, down=[1, 0, 0, 0, 0, 0, 0])
    assert moves(impl, CLASSIC, p) == {
        M("p0", "p3", 1), M("p0", "p2", 2), M("p0", "p1", 3), M("p2", "p1"), M("p3", "p2"),
    }


def test_classic_whole_run_move_turns_up_card(impl):
    p = pos(RUN_PILES, down=[1, 0, 0, 0, 0, 0, 0])
    after = play(impl, CLASSIC, p, M("p0", "p1", 3))
    assert after == pos(["3C", "TC 9H 8S 7D", "9D", "8C", "4H", "4D", "JC"])


def test_classic_partial_run_move_leaves_rest(impl):
    p = pos(RUN_PILES, down=[1, 0, 0, 0, 0, 0, 0])
    after = play(impl, CLASSIC, p, M("p0", "p2", 2))
    assert after == pos(["3C 9H", "TC", "9D 8S 7D", "8C", "4H", "4D", "JC"], down=[1, 0, 0, 0, 0, 0, 0])


def test_classic_face_down_cards_are_not_part_of_a_run(impl):
    # 9H is face down under 8S: only 8S may move (not 9H 8S onto TC).
    p = pos(["9H 8S", "TC", "9D", "4H", "4D", "JC", "2C"], down=[1, 0, 0, 0, 0, 0, 0])
    assert moves(impl, CLASSIC, p) == {M("p0", "p2"), M("p2", "p1")}


def test_classic_any_card_or_run_fills_a_space(impl):
    p = pos(["4S 9H 8S", "", "5D", "5H", "JC", "JS", "2D"], down=[1, 0, 0, 0, 0, 0, 0], stock="3C")
    assert moves(impl, CLASSIC, p) == {
        M("p0", "p1", 1), M("p0", "p1", 2), M("p2", "p1"), M("p3", "p1"), M("p4", "p1"),
        M("p5", "p1"), M("p6", "p1"), TURN,
    }


WASTE_PILES = ["6S", "6C", "KH", "KD", "QH", "QD", "3C JS"]
WASTE_FOUND = [1, 3, 4, 0]


def test_classic_waste_top_playable_to_foundation_pile(impl):
    # 5H (waste top) to f2 or onto 6S/6C; 2C under it is not available; JS onto QH/QD.
    p = pos(WASTE_PILES, down=[0] * 6 + [1], found=WASTE_FOUND, waste="2C 5H", stock="9S 4D")
    assert moves(impl, CLASSIC, p) == {
        M("w", "f2"), M("w", "p0"), M("w", "p1"), M("p6", "p5"), M("p6", "p4"), TURN,
    }


def test_classic_waste_top_fills_a_space(impl):
    p = pos(["", "8C", "8S", "TC", "TS", "QC", "QS"], waste="9D")
    assert moves(impl, CLASSIC, p) == {
        M("w", "p0"), M("w", "p3"), M("w", "p4"),
        M("p1", "p0"), M("p2", "p0"), M("p3", "p0"), M("p4", "p0"), M("p5", "p0"), M("p6", "p0"),
    }


def test_classic_turn_puts_stock_top_on_waste(impl):
    p = pos(WASTE_PILES, down=[0] * 6 + [1], found=WASTE_FOUND, waste="2C 5H", stock="9S 4D")
    after = play(impl, CLASSIC, p, TURN)
    assert after == pos(WASTE_PILES, down=[0] * 6 + [1], found=WASTE_FOUND, waste="2C 5H 4D",
                        stock="9S", waste_live=False)


def test_classic_no_redeal_when_stock_is_empty(impl):
    p = pos(["KH", "KD", "QH", "QD", "8C", "8S", "2D"], found=[0, 0, 0, 0], waste="3S 9C")
    assert moves(impl, CLASSIC, p) == set()


WASTE_OFF = resolve("westcliff-classic", waste_playable="off")


def test_classic_waste_playable_off_dead_waste_card_unavailable(impl):
    p = pos(WASTE_PILES, down=[0] * 6 + [1], found=WASTE_FOUND, waste="2C 5H", stock="9S 4D")
    assert moves(impl, WASTE_OFF, p) == {M("p6", "p5"), M("p6", "p4"), TURN}


def test_classic_waste_playable_off_live_card_available(impl):
    p = pos(WASTE_PILES, down=[0] * 6 + [1], found=WASTE_FOUND, waste="2C 5H", stock="9S 4D",
            waste_live=True)
    assert moves(impl, WASTE_OFF, p) == {
        M("w", "f2"), M("w", "p0"), M("w", "p1"), M("p6", "p5"), M("p6", "p4"), TURN,
    }


def test_classic_waste_playable_off_turn_makes_card_live(impl):
    p = pos(WASTE_PILES, down=[0] * 6 + [1], found=WASTE_FOUND, waste="2C 5H", stock="9S 4D")
    after = play(impl, WASTE_OFF, p, TURN)
    assert after == pos(WASTE_PILES, down=[0] * 6 + [1], found=WASTE_FOUND, waste="2C 5H 4D",
                        stock="9S", waste_live=True)
    assert moves(impl, WASTE_OFF, after) == {M("w", "f1"), M("p6", "p5"), M("p6", "p4"), TURN}


def test_classic_waste_playable_off_playing_live_card_leaves_dead_top(impl):
    p = pos(WASTE_PILES, down=[0] * 6 + [1], found=WASTE_FOUND, waste="2C 5H 4D", stock="9S",
            waste_live=True)
    after = play(impl, WASTE_OFF, p, M("w", "f1"))
    assert after == pos(WASTE_PILES, down=[0] * 6 + [1], found=[1, 4, 4, 0], waste="2C 5H",
                        stock="9S", waste_live=False)
    assert moves(impl, WASTE_OFF, after) == {M("p6", "p5"), M("p6", "p4"), TURN}


def test_classic_waste_playable_off_other_move_kills_live_card(impl):
    p = pos(WASTE_PILES, down=[0] * 6 + [1], found=WASTE_FOUND, waste="2C 5H 4D", stock="9S",
            waste_live=True)
    after = play(impl, WASTE_OFF, p, M("p6", "p5"))
    assert after == pos(["6S", "6C", "KH", "KD", "QH", "QD JS", "3C"], found=WASTE_FOUND,
                        waste="2C 5H 4D", stock="9S", waste_live=False)
    assert moves(impl, WASTE_OFF, after) == {M("p5", "p4"), TURN}


def test_classic_waste_playable_on_never_marks_waste_live(impl):
    p = pos(WASTE_PILES, down=[0] * 6 + [1], found=WASTE_FOUND, waste="2C", stock="4D")
    assert play(impl, CLASSIC, p, TURN).waste_live is False


RETURN_PILES = ["4H", "4D", "2H", "KS", "KC", "9H", "9D"]


def test_classic_foundation_return_off(impl):
    p = pos(RETURN_PILES, found=[3, 0, 0, 1], stock="7C")
    assert moves(impl, CLASSIC, p) == {TURN}


def test_classic_foundation_return_on_top_card_back_to_tableau(impl):
    rules = resolve("westcliff-classic", foundation_return="on")
    p = pos(RETURN_PILES, found=[3, 0, 0, 1], stock="7C")
    assert moves(impl, rules, p) == {M("f0", "p0"), M("f0", "p1"), M("f3", "p2"), TURN}
    after = play(impl, rules, p, M("f0", "p0"))
    assert after == pos(["4H 3C", "4D", "2H", "KS", "KC", "9H", "9D"], found=[2, 0, 0, 1], stock="7C")


def test_classic_foundation_return_ace_with_aces_out_first(impl):
    rules = resolve("westcliff-classic", foundation_return="on", aces_out_first="on")
    p = pos(["2H", "2D", "KS", "KC", "9H", "9D", "5C"], found=[1, 1, 1, 1])
    # AC and AS go on a red 2; a red Ace has no black 2 to go on; the 2s may also go up.
    assert moves(impl, rules, p) == {M("f0", "p0"), M("f0", "p1"), M("f3", "p0"), M("f3", "p1"),
                                     M("p0", "f2"), M("p1", "f1")}


def test_classic_won_position_has_no_moves(impl):
    rules = resolve("westcliff-classic", foundation_return="on")
    p = pos([""] * 7, found=[13, 13, 13, 13])
    assert impl.is_won(rules, p) is True
    assert impl.legal_moves(rules, p) == []


def test_classic_not_won_with_a_card_left(impl):
    p = pos([""] * 6 + ["KS"], found=[13, 13, 13, 12])
    assert impl.is_won(CLASSIC, p) is False
    assert moves(impl, CLASSIC, p) == {M("p6", "f3"), M("p6", "p0"), M("p6", "p1"), M("p6", "p2"),
                                        M("p6", "p3"), M("p6", "p4"), M("p6", "p5")}


def test_classic_illegal_move_raises(impl):
    p = pos(**BUILD_POS)
    with pytest.raises(ValueError):
        impl.apply_move(CLASSIC, p, M("p5", "p0"))  # KD onto AH: no wrap
    with pytest.raises(ValueError):
        impl.apply_move(CLASSIC, p, TURN)  # empty stock


# ====================================================================== American Westcliff

WESTCLIFF = resolve("westcliff")
WC_RUN_PILES = RUN_PILES + ["4C", "4S", "2D"]


def test_westcliff_layout_10_piles_stock_22(impl):
    p = impl.initial_position(WESTCLIFF, ORDERED_DECK)
    assert p.piles == [[i, 10 + i, 20 + i] for i in range(10)]
    assert p.down == [2] * 10
    assert p.found == [0, 0, 0, 0]
    assert p.stock == list(range(51, 29, -1))
    assert p.waste == []


@pytest.mark.parametrize("run_moves, expected", [
    ("partial", {M("p0", "p3", 1), M("p0", "p2", 2), M("p0", "p1", 3), M("p2", "p1"), M("p3", "p2")}),
    ("whole", {M("p0", "p3", 1), M("p0", "p1", 3), M("p2", "p1"), M("p3", "p2")}),
    ("single", {M("p0", "p3", 1), M("p2", "p1"), M("p3", "p2")}),
])
def test_westcliff_run_moves(impl, run_moves, expected):
    rules = resolve("westcliff", run_moves=run_moves)
    p = pos(WC_RUN_PILES, down=[1] + [0] * 9)
    assert moves(impl, rules, p) == expected


SPACE_PILES = ["5D KS QH", "9C 8H", "4C", "4S", "2D", "6D", "6H", "TH", "TD", ""]
SPACE_BUILDS = {M("p1", "p7", 2), M("p1", "p8", 2), TURN}


@pytest.mark.parametrize("space_fill, into_space", [
    ("any", {M("p0", "p9", 1), M("p0", "p9", 2), M("p1", "p9", 1), M("p1", "p9", 2),
             M("p2", "p9"), M("p3", "p9"), M("p4", "p9"), M("p5", "p9"), M("p6", "p9"),
             M("p7", "p9"), M("p8", "p9"), M("w", "p9")}),
    ("king", {M("p0", "p9", 2), M("w", "p9")}),
    ("none", set()),
])
def test_westcliff_space_fill(impl, space_fill, into_space):
    rules = resolve("westcliff", space_fill=space_fill)
    p = pos(SPACE_PILES, down=[1] + [0] * 9, waste="KD", stock="3S")
    assert moves(impl, rules, p) == SPACE_BUILDS | into_space


def test_westcliff_space_fill_king_moves_king_headed_run(impl):
    rules = resolve("westcliff", space_fill="king")
    p = pos(SPACE_PILES, down=[1] + [0] * 9, waste="KD", stock="3S")
    after = play(impl, rules, p, M("p0", "p9", 2))
    assert after == pos(["5D", "9C 8H", "4C", "4S", "2D", "6D", "6H", "TH", "TD", "KS QH"],
                        waste="KD", stock="3S")


def test_westcliff_whole_pile_may_move_into_another_space(impl):
    p = pos(["9C 8H", "", "KS", "KC", "JS", "JC", "5S", "5C", "3S", "3C"])
    assert moves(impl, WESTCLIFF, p) == {
        M("p0", "p1", 1), M("p0", "p1", 2), M("p2", "p1"), M("p3", "p1"), M("p4", "p1"),
        M("p5", "p1"), M("p6", "p1"), M("p7", "p1"), M("p8", "p1"), M("p9", "p1"),
    }


FR_PILES = ["3H", "5C", "5D", "7C", "7D", "9C", "9D", "JC", "JD", ""]


@pytest.mark.parametrize("space_fill, expected", [
    ("king", {M("f0", "p0"), M("f3", "p9")}),
    ("none", {M("f0", "p0")}),
    ("any", {M("f0", "p0"), M("f0", "p9"), M("f3", "p9"), M("p0", "p9"), M("p1", "p9"),
             M("p2", "p9"), M("p3", "p9"), M("p4", "p9"), M("p5", "p9"), M("p6", "p9"),
             M("p7", "p9"), M("p8", "p9")}),
])
def test_westcliff_foundation_return_obeys_space_fill(impl, space_fill, expected):
    rules = resolve("westcliff", space_fill=space_fill, foundation_return="on")
    p = pos(FR_PILES, found=[2, 0, 0, 13])
    assert moves(impl, rules, p) == expected


def test_westcliff_foundation_return_king_into_space(impl):
    rules = resolve("westcliff", space_fill="king", foundation_return="on")
    after = play(impl, rules, pos(FR_PILES, found=[2, 0, 0, 13]), M("f3", "p9"))
    assert after == pos(FR_PILES[:9] + ["KS"], found=[2, 0, 0, 12])


def test_westcliff_foundation_return_off(impl):
    p = pos(FR_PILES, found=[2, 0, 0, 13])
    assert moves(impl, resolve("westcliff", space_fill="king"), p) == set()


def test_westcliff_one_pass_no_redeal(impl):
    p = pos(WC_RUN_PILES, down=[1] + [0] * 9, waste="5C QS")
    assert moves(impl, WESTCLIFF, p) == {
        M("p0", "p3", 1), M("p0", "p2", 2), M("p0", "p1", 3), M("p2", "p1"), M("p3", "p2"),
    }


def test_westcliff_turn(impl):
    p = pos(WC_RUN_PILES, down=[1] + [0] * 9, stock="5C 6C")
    after = play(impl, WESTCLIFF, p, TURN)
    assert after == pos(WC_RUN_PILES, down=[1] + [0] * 9, stock="5C", waste="6C")


# ====================================================================== Easthaven

EASTHAVEN = resolve("easthaven")


def test_easthaven_layout_7_piles_stock_31_no_waste(impl):
    p = impl.initial_position(EASTHAVEN, ORDERED_DECK)
    assert p.piles == [[0, 7, 14], [1, 8, 15], [2, 9, 16], [3, 10, 17], [4, 11, 18],
                       [5, 12, 19], [6, 13, 20]]
    assert p.down == [2] * 7
    assert p.stock == list(range(51, 20, -1))
    assert p.waste == [] and p.found == [0, 0, 0, 0]


def test_easthaven_deal_one_card_onto_each_pile_including_spaces(impl):
    p = pos(["KH 5D", "4S", "JC", "", "6D", "6S", "QC"], down=[1, 0, 0, 0, 0, 0, 0],
            stock="2C 3C 4C 5C 6C 7C 8C 9C")
    assert DEAL in moves(impl, EASTHAVEN, p) and TURN not in moves(impl, EASTHAVEN, p)
    after = play(impl, EASTHAVEN, p, DEAL)
    assert after == pos(["KH 5D 9C", "4S 8C", "JC 7C", "6C", "6D 5C", "6S 4C", "QC 3C"],
                        down=[1, 0, 0, 0, 0, 0, 0], stock="2C")


def test_easthaven_short_last_deal_goes_to_first_three_piles(impl):
    p = pos(["KH 5D", "4S", "JC", "TD", "6C", "6S", "QC"], down=[1, 0, 0, 0, 0, 0, 0],
            stock="2C 3C 4C")
    after = play(impl, EASTHAVEN, p, DEAL)
    assert after == pos(["KH 5D 4C", "4S 3C", "JC 2C", "TD", "6C", "6S", "QC"],
                        down=[1, 0, 0, 0, 0, 0, 0])
    assert DEAL not in moves(impl, EASTHAVEN, after)


def test_easthaven_deal_allowed_any_time(impl):
    p = pos(RUN_PILES, down=[1, 0, 0, 0, 0, 0, 0], stock="2H")
    assert moves(impl, EASTHAVEN, p) == {
        M("p0", "p3", 1), M("p0", "p2", 2), M("p0", "p1", 3), M("p2", "p1"), M("p3", "p2"), DEAL,
    }


def test_easthaven_runs_move_partly_or_wholly(impl):
    p = pos(RUN_PILES, down=[1, 0, 0, 0, 0, 0, 0])
    assert moves(impl, EASTHAVEN, p) == {
        M("p0", "p3", 1), M("p0", "p2", 2), M("p0", "p1", 3), M("p2", "p1"), M("p3", "p2"),
    }


EH_SPACE_PILES = ["4S KS QH", "KD", "5C", "5S", "8C", "8S", ""]


def test_easthaven_space_fill_king_default(impl):
    p = pos(EH_SPACE_PILES, down=[1, 0, 0, 0, 0, 0, 0], stock="2D")
    assert moves(impl, EASTHAVEN, p) == {M("p0", "p6", 2), M("p1", "p6"), DEAL}


def test_easthaven_space_fill_any(impl):
    rules = resolve("easthaven", space_fill="any")
    p = pos(EH_SPACE_PILES, down=[1, 0, 0, 0, 0, 0, 0], stock="2D")
    assert moves(impl, rules, p) == {
        M("p0", "p6", 1), M("p0", "p6", 2), M("p1", "p6"), M("p2", "p6"), M("p3", "p6"),
        M("p4", "p6"), M("p5", "p6"), DEAL,
    }


EH_FR_PILES = ["2D", "5C", "5S", "8C", "8S", "TC", ""]


def test_easthaven_foundation_return_off(impl):
    assert moves(impl, EASTHAVEN, pos(EH_FR_PILES, found=[1, 0, 0, 0])) == set()


def test_easthaven_foundation_return_on_king_spaces(impl):
    rules = resolve("easthaven", foundation_return="on")
    assert moves(impl, rules, pos(EH_FR_PILES, found=[1, 0, 0, 0])) == {M("f0", "p0")}


def test_easthaven_solvitaire_rules_any_space_with_return(impl):
    rules = resolve("easthaven", foundation_return="on", space_fill="any")
    assert moves(impl, rules, pos(EH_FR_PILES, found=[1, 0, 0, 0])) == {
        M("f0", "p0"), M("f0", "p6"), M("p0", "p6"), M("p1", "p6"), M("p2", "p6"),
        M("p3", "p6"), M("p4", "p6"), M("p5", "p6"),
    }


# ====================================================================== St. Helena family

ST_HELENA = resolve("st-helena")
BOX_KITE = resolve("box-kite")
LOUIS = resolve("louis")
ONES = [1] * 8

ST_HELENA_LAYOUT = [
    "2C 3D 4H 5S 5C 4D 3H 2S", "3C 4D 5H 6S 6C 5D 4H 3S", "4C 5D 6H 7S 7C 6D 5H 4S",
    "5C 6D 7H 8S 8C 7D 6H 5S", "6C 7D 8H 9S 9C 8D 7H 6S", "7C 8D 9H TS TC 9D 8H 7S",
    "8C 9D TH JS JC TD 9H 8S", "9C TD JH QS QC JD TH 9S", "TC JD QH AC KC QD JH TS",
    "JC QD 2S 2C AD KD QH JS", "QC 2H 3S 3C 2D AH KH QS", "2D 3H 4S 4C 3D 2H AS KS",
]


@pytest.mark.parametrize("game", ["st-helena", "box-kite"])
def test_st_helena_layout_kings_aces_out_then_96_round_the_piles(impl, game):
    p = impl.initial_position(resolve(game), DOUBLE_DECK)
    assert p == pos(ST_HELENA_LAYOUT, found=ONES)


def test_louis_layout_one_card_each_then_stock(impl):
    p = impl.initial_position(LOUIS, DOUBLE_DECK)
    rest = ("3D 4D 5D 6D 7D 8D 9D TD JD QD 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH 2S 3S 4S 5S 6S 7S 8S "
            "9S TS JS QS AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD "
            "QD KD AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS")
    assert p == pos(["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "2D"],
                    found=ONES, stock=" ".join(rest.split()[::-1]), opening=True)
    assert len(p.stock) == 84 and p.stock[-1] == cards.parse("3D")


BUILD12 = ["7H", "8H", "6H", "8S", "7H", "KC", "AC", "5D", "TS", "3C", "JD", "9C"]
SAME_SUIT_BUILDS = {M("p0", "p1"), M("p0", "p2"), M("p4", "p1"), M("p4", "p2"),
                    M("p1", "p0"), M("p1", "p4"), M("p2", "p0"), M("p2", "p4")}


def test_st_helena_builds_up_or_down_by_suit_one_card(impl):
    assert moves(impl, ST_HELENA, pos(BUILD12, found=ONES)) == SAME_SUIT_BUILDS | {REDEAL}


def test_st_helena_wrap_on_king_and_ace_meet(impl):
    rules = resolve("st-helena", wrap="on")
    assert moves(impl, rules, pos(BUILD12, found=ONES)) == (
        SAME_SUIT_BUILDS | {M("p5", "p6"), M("p6", "p5"), REDEAL})


def _both_ways(*pairs):
    return {M(f"p{a}", f"p{b}") for a, b in pairs} | {M(f"p{b}", f"p{a}") for a, b in pairs}


def test_st_helena_build_suit_any(impl):
    rules = resolve("st-helena", build_suit="any")
    assert moves(impl, rules, pos(BUILD12, found=ONES)) == _both_ways(
        (0, 1), (0, 3), (4, 1), (4, 3), (0, 2), (4, 2), (2, 7), (1, 11), (3, 11), (8, 10), (8, 11),
    ) | {REDEAL}


def test_st_helena_build_suit_any_with_wrap(impl):
    rules = resolve("st-helena", build_suit="any", wrap="on")
    p = pos(["KD", "AS", "5C", "8C", "", "", "", "", "", "", "", ""], found=ONES)
    assert moves(impl, rules, p) == {M("p0", "p1"), M("p1", "p0"), REDEAL}


def test_st_helena_move_onto_pile_result(impl):
    after = play(impl, ST_HELENA, pos(BUILD12, found=ONES), M("p2", "p0"))
    piles = list(BUILD12)
    piles[0], piles[2] = "7H 6H", ""
    assert after == pos(piles, found=ONES)


RESTRICT = ["6C", "2H", "4D", "8S", "TD", "KH", "6C", "QS", "6D", "TS", "2H", "8H"]
RESTRICT_FOUND = [7, 3, 1, 1, 5, 9, 1, 1]
UNRESTRICTED = {M("p0", "f0"), M("p0", "f4"), M("p1", "f6"), M("p4", "f1"), M("p4", "f5"),
                M("p6", "f0"), M("p6", "f4"), M("p7", "f3"), M("p10", "f6")}


def test_st_helena_first_deal_foundation_restriction(impl):
    # piles 1-4 (p0-p3) to King foundations only, 7-10 (p6-p9) to Ace foundations only.
    p = pos(RESTRICT, found=RESTRICT_FOUND)
    assert moves(impl, ST_HELENA, p) == {
        M("p0", "f0"), M("p4", "f1"), M("p4", "f5"), M("p6", "f4"), M("p10", "f6"), REDEAL,
    }


def test_st_helena_restriction_lifted_after_first_redeal(impl):
    p = pos(RESTRICT, found=RESTRICT_FOUND, redeals_used=1)
    assert moves(impl, ST_HELENA, p) == UNRESTRICTED | {REDEAL}


def test_box_kite_no_restriction_and_no_redeal(impl):
    assert moves(impl, BOX_KITE, pos(RESTRICT, found=RESTRICT_FOUND)) == UNRESTRICTED


def test_louis_no_restriction(impl):
    assert moves(impl, LOUIS, pos(RESTRICT, found=RESTRICT_FOUND)) == UNRESTRICTED | {REDEAL}


def test_st_helena_king_foundation_builds_down_ace_foundation_up(impl):
    p = pos(RESTRICT, found=RESTRICT_FOUND, redeals_used=1)
    after = play(impl, ST_HELENA, p, M("p4", "f1"))
    assert after.found == [7, 4, 1, 1, 5, 9, 1, 1]
    after = play(impl, ST_HELENA, p, M("p0", "f4"))
    assert after == pos([""] + RESTRICT[1:], found=[7, 3, 1, 1, 6, 9, 1, 1], redeals_used=1)


SPACE12 = ["3C", "5C", "7C", "9C", "JC", "3D", "5D", "7D", "9D", "JD", "3H", ""]


def test_st_helena_space_fill_none(impl):
    assert moves(impl, ST_HELENA, pos(SPACE12, found=ONES)) == {REDEAL}


@pytest.mark.parametrize("game", ["st-helena", "louis", "box-kite"])
def test_st_helena_family_space_fill_any(impl, game):
    rules = resolve(game, space_fill="any")
    expected = {M(f"p{i}", "p11") for i in range(11)}
    if game != "box-kite":
        expected.add(REDEAL)
    assert moves(impl, rules, pos(SPACE12, found=ONES)) == expected


REDEAL_PILES = ["3C 4C", "5C 6C 7C", "", "", "", "JH QH", "", "", "", "", "", "2S 3S 4S 5S 6S 7S 8S 9S"]


def test_st_helena_redeal_top_first(impl):
    after = play(impl, ST_HELENA, pos(REDEAL_PILES, found=ONES), REDEAL)
    assert after == pos(["9S 5C", "8S 4C", "7S 3C", "6S", "5S", "4S", "3S", "2S", "QH", "JH",
                         "7C", "6C"], found=ONES, redeals_used=1)


def test_st_helena_redeal_bottom_first(impl):
    rules = resolve("st-helena", redeal_order="bottom_first")
    after = play(impl, rules, pos(REDEAL_PILES, found=ONES), REDEAL)
    assert after == pos(["3C 7S", "4C 8S", "5C 9S", "6C", "7C", "JH", "QH", "2S", "3S", "4S",
                         "5S", "6S"], found=ONES, redeals_used=1)


def test_louis_redeal_after_opening(impl):
    after = play(impl, LOUIS, pos(REDEAL_PILES, found=ONES), REDEAL)
    assert after == pos(["9S 5C", "8S 4C", "7S 3C", "6S", "5S", "4S", "3S", "2S", "QH", "JH",
                         "7C", "6C"], found=ONES, redeals_used=1)


TWO_CARDS = ["3C", "5C"] + [""] * 10


@pytest.mark.parametrize("game, switches, used, expected", [
    ("st-helena", {}, 1, {REDEAL}),
    ("st-helena", {}, 2, set()),            # two redeals, three deals in all
    ("st-helena", {"redeals": 3}, 2, {REDEAL}),
    ("st-helena", {"redeals": 0}, 0, set()),
    ("box-kite", {}, 0, set()),             # no redeals
    ("box-kite", {"redeals": 1}, 0, {REDEAL}),
    ("louis", {}, 2, set()),
])
def test_st_helena_family_redeal_count(impl, game, switches, used, expected):
    rules = resolve(game, **switches)
    assert moves(impl, rules, pos(TWO_CARDS, found=ONES, redeals_used=used)) == expected


def test_st_helena_won_no_moves_even_with_redeals_left(impl):
    p = pos([""] * 12, found=[13] * 8)
    assert impl.is_won(ST_HELENA, p) is True
    assert impl.legal_moves(ST_HELENA, p) == []


def test_st_helena_not_won_while_a_card_remains(impl):
    p = pos(["2C"] + [""] * 11, found=[13] * 4 + [1] + [13] * 3)
    assert impl.is_won(ST_HELENA, p) is False
    # 2C fits the Ace foundation f4, but p0 plays only to King foundations in the first deal.
    assert moves(impl, ST_HELENA, p) == {REDEAL}


TRANSFER_FOUND = [8, 1, 1, 12, 5, 1, 12, 1]


@pytest.mark.parametrize("game", ["st-helena", "louis", "box-kite"])
def test_st_helena_family_foundation_transfer_off(impl, game):
    p = pos([""] * 12, found=TRANSFER_FOUND, redeals_used=2)
    assert moves(impl, resolve(game, redeals=2), p) == set()


@pytest.mark.parametrize("game", ["st-helena", "louis", "box-kite"])
def test_st_helena_family_foundation_transfer_on(impl, game):
    # f0 top 6C -> f4 (next 6C); f4 top 5C -> f0 (next 5C); f6 top QH -> f2 (next QH);
    # f3 top 2S -> f7 (next 2S). Base cards (KH on f2, AS on f7) never leave.
    rules = resolve(game, foundation_transfer="on", redeals=2)
    p = pos([""] * 12, found=TRANSFER_FOUND, redeals_used=2)
    assert moves(impl, rules, p) == {M("f0", "f4"), M("f4", "f0"), M("f6", "f2"), M("f3", "f7")}
    after = play(impl, rules, p, M("f3", "f7"))
    assert after == pos([""] * 12, found=[8, 1, 1, 11, 5, 1, 12, 2], redeals_used=2)


def test_st_helena_foundation_transfer_during_first_deal(impl):
    # The first-deal restriction limits piles only, not transfers.
    rules = resolve("st-helena", foundation_transfer="on")
    p = pos([""] * 12, found=TRANSFER_FOUND)
    assert moves(impl, rules, p) == {M("f0", "f4"), M("f4", "f0"), M("f6", "f2"), M("f3", "f7"), REDEAL}


# ---------------------------------------------------------------------- Louis opening

OPENING_PILES = ["2C", "QD", "3C", "5C", "7C", "9C", "5D", "7D", "9D", "5H", "7H", "9H"]


def test_louis_opening_only_foundation_moves(impl):
    # 3C could build on 2C and a redeal is left, but the opening allows foundation moves only.
    p = pos(OPENING_PILES, found=ONES, stock="8S JS", opening=True)
    assert moves(impl, LOUIS, p) == {M("p0", "f4"), M("p1", "f1")}


def test_louis_opening_refills_emptied_pile_from_stock(impl):
    p = pos(OPENING_PILES, found=ONES, stock="8S JS", opening=True)
    after = play(impl, LOUIS, p, M("p0", "f4"))
    assert after == pos(["JS"] + OPENING_PILES[1:], found=[1, 1, 1, 1, 2, 1, 1, 1], stock="8S",
                        opening=True)
    assert moves(impl, LOUIS, after) == {M("p1", "f1"), M("p2", "f4")}


def test_louis_opening_refill_with_empty_stock_leaves_space(impl):
    p = pos(OPENING_PILES, found=ONES, opening=True)
    after = play(impl, LOUIS, p, M("p0", "f4"))
    assert after == pos([""] + OPENING_PILES[1:], found=[1, 1, 1, 1, 2, 1, 1, 1], opening=True)


NO_FIT_PILES = ["3C", "5C", "7C", "9C", "JC", "3D", "5D", "7D", "9D", "JD", "3H", "5H"]


def test_louis_opening_deal_when_nothing_goes_up(impl):
    p = pos(NO_FIT_PILES, found=ONES, stock="2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS 2H 3H", opening=True)
    assert moves(impl, LOUIS, p) == {DEAL}
    after = play(impl, LOUIS, p, DEAL)
    assert after == pos(["3C 3H 3S", "5C 2H 2S", "7C KS", "9C QS", "JC JS", "3D TS", "5D 9S",
                         "7D 8S", "9D 7S", "JD 6S", "3H 5S", "5H 4S"], found=ONES, opening=False)


def test_louis_after_opening_plays_as_st_helena(impl):
    p = pos(NO_FIT_PILES[:11] + ["4C"], found=ONES)
    assert moves(impl, LOUIS, p) == {M("p11", "p0"), M("p11", "p1"), M("p0", "p11"),
                                     M("p1", "p11"), REDEAL}


TRANSFER_PILES = ["QD", "3C", "8C", "TC", "3D", "5D", "7D", "9D", "3H", "5H", "7H", "9H"]
TRANSFER_PILES_FOUND = [8, 1, 1, 1, 5, 1, 1, 1]


def test_louis_opening_no_transfer(impl):
    rules = resolve("louis", foundation_transfer="on")
    p = pos(TRANSFER_PILES, found=TRANSFER_PILES_FOUND, stock="KS", opening=True)
    assert moves(impl, rules, p) == {M("p0", "f1")}


def test_louis_transfer_after_opening(impl):
    rules = resolve("louis", foundation_transfer="on")
    p = pos(TRANSFER_PILES, found=TRANSFER_PILES_FOUND)
    assert moves(impl, rules, p) == {M("p0", "f1"), M("f0", "f4"), M("f4", "f0"), REDEAL}


WRAP12 = ["KS", "AS", "5C", "8C", "", "", "", "", "", "", "", ""]


@pytest.mark.parametrize("wrap, expected", [
    ("off", {REDEAL}),
    ("on", {M("p0", "p1"), M("p1", "p0"), REDEAL}),
])
def test_louis_wrap(impl, wrap, expected):
    assert moves(impl, resolve("louis", wrap=wrap), pos(WRAP12, found=ONES)) == expected


@pytest.mark.parametrize("build_suit, expected", [
    ("same", {REDEAL}),
    ("any", {M("p0", "p1"), M("p1", "p0"), REDEAL}),
])
def test_louis_build_suit_switch(impl, build_suit, expected):
    p = pos(["7H", "8S", "TC"] + [""] * 9, found=ONES)
    assert moves(impl, resolve("louis", build_suit=build_suit), p) == expected


@pytest.mark.parametrize("wrap, expected", [
    ("off", set()),
    ("on", {M("p0", "p1"), M("p1", "p0")}),
])
def test_box_kite_wrap(impl, wrap, expected):
    assert moves(impl, resolve("box-kite", wrap=wrap), pos(WRAP12, found=ONES)) == expected


def test_box_kite_pysolfc_rules(impl):
    rules = resolve("box-kite", build_suit="any", wrap="on", foundation_transfer="on")
    p = pos(["KD", "AS", "7C", "8H", "", "", "", "", "", "", "", ""], found=[1, 1, 1, 1, 1, 1, 1, 2])
    # KD and AS meet (wrap, any suit), 7C and 8H (any suit); f7's 2S does not fit f3 (next QS).
    assert moves(impl, rules, p) == {M("p0", "p1"), M("p1", "p0"), M("p2", "p3"), M("p3", "p2")}


def test_st_helena_illegal_move_raises(impl):
    p = pos(RESTRICT, found=RESTRICT_FOUND)
    with pytest.raises(ValueError):
        impl.apply_move(ST_HELENA, p, M("p7", "f3"))  # Ace-only pile in the first deal
    with pytest.raises(ValueError):
        impl.apply_move(LOUIS, pos(OPENING_PILES, found=ONES, opening=True), DEAL)


# ====================================================================== Duchess

DUCHESS = resolve("duchess")


def test_duchess_layout(impl):
    p = impl.initial_position(DUCHESS, ORDERED_DECK)
    assert p == Position(piles=[[12], [13], [14], [15]], down=[0, 0, 0, 0], found=[0, 0, 0, 0],
                         stock=list(range(51, 15, -1)), waste=[],
                         reserve=[[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11]], base_rank=-1)


BASE_POS = dict(piles=["TD", "8H", "3S", "JS"], reserve=["5H 9S", "KD", "2C 4H", "QC"], stock="7C",
                base_rank=-1)


def test_duchess_first_move_chooses_base_from_reserve_only(impl):
    # 9S could build on TD and the stock could be turned, but nothing moves before the base.
    assert moves(impl, DUCHESS, pos(**BASE_POS)) == {
        M("r0", "f3"), M("r1", "f1"), M("r2", "f2"), M("r3", "f0"),
    }


def test_duchess_base_choice_sets_base_rank(impl):
    after = play(impl, DUCHESS, pos(**BASE_POS), M("r1", "f1"))
    assert after == pos(["TD", "8H", "3S", "JS"], reserve=["5H 9S", "", "2C 4H", "QC"], stock="7C",
                        found=[0, 1, 0, 0], base_rank=12)


def test_duchess_moves_after_base(impl):
    p = pos(["TD", "8H", "3S", "JS"], reserve=["5H 9S", "", "2C 4H", "QC"], stock="7C",
            found=[0, 1, 0, 0], base_rank=12)
    # f0 next KC, f1 next AD, f2 next KH, f3 next KS: none available.
    # 9S on TD; 4H on nothing (needs black 5); QC on nothing (needs red K); TD on JS; 3S on 4H? no:
    # nothing goes onto the reserve.
    assert moves(impl, DUCHESS, p) == {M("r0", "p0"), M("p0", "p3"), TURN}


MAIN_DUCHESS = dict(piles=["AS", "5D 4C", "6S", "3H"], reserve=["4D AC", "QS", "KH", ""],
                    waste="9C JD", stock="8H", found=[3, 0, 0, 1], base_rank=10)


def test_duchess_reserve_waste_pile_moves(impl):
    # f0 next AC (J Q K A), f1 next JD, f2 next JH, f3 next QS.
    # KH goes on AS (wrap); QS never onto the reserve's KH; 5D 4C onto 6S; 3H onto 4C.
    assert moves(impl, DUCHESS, pos(**MAIN_DUCHESS)) == {
        M("r0", "f0"), M("r1", "f3"), M("r2", "p0"), M("w", "f1"), M("p1", "p2", 2), M("p3", "p1"),
        TURN,
    }


def test_duchess_foundation_turns_the_corner(impl):
    after = play(impl, DUCHESS, pos(**MAIN_DUCHESS), M("r0", "f0"))
    assert after.found == [4, 0, 0, 1] and after.reserve == [cs("4D"), cs("QS"), cs("KH"), []]


def test_duchess_foundation_wraps_and_completes_with_13_cards(impl):
    # base Q: f0 holds QC KC and takes AC; f1 holds QD..TD and takes JD as its 13th card.
    p = pos(["AC", "JD", "5S", "QS"], reserve=["", "", "", ""], found=[2, 12, 13, 0], base_rank=11)
    assert moves(impl, DUCHESS, p) == {M("p0", "f0"), M("p1", "f1"), M("p3", "f3"), M("p1", "p3")}
    after = play(impl, DUCHESS, p, M("p1", "f1"))
    assert after.found == [2, 13, 13, 0] and after.piles == [cs("AC"), [], cs("5S"), cs("QS")]


DUCHESS_RUNS = ["AD KC QH", "2S", "AH", "KS"]


@pytest.mark.parametrize("run_moves, expected", [
    ("partial", {M("p0", "p3", 1), M("p0", "p2", 2), M("p0", "p1", 3), M("p2", "p1"), M("p3", "p2")}),
    ("whole", {M("p0", "p3", 1), M("p0", "p1", 3), M("p2", "p1"), M("p3", "p2")}),
    ("single", {M("p0", "p3", 1), M("p2", "p1"), M("p3", "p2")}),
])
def test_duchess_run_moves_with_wrap(impl, run_moves, expected):
    rules = resolve("duchess", run_moves=run_moves)
    p = pos(DUCHESS_RUNS, reserve=["", "", "", ""], found=[1, 0, 0, 0], base_rank=5)
    assert moves(impl, rules, p) == expected


def test_duchess_partial_run_result(impl):
    p = pos(DUCHESS_RUNS, reserve=["", "", "", ""], found=[1, 0, 0, 0], base_rank=5)
    after = play(impl, DUCHESS, p, M("p0", "p2", 2))
    assert after == pos(["AD", "2S", "AH KC QH", "KS"], reserve=["", "", "", ""], found=[1, 0, 0, 0],
                        base_rank=5)


SPACE_DUCHESS = dict(piles=["TS", "KH", "KD", ""], found=[1, 1, 1, 1], base_rank=0)


def test_duchess_space_filled_from_reserve_only_while_reserve_lasts(impl):
    p = pos(**SPACE_DUCHESS, reserve=["7C", "", "2H 9D", ""], waste="4S", stock="5C")
    assert moves(impl, DUCHESS, p) == {M("r2", "p0"), M("r0", "p3"), M("r2", "p3"), TURN}
    after = play(impl, DUCHESS, p, M("r0", "p3"))
    assert after == pos(["TS", "KH", "KD", "7C"], found=[1, 1, 1, 1], base_rank=0,
                        reserve=["", "", "2H 9D", ""], waste="4S", stock="5C")


def test_duchess_space_from_waste_when_reserve_empty(impl):
    p = pos(["TS", "KH", "", ""], found=[1, 1, 1, 1], base_rank=0, reserve=["", "", "", ""],
            waste="4S", stock="5C")
    assert moves(impl, DUCHESS, p) == {M("w", "p2"), M("w", "p3"), TURN}


def test_duchess_space_from_stock_when_no_waste(impl):
    p = pos(**SPACE_DUCHESS, reserve=["", "", "", ""], stock="6D 5C")
    assert moves(impl, DUCHESS, p) == {M("s", "p3"), TURN}
    after = play(impl, DUCHESS, p, M("s", "p3"))
    assert after == pos(["TS", "KH", "KD", "5C"], found=[1, 1, 1, 1], base_rank=0,
                        reserve=["", "", "", ""], stock="6D")


def test_duchess_space_may_stay_empty_nothing_to_fill(impl):
    p = pos(**SPACE_DUCHESS, reserve=["", "", "", ""])
    assert moves(impl, DUCHESS, p) == set()


REDEAL_DUCHESS = dict(piles=["KC", "KS", "8C", "8S"], found=[1, 1, 1, 1], base_rank=0,
                      reserve=["", "", "", ""])


def test_duchess_redeal_turns_waste_over(impl):
    p = pos(**REDEAL_DUCHESS, waste="3C 9D 5H")
    assert moves(impl, DUCHESS, p) == {REDEAL}
    after = play(impl, DUCHESS, p, REDEAL)
    assert after == pos(**REDEAL_DUCHESS, stock="5H 9D 3C", redeals_used=1)
    assert moves(impl, DUCHESS, after) == {TURN}
    assert play(impl, DUCHESS, after, TURN) == pos(**REDEAL_DUCHESS, stock="5H 9D", waste="3C",
                                                   redeals_used=1)


@pytest.mark.parametrize("redeals, used, expected", [
    (1, 1, set()),
    (2, 1, {REDEAL}),
    (0, 0, set()),
])
def test_duchess_redeals_switch(impl, redeals, used, expected):
    rules = resolve("duchess", redeals=redeals)
    p = pos(**REDEAL_DUCHESS, waste="3C 9D 5H", redeals_used=used)
    assert moves(impl, rules, p) == expected


def test_duchess_no_redeal_while_stock_has_cards(impl):
    p = pos(**REDEAL_DUCHESS, waste="3C 9D", stock="5H")
    assert moves(impl, DUCHESS, p) == {TURN}


def test_duchess_won_no_moves(impl):
    p = pos(["", "", "", ""], found=[13] * 4, base_rank=3, reserve=["", "", "", ""])
    assert impl.is_won(DUCHESS, p) is True
    assert impl.legal_moves(DUCHESS, p) == []


def test_duchess_illegal_moves_raise(impl):
    p = pos(**SPACE_DUCHESS, reserve=["7C", "", "2H 9D", ""], waste="4S", stock="5C")
    for move in (M("w", "p3"), M("p0", "p3"), M("s", "p3"), REDEAL):
        with pytest.raises(ValueError):
            impl.apply_move(DUCHESS, p, move)
