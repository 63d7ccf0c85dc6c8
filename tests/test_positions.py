"""Position files (a game in progress) and `solve --position`: every part of the format read
back exactly, an impossible position refused with one line and exit status 2, a position
with nothing hidden answered exactly as the solver answers it, and hidden cards sampled."""

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from solitaire_odds.cli import main
from solitaire_odds.game import deals, reference
from solitaire_odds.game.position_file import HIDDEN, PositionFileError, format_position, parse_position, read_position
from solitaire_odds.positions import decide
from solitaire_odds.rules import resolve
from solitaire_odds.solver import Solver

GAMES = ["westcliff-classic", "westcliff", "easthaven", "st-helena", "louis", "box-kite", "duchess"]


def played(rules, deal, moves, seed):
    """The position after the opening (Louis) and ``moves`` random legal moves of ``deal``."""
    rng = random.Random(seed)
    pos = reference.initial_position(rules, deals.deck(deal, rules["ncards"]))
    for k in range(10_000):
        options = reference.legal_moves(rules, pos)
        if not options or (not pos.opening and k >= moves):
            break
        pos = reference.apply_move(rules, pos, rng.choice(options))
    return pos


@pytest.mark.parametrize("game", GAMES)
def test_a_written_position_reads_back_exactly(game):
    rules = resolve(game)
    for deal in range(4):
        pos = played(rules, deal, 25 * deal, deal)
        back = parse_position(format_position(pos, rules), rules)
        assert back.known and back.position == pos


WESTCLIFF = """# hand-typed: Classic Westcliff after a few moves
foundations: AC - - -
p0: ## ## | 7H 6C
p1: ## 9D
p2:
p3: ## ## 2C
p4: ## ## 3H
p5: ## ## 5C
p6: ## ## AH
stock: ##x31
waste: 3C 8D
"""


def test_hidden_places_and_the_hidden_cards_are_counted_and_dealt_at_random():
    rules = resolve("westcliff-classic")
    position = parse_position(WESTCLIFF, rules)
    # shown: AC on its foundation; 7H 6C 9D 2C 3H 5C AH 3C 8D on the table
    assert len(position.hidden) == 52 - 10 and not position.known
    assert position.position.stock.count(HIDDEN) == 31 and position.position.down[:2] == [2, 1]
    first, second = position.completion(random.Random(1)), position.completion(random.Random(2))
    for filled in (first, second):
        placed = sorted(c for pile in filled.piles for c in pile) + sorted(filled.stock)
        assert HIDDEN not in placed and len(placed) + len(filled.waste) + 1 == 52
    assert first != second


