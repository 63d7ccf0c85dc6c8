"""The deal viewer in a real browser: Debian's Chromium driven by Playwright.

Nothing here is skipped: without Chromium at /usr/bin/chromium (``.ci/run`` installs it) or the
playwright package (the ``test`` extra) the tests fail and say what to install."""

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from solitaire_odds.game import cards, deals, reference
from solitaire_odds.cli import main
from solitaire_odds.rules import resolve
from solitaire_odds.solver import Solver

pytestmark = pytest.mark.slow  # a real browser

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def browser():
    assert shutil.which(CHROMIUM), f"{CHROMIUM} is missing: apt-get install chromium (as .ci/run does)"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


def open_page(browser, path):
    """The page, and the list its errors (uncaught exceptions, console errors) are added to."""
    page = browser.new_page(viewport={"width": 1100, "height": 800})
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(path.as_uri())
    return page, errors


def shown(page, place):
    """The cards the page shows in a place (p0, f2, r1, ...), bottom to top; ## = face down."""
    return page.eval_on_selector_all(f'[data-place="{place}"] .card', "cards => cards.map(c => c.dataset.card)")


def pile_names(pos, i):
    return ["##"] * pos.down[i] + [cards.name(c) for c in pos.piles[i][pos.down[i]:]]


def test_solve_html_steps_through_the_winning_line_to_the_won_position(browser, tmp_path):
    path = tmp_path / "deal3.html"
    result = CliRunner().invoke(main, ["solve", "westcliff", "--deal", "3", "--budget", "1e5", "--html", str(path)])
    assert result.exit_code == 0, result.output
    assert f"page: {path}" in result.output
    rules = resolve("westcliff")
    line = Solver(rules, budget=100_000).solve(deal=3).line
    first = reference.initial_position(rules, deals.deck(3, 52))

    page, errors = open_page(browser, path)
    assert page.evaluate("document.body.dataset.step") == "0"
    for i in range(10):
        assert shown(page, f"p{i}") == pile_names(first, i)
    assert all(shown(page, f"f{j}") == [] for j in range(4))
    assert page.evaluate("document.body.dataset.won") == "false"

    page.keyboard.press("ArrowRight")
    after = reference.apply_move(rules, first, line[0])
    assert page.inner_text("#move").startswith("1. ")
    assert [shown(page, f"p{i}") for i in range(10)] == [pile_names(after, i) for i in range(10)]

    for _ in range(len(line) - 1):
        page.keyboard.press("ArrowRight")
    assert page.evaluate("document.body.dataset.step") == str(len(line))
    assert page.evaluate("document.body.dataset.won") == "true"
    assert [shown(page, f"f{j}") for j in range(4)] == [["KC"], ["KD"], ["KH"], ["KS"]]
    assert all(shown(page, f"p{i}") == [] for i in range(10))
    assert page.is_visible("#won")

    page.keyboard.press("ArrowRight")  # no step past the end
    assert page.evaluate("document.body.dataset.step") == str(len(line))
    page.click("#first")
    assert page.evaluate("document.body.dataset.step") == "0" and shown(page, "p0") == pile_names(first, 0)
    page.click("#last")
    page.click("#prev")
    assert page.evaluate("document.body.dataset.step") == str(len(line) - 1)
    assert errors == []


def test_a_players_line_is_shown_as_played_even_when_lost(browser, tmp_path):
    path = tmp_path / "greedy.html"
    result = CliRunner().invoke(main, ["solve", "duchess", "--deal", "2", "--player", "greedy", "--html", str(path)])
    assert result.exit_code == 0, result.output
    moves = sum(1 for text in result.output.splitlines() if text[:5].strip().rstrip(".").isdigit())
    page, errors = open_page(browser, path)
    assert [shown(page, f"r{i}") for i in range(4)] == \
        [[cards.name(c) for c in deals.deck(2, 52)[3 * i:3 * i + 3]] for i in range(4)]
    page.keyboard.press("End")
    assert page.evaluate("document.body.dataset.step") == str(moves)
    won = "verdict: won" in result.output
    assert page.evaluate("document.body.dataset.won") == str(won).lower()
    assert errors == []


EXAMPLES = Path(__file__).parent.parent / "examples" / "positions"


def test_a_position_file_and_its_hint_open_in_the_viewer(browser, tmp_path):
    from solitaire_odds.game.position_file import read_position

    rules = resolve("duchess")
    position = read_position(EXAMPLES / "duchess.txt", rules).position
    path = tmp_path / "hint.html"
    result = CliRunner().invoke(main, ["hint", "duchess", "--position", str(EXAMPLES / "duchess.txt"), "--show", "2",
                                       "--html", str(path)])
    assert result.exit_code == 0, result.output
    page, errors = open_page(browser, path)
    assert [shown(page, f"p{i}") for i in range(4)] == [pile_names(position, i) for i in range(4)]
    assert [shown(page, f"r{i}") for i in range(4)] == [[cards.name(c) for c in fan] for fan in position.reserve]
    assert "hint: 1." in page.inner_text("#verdict")
    page.keyboard.press("End")  # the hint's move, played
    assert page.evaluate("document.body.dataset.step") == "1" and page.inner_text("#move").startswith("1. ")
    assert errors == []

    hidden = tmp_path / "hidden.html"
    result = CliRunner().invoke(main, ["solve", "westcliff-classic", "--position", str(EXAMPLES / "westcliff-classic.txt"),
                                       "--completions", "3", "--budget", "1e4", "--html", str(hidden)])
    assert result.exit_code == 0, result.output
    page, errors = open_page(browser, hidden)
    assert shown(page, "p0") == ["##", "##", "TC"] and "arrangements of the 29 hidden cards" in page.inner_text("#verdict")
    assert errors == []
