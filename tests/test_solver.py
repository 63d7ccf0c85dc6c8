"""The solver: verdicts replay through the reference, and the reductions change no verdict.

Comparing the reduced search with the plain one needs positions the plain search can finish
within a test's budget (from a fresh deal it rarely can: without the reductions Westcliff's
tableau can be rearranged almost endlessly), so the deals are first played forward: a deal
the solver wins is played 90% of the way along its winning line and then nudged by up to
three random moves; every other deal, and one the solver does not win, is played 80 random
moves (foundation moves preferred). Positions of both kinds are winnable or not, and both verdicts occur.

The St. Helena family gets its own test on constructed endgames: the solver rarely wins its
fresh deals within a test's budget, and no reduction applies to it (the two searches are the
same), so what needs checking there is that its wins replay and its losses are real.
"""

import pickle
import random
from collections import Counter

import pytest

from solitaire_odds.game import deals, reference
from solitaire_odds.rules import resolve
from solitaire_odds.solver import Solver

from .searching import random_walk, reference_search, two_deck_endgame

BUDGET = 10_000
ONE_DECK_GAMES = ["westcliff-classic", "westcliff", "easthaven", "duchess"]
POSITIONS = 300


@pytest.mark.slow  # over 20 s
def test_plain_dfs_over_the_reference_agrees_on_small_lost_positions():
    """An independent exhaustive search written over the reference (no table tricks beyond a
    visited set of positions) confirms LOST verdicts of the engine on positions it can finish."""
    rules = resolve("westcliff-classic")
    solver = Solver(rules, budget=BUDGET)
    rng = random.Random(5)
    checked = Counter()
    for deal in range(40):
        position = random_walk(rules, reference.initial_position(rules, deals.deck(deal)), 60, rng)
        verdict = solver.solve_position(position).verdict
        if verdict == "unknown":
            continue
        exhaustive, found = reference_search(rules, position, limit=3000)
        if not exhaustive and not found:
            continue
        checked[verdict] += 1
        assert found == (verdict == "won"), f"deal {deal}: engine says {verdict}"
    assert checked["lost"] >= 5


@pytest.mark.parametrize("game", ONE_DECK_GAMES)
def test_wins_replay_through_the_reference(game):
    rules = resolve(game)
    solver = Solver(rules, budget=BUDGET)
    wins = 0
    for deal in range(30):
        result = solver.solve(deal)
        if result.verdict == "won":
            wins += 1
            deck = deals.deck(deal, rules["ncards"])
            assert reference.is_won(rules, reference.replay(rules, deck, result.line))
        else:
            assert result.line == []
    assert wins >= 1, f"{game}: no win in 30 deals to replay"


# the one-deck games, and the readings with foundation returns (where the pointless-return
# pruning and the low safe rule's argument for returns are in play)
REDUCED_SETTINGS = [(game, {}) for game in ONE_DECK_GAMES] + [
    ("easthaven", {"space_fill": "any", "foundation_return": "on"}), ("westcliff-classic", {"foundation_return": "on"}),
    ("duchess", {"run_moves": "single"})]


@pytest.mark.slow  # over 20 s
@pytest.mark.parametrize("game, switches", REDUCED_SETTINGS)
def test_reduced_and_plain_search_agree(game, switches):
    rules = resolve(game, **switches)
    finder = Solver(rules, budget=BUDGET)
    reduced = Solver(rules, budget=BUDGET, win_first=False, reductions=True)
    plain = Solver(rules, budget=BUDGET, win_first=False, reductions=False)
    rng = random.Random(game)
    outcomes = Counter()
    for deal in range(POSITIONS):
        deck = deals.deck(deal, rules["ncards"])
        found = finder.solve(deal)
        if found.verdict == "won" and deal % 2:
            cut = int(len(found.line) * 0.9)
            position = random_walk(rules, reference.replay(rules, deck, found.line[:cut]), rng.randrange(4), rng)
        else:
            position = random_walk(rules, reference.initial_position(rules, deck), 80, rng)
        a = reduced.solve_position(position)
        b = plain.solve_position(position)
        if "unknown" not in (a.verdict, b.verdict):
            assert a.verdict == b.verdict, f"deal {deal}: reduced {a.verdict}, plain {b.verdict}"
        outcomes[(a.verdict, b.verdict)] += 1
    decided = sum(n for (a, b), n in outcomes.items() if "unknown" not in (a, b))
    # Measured at 10k nodes: 25 to 120 positions decided by both, depending on the game; the
    # plain search is what limits it.
    assert decided >= 25, f"{game}: only {decided} positions decided by both searches: {dict(outcomes)}"
    assert outcomes[("won", "won")] >= 5 and outcomes[("lost", "lost")] >= 2, dict(outcomes)


