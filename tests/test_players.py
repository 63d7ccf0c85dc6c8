"""Players who cannot see hidden cards: what they see, that they ignore what they cannot see,
that they play legal moves, and the CLI around them."""

from collections import Counter

import numpy as np
import pytest
from click.testing import CliRunner

from solitaire_odds.game import deals, reference
from solitaire_odds.cli import main
from solitaire_odds.engine import api
from solitaire_odds.engine.state import decode
from solitaire_odds.engine.api import first_state
from solitaire_odds.players import make_player
from solitaire_odds.players.observation import HIDDEN, Observation, hidden_places
from solitaire_odds.rules import resolve
from solitaire_odds.runs.store import load_rows, read_manifest

HIDDEN_GAMES = ["westcliff-classic", "westcliff", "easthaven", "duchess", "louis"]
TINY = {"planner": {"samples": 1, "budget": 50}, "hindsight": {"samples": 2, "budget": 50},
        "uct": {"think": 400, "budget": 50}}
SEARCHING = ("planner", "hindsight", "uct")


def player(name, rules):
    return make_player(name, rules, **TINY.get(name, {}))


def state_after(rules, deal, moves):
    """The engine state of ``deal`` after ``moves`` (position.py tuples)."""
    pa = api.params(rules)
    s = first_state(pa, deals.deck(deal, rules["ncards"]))
    for move in moves:
        api.play_row(s, pa, api.move_row(move, pa))
    return s


def foundation_cards(rules, obs):
    """The cards on the foundations, from their counts (and Duchess' base)."""
    out = []
    for j, count in enumerate(obs.found):
        suit = j % 4
        if rules["foundations"] == "kings-and-aces" and j < 4:
            ranks = [12 - i for i in range(count)]
        else:
            base = max(obs.base_rank, 0)
            ranks = [(base + i) % 13 for i in range(count)]
        out += [suit * 13 + r for r in ranks]
    return out


def unseen_by_elimination(rules, obs):
    """Every card of the pack minus every card the observation shows."""
    shown = [c for pile in obs.piles + obs.reserve for c in pile] + list(obs.waste) + list(obs.stock)
    return sorted((Counter(c % 52 for c in range(rules["ncards"])) - Counter(shown + foundation_cards(rules, obs))).elements())


def greedy_positions(game, deal, every=7):
    """Engine states along greedy's game of ``deal``: the deal, then every ``every`` moves."""
    rules = resolve(game)
    line = make_player("greedy", rules).play(deal).line
    return rules, [state_after(rules, deal, line[:k]) for k in range(0, len(line), every)]


@pytest.mark.parametrize("game", HIDDEN_GAMES + ["st-helena"])
def test_observation_hides_what_it_should_and_knows_the_unseen_cards(game):
    for deal in (1, 2):
        rules, states = greedy_positions(game, deal)
        for s in states:
            obs = Observation.of(s, api.params(rules))
            pos = decode(s, api.params(rules))
            assert list(obs.unseen) == unseen_by_elimination(rules, obs)
            face_down = [c for p, d in zip(pos.piles, pos.down) for c in p[:d]]
            assert list(obs.unseen) == sorted(face_down + ([] if obs.stock else pos.stock))
            assert (obs.state[obs.hidden] == HIDDEN).all()
            assert obs.down == tuple(pos.down) and obs.stock_size == len(pos.stock)
            assert obs.piles == tuple(tuple(p[d:]) for p, d in zip(pos.piles, pos.down))
            if game == "st-helena" or (game == "louis" and not pos.opening):
                assert obs.unseen == ()


def test_what_is_hidden_in_each_game():
    classic = Observation.of(state_after(resolve("westcliff-classic"), 4, []), api.params(resolve("westcliff-classic")))
    assert classic.down == (2,) * 7 and classic.stock_size == 31 and classic.stock == () and len(classic.unseen) == 45
    louis = Observation.of(state_after(resolve("louis"), 4, []), api.params(resolve("louis")))
    assert louis.opening and len(louis.unseen) == louis.stock_size == 84
    assert max(Counter(louis.unseen).values()) == 2  # two decks: a multiset
    # Duchess: after the redeal the stock is the waste turned over, which the player saw
    rules = resolve("duchess")
    pa = api.params(rules)
    for deal in range(40):
        line = make_player("greedy", rules).play(deal).line
        if ("redeal",) in line:
            s = state_after(rules, deal, line[:line.index(("redeal",)) + 1])
            obs = Observation.of(s, pa)
            assert obs.unseen == () and obs.stock == tuple(decode(s, pa).stock)
            return
    pytest.fail("no greedy Duchess game among deals 0..39 redealt")


