"""Variants no declaration names: random combinations of part values, each checked two ways.

A combination starts from a random declared game and changes one to four random part fields to
random values (``Game.resolve`` with those changes, as a rules file or ``--set`` gives them);
one that :func:`solitaire_odds.rules.checks.problems` refuses is counted and skipped. For each
of the others:

* the engine against the plain-Python reference along random play-outs of numbered deals, as
  tests/test_differential.py compares them: the positions, the legal moves move for move, the
  win test, and every move made and unmade on the engine's state;
* the search with its proven reductions against the plain search (``reductions`` off), on
  positions reached by random play or late on a winning line the full solver found, at a small
  budget: where both decide, the verdicts must agree, and every win of either replays to a won
  position through the reference.

The quick tier draws a fixed, derandomized set of combinations; the ``slow`` one draws more.
"""

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solitaire_odds.game import deals, reference
from solitaire_odds.rules import GAMES, checks
from solitaire_odds.rules.schema import CHOICES, FIRST_DEAL_GROUPS, RULE_KEYS
from solitaire_odds.solver import Solver

from .searching import random_walk
from .test_differential import playout

QUICK, SLOW = 30, 400
"""Combinations drawn by the quick and the slow test (valid ones; refused ones come on top)."""
DEALS = 2          # play-outs per combination, engine against reference
POSITIONS = 4      # positions per combination, reduced search against plain
BUDGET = 4000      # nodes per search: small, so that only small positions are decided by both
FINDER_BUDGET = 10_000  # the full solver's, for winning lines to start positions from

COUNTS = {"piles": (1, 13), "rows_down": (0, 4), "reserve_fans": (0, 5), "fan_size": (0, 4), "redeals": (0, 3)}
"""The range each whole-number field is drawn from: past these the layouts fill no pack."""


def field_values(key: str) -> st.SearchStrategy:
    """Every value the part field ``key`` may take (within :data:`COUNTS` for counts)."""
    if key in CHOICES:
        return st.sampled_from(CHOICES[key])
    if key == "ncards":
        return st.sampled_from((52, 104))
    if key == "first_deal_foundations":
        return st.lists(st.sampled_from(FIRST_DEAL_GROUPS), max_size=12).map(tuple)
    if key in COUNTS:
        return st.integers(*COUNTS[key])
    return st.booleans()


@st.composite
def variants(draw):
    """(rules, problems): a declared game with 1-4 part fields changed, and what checks says."""
    game = GAMES[draw(st.sampled_from(sorted(GAMES)))]
    keys = draw(st.lists(st.sampled_from(RULE_KEYS), min_size=1, max_size=4, unique=True))
    changes = {key: draw(field_values(key)) for key in keys}
    rules = game.resolve({}, changes)
    return rules, checks.problems(rules)


def replays_to_a_win(rules, position, line) -> bool:
    return reference.is_won(rules, reference.play_line(rules, position, line))


def check_variant(rules, seed, tally):
    """Both comparisons on one valid combination; ``tally`` counts what was compared."""
    import random

    rng = random.Random(seed)
    for deal in rng.sample(range(10_000), DEALS):
        playout(rules, deal, rng)
        tally["play-outs"] += 1
    finder = Solver(rules, budget=FINDER_BUDGET)
    reduced = Solver(rules, budget=BUDGET, win_first=False, reductions=True)
    plain = Solver(rules, budget=BUDGET, win_first=False, reductions=False)
    for _ in range(POSITIONS):
        start = reference.initial_position(rules, deals.deck(rng.randrange(10_000), rules["ncards"]))
        found = finder.solve_position(start)
        if found.verdict == "won" and rng.random() < 0.75:  # late on a winning line, nudged
            cut = int(len(found.line) * rng.uniform(0.6, 0.95))
            position = random_walk(rules, reference.play_line(rules, start, found.line[:cut]), rng.randrange(4), rng)
        else:
            position = random_walk(rules, start, rng.randrange(20, 120), rng)
        a, b = reduced.solve_position(position), plain.solve_position(position)
        for outcome, who in ((a, "reduced"), (b, "plain")):
            if outcome.verdict == "won":
                assert replays_to_a_win(rules, position, outcome.line), f"{rules.label()}: {who} win does not replay"
        if "unknown" not in (a.verdict, b.verdict):
            assert a.verdict == b.verdict, (f"{rules.label()}: reduced {a.verdict}, plain {b.verdict} at\n"
                                            f"{position.render()}")
            tally[f"both {a.verdict}"] += 1
        else:
            tally["undecided"] += 1


def run(count: int) -> Counter:
    tally = Counter()

    @settings(max_examples=count, deadline=None, database=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(variants(), st.integers(0, 2**32))
    def check(variant, seed):
        rules, problems = variant
        if problems:
            tally["refused"] += 1
            return
        tally["combinations"] += 1
        check_variant(rules, seed, tally)

    check()
    return tally


def test_random_variants_engine_against_reference_and_reduced_against_plain():
    tally = run(QUICK)
    print(dict(tally))
    assert tally["combinations"] >= QUICK // 2, dict(tally)
    assert tally["both won"] >= 5 and tally["both lost"] >= 5, dict(tally)


@pytest.mark.slow
def test_many_random_variants():
    tally = run(SLOW)
    print(dict(tally))
    assert tally["combinations"] >= SLOW // 2, dict(tally)
    assert tally["both won"] >= 50 and tally["both lost"] >= 50, dict(tally)
