"""The St. Helena family's own parts: the relaxation's loss proofs against an independent
exhaustive search, the search with and without its dead ends, the win finder's lines through
the reference, and the round number and gathered redeals in the position key."""

import random
from collections import Counter

import numpy as np
import pytest
from .searching import reference_search, two_deck_endgame

from solitaire_odds.game import deals, reference
from solitaire_odds.engine import api
from solitaire_odds.engine.constants import MOVE, P_NPILES, PLACE_FOUND, REDEAL
from solitaire_odds.engine.reductions import capabilities, safe_foundation_play
from solitaire_odds.engine.state import encode
from solitaire_odds.engine.two_deck_proofs import NO_PILE, WORK_SIZE, applies, moved_onto, never_freed, never_freed_in
from solitaire_odds.engine.winfinder import DEEPEST_CARDS, DEEPEST_LENGTH, beam_search, rating
from solitaire_odds.game.position import Position
from solitaire_odds.rules import resolve
from solitaire_odds.solver import Solver, TwoDeckSteps, WinFinder

PYSOL_BOX_KITE = {"build_suit": "any", "wrap": True, "foundation_transfer": True}
SETTINGS = [("box-kite", {}, 0), ("box-kite", PYSOL_BOX_KITE, 0), ("st-helena", {}, 2),
            ("st-helena", {"build_suit": "any"}, 2), ("st-helena", {"space_fill": "any"}, 2), ("louis", {}, 2),
            ("louis", {"build_suit": "any", "wrap": True}, 2)]


def last_round_endgames(game, switches, redeals, count, seed):
    """Constructed endgames (tests/test_solver.two_deck_endgame) in the last round."""
    rng = random.Random(f"{seed} {game} {sorted(switches.items())}")
    for _ in range(count):
        position = two_deck_endgame(rng, loose=rng.randint(4, 16))
        position.redeals_used = redeals
        yield position


@pytest.mark.slow  # over 20 s
@pytest.mark.parametrize("game,switches,redeals", [s for s in SETTINGS if "space_fill" not in s[1]])
def test_relaxation_never_calls_a_winnable_endgame_lost(game, switches, redeals):
    """Where the exhaustive search over the reference finishes, a position it wins is never
    proven lost by the relaxation; and the relaxation does prove some lost ones (same-suit
    readings) so that the check bites. (With spaces the reference search rarely finishes.)"""
    rules = resolve(game, **switches)
    pa = api.params(rules)
    seen = Counter()
    for position in last_round_endgames(game, switches, redeals, 50, "relax"):
        proven = bool(never_freed(encode(position, pa), pa))
        exhaustive, won = reference_search(rules, position, limit=3000)
        if exhaustive:
            assert not (proven and won), "the relaxation calls a winnable position lost"
            seen[(proven, won)] += 1
    assert seen[(False, True)] >= 3, dict(seen)
    if switches.get("build_suit", "same") == "same":
        assert seen[(True, False)] >= 2, dict(seen)


@pytest.mark.parametrize("game,switches,redeals", SETTINGS)
def test_relaxed_dead_ends_change_no_verdict(game, switches, redeals):
    """The search with the relaxation's dead ends and, where they hold, the overlap rule's
    foundation plays and the persistent sets (reductions on) and the plain search agree on
    every endgame both decide.
    (In these endgames every suit's foundations overlap, so the rule fires wherever a top card
    can go up.)"""
    rules = resolve(game, **switches)
    reduced = Solver(rules, budget=6_000, win_first=False, reductions=True)
    plain = Solver(rules, budget=6_000, win_first=False, reductions=False)
    outcomes = Counter()
    for position in last_round_endgames(game, switches, redeals, 40, "dead ends"):
        a, b = reduced.solve_position(position), plain.solve_position(position)
        if "unknown" not in (a.verdict, b.verdict):
            assert a.verdict == b.verdict, f"reduced {a.verdict}, plain {b.verdict}"
        outcomes[(a.verdict, b.verdict)] += 1
    assert outcomes[("won", "won")] >= 5, dict(outcomes)


@pytest.mark.parametrize("game,switches,first", [
    ("st-helena", {"space_fill": "any"}, 0), ("st-helena", {"build_suit": "any"}, 0),
    ("louis", {"build_suit": "any"}, 0), ("box-kite", PYSOL_BOX_KITE, 20)])
