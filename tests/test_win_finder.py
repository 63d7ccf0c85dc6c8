"""The win finder in the one-deck games: its rating reads every place a card can lie, the next
beam takes each position's best few children first, and the solver gives it the deals its
search leaves unknown, whose wins replay through the reference."""

import numpy as np
import pytest

from solitaire_odds.game import deals, reference
from solitaire_odds.engine import api
from solitaire_odds.engine.state import encode
from solitaire_odds.engine.winfinder import PER_PARENT, _spread_out, blocked, rating
from solitaire_odds.game.position import Position
from solitaire_odds.rules import resolve
from solitaire_odds.solver import Solver, WinFinder

def _spades_left(pile, stock=(), waste=(), hearts_up=13):
    """Every suit up but spades (their foundation holds the Ace) and, with ``hearts_up`` < 13,
    the hearts above it; spades 3..K (or 2..K) in the first pile."""
    return Position(piles=[list(pile)] + [[] for _ in range(6)], down=[0] * 7,
                    found=[1, hearts_up, 13, 13], stock=list(stock), waste=list(waste))


@pytest.mark.parametrize("game,where", [("easthaven", "stock"), ("westcliff-classic", "stock"),
                                        ("westcliff-classic", "waste")])
def test_a_card_the_foundation_needs_rates_lower_out_of_reach_than_on_top_of_a_pile(game, where):
    """The 2 of spades, the card spades need next, on top of a pile rates above the same
    cards with the 2 in the stock or under three cards of the waste (a rating that read only
    the piles took a card in the stock or waste for a card in reach)."""
    pa = api.params(resolve(game))
    work = np.zeros(52, np.int64)
    kings_to_threes = list(range(12, 1, -1))
    if where == "stock":
        on_top, away = _spades_left(kings_to_threes + [1]), _spades_left(kings_to_threes, stock=[1])
    else:
        hearts = [25, 24, 23]  # King, Queen, Jack of hearts, the Jack on top: the hearts' next card
        on_top = _spades_left(kings_to_threes + [1], waste=hearts, hearts_up=10)
        away = _spades_left(kings_to_threes, waste=[1] + hearts, hearts_up=10)
    assert rating(encode(on_top, pa), pa, 0.0, work) > rating(encode(away, pa), pa, 0.0, work)


@pytest.mark.parametrize("seed", range(5))
def test_each_beam_position_offers_its_best_children_before_any_other_fourth(seed):
    """Random ratings and parents: the candidates come out as every parent's best PER_PARENT in
    rating order, then all the others in rating order, each candidate once."""
    rng = np.random.default_rng(seed)
    nbeam, ncand = 7, 60
    parents = rng.integers(0, nbeam, ncand)
    order = np.argsort(-rng.random(ncand))
    spread = np.full(ncand, -1, np.int64)
    n = _spread_out(order, ncand, parents, nbeam, spread, np.zeros(nbeam, np.int64))
    rank_in_parent = {c: list(order[parents[order] == parents[c]]).index(c) for c in order}
    front = [c for c in order if rank_in_parent[c] < PER_PARENT]
    back = [c for c in order if rank_in_parent[c] >= PER_PARENT]
    assert n == ncand
    assert list(spread) == front + back
    assert 0 < len(back) < ncand


@pytest.mark.parametrize("game,switches,deal_numbers", [
    ("easthaven", {"space_fill": "any", "foundation_return": True}, (47, 102)), ("westcliff-classic", {}, (942, 348))])
