"""The prover against the plain exhaustive search and the reference.

Positions are real deals played along a winning line of the search to a few moves before its
end, random endgames, and small constructed ones; every verdict the prover gives is compared
with the plain search's, and every win it finds is replayed through the reference here again.
"""

import random

import pytest

from solitaire_odds.game import cards, deals, reference
from solitaire_odds.game.position import Position
from solitaire_odds.prover import covers, decide, schedule
from solitaire_odds.rules import GAMES, resolve
from solitaire_odds.solver import Solver

BUDGET = 30.0
READINGS = [
    ("westcliff-classic", {}),
    ("westcliff-classic", {"aces_out_first": "on"}),
    ("westcliff", {}),
    ("westcliff", {"run_moves": "whole"}),
    ("westcliff", {"run_moves": "single", "space_fill": "king"}),
]


def plain(rules, pos):
    return Solver(rules, budget=200_000, win_first=False, reductions=False).solve_position(pos).verdict


def replays(rules, pos, line):
    for move in line:
        pos = reference.apply_move(rules, pos, move)
    return reference.is_won(rules, pos)


def near_the_end(rules, deal, moves_left):
    """The position ``moves_left`` moves (turns not counted) before the end of the search's
    winning line of ``deal``, or None when the search does not win the deal."""
    outcome = Solver(rules, budget=100_000).solve(deal=deal)
    if outcome.verdict != "won":
        return None
    line = outcome.line
    moves = [i for i, m in enumerate(line) if m[0] == "move"]
    pos = reference.initial_position(rules, deals.deck(deal))
    for m in line[:moves[-moves_left]]:
        pos = reference.apply_move(rules, pos, m)
    return pos


@pytest.mark.parametrize("game,switches", READINGS)
def test_wins_agree_with_the_plain_search_and_replay(game, switches):
    rules = resolve(game, **switches)
    checked = 0
    for deal in range(200):
        pos = near_the_end(rules, deal, 25)
        if pos is None:
            continue
        assert plain(rules, pos) == "won"
        result = decide(rules, pos, BUDGET)
        assert result.verdict == "won", result.detail
        assert replays(rules, pos, result.line)
        checked += 1
        if checked == 2:
            break
    assert checked == 2


def clubs_in_the_waste(order, live=False):
    """Every card on the foundations but the Clubs, which lie in the waste in ``order``
    (bottom to top); seven empty piles, no stock."""
    return Position(piles=[[] for _ in range(7)], down=[0] * 7, found=[0, 13, 13, 13],
                    waste=[cards.make(r, 0) for r in order], waste_live=live)


def test_a_constructed_win():
    rules = resolve("westcliff-classic")
    pos = clubs_in_the_waste(range(12, -1, -1))  # the Ace on top
    assert plain(rules, pos) == "won"
    result = decide(rules, pos, BUDGET)
    assert result.verdict == "won" and replays(rules, pos, result.line)


def test_a_lost_position_is_never_won_nor_called_lost():
    """King on top, seven spaces: seven Clubs can be laid out, the Six stays buried."""
    rules = resolve("westcliff-classic")
    pos = clubs_in_the_waste(range(13))
    assert plain(rules, pos) == "lost"
    result = decide(rules, pos, BUDGET)
    assert result.verdict == "unknown", result.detail
    assert "no win within" in result.detail


def test_a_dead_waste_is_never_won():
    rules = resolve("westcliff-classic", waste_playable="off")
    pos = clubs_in_the_waste(range(12, -1, -1), live=False)
    assert plain(rules, pos) == "lost"
    assert decide(rules, pos, BUDGET).verdict == "unknown"
    live = clubs_in_the_waste(range(12, -1, -1), live=True)
    assert plain(rules, live) == "lost"  # the Ace plays, then the Two lies dead
    assert decide(rules, live, BUDGET).verdict == "unknown"


def test_waste_played_at_once():
    """waste_playable=off: each Club must go up as it is turned."""
    rules = resolve("westcliff-classic", waste_playable="off")
    pos = Position(piles=[[] for _ in range(7)], down=[0] * 7, found=[0, 13, 13, 13],
                   waste=[cards.make(0, 0)], waste_live=True, stock=[cards.make(r, 0) for r in range(12, 0, -1)])
    assert plain(rules, pos) == "won"
    result = decide(rules, pos, BUDGET)
    assert result.verdict == "won" and replays(rules, pos, result.line)
    pos.waste_live = False
    assert plain(rules, pos) == "lost"
    assert decide(rules, pos, BUDGET).verdict == "unknown"


