"""The numba engine against the plain-Python reference along random playouts.

For every game and switch setting, random playouts of many deals compare, at every step, the
engine's position with the reference's and the two sets of legal moves; then both play the
same randomly chosen move. Playouts prefer foundation moves half of the time so that they
reach late-game positions (redeals, foundation returns and transfers, emptied piles).
"""

import random

import numpy as np
import pytest

from solitaire_odds import deals, reference
from solitaire_odds.engine import api, core
from solitaire_odds.engine.layout import MAX_MOVES, P_NCARDS, S_SIZE
from solitaire_odds.rules import resolve

from settings import setting_id, switch_settings

DEALS_PER_SETTING = 300
STEPS = 40


def playout(rules, deal, rng, out, scratch):
    pa = api.params(rules)
    deck = deals.deck(deal, rules["ncards"])
    state = np.zeros(int(pa[S_SIZE]), dtype=np.uint8)
    core.deal_into(state, pa, np.asarray(deck, dtype=np.uint8), scratch)
    pos = reference.initial_position(rules, deck)
    for step in range(STEPS):
        assert api.to_position(state, pa) == pos, f"deal {deal} step {step}: positions differ"
        n = core.legal_moves(state, pa, out)
        engine_moves = sorted(api.move_tuple(out[i], pa) for i in range(n))
        ref_moves = sorted(reference.legal_moves(rules, pos))
        assert engine_moves == ref_moves, f"deal {deal} step {step}: legal moves differ\n{pos.render()}"
        assert bool(core.is_won(state, pa)) == reference.is_won(rules, pos)
        if not ref_moves:
            return
        to_found = [m for m in ref_moves if m[0] == "move" and m[2].startswith("f")]
        move = rng.choice(to_found if to_found and rng.random() < 0.5 else ref_moves)
        core.apply_move(state, pa, api.move_row(move, pa), scratch)
        pos = reference.apply_move(rules, pos, move)


@pytest.mark.parametrize("setting", switch_settings(), ids=setting_id)
def test_engine_matches_reference_along_random_playouts(setting):
    game, switches = setting
    rules = resolve(game, **switches)
    rng = random.Random(setting_id(setting))
    out = np.zeros((MAX_MOVES, 4), dtype=np.int16)
    scratch = np.zeros(int(api.params(rules)[P_NCARDS]), dtype=np.uint8)
    for deal in range(DEALS_PER_SETTING):
        playout(rules, deal, rng, out, scratch)
