"""Suit projections (engine/projection.py): where the proof applies, the claim itself (a winning
line with the other suits' moves struck out wins the projection, position by position), and a
projection the plain search exhausts as lost only where the plain search loses the position."""

import random
from collections import Counter
from itertools import combinations

import pytest

from solitaire_odds.engine import api, projection
from solitaire_odds.engine.constants import P_NPILES, PLACE_FOUND
from solitaire_odds.engine.state import decode, encode
from solitaire_odds.engine.two_deck_proofs import last_round
from solitaire_odds.game import deals
from solitaire_odds.rules import resolve
from solitaire_odds.solver import Solver

from .searching import two_deck_endgame

SUIT_SETS = [suits for k in (1, 2) for suits in combinations(range(4), k)]


def moved_suit(s, pa, row) -> int:
    """The suit of the card that move ``row`` moves in state ``s``."""
    src = int(row[1])
    if src >= PLACE_FOUND:
        return (src - PLACE_FOUND) % 4
    assert src < int(pa[P_NPILES])
    return decode(s, pa).piles[src][-1] // 13


@pytest.mark.parametrize("game,switches,holds", [
    ("box-kite", {}, True), ("box-kite", {"space_fill": "any"}, True),
    ("box-kite", {"foundation_transfer": True, "wrap": True}, True),
    ("box-kite", {"build_suit": "any"}, False), ("st-helena", {"build_suit": "any"}, False),
])
def test_the_projection_applies_only_where_cards_build_by_suit(game, switches, holds):
    rules = resolve(game, **switches)
    pa = api.params(rules)
    state = api.first_state(pa, list(range(104)))
    assert projection.applies(state, pa) == holds


def test_the_projection_needs_the_last_round():
    """St. Helena and Louis deal with redeals ahead; only the last round is covered."""
    for game in ("st-helena", "louis"):
        pa = api.params(resolve(game))
        state = api.first_state(pa, list(range(104)))
        assert not projection.applies(state, pa)
        position = decode(state, pa)
        position.redeals_used, position.opening, position.stock = 2, False, []
        assert projection.applies(encode(position, pa), pa)


def won_lines_in_the_last_round(game, switches, numbers, budget):
    """(rules, state at the start of the last round, its remaining moves) of the won deals."""
    rules = resolve(game, **switches)
    pa = api.params(rules)
    solver = Solver(rules, budget=budget)
    for deal in numbers:
        outcome = solver.solve(deal=deal)
        if outcome.verdict != "won":
            continue
        state = api.first_state(pa, deals.deck(deal, 104))
        rows = [api.move_row(move, pa) for move in outcome.line]
        for i, row in enumerate(rows):
            if last_round(state, pa):
                yield rules, state, rows[i:]
                break
            api.play_row(state, pa, row)


@pytest.mark.parametrize("game,switches", [("st-helena", {}), ("louis", {}), ("box-kite", {"space_fill": "any"})])
def test_a_winning_line_restricted_to_the_kept_suits_wins_the_projection(game, switches):
    """The claim, on real deals' winning lines from the start of their last round: at every
    position of the line, the projection of the position is the position the restricted line
    reached in the projection, each restricted move is legal there, and the projection ends won."""
    checked = 0
    for rules, state, rows in won_lines_in_the_last_round(game, switches, range(40), 100_000):
        pa = api.params(rules)
        assert projection.applies(state, pa)
        for suits in SUIT_SETS:
            whole, projected = state.copy(), projection.project(state, pa, suits)
            for row in rows:
                if moved_suit(whole, pa, row) in suits:
                    legal = {tuple(r) for r in api.legal_rows(projected, pa).tolist()}
                    assert tuple(int(x) for x in row) in legal
                    api.play_row(projected, pa, row)
                api.play_row(whole, pa, row)
                assert decode(projection.project(whole, pa, suits), pa) == decode(projected, pa)
            assert api.is_won_state(whole, pa) and api.is_won_state(projected, pa)
            checked += 1
        if checked >= 3 * len(SUIT_SETS):
            break
    assert checked >= 3 * len(SUIT_SETS), checked


@pytest.mark.parametrize("game,switches,redeals", [("box-kite", {}, 0), ("st-helena", {}, 2), ("louis", {}, 2),
                                                   ("box-kite", {"space_fill": "any"}, 0),
                                                   ("louis", {"wrap": True, "foundation_transfer": True}, 2)])
def test_a_lost_projection_only_where_the_plain_search_loses_the_position(game, switches, redeals):
    """On constructed last-round endgames both searches exhaust: the plain search (no
    reductions, no win-first pass) of a projection is lost only where that of the whole
    position is lost, and a won position has only won projections; some projections are lost,
    so that the check bites (except where spaces take any card: such small endgames are all
    won)."""
    rules = resolve(game, **switches)
    pa = api.params(rules)
    plain = Solver(rules, budget=20_000, win_first=False, reductions=False)
    rng = random.Random(f"projection {game} {sorted(switches.items())}")
    seen = Counter()
    for _ in range(60):
        position = two_deck_endgame(rng, loose=rng.randint(6, 14))
        position.redeals_used = redeals
        state = encode(position, pa)
        whole = plain.solve_state(state).verdict
        if whole == "unknown":
            continue
        for suits in SUIT_SETS:
            part = plain.solve_state(projection.project(state, pa, suits)).verdict
            if part == "lost":
                assert whole == "lost"
            if whole == "won":
                assert part == "won"
            seen[(whole, part)] += 1
    assert seen[("won", "won")] >= 3, dict(seen)
    if switches.get("space_fill") != "any":
        assert seen[("lost", "lost")] >= 3, dict(seen)