def test_real_lost_deal_is_not_won():
    rules = resolve("westcliff-classic")
    assert Solver(rules, budget=100_000, win_first=False, reductions=False).solve(deal=159).verdict == "lost"
    result = decide(rules, reference.initial_position(rules, deals.deck(159)), 2.0)
    assert result.verdict == "unknown"


def test_covers_only_where_the_schedule_argument_holds():
    """Losses for every position only in the Westcliff games with partial run moves and spaces
    for Kings or none (docs/prover.md, "The schedule model"); by the book no game qualifies."""
    for game in GAMES:
        assert covers(resolve(game)) is False
    assert covers(resolve("westcliff", space_fill="king")) is True
    assert covers(resolve("westcliff", space_fill="none")) is True
    for switches in ({"space_fill": "none", "run_moves": "single"}, {"space_fill": "king", "run_moves": "whole"},
                     {"space_fill": "king", "foundation_return": "on"}):
        assert covers(resolve("westcliff", **switches)) is False
    assert covers(resolve("westcliff-classic", waste_playable="off")) is False


def end_position(rules, rng, cards_left):
    """A random position with ``cards_left`` cards off the foundations (the highest of each
    suit) on the piles, some face down, and in the stock and waste where the rules turn one."""
    found, left = [13] * 4, []
    while len(left) < cards_left:
        s = rng.randrange(4)
        if found[s]:
            found[s] -= 1
            left.append(cards.make(found[s], s))
    rng.shuffle(left)
    turned = rng.randrange(len(left) // 2 + 1) if rules["stock"] == "turn" else 0
    talon, rest = left[:turned], left[turned:]
    piles = [[] for _ in range(rules["piles"])]
    for c in rest:
        piles[rng.randrange(len(piles))].append(c)
    down = [rng.randrange(len(p)) if p else 0 for p in piles]
    w = rng.randrange(len(talon) + 1)
    return Position(piles=piles, down=down, found=found, stock=talon[w:], waste=talon[:w])


@pytest.mark.parametrize("game,switches", [("westcliff", {"space_fill": "king"}),
                                           ("westcliff", {"space_fill": "none"}),
                                           ("easthaven", {})])
def test_schedule_verdicts_are_the_plain_searchs(game, switches):
    """Random endgames the plain search decides: the schedule model answers the same, lost
    included, and its wins replay; both verdicts must occur among the positions."""
    rules = resolve(game, **switches)
    rng, seen = random.Random(7), {"won": 0, "lost": 0}
    while min(seen.values()) < 4 or sum(seen.values()) < 16:
        pos = end_position(rules, rng, rng.randrange(12, 24))
        truth = plain(rules, pos)
        if truth == "unknown":
            continue
        assert schedule.refusal(rules, pos) == ""
        result = decide(rules, pos, BUDGET)
        assert result.verdict == truth, result.detail
        if truth == "won":
            assert replays(rules, pos, result.line)
        seen[truth] += 1


def test_schedule_proves_a_real_deal_lost():
    """Deal 103 with spaces for Kings only: the relaxation proves it lost, and so does the
    schedule model on its own."""
    rules = resolve("westcliff", space_fill="king")
    assert Solver(rules, budget=100_000).solve(deal=103).verdict == "lost"
    result = decide(rules, reference.initial_position(rules, deals.deck(103)), BUDGET)
    assert result.verdict == "lost", result.detail


def test_rows_still_to_deal_are_refused():
    """Easthaven before its stock is empty: a row lands on any card, which the twin argument
    does not cover, so the schedule model is refused and nothing is called lost."""
    rules = resolve("easthaven")
    pos = reference.initial_position(rules, deals.deck(0))
    assert "rows" in schedule.refusal(rules, pos)
    assert "any card may enter a space" in schedule.refusal(resolve("westcliff-classic"), pos)


def test_other_games_are_not_modelled():
    rules = resolve("easthaven")
    pos = reference.initial_position(rules, deals.deck(0))
    result = decide(rules, pos, BUDGET)
    assert result.verdict == "unknown" and result.detail.startswith("not modelled")


def test_the_solvers_prover_step():
    """Asked for, the prover is the solver's last step: the plain search at a tiny budget leaves
    deal 103 (spaces for Kings) unknown, and the schedule model proves it lost."""
    rules = resolve("westcliff", space_fill="king")
    assert Solver(rules, budget=2_000, win_first=False, reductions=False).solve(deal=103).verdict == "unknown"
    outcome = Solver(rules, budget=2_000, win_first=False, reductions=False, prover_seconds=BUDGET).solve(deal=103)
    assert (outcome.verdict, outcome.decided_by) == ("lost", "prover")
    with pytest.raises(ValueError):
        Solver(rules, prover_seconds=-1)