def test_win_finder_wins_replay_through_the_reference(game, switches, first):
    """Eight fresh deals from ``first``: every win (most come from the win finder) replays to a
    won position. PySolFC's Box Kite is won about once in eight deals at this budget (deals
    20, 28, 31, 32 and 37 of 0..39), none of 0..7, so its eight start at 20."""
    rules = resolve(game, **switches)
    solver = Solver(rules, budget=40_000)
    by = Counter()
    for deal in range(first, first + 8):
        result = solver.solve(deal)
        by[(result.verdict, result.decided_by)] += 1
        if result.verdict == "won":
            position = reference.initial_position(rules, deals.deck(deal, 104))
            for move in result.line:
                position = reference.apply_move(rules, position, move)
            assert reference.is_won(rules, position)
        assert (result.verdict == "unknown") == (result.decided_by == "")
    assert by[("won", "win finder")] >= 1, dict(by)


def test_relaxation_decides_fresh_box_kite_deals_and_the_search_agrees():
    """A Box Kite deal the relaxation proves lost at the root is lost for the plain search
    too wherever that search finishes (and some are proven at all)."""
    rules = resolve("box-kite")
    pa = api.params(rules)
    plain = Solver(rules, budget=300_000, win_first=False, reductions=False)
    proven = confirmed = 0
    for deal in range(40):
        state = api.first_state(pa, deals.deck(deal, 104))
        if never_freed(state, pa):
            proven += 1
            verdict = plain.solve_state(state).verdict
            assert verdict != "won"
            confirmed += verdict == "lost"
    assert proven >= 3 and confirmed >= 1, (proven, confirmed)


def _random_play(pa, deal, rng, moves=400):
    """(position, move, position after it) along a random line of play from ``deal``'s first
    deal, redealing now and then."""
    s = api.first_state(pa, deals.deck(deal, 104))
    for _ in range(moves):
        rows = api.legal_rows(s, pa)
        if len(rows) == 0:
            return
        redeals = [row for row in rows if row[0] == REDEAL]
        others = [row for row in rows if row[0] != REDEAL] or redeals
        row = redeals[0] if redeals and rng.random() < 0.05 else others[rng.integers(len(others))]
        before = s.copy()
        api.play_row(s, pa, row)
        yield before, row, s


@pytest.mark.parametrize("game,switches,redeals", SETTINGS)
def test_the_relaxation_started_from_an_unproven_parent_gives_the_full_answer(game, switches, redeals):
    """After a card moves from pile to pile out of a position the relaxation does not prove
    lost, stopping once that card can leave again (two_deck_proofs, ``onto``) answers as the
    full fixpoint does, on children it proves lost and on the rest."""
    pa = api.params(resolve(game, **switches))
    work = np.zeros(WORK_SIZE, np.int64)
    rng = np.random.default_rng(7)
    answers = Counter()
    for deal in range(30):
        for before, row, after in _random_play(pa, deal, rng):
            onto = moved_onto(pa, row)
            if onto == NO_PILE or not applies(before, pa) or never_freed(before, pa):
                continue
            assert onto == row[2] and row[0] == MOVE and row[1] < pa[P_NPILES]
            full = bool(never_freed(after, pa))
            assert bool(never_freed_in(after, pa, work, onto)) == full, f"deal {deal}: full fixpoint {full}"
            answers[full] += 1
    assert answers[False] >= 30 and answers[True] >= 5, dict(answers)


def _key_after_redeal(position, pa):
    """The key of ``position`` once its piles are gathered and dealt again."""
    s = encode(position, pa)
    api.play_row(s, pa, np.array([REDEAL, 0, 0, 0], dtype=np.int16))
    return api.key(s, pa)


def _tableau(piles, redeals_used=0):
    return Position(piles=piles, down=[0] * 12, found=[13, 13, 13, 13, 13, 13, 13, 12], redeals_used=redeals_used)


def test_the_round_is_in_the_key_and_equal_gathered_packs_merge():
    """Positions after a gathering redeal are hashed afresh, so two tableaux that gather to the
    same pack (the same cards in pile order, split differently) give one key after the redeal,
    while equal tableaux in different rounds keep different keys."""
    rules = resolve("st-helena", build_suit="any", space_fill="any")
    pa = api.params(rules)
    # the last card left: Kings of spades... only rank 12 of suit 3 is missing from the Ace pile
    a = _tableau([[3 * 13 + 12]] + [[] for _ in range(11)])
    b = _tableau([[]] + [[3 * 13 + 12]] + [[] for _ in range(10)])
    assert api.key(encode(a, pa), pa) != api.key(encode(b, pa), pa)
    assert _key_after_redeal(a, pa) == _key_after_redeal(b, pa)
    assert api.key(encode(a, pa), pa) != api.key(encode(_tableau(a.piles, 1), pa), pa)


