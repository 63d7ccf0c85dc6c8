"""Property tests of the command line and the deal-file parser: whatever is typed (random
bytes, card lists, budgets, deal ranges, switch strings), the program answers with exit status
0 or one line ``solitaire-odds: error: ...`` with the status of a usage error, never a
traceback, and leaves either a whole run folder or none.

Valid values are drawn small (a few deals, a few hundred nodes) so that every example that
passes validation also finishes quickly; invalid values are drawn freely."""

import shutil
import tempfile
import traceback
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from solitaire_odds.game import cards, deals
from solitaire_odds.runs import store
from solitaire_odds.cli import main
from solitaire_odds.counts import InputError, parse_count
from solitaire_odds.rules import GAMES

EXAMPLES = {"odds": 300, "parser": 1000, "solve": 50}


def examples(count: int) -> settings:
    return settings(max_examples=count, deadline=None, database=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])

JUNK = ["", " ", "0", "-1", "-0", "nan", "NaN", "inf", "-inf", "1e400", "1.5", "0.5k", "k", "M", "1e30",
        "1e13", "abc", "1,,2", "1 2", "0x10", "١٢", "1e-3", "--", "=", "99999999999999999999999"]


def count_texts(most: int) -> tuple[st.SearchStrategy[str], st.SearchStrategy[str]]:
    """(valid, other) texts for a count: valid ones at most ``most`` (so the run stays short)
    written the ways the parser takes; others anything the parser refuses or reads as at most
    ``most``. Junk is filtered too: "0.5k" and "1,,2" parse (as 500 and 12), and ``--deals
    0.5k`` with the planner on a two-deck game ran for a quarter of an hour."""
    small = st.integers(1, most)
    valid = st.one_of(small.map(str), small.map(lambda n: f"{n}e0"), small.map(lambda n: f" {n} "),
                      small.map(lambda n: f"{n / 1000:g}k"))

    def affordable(text: str) -> bool:
        try:
            return parse_count(text, "x") <= most
        except InputError:
            return True

    return valid, st.one_of(st.sampled_from(JUNK), st.text(max_size=6)).filter(affordable)


def switch_texts(game: str) -> tuple[st.SearchStrategy[str], st.SearchStrategy[str]]:
    """(valid, other) ``--set`` arguments of ``game``: a real switch with one of its values;
    or other values, other names, no '='."""
    switches = GAMES[game].switches
    valid = st.sampled_from([f"{s.name}={v}" for s in switches
                             for v in (s.choices or ((False, True) if isinstance(s.default, bool) else (0, 1, 3)))]
                            or ["none"])
    names = st.one_of(st.sampled_from([s.name for s in switches] or ["none"]), st.text(max_size=8))
    values = st.one_of(st.sampled_from(["on", "off", "yes", "2", "-1", "1e3"]), st.integers(-5, 10**30).map(str),
                       st.text(max_size=8))
    other = st.one_of(st.tuples(names, values).map(lambda kv: f"{kv[0]}={kv[1]}"), st.text(max_size=8))
    return valid, other


def cli(args: list[str]):
    return CliRunner().invoke(main, args)


def assert_one_line_or_success(result, args, codes=(0, 2)):
    shown = f"{args}\n{result.output}" + "".join(traceback.format_exception(result.exception)
                                                if result.exception else "")
    assert result.exception is None or isinstance(result.exception, SystemExit), shown
    event(f"exit status {result.exit_code}")
    assert result.exit_code in codes, shown
    assert "Traceback" not in result.output, shown
    if result.exit_code:
        lines = result.output.splitlines()
        assert len(lines) == 1 and lines[0].startswith("solitaire-odds: error: "), shown


def mostly(draw, valid, other):
    """A valid value nine times in ten, so that many commands pass and run."""
    return draw(other if draw(st.integers(0, 9)) == 0 else valid)


