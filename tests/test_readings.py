"""The "at least as loose" relation between readings (rules.readings) and the solver's transfer
step: the declared pairs, every strict move legal under the loose reading with the same result
along random play, and transferred verdicts never contradicted by a search of their own reading."""

import random
from collections import Counter

import pytest

from solitaire_odds.engine import api
from solitaire_odds.game import deals, reference
from solitaire_odds.rules import resolve
from solitaire_odds.rules.readings import at_least_as_loose
from solitaire_odds.solver import Solver

from .searching import random_walk

# (loose, strict): the claim readings of the issue and one pair per ordered field
PAIRS = [
    (("westcliff", {}), ("westcliff", {"space_fill": "king"})),
    (("westcliff", {"space_fill": "king"}), ("westcliff", {"space_fill": "none"})),
    (("westcliff", {}), ("westcliff", {"run_moves": "single"})),
    (("westcliff", {"run_moves": "whole"}), ("westcliff", {"run_moves": "single"})),
    (("westcliff", {"foundation_return": "on"}), ("westcliff", {"space_fill": "king", "run_moves": "whole"})),
    (("westcliff-classic", {}), ("westcliff-classic", {"waste_playable": "off"})),
    (("westcliff-classic", {"aces_out_first": "on"}), ("westcliff-classic", {"aces_out_first": "on",
                                                                           "waste_playable": "off"})),
    (("easthaven", {"space_fill": "any", "foundation_return": "on"}), ("easthaven", {})),
    (("duchess", {}), ("duchess", {"run_moves": "single"})),
    (("duchess", {}), ("duchess", {"redeals": 0})),
]


def rules_pair(pair):
    (game_a, a), (game_b, b) = pair
    return resolve(game_a, **a), resolve(game_b, **b)


@pytest.mark.parametrize("pair", PAIRS, ids=[f"{a[0]} {a[1]} > {b[1]}" for a, b in PAIRS])
def test_declared_pairs_are_ordered_one_way_only_where_they_differ(pair):
    loose, strict = rules_pair(pair)
    assert at_least_as_loose(loose, strict) and not at_least_as_loose(strict, loose)


@pytest.mark.parametrize("loose, strict", [
    (("westcliff-classic", {"aces_out_first": "on"}), ("westcliff-classic", {})),  # another deal
    (("westcliff", {}), ("westcliff-classic", {})),  # another layout
    (("westcliff", {"space_fill": "king"}), ("westcliff", {"run_moves": "single", "foundation_return": "on"})),
    (("easthaven", {}), ("westcliff", {})),
])
def test_readings_that_differ_otherwise_are_not_ordered(loose, strict):
    a, b = rules_pair((loose, strict))
    assert not at_least_as_loose(a, b) and not at_least_as_loose(b, a)


def test_a_solver_refuses_a_looser_reading_it_cannot_prove():
    with pytest.raises(ValueError, match="not proven"):
        Solver(resolve("westcliff"), budget=1000, looser=resolve("westcliff", space_fill="king"))


@pytest.mark.parametrize("pair", PAIRS, ids=[f"{a[0]} {a[1]} > {b[1]}" for a, b in PAIRS])
def test_every_strict_move_is_a_loose_move_with_the_same_result(pair):
    """Along random play of the strict reading from numbered deals: each legal move of the strict
    engine is legal for the loose one at the same position and leads to the same position."""
    loose, strict = rules_pair(pair)
    rng = random.Random(str(pair))
    checked = 0
    for deal in range(6):
        position = reference.initial_position(strict, deals.deck(deal))
        for _ in range(60):
            moves = api.legal_moves(strict, position)
            if not moves:
                break
            same = position.copy()
            same.waste_live = same.waste_live and not loose["waste_playable"]
            assert set(moves) <= set(api.legal_moves(loose, same))
            for move in moves:
                after, loose_after = api.apply_move(strict, position, move), api.apply_move(loose, same, move)
                assert (after.piles, after.down, after.found, after.stock, after.waste, after.reserve,
                        after.redeals_used, after.base_rank) == (
                    loose_after.piles, loose_after.down, loose_after.found, loose_after.stock, loose_after.waste,
                    loose_after.reserve, loose_after.redeals_used, loose_after.base_rank)
                checked += 1
            position = api.apply_move(strict, position, rng.choice(moves))
    assert checked >= 200


@pytest.mark.parametrize("pair", [PAIRS[0], PAIRS[2], PAIRS[8]], ids=["space king", "single", "duchess single"])
@pytest.mark.slow  # over 20 s
def test_transferred_verdicts_are_never_contradicted(pair):
    """Positions of real deals after random play. The strict reading's own search and the loose
    one's never disagree the wrong way (a strict win with a loose loss); a loss carried down by
    the strict solver's transfer step is never a win of the strict search, and a win carried up
    replays through the loose reading's reference."""
    loose, strict = rules_pair(pair)
    own_strict, own_loose = Solver(strict, budget=30_000), Solver(loose, budget=30_000)
    down = Solver(strict, budget=30_000, looser=loose)
    up = Solver(loose, budget=30_000, stricter=strict)
    rng = random.Random(str(pair))
    seen = Counter()
    for deal in range(80):
        position = random_walk(strict, reference.initial_position(strict, deals.deck(deal)), rng.randrange(40, 150), rng)
        a, b = own_strict.solve_position(position).verdict, own_loose.solve_position(position).verdict
        assert not (a == "won" and b == "lost"), f"deal {deal}: strict won, loose lost"
        carried = down.solve_position(position)
        if carried.decided_by == "transfer":
            assert carried.verdict == "lost" and a != "won", f"deal {deal}"
            seen["lost carried down"] += 1
        raised = up.solve_position(position)
        if raised.verdict == "won":
            assert reference.is_won(loose, reference.play_line(loose, position, raised.line))
        if raised.decided_by == "transfer":
            seen["won carried up"] += 1
        seen[(a, b)] += 1
    assert seen[("lost", "lost")] >= 5 and seen[("won", "won")] >= 5, dict(seen)