def test_longer_gathered_packs_merge_too():
    """The same with many cards: move the top card of each pile to the bottom of the next one
    (the gathered pack, pile 1 at the bottom, pile 12 on top, is unchanged)."""
    rules = resolve("st-helena")
    pa = api.params(rules)
    deck = deals.deck(7, 104)
    first = api.initial_position(rules, deck)
    shifted = [list(p) for p in first.piles]
    for p in range(11):
        shifted[p + 1].insert(0, shifted[p].pop())
    other = Position(piles=shifted, down=[0] * 12, found=list(first.found))
    assert _key_after_redeal(first, pa) == _key_after_redeal(other, pa)
    assert api.key(encode(first, pa), pa) != api.key(encode(other, pa), pa)


@pytest.mark.parametrize("game,switches,holds", [
    ("st-helena", {}, True), ("louis", {}, True), ("box-kite", {}, True), ("st-helena", {"space_fill": "any"}, True),
    ("st-helena", {"build_suit": "any"}, False), ("louis", {"wrap": True}, False),
    ("box-kite", {"foundation_transfer": True}, False), ("box-kite", PYSOL_BOX_KITE, False)])
def test_the_overlap_rule_holds_only_for_suit_building_without_wrap_or_transfers(game, switches, holds):
    assert capabilities(resolve(game, **switches))["safe_overlap"] is holds


def _clubs_endgame(kings, aces, top, redeals_used=0):
    """Every suit up but clubs: their King foundation holds ``kings`` cards (base included),
    their Ace foundation ``aces``; the clubs in play lie in pile 1 with rank ``top`` (Ace = 0)
    on top, the other piles empty."""
    in_play = [rank for rank in range(13) for _ in range(2 - (rank >= 13 - kings) - (rank < aces))]
    in_play.remove(top)
    return Position(piles=[in_play + [top]] + [[] for _ in range(11)], down=[0] * 12,
                    found=[kings, 13, 13, 13, aces, 13, 13, 13], redeals_used=redeals_used)


def test_the_overlap_rule_plays_up_only_where_the_foundations_overlap_in_the_last_round():
    """Clubs' King foundation down to the 7 and Ace foundation up to the 7 (counts 7 + 7 = 14)
    overlap: the 8 goes to the Ace foundation at once, the 6 to the King foundation. Down to
    the 8 only (6 + 7 = 13), the 8 fits the Ace foundation but is not played alone. With a
    redeal left (St. Helena's first deal) the rule waits for the last round."""
    pa = api.params(resolve("box-kite"))
    assert safe_foundation_play(encode(_clubs_endgame(7, 7, 7), pa), pa) == (0, PLACE_FOUND + 4)
    assert safe_foundation_play(encode(_clubs_endgame(7, 7, 5), pa), pa) == (0, PLACE_FOUND + 0)
    assert safe_foundation_play(encode(_clubs_endgame(7, 7, 2), pa), pa) == (-1, -1)
    assert safe_foundation_play(encode(_clubs_endgame(6, 7, 7), pa), pa) == (-1, -1)
    pa = api.params(resolve("st-helena"))
    assert safe_foundation_play(encode(_clubs_endgame(7, 7, 7, redeals_used=0), pa), pa) == (-1, -1)
    assert safe_foundation_play(encode(_clubs_endgame(7, 7, 7, redeals_used=2), pa), pa) == (0, PLACE_FOUND + 4)
    pa = api.params(resolve("st-helena", build_suit="any"))
    assert safe_foundation_play(encode(_clubs_endgame(7, 7, 7, redeals_used=2), pa), pa) == (-1, -1)


def test_the_win_finder_gets_the_budget_where_a_redeal_remains():
    """With a redeal left only wins can be found, and the beam finds more of them per node: it
    gets the whole budget and the search a tenth; in the last round (Box Kite, or St. Helena
    after its redeals) the search, which can prove losses there, keeps the whole budget.
    Without a finder (``win_first`` off) the search gets the whole budget everywhere."""
    st_helena = Solver(resolve("st-helena"), budget=10_000)
    first = api.first_state(st_helena.pa, deals.deck(3, 104))
    assert st_helena._two_deck.shares(first, 10_000) == (10_000, 1_000)
    last = encode(_clubs_endgame(7, 7, 7, redeals_used=2), st_helena.pa)
    assert st_helena._two_deck.shares(last, 10_000) == (5_000, 10_000)
    box_kite = Solver(resolve("box-kite"), budget=10_000)
    assert box_kite._two_deck.shares(api.first_state(box_kite.pa, deals.deck(3, 104)), 10_000) == (5_000, 10_000)
    plain = Solver(resolve("st-helena"), budget=10_000, win_first=False)
    assert plain._two_deck.shares(first, 10_000) == (0, 10_000)  # no finder: the search gets all
    assert plain.solve(3).nodes == 10_000


