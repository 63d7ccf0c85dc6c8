"""Persistent sets (engine.persistent): the two properties that make them sound, checked move by
move through the reference along random lines that keep off the chosen piles; and the search
with them agreeing with the plain search on every position both decide."""

import random
from collections import Counter

import numpy as np
import pytest
from .searching import random_walk, two_deck_endgame

from solitaire_odds.game import deals, reference
from solitaire_odds.engine import api
from solitaire_odds.engine.persistent import persistent_piles
from solitaire_odds.engine.reductions import capabilities
from solitaire_odds.engine.state import encode
from solitaire_odds.engine.two_deck_proofs import WORK_SIZE
from solitaire_odds.rules import resolve
from solitaire_odds.solver import Solver

HOLDS = [("box-kite", {}), ("box-kite", {"build_suit": "any"}), ("st-helena", {}), ("louis", {})]
"""Where the sets fire often enough to check (with any-suit building and wrap, at about one
position in sixty of these)."""


def inside_piles(rules, position):
    """(bit mask of the persistent set's piles or 0, the legal moves as tuples)."""
    pa = api.params(rules)
    s = encode(position, pa)
    rows = api.legal_rows(s, pa)
    mask = int(persistent_piles(s, pa, rows, len(rows), np.zeros(WORK_SIZE, np.int64)))
    return mask, [api.move_tuple(row, pa) for row in rows]


def touches(mask, move):
    return any(place.startswith("p") and mask >> int(place[1:]) & 1 for place in move[1:3])


def last_round_positions(rules, count, seed):
    """Positions in the last round: constructed endgames (tests/test_solver.two_deck_endgame)
    and random play from fresh deals with every redeal used (foundation plays first, as
    tests/test_solver.random_walk does; Louis' deals start after the opening's foundation
    plays and the deal of the stock)."""
    rng = random.Random(seed)
    for deal in range(count):
        position = two_deck_endgame(rng, loose=rng.randint(12, 40))
        position.redeals_used = rules["redeals"]
        yield position
        position = reference.initial_position(rules, deals.deck(deal, 104))
        while position.opening:
            position = reference.apply_move(rules, position, sorted(reference.legal_moves(rules, position))[0])
        position.redeals_used = rules["redeals"]
        yield random_walk(rules, position, rng.randint(0, 20), rng)


@pytest.mark.parametrize("game,switches", [
    ("box-kite", {}), ("st-helena", {"build_suit": "any"}), ("louis", {"wrap": True})])
def test_persistent_sets_hold_where_no_space_transfer_or_return_exists(game, switches):
    assert capabilities(resolve(game, **switches))["persistent_sets"]
    for off in ({"space_fill": "any"}, {"foundation_transfer": True}):
        assert not capabilities(resolve(game, **switches, **off))["persistent_sets"]
    assert not capabilities(resolve("westcliff"))["persistent_sets"]


@pytest.mark.parametrize("game,switches", HOLDS)
def test_lines_that_keep_off_the_piles_neither_take_nor_give_their_moves(game, switches):
    """Along random lines of outside moves (touching no pile of the set), the legal moves that
    touch the set stay exactly those legal at the start: properties 1 and 2 of
    engine.persistent, checked through the reference. The set leaves some moves out at a
    good share of the positions, so the check bites."""
    rules = resolve(game, **switches)
    rng = random.Random(7)
    reduced = Counter()
    for position in last_round_positions(rules, 30, f"{game} {switches}"):
        mask, moves = inside_piles(rules, position)
        if not moves:
            continue
        inside = sorted(m for m in moves if touches(mask, m)) if mask else []
        reduced[0 < len(inside) < len(moves)] += 1
        assert mask == 0 or inside, "a persistent set with no move"
        if not mask:
            continue
        for _ in range(4):
            walk = position
            for _ in range(rng.randint(1, 30)):
                legal = reference.legal_moves(rules, walk)
                assert sorted(m for m in legal if touches(mask, m)) == inside
                outside = [m for m in legal if not touches(mask, m)]
                if not outside:
                    break
                walk = reference.apply_move(rules, walk, rng.choice(outside))
    assert reduced[True] >= 3, dict(reduced)


def test_the_search_with_persistent_sets_agrees_with_the_plain_search():
    """On Box Kite endgames, the search with its reductions (persistent sets among them) and
    the plain search agree wherever both decide, with some of each verdict and the sets
    firing at the roots."""
    rules = resolve("box-kite")
    reduced = Solver(rules, budget=200_000, win_first=False, reductions=True)
    plain = Solver(rules, budget=200_000, win_first=False, reductions=False)
    rng = random.Random(11)
    outcomes, fired = Counter(), 0
    for _ in range(60):
        position = two_deck_endgame(rng, loose=rng.randint(14, 30))
        position.redeals_used = 0
        mask, moves = inside_piles(rules, position)
        fired += 0 < sum(touches(mask, m) for m in moves) < len(moves)
        a, b = reduced.solve_position(position), plain.solve_position(position)
        if "unknown" not in (a.verdict, b.verdict):
            assert a.verdict == b.verdict, f"reduced {a.verdict}, plain {b.verdict}"
        outcomes[(a.verdict, b.verdict)] += 1
    assert outcomes[("won", "won")] >= 5 and outcomes[("lost", "lost")] >= 5, dict(outcomes)
    assert fired >= 10, fired