# (game, switches, losses to confirm): with spaces or building regardless of suit these endgames
# are almost never lost (measured: none in 60), so there only the wins are checked.
TWO_DECK_SETTINGS = [("st-helena", {}, 3), ("st-helena", {"space_fill": "any"}, 0), ("louis", {}, 3),
                     ("box-kite", {}, 3),
                     ("box-kite", {"build_suit": "any", "wrap": True, "foundation_transfer": True}, 0)]


@pytest.mark.slow  # over 20 s
@pytest.mark.parametrize("game,switches,min_lost", TWO_DECK_SETTINGS)
def test_two_deck_endgames_wins_replay_and_losses_are_exhaustive(game, switches, min_lost):
    """Constructed endgames of the St. Helena family: every win the solver reports replays to a
    won position through the reference, and every loss is confirmed by the independent
    exhaustive search over the reference where that search can finish."""
    rules = resolve(game, **switches)
    solver = Solver(rules, budget=BUDGET)
    rng = random.Random(f"{game} {sorted(switches.items())}")  # str seeds are stable across runs
    checked = Counter()
    for _ in range(80):
        position = two_deck_endgame(rng, loose=rng.randint(8, 30))
        if game == "box-kite":
            position.redeals_used = 0
        result = solver.solve_position(position)
        if result.verdict == "won":
            final = position
            for move in result.line:
                final = reference.apply_move(rules, final, move)
            assert reference.is_won(rules, final)
            checked["won"] += 1
        elif result.verdict == "lost":
            exhaustive, found = reference_search(rules, position, limit=4000)
            if exhaustive:
                assert not found, "the engine says lost, the reference search finds a win"
                checked["lost"] += 1
    assert checked["won"] >= 10 and checked["lost"] >= min_lost, dict(checked)


def test_dead_waste_cards_end_the_search_as_the_plain_search_would():
    """With ``waste_playable`` off a waste card that is not the live top card can never leave
    (a SOUND dead end). Endgames of Classic Westcliff, reached along winning lines played
    with the waste playable, are decided under ``waste_playable=off`` by the reduced and the
    plain search: they must agree, on positions with buried waste cards and on clean ones."""
    playable, strict = resolve("westcliff-classic"), resolve("westcliff-classic", waste_playable=False)
    finder = Solver(playable, budget=BUDGET)
    reduced = Solver(strict, budget=BUDGET, win_first=False, reductions=True)
    plain = Solver(strict, budget=BUDGET, win_first=False, reductions=False)
    rng = random.Random(11)
    outcomes = Counter()
    for deal in range(80):
        found = finder.solve(deal)
        if found.verdict != "won":
            continue
        cut = int(len(found.line) * rng.uniform(0.8, 0.97))
        position = reference.replay(playable, deals.deck(deal), found.line[:cut])
        a, b = reduced.solve_position(position), plain.solve_position(position)
        if "unknown" not in (a.verdict, b.verdict):
            assert a.verdict == b.verdict, f"deal {deal}: reduced {a.verdict}, plain {b.verdict}"
            outcomes[(a.verdict, len(position.waste) > 0)] += 1
    assert outcomes[("lost", True)] >= 5 and outcomes[("won", False)] >= 5, dict(outcomes)


def test_a_table_smaller_than_the_search_still_proves_a_loss():
    """Classic Westcliff deal 3 is lost after about 110,000 positions; a table of 65,536 slots
    must replace positions off the current line to finish, and reaches the same verdict."""
    rules = resolve("westcliff-classic")
    roomy = Solver(rules, budget=400_000).solve(3)
    small = Solver(rules, budget=400_000, table_slots=1 << 16).solve(3)
    assert roomy.verdict == small.verdict == "lost"
    assert small.nodes > 1 << 16


def test_an_outcome_sent_to_another_process_carries_its_line_not_the_solver():
    """The solver hands its outcomes a function that makes the line on first use; pickled (the
    `solve` command's child process sends its outcome back) the line is made and sent alone."""
    solver = Solver(resolve("westcliff"), budget=100_000)
    outcome = solver.solve(3)
    copy = pickle.loads(pickle.dumps(outcome))
    assert copy.verdict == "won" and copy.line == outcome.line
    assert len(pickle.dumps(outcome)) < 100_000 < solver._ws.tt.nbytes


def test_a_line_that_does_not_win_fails_its_replay_with_the_reason():
    from solitaire_odds.game.reference import ReplayError, replay_win

    rules = resolve("westcliff")
    start = reference.initial_position(rules, deals.deck(3, 52))
    line = Solver(rules, budget=100_000).solve(deal=3).line
    assert reference.is_won(rules, replay_win(rules, start, line))
    with pytest.raises(ReplayError, match="does not end won"):
        replay_win(rules, start, line[:-1])
    with pytest.raises(ReplayError, match="move 1 of the line"):
        replay_win(rules, start, [("move", "p0", "p0", 1)])