def test_the_finder_wins_deals_the_search_leaves_unknown_and_they_replay(game, switches, deal_numbers):
    """Deals the plain depth-first search leaves unknown even at 1e6 nodes (Easthaven: the first
    two of deals 0..999 whose solve at 3e4 the finder decides and the plain search at 1e6 does
    not; deal 977, kept before, is won by the search itself since its lines may run 20,000
    moves deep, in 2,984 moves): at 3e4 the solver's finder, run after the search, wins them,
    and the lines replay through the reference to a won position. Without ``win_first`` (the
    plain search of the tests) the finder never runs."""
    rules = resolve(game, **switches)
    solver = Solver(rules, budget=30_000)
    plain = Solver(rules, budget=30_000, win_first=False)
    for deal in deal_numbers:
        result = solver.solve(deal)
        assert (result.verdict, result.decided_by) == ("won", "win finder")
        position = reference.initial_position(rules, deals.deck(deal, 52))
        for move in result.line:
            position = reference.apply_move(rules, position, move)
        assert reference.is_won(rules, position)
        assert plain.solve(deal).verdict == "unknown"


def test_the_next_budget_of_an_escalation_starts_after_the_attempts_that_ended():
    """Called again on the same root with a larger budget, the finder skips the attempts that
    ended without a win last time: it finds the same line as a fresh finder, rating fewer
    positions. St. Helena deal 73: no win within 1e4 positions, one within 1e5."""
    rules = resolve("st-helena")
    pa = api.params(rules)
    root = api.first_state(pa, deals.deck(73, rules["ncards"]))
    fresh, escalated = WinFinder(pa, 100_000), WinFinder(pa, 100_000)
    length, fresh_rated = fresh.find(root, 100_000)
    assert length >= 0
    assert escalated.find(root, 10_000)[0] == -1
    again, rated = escalated.find(root.copy(), 100_000)
    assert again == length
    assert np.array_equal(escalated.fs.path[:length], fresh.fs.path[:length])
    assert rated < fresh_rated


def _clubs_in_one_pile(order):
    """St. Helena with every suit up but clubs, whose foundations hold only their bases: the
    clubs in play lie in pile 1 in ``order``'s sorting (the last card on top)."""
    clubs = [rank for rank in range(13) for _ in range(2 - (rank == 12) - (rank == 0))]
    return Position(piles=[order(clubs)] + [[] for _ in range(11)], down=[0] * 12,
                    found=[1, 13, 13, 13, 1, 13, 13, 13])


def _need(rank):
    """How many clubs go up before this one, to the nearer of the foundations of
    :func:`_clubs_in_one_pile` (the King one wants the Queen next, the Ace one the 2)."""
    return min(d for d in (11 - rank if rank <= 11 else 99, rank - 1 if rank >= 1 else 99))


def test_blocked_counts_the_pairs_whose_upper_card_goes_up_later():
    """With the card needed first on top and each below it needed no sooner, nothing blocks;
    turned over, every pair of cards needed at different times is blocked once."""
    pa = api.params(resolve("st-helena"))
    work = np.zeros(52, np.int64)
    best_first = _clubs_in_one_pile(lambda cards: sorted(cards, key=_need, reverse=True))
    worst_first = _clubs_in_one_pile(lambda cards: sorted(cards, key=_need))
    needs = sorted(map(_need, best_first.piles[0]))
    pairs = sum(1 for i, a in enumerate(needs) for b in needs[i + 1:] if a != b)
    assert blocked(encode(best_first, pa), pa, work) == 0
    assert blocked(encode(worst_first, pa), pa, work) == pairs > 0


def test_the_round_finder_wins_a_deal_the_other_steps_leave_and_gives_the_same_line_each_time():
    """St. Helena's deal 94 at 1e5: the finder and the search leave it unknown and the relay
    has no line to start from (the round finder runs only after them); the round finder wins
    it, two fresh solvers give the same line, and it replays through the reference."""
    rules = resolve("st-helena")
    first, second = (Solver(rules, budget=100_000).solve(94) for _ in range(2))
    assert (first.verdict, first.decided_by) == ("won", "round finder")
    assert first.line == second.line
    assert reference.is_won(rules, reference.replay(rules, deals.deck(94, 104), first.line))
    assert first.spent["relay"] == 0 and first.spent["win finder"] > 0