def permuted(s, pa, places, rng):
    """``s`` with the cards at ``places`` shuffled among themselves (same observation)."""
    out = s.copy()
    out[places] = rng.permutation(s[places])
    return out


def hidden_count(rules, s):
    return len(hidden_places(s, api.params(rules)))


def line_until_first_reveal(rules, s, line):
    """``line`` up to and including the first move that shows a hidden card."""
    pa = api.params(rules)
    s = s.copy()
    for k, move in enumerate(line):
        before = hidden_count(rules, s)
        api.play_row(s, pa, api.move_row(move, pa))
        if hidden_count(rules, s) < before:
            return line[:k + 1]
    return line


@pytest.mark.parametrize("name", ["random", "greedy", "planner", "hindsight", "uct"])
@pytest.mark.parametrize("game", ["westcliff-classic", "duchess", "easthaven"])
def test_choices_do_not_depend_on_hidden_cards(name, game):
    """Permuting the hidden cards (a table the player cannot tell apart) changes nothing until
    a hidden card shows; permuting only the cards that stay hidden to the end changes nothing
    at all."""
    rules = resolve(game)
    pa = api.params(rules)
    who = player(name, rules)
    rng = np.random.default_rng(7)
    whole_games = 0
    for deal in range(4):
        _, states = greedy_positions(game, deal, every=9)
        starts = [s for s in states if hidden_count(rules, s) >= 2]
        for s in starts[-1:] if name in SEARCHING else starts:  # searching is slow: one late start a deal
            line = who.play_state(s, deal).line
            other = who.play_state(permuted(s, pa, hidden_places(s, pa), rng), deal).line
            prefix = line_until_first_reveal(rules, s, line)
            assert other[:len(prefix)] == prefix
            end = s.copy()  # replay the line from s to find what stayed hidden
            for move in line:
                api.play_row(end, pa, api.move_row(move, pa))
            still = hidden_places(end, pa)
            if len(still) >= 2 and len(set(s[still])) >= 2:
                assert who.play_state(permuted(s, pa, still, rng), deal).line == line
                whole_games += 1
    if game != "duchess":  # Duchess hides only its stock, which a game always turns to the end
        assert whole_games >= 1


@pytest.mark.parametrize("name", ["random", "greedy", "planner", "hindsight", "uct"])
@pytest.mark.parametrize("game", HIDDEN_GAMES)
def test_moves_are_legal_by_the_reference_and_wins_replay(name, game):
    rules = resolve(game)
    who = player(name, rules)
    for deal in range(2 if name in SEARCHING else 6):
        assert_replays(rules, deal, who.play(deal))


def assert_replays(rules, deal, outcome):
    """Every move of ``outcome`` is legal by the reference (apply_move raises on an illegal
    one), and the line ends won exactly when the verdict says won."""
    position = reference.initial_position(rules, deals.deck(deal, rules["ncards"]))
    for move in outcome.line:
        position = reference.apply_move(rules, position, move)
    assert reference.is_won(rules, position) == (outcome.verdict == "won")


@pytest.mark.parametrize("name,game", [("random", "westcliff"), ("greedy", "duchess"), ("planner", "westcliff")])
def test_players_win_some_deals(name, game):
    rules = resolve(game)
    who = player(name, rules)
    assert any(who.play(deal).verdict == "won" for deal in range(10))


def test_same_seed_same_game_other_seed_other_game():
    rules = resolve("westcliff")
    first = make_player("random", rules, seed=1).play(5).line
    assert make_player("random", rules, seed=1).play(5).line == first
    assert make_player("random", rules, seed=2).play(5).line != first


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_odds_with_a_player_writes_rows_and_any_worker_count_gives_the_same(tmp_path):
    tables = []
    for workers in (1, 2):
        out = tmp_path / f"w{workers}"
        result = run("odds", "westcliff-classic", "--player", "greedy", "--deals", 30, "--chunk-size", 10,
                     "--workers", workers, "--out", out)
        assert result.exit_code == 0, result.output
        assert "player greedy (seed 0)" in result.output
        assert read_manifest(out)["player"] == "greedy"
        tables.append(load_rows([out]).sort_values("deal").reset_index(drop=True))
    assert len(tables[0]) == 30 and set(tables[0]["verdict"]) <= {"won", "lost"}
    assert (tables[0]["moves"] > 0).all()
    columns = ["deal", "verdict", "moves", "line"]
    assert tables[0][columns].equals(tables[1][columns])


