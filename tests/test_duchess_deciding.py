"""The waste-room dead end of Duchess with no redeal left (reductions.waste_room): its levels
and its count of bottom cards against the building rule and brute force, and its verdicts
against the plain search, on positions built for it and on positions of real deals."""

import itertools
import random

import numpy as np
import pytest

from solitaire_odds.engine import api
from solitaire_odds.engine.compile import builds_on
from solitaire_odds.engine.reductions import _fewest_bottoms, _level, capabilities, no_room_to_dig
from solitaire_odds.engine.state import encode
from solitaire_odds.engine.two_deck_proofs import WORK_SIZE
from solitaire_odds.game import deals
from solitaire_odds.game.cards import make
from solitaire_odds.game.position import Position
from solitaire_odds.rules import resolve
from solitaire_odds.solver import Solver

from .searching import winning_line_states

C, D, H, S = range(4)
NO_REDEAL = resolve("duchess", redeals="0")


def crowded(state, pa) -> bool:
    return bool(no_room_to_dig(state, pa, np.zeros(WORK_SIZE, dtype=np.int64)))


@pytest.mark.parametrize("game, switches, holds", [
    ("duchess", {"redeals": "0"}, True), ("duchess", {"redeals": "0", "run_moves": "single"}, True),
    ("duchess", {}, False),  # sound there too, but switched off: it cost the book's game its speed
    ("westcliff-classic", {}, False), ("easthaven", {}, False), ("st-helena", {}, False),
])
def test_where_the_waste_room_test_holds(game, switches, holds):
    assert capabilities(resolve(game, **switches))["waste_room"] == holds


def test_a_card_lies_directly_only_on_the_level_before():
    levels = [_level(c) for c in range(52)]
    assert sorted(levels) == sorted(list(range(26)) * 2)
    for a, b in itertools.product(range(52), repeat=2):
        if builds_on(NO_REDEAL, a, b):
            assert levels[a] == (levels[b] + 1) % 26, (a, b)


def brute_bottoms(lo, hi):
    return min(sum(max(0, m[i] - m[i - 1]) for i in range(26))
               for m in itertools.product(*[range(a, b + 1) for a, b in zip(lo, hi)]))


def test_the_fewest_bottoms_match_brute_force():
    rng = random.Random(5)
    for _ in range(300):
        lo, hi = [0] * 26, [0] * 26
        for lev in rng.sample(range(26), rng.randrange(0, 14)):  # fixed counts
            lo[lev] = hi[lev] = rng.choice((1, 2))
        for lev in rng.sample(range(26), rng.randrange(0, 7)):  # free counts: few enough to enumerate
            lo[lev], hi[lev] = sorted(rng.choices((0, 1, 2), k=2))
        got = _fewest_bottoms(np.array(lo, dtype=np.int64), np.array(hi, dtype=np.int64))
        assert got == brute_bottoms(lo, hi), (lo, hi)


def endgame(waste, piles, found, base):
    """A Duchess position with no redeal: an empty stock and reserve, ``waste`` bottom first."""
    return Position(piles=piles, down=[0] * 4, found=found, stock=[], waste=waste, reserve=[[] for _ in range(4)],
                    redeals_used=0, base_rank=base, opening=False, waste_live=False)


def test_a_waste_that_needs_five_piles_is_a_dead_end_and_the_plain_search_agrees():
    """Base Ace, the Aces up, the tableau, reserve and stock empty, and in the waste the 2s at
    the bottom with every other card above them, Kings on top. The 2s leave only once the 44
    cards above them are in the tableau: four runs King to 3, which fit (and the deal is won).
    With the 7 of spades moved under the 2s, one red 6 has no black 7 to lie on, a fifth
    pile: the test calls it a dead end, and the plain search proves it lost."""
    pa = api.params(NO_REDEAL)
    twos = [make(1, u) for u in range(4)]
    above = [make(r, u) for r in range(2, 13) for u in range(4)]  # 3s first: Kings on top
    plain = Solver(NO_REDEAL, budget=2_000_000, win_first=False, reductions=False)
    fits = endgame(twos + above, [[], [], [], []], [1, 1, 1, 1], 0)
    assert not crowded(encode(fits, pa), pa)
    assert plain.solve_position(fits).verdict == "won"
    seven = make(6, S)
    blocked = endgame([seven] + twos + [c for c in above if c != seven], [[], [], [], []], [1, 1, 1, 1], 0)
    assert crowded(encode(blocked, pa), pa)
    assert plain.solve_position(blocked).verdict == "lost"


def random_positions(pa, deal_numbers, per_deal, seed):
    """Positions 5-80 random legal moves into each deal (no redeal)."""
    rng = random.Random(seed)
    for deal in deal_numbers:
        for _ in range(per_deal):
            state = api.first_state(pa, deals.deck(deal))
            for _ in range(rng.randrange(5, 80)):
                rows = api.legal_rows(state, pa)
                if len(rows) == 0:
                    break
                api.play_row(state, pa, rows[rng.randrange(len(rows))])
            yield deal, state


def test_no_crowded_position_of_a_real_deal_is_won_by_the_plain_search():
    """Positions reached by random play on real deals: every one the test calls a dead end is
    lost for the plain search wherever it decides (it must never win one), and the test fires
    on a good share of the positions the plain search proves lost."""
    pa = api.params(NO_REDEAL)
    plain = Solver(NO_REDEAL, budget=200_000, win_first=False, reductions=False)
    fired = agreed = plain_lost = 0
    for deal, state in random_positions(pa, range(20), 6, 11):
        verdict = plain.solve_state(state.copy()).verdict
        plain_lost += verdict == "lost"
        if crowded(state, pa):
            fired += 1
            assert verdict != "won", f"deal {deal}: a dead end the plain search wins"
            agreed += verdict == "lost"
    assert fired >= 10 and agreed >= 5, (fired, agreed, plain_lost)


def test_no_position_on_a_winning_line_is_crowded():
    """Every position along the solver's winning lines of Duchess without a redeal is
    winnable: the test must never fire on one."""
    pa, checked = api.params(NO_REDEAL), 0
    for deal, state in winning_line_states(Solver(NO_REDEAL, budget=1_000_000), (0, 10, 30, 32)):
        assert not crowded(state, pa), f"deal {deal}: a position on its winning line called a dead end"
        checked += 1
    assert checked > 150, checked


def test_the_reduced_search_agrees_with_the_plain_search_on_real_deals():
    """Deals of Duchess without a redeal: where both decide, the search with the test (and
    the other reductions) and the plain search give the same verdict, and both decide some."""
    reduced = Solver(NO_REDEAL, budget=300_000)
    plain = Solver(NO_REDEAL, budget=300_000, win_first=False, reductions=False)
    both = 0
    for deal in range(12):
        a, b = reduced.solve(deal).verdict, plain.solve(deal).verdict
        if "unknown" not in (a, b):
            assert a == b, f"deal {deal}: {a} reduced, {b} plain"
            both += 1
    assert both >= 1