@st.composite
def odds_commands(draw):
    game = draw(st.sampled_from(sorted(GAMES)))
    player = mostly(draw, st.sampled_from(["solver", "random", "greedy", "planner"]), st.text(max_size=8))
    args = ["odds", game, "--player", player]
    budget, other_budget = count_texts(300)
    options = {
        "--deals": count_texts(3),
        "--first": (st.one_of(st.integers(0, deals.MAX_DEAL), st.integers(deals.MAX_DEAL - 3, deals.MAX_DEAL)).map(str),
                    st.one_of(st.integers(-10, 10**21).map(str), st.sampled_from(JUNK))),
        "--budget": (st.one_of(budget, st.lists(st.integers(1, 300), min_size=2, max_size=3, unique=True).map(
                         lambda b: ",".join(map(str, sorted(b))))),
                     st.one_of(other_budget, st.lists(st.one_of(budget, other_budget), min_size=2, max_size=3).map(
                         ",".join))),
        "--samples": count_texts(2),
        "--seed": (st.integers(0, deals.MAX_DEAL).map(str), st.one_of(st.integers(-2, 2**65).map(str),
                                                                      st.sampled_from(JUNK))),
        "--table-mb": count_texts(16),
        "--chunk-size": (st.sampled_from(["1", "2", "1000"]), st.sampled_from(["0", "-1", "x", "1e3", ""])),
        "--workers": (st.just("1"), st.sampled_from(["0", "-2", "x", "1000", ""])),
    }
    takes = {"solver": ("--budget", "--table-mb"), "planner": ("--budget", "--samples", "--seed"),
             "random": ("--seed",), "greedy": ("--seed",)}.get(player, ())
    for option, (valid, other) in options.items():
        needed = option in ("--deals", "--first", "--workers")
        if needed or draw(st.booleans()) and (option in takes or draw(st.integers(0, 9)) == 0):
            args += [option, mostly(draw, valid, other)]
    for _ in range(draw(st.integers(0, 2))):
        args += ["--set", mostly(draw, *switch_texts(game))]
    args += mostly(draw, st.sampled_from([[], ["--resume"]]), st.sampled_from([["--bogus"], ["extra"], ["--deals"]]))
    return args


@pytest.mark.slow  # over 20 s
@examples(EXAMPLES["odds"])
@given(odds_commands())
def test_odds_answers_with_a_table_or_one_line(args):
    root = Path(tempfile.mkdtemp())
    try:
        out = root / "run"
        if args[-1] == "--deals":  # an option left without its value must stay last
            args = args[:-1] + ["--out", str(out), "--deals"]
        else:
            args = args + ["--out", str(out)]
        result = cli(args)
        assert_one_line_or_success(result, args)
        if result.exit_code:
            assert not out.exists(), f"{args} left {sorted(out.rglob('*'))}"
        else:
            rows = store.load_rows([out])
            first = int(rows["deal"].iloc[0])
            assert rows["deal"].tolist() == list(range(first, first + len(rows)))
            assert not list(out.rglob(store.TEMP_PREFIX + "*"))
            assert f"deals {len(rows)}: won" in result.output
    finally:
        shutil.rmtree(root)


def deck_texts():
    """Deal files as bytes: random bytes, and lists of card names (a real deck, shuffled,
    with cards dropped, doubled or misspelt, with comments and odd separators), encoded a
    few ways."""
    names = [cards.name(c) for c in range(52)]
    token = st.one_of(st.sampled_from(names), st.sampled_from(names).map(str.lower),
                      st.sampled_from(["10H", "1H", "XX", "AS#", "#", "\u00df", "A\u0000S"]), st.text(max_size=3))
    real = st.permutations(names)
    card_lists = st.one_of(real, real.map(lambda deck: deck[:-1]), real.map(lambda deck: deck + deck[:1]),
                           st.lists(token, max_size=110))
    separator = st.sampled_from([" ", "\n", "\t", "  ", "\r\n", " # note\n"])
    text = st.tuples(card_lists, separator).map(lambda parts: parts[1].join(parts[0]))
    encoded = st.tuples(text, st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "latin-1", "cp1252"])).map(
        lambda parts: parts[0].encode(parts[1], errors="replace"))
    return st.one_of(st.binary(max_size=600), encoded)


@examples(EXAMPLES["parser"])
@given(deck_texts())
def test_the_deal_file_parser_returns_a_deck_or_one_line(data):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "deal.txt"
        path.write_bytes(data)
        try:
            deck = deals.read_deck(path, 52)
        except deals.DealFileError as err:
            event("refused")
            message = str(err)
            assert str(path) in message and "\n" not in message and "\r" not in message, message
        else:
            event("a deck")
            assert sorted(deck) == list(range(52))


@examples(EXAMPLES["solve"])
@given(deck_texts(), st.one_of(*count_texts(100)))
def test_solve_of_a_deal_file_answers_with_a_line_of_play_or_one_line(data, budget):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "deal.txt"
        path.write_bytes(data)
        written = Path(folder) / "copy.txt"
        args = ["solve", "westcliff", "--file", str(path), "--budget", budget, "--write", str(written)]
        result = cli(args)
        assert_one_line_or_success(result, args)
        if result.exit_code == 0:
            assert deals.read_deck(written, 52) == deals.read_deck(path, 52)
        assert [p.name for p in Path(folder).iterdir() if p.name.startswith(store.TEMP_PREFIX)] == []