def test_the_win_finder_rates_a_redeal_left_above_any_progress():
    """A deal's first position, with both redeals left, outranks a near win with one: the beam
    plays a deal out before it redeals (rated the other way round, it redealt at once)."""
    pa = api.params(resolve("st-helena"))
    depth = np.zeros(52, np.int64)
    first = api.first_state(pa, deals.deck(3, 104))
    near_win = encode(_clubs_endgame(12, 12, 12, redeals_used=1), pa)
    assert rating(first, pa, 0.0, depth) > rating(near_win, pa, 0.0, depth)


def test_the_win_finder_tries_each_width_greedy_then_keeping_cards_back():
    """St. Helena's deal 4 opens with two moves (the 9 and 8 of spades change places) and a
    redeal. A beam that plays up every card that fits dies out within a few hundred positions,
    every line a dead end; the finder's attempts that make only the sound rule's foundation
    plays win it, and the line replays through the reference."""
    rules = resolve("st-helena")
    finder = WinFinder(api.params(rules), 3_000_000)
    root = api.first_state(finder.pa, deals.deck(4, 104))
    length, nodes = beam_search(root, finder.pa, 4096, 3_000_000, 0, np.uint64(1), finder.fs, True, False)
    assert length == -1 and nodes < 1_000
    length, nodes = finder.find(root, 3_000_000)
    assert length > 0
    line = [api.move_tuple(row, finder.pa) for row in finder.fs.path[:length]]
    assert reference.is_won(rules, reference.replay(rules, deals.deck(4, 104), line))


def test_the_finder_keeps_its_deepest_line_and_the_relay_wins_from_it():
    """St. Helena's deal 40 at 1e6: neither the finder's beams from the deal nor the search win
    it. The deepest line the beams met replays through the reference to a position with the
    cards on the foundations the finder noted, in the last round; fresh beams from that line's
    positions before its last redeal (the relay) win the deal, and the whole line replays."""
    rules = resolve("st-helena")
    finder = WinFinder(api.params(rules), 1_000_000)
    deck = deals.deck(40, 104)
    length, _ = finder.find(api.first_state(finder.pa, deck), 1_000_000)
    assert length == -1
    cards, moves = finder.fs.deepest[DEEPEST_CARDS], finder.fs.deepest[DEEPEST_LENGTH]
    deepest = reference.replay(rules, deck, [api.move_tuple(row, finder.pa) for row in finder.fs.deepest_path[:moves]])
    assert sum(deepest.found) == cards and deepest.redeals_used == 2 and not reference.is_won(rules, deepest)
    outcome = Solver(rules, budget=1_000_000).solve(40)
    assert (outcome.verdict, outcome.decided_by) == ("won", "relay")
    assert reference.is_won(rules, reference.replay(rules, deck, outcome.line))


def test_no_relay_in_the_last_round():
    """Box Kite is dealt once: in its last round from the start, where the search has the deal
    to itself, the relay runs nothing and rates no position."""
    pa = api.params(resolve("box-kite"))
    finder = WinFinder(pa, 10_000)
    root = api.first_state(pa, deals.deck(2, 104))
    assert finder.find(root, 10_000)[0] == -1
    assert TwoDeckSteps(pa, finder).relay(root, 10_000) == (None, 0)


def test_no_relay_from_a_line_that_got_few_cards_up():
    """St. Helena's deal 0 at 1e5: the finder's deepest line ends with fewer than
    WinFinder.RELAY_MIN_CARDS cards on the foundations, with redeals still ahead, so the relay
    runs nothing and rates no position."""
    pa = api.params(resolve("st-helena"))
    finder = WinFinder(pa, 100_000)
    root = api.first_state(pa, deals.deck(0, 104))
    assert finder.find(root, 100_000)[0] == -1
    assert 0 <= finder.fs.deepest[DEEPEST_CARDS] < WinFinder.RELAY_MIN_CARDS
    assert TwoDeckSteps(pa, finder).relay(root, 100_000) == (None, 0)