BAD = {
    "no colon": ("westcliff-classic", "p0 ## 7H\n", "expected 'name: cards'"),
    "unknown part": ("westcliff-classic", "reserve: 7H\n", "has no part 'reserve'"),
    "pile out of range": ("westcliff-classic", "p7: 7H\n", "has 7 piles"),
    "a part twice": ("westcliff-classic", "p0: 7H\np0: 8H\n", "given twice"),
    "unknown card": ("westcliff-classic", "p0: 1H\n", "unknown card"),
    "a card twice": ("westcliff-classic", "p0: 7H\np1: 7H\n", "7H is placed twice"),
    "a card on a foundation and a pile": ("westcliff-classic", "foundations: 3C - - -\np0: 2C\n",
                                          "2C is placed twice"),
    "too few cards": ("westcliff-classic", "p0: 7H\n", "only 1 of the 52 cards are accounted for"),
    "too many cards": ("westcliff-classic", "stock: ##x52\np0: 7H\n", "53 cards are placed"),
    "face down above face up": ("westcliff-classic", "p0: 7H ## \n", "face-down card cannot lie above"),
    "face down after the bar": ("westcliff-classic", "p0: ## | ## 7H\n", "face-down card cannot lie above"),
    "no face-up top": ("westcliff-classic", "p0: ## ##\n", "top card of a pile is face up"),
    "face up not built": ("westcliff-classic", "p0: ## | 7H 6H\n", "cannot lie face up on 7H"),
    "foundation of another suit": ("westcliff-classic", "foundations: 3D - - -\n", "not a card of the clubs"),
    "foundation short": ("westcliff-classic", "foundations: 3C -\n", "top card of each foundation"),
    "hidden waste": ("westcliff-classic", "waste: ##\n", "every card here is face up"),
    "bad hidden count": ("westcliff-classic", "stock: ##y3\n", "##x20"),
    "two bars": ("westcliff-classic", "p0: ## | 7H | 6C\n", "one '|' at most"),
    "no waste in Easthaven": ("easthaven", "waste: 7H\n", "easthaven has no waste"),
    "no stock in St. Helena": ("st-helena", "stock: 7H\n", "st-helena has no stock"),
    "face down in St. Helena": ("st-helena", "p0: ## 7H\n", "deals every card face up"),
    "three copies in two decks": ("st-helena", "p0: 7H 7H\np1: 7H\n", "7H is placed 3 times"),
    "hidden reserve": ("duchess", "r0: ## 7H\n", "every card here is face up"),
    "Duchess foundations without a base": ("duchess", "foundations: 7C - - -\n", "no 'base:' rank"),
    "bad base": ("duchess", "base: 14\n", "give one rank"),
    "too many redeals": ("duchess", "redeals: 2\n", "0..1"),
    "no redeals in Westcliff": ("westcliff-classic", "redeals: 0\n", "has no part 'redeals'"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_an_impossible_position_is_refused_with_one_line(case):
    game, text, words = BAD[case]
    with pytest.raises(PositionFileError, match=words.replace("(", r"\(").replace("|", r"\|")) as err:
        parse_position(text, resolve(game))
    assert "\n" not in str(err.value)


def test_the_command_refuses_a_bad_file_with_exit_status_2(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("p0: 7H\np1: 7H\n")
    result = CliRunner().invoke(main, ["solve", "westcliff-classic", "--position", str(path)])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [f"solitaire-odds: error: {path}: 7H is placed twice (counting "
                                                  "the foundations); a deck holds one"]
    both = CliRunner().invoke(main, ["solve", "westcliff-classic", "--position", str(path), "--deal", "1"])
    assert both.exit_code == 2 and "exactly one of" in both.output


@pytest.mark.parametrize("game", ["westcliff-classic", "easthaven", "duchess"])
def test_a_position_with_nothing_hidden_gets_exactly_the_solver_s_verdict(game):
    rules = resolve(game)
    solver = Solver(rules, budget=100_000)
    for deal in range(6):
        pos = played(rules, deal, 8, deal)
        answer = decide(rules, parse_position(format_position(pos, rules), rules), budgets=(100_000,))
        direct = solver.solve_position(pos)
        assert (answer.outcome.verdict, answer.summary.n) == (direct.verdict, 1)
        assert answer.outcome.line == direct.line


def test_hidden_cards_give_a_sampled_share_whose_interval_shrinks_with_more_samples():
    rules = resolve("westcliff")
    text = format_position(played(rules, 3, 0, 0), rules)
    hidden = parse_position("\n".join(line if not line.startswith("stock") else "stock: ##x22"
                                      for line in text.splitlines()), rules)
    small = decide(rules, hidden, completions=10, seed=5, budgets=(100_000,))
    large = decide(rules, hidden, completions=60, seed=5, budgets=(100_000,))
    assert small.summary.n == 10 and large.summary.n == 60
    low, high = small.summary.interval
    low2, high2 = large.summary.interval
    assert high2 - low2 < high - low
    assert decide(rules, hidden, completions=10, seed=5, budgets=(100_000,)).summary == small.summary


def test_the_example_positions_read_and_their_quoted_verdicts_hold():
    examples = Path(__file__).parent.parent / "examples" / "positions"
    hidden = read_position(examples / "westcliff-classic.txt", resolve("westcliff-classic"))
    assert len(hidden.hidden) == 29
    for game, verdict in (("duchess", "won"), ("st-helena", "won")):
        position = read_position(examples / f"{game}.txt", resolve(game))
        assert position.known and decide(resolve(game), position).outcome.verdict == verdict


def test_a_hint_rates_every_legal_move_and_with_nothing_hidden_a_winning_move_comes_first():
    from solitaire_odds.positions import hint

    rules = resolve("duchess")
    position = read_position(Path(__file__).parent.parent / "examples" / "positions" / "duchess.txt", rules)
    rated = hint(rules, position, budgets=(100_000,))
    assert sorted(r.move for r in rated) == sorted(reference.legal_moves(rules, position.position))
    assert rated[0].summary.won == 1  # the position is won (see the example test), so some move keeps it won
    hidden = read_position(Path(__file__).parent.parent / "examples" / "positions" / "westcliff-classic.txt",
                           resolve("westcliff-classic"))
    rated = hint(resolve("westcliff-classic"), hidden, completions=6, budgets=(10_000,))
    assert all(r.summary.n == 6 for r in rated) and [r.summary.won for r in rated] == sorted(
        (r.summary.won for r in rated), reverse=True)
    example = Path(__file__).parent.parent / "examples" / "positions" / "duchess.txt"
    result = CliRunner().invoke(main, ["hint", "duchess", "--position", str(example), "--show", "1"])
    assert result.exit_code == 0 and "won after it" in result.output.splitlines()[1], result.output
