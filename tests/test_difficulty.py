"""Winnable deals by difficulty: the rating follows its definition, every listed deal is won
again by a fresh solver and its rating's player results are what the players do."""

import json

from click.testing import CliRunner

from solitaire_odds.cli import main
from solitaire_odds.difficulty import PLANNER_GAMES, difficulty_of
from solitaire_odds.game import deals, reference
from solitaire_odds.players import make_player
from solitaire_odds.rules import resolve
from solitaire_odds.solver import Solver


def test_the_rating_follows_its_definition():
    assert difficulty_of(True, 0) == "easy"
    assert difficulty_of(False, PLANNER_GAMES) == difficulty_of(False, PLANNER_GAMES // 2) == "medium"
    assert difficulty_of(False, PLANNER_GAMES // 2 - 1) == difficulty_of(False, 0) == "hard"


def test_listed_hard_deals_are_won_again_and_their_players_results_hold(tmp_path):
    rules = resolve("westcliff-classic")
    result = CliRunner().invoke(main, ["deals", "westcliff-classic", "--winnable", "--count", "3", "--difficulty",
                                       "hard", "--budget", "1e5", "--format", "json", "--write", str(tmp_path)])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert len(rows) == 3 and {row["difficulty"] for row in rows} == {"hard"}
    solver, greedy = Solver(rules, budget=100_000), make_player("greedy", rules)
    for row in rows:
        outcome = solver.solve(deal=row["deal"])
        pos = reference.initial_position(rules, deals.deck(row["deal"], 52))
        for move in outcome.line:
            pos = reference.apply_move(rules, pos, move)
        assert outcome.verdict == "won" and reference.is_won(rules, pos)
        assert not row["greedy_won"] and greedy.play(row["deal"]).verdict == "lost"
        planner_won = sum(make_player("planner", rules, seed=s).play(row["deal"]).verdict == "won"
                          for s in range(PLANNER_GAMES))
        assert planner_won == row["planner_won"] < PLANNER_GAMES / 2
        assert deals.read_deck(tmp_path / f"westcliff-classic-{row['deal']}.txt", 52) == deals.deck(row["deal"], 52)


def test_bad_requests_are_one_line_with_status_2():
    for args, words in ((["deals", "duchess", "--count", "2"], "add --winnable"),
                        (["deals", "duchess", "--winnable", "--difficulty", "brutal"], "brutal"),
                        (["deals", "duchess", "--winnable", "--count", "0"], "--count")):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 2 and words in result.output, result.output