def test_odds_with_the_planner(tmp_path):
    result = run("odds", "westcliff", "--player", "planner", "--samples", 1, "--budget", 50, "--deals", 2,
                 "--workers", 1, "--out", tmp_path / "p")
    assert result.exit_code == 0, result.output
    assert read_manifest(tmp_path / "p")["player_params"] == {"samples": 1, "budget": 50, "seed": 0}
    assert len(load_rows([tmp_path / "p"])) == 2


def test_solve_with_a_player_prints_its_line():
    result = run("solve", "westcliff", "--deal", 2, "--player", "greedy")
    assert result.exit_code == 0, result.output
    assert "verdict: won (player greedy (seed 0):" in result.output
    assert "   1. " in result.output


@pytest.mark.parametrize("args,message", [
    (("odds", "westcliff", "--player", "greedy", "--samples", "4"), "--samples applies to --player planner and hindsight only"),
    (("odds", "westcliff", "--player", "random", "--budget", "1e5"), "the random player does not search"),
    (("odds", "westcliff", "--seed", "3"), "the solver draws nothing at random"),
    (("odds", "westcliff", "--player", "psychic"), "unknown player 'psychic'"),
    (("solve", "westcliff", "--deal", "1", "--player", "greedy", "--seed", "x"), "--seed must be a whole number"),
])
def test_player_option_errors(args, message):
    result = run(*args)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and message in lines[0]


def test_the_planner_leaves_a_winning_line_that_goes_back_to_a_position_of_the_game():
    """Easthaven under Solvitaire's reading, deal 767, default planner: late in the game the
    solver's winning line began with a move back to a position already played, which the
    table does not offer; the planner played it and the run stopped with an error. It must
    play on with a move the table offers, every move legal by the reference."""
    rules = resolve("easthaven", space_fill="any", foundation_return=True)
    assert_replays(rules, 767, make_player("planner", rules).play(767))


@pytest.mark.parametrize("game", ["westcliff-classic", "easthaven"])
def test_uct_thinks_within_its_budget_per_decision(game):
    """A decision spends at most ``think`` nodes plus its last solve's, and every
    iteration is one visit of a root move."""
    rules = resolve(game)
    pa = api.params(rules)
    think, budget = 3000, 200
    who = make_player("uct", rules, think=think, budget=budget)
    s = first_state(pa, deals.deck(1, rules["ncards"]))
    obs = Observation.of(s, pa)
    offered = [row.copy() for row in api.legal_rows(s, pa)]
    who._nodes = 0
    visits = who._scores(obs, offered, np.random.default_rng(0))
    assert who._nodes <= think + 3 * budget  # a solve may spend its budget in each of its passes
    assert 1 <= visits.sum() <= think // (budget // 8)
    assert visits.shape == (len(offered),)


def test_the_strength_script_adds_a_point_and_replaces_only_its_row(tmp_path):
    """``--point`` measures one setting; measuring it again on more deals replaces its row and
    keeps the other points'; a parameter the player does not take is refused in one line."""
    import subprocess
    import sys
    from pathlib import Path

    import pandas as pd

    script = Path(__file__).resolve().parents[1] / "experiments" / "strength.py"

    def strength(*args):
        return subprocess.run([sys.executable, str(script), "--root", str(tmp_path), "--workers", "1",
                               "--rules", "easthaven", *args], capture_output=True, text=True)

    assert strength("--deals", "2", "--point", "hindsight:samples=2,budget=50").returncode == 0
    assert strength("--deals", "3", "--point", "planner:samples=1,budget=50").returncode == 0
    assert strength("--deals", "4", "--point", "hindsight:samples=2,budget=50").returncode == 0
    table = pd.read_csv(tmp_path / "strength.csv")
    assert sorted(zip(table["player"], table["parameters"], table["deals"])) == [
        ("hindsight", "budget 50, samples 2, seed 0", 4), ("planner", "budget 50, samples 1, seed 0", 3)]
    refused = strength("--point", "hindsight:think=9")
    assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1
    assert "think=9" in refused.stderr and "samples, budget, seed" in refused.stderr
