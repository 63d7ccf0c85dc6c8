"""The numba engine against the plain-Python reference along random playouts.

For every game and switch setting, random playouts of many deals compare, at every step, the
engine's position with the reference's and the two sets of legal moves; then both play the
same randomly chosen move. Playouts prefer foundation moves half of the time so that they
reach late-game positions (redeals, foundation returns and transfers, emptied piles).

In the first deals, every legal move at every step is also made and unmade on the engine
state: the hashes kept up to date move by move must equal the hashes computed from scratch,
and unmaking must give back exactly the position and hashes before the move.
"""

import dataclasses
import random

import numpy as np
import pytest

from solitaire_odds.game import deals, reference
from solitaire_odds.engine import api, core
from solitaire_odds.engine.constants import MAX_MOVES, P_NCARDS
from solitaire_odds.engine.state import decode, encode
from solitaire_odds.rules import resolve

from .settings import setting_id, switch_settings

DEALS_PER_SETTING = 300
MAKE_UNMAKE_DEALS = 30  # deals whose every legal move is also made and unmade
STEPS = 40


class Engine:
    """The engine's state with its hashes, made and unmade move by move as the search does."""

    def __init__(self, rules, deck):
        self.pa = api.params(rules)
        self.s = api.first_state(self.pa, deck)
        self.H = np.zeros(core.H_SIZE, dtype=np.uint64)
        core.init_hash(self.s, self.pa, self.H)
        self.undo = np.zeros(core.U_SIZE, dtype=np.uint64)
        self.save = np.zeros_like(self.s)
        self.scratch = np.zeros(int(self.pa[P_NCARDS]), dtype=np.uint8)
        self.rows = np.zeros((MAX_MOVES, 4), dtype=np.int16)

    def moves(self):
        n = core.legal_moves(self.s, self.pa, self.rows)
        return self.rows[:n].copy()

    def fresh_hashes(self):
        H = np.zeros_like(self.H)
        core.init_hash(self.s, self.pa, H)
        return H

    def check_make_unmake(self, row, where):
        before = decode(self.s, self.pa)
        hashes = self.H.copy()
        core.do_move(self.s, self.pa, self.H, row, self.undo, self.save, self.scratch)
        assert np.array_equal(self.H, self.fresh_hashes()), f"{where}: hashes drift after {row}"
        core.undo_move(self.s, self.pa, self.H, row, self.undo, self.save)
        assert decode(self.s, self.pa) == before, f"{where}: unmaking {row} changed the position"
        assert np.array_equal(self.H, hashes), f"{where}: unmaking {row} changed the hashes"

    def play(self, row):
        core.do_move(self.s, self.pa, self.H, row, self.undo, self.save, self.scratch)


def playout(rules, deal, rng):
    deck = deals.deck(deal, rules["ncards"])
    engine = Engine(rules, deck)
    pos = reference.initial_position(rules, deck)
    for step in range(STEPS):
        where = f"deal {deal} step {step}"
        assert decode(engine.s, engine.pa) == pos, f"{where}: positions differ"
        rows = engine.moves()
        engine_moves = sorted(api.move_tuple(row, engine.pa) for row in rows)
        ref_moves = sorted(reference.legal_moves(rules, pos))
        assert engine_moves == ref_moves, f"{where}: legal moves differ\n{pos.render()}"
        assert bool(core.is_won(engine.s, engine.pa)) == reference.is_won(rules, pos)
        if deal < MAKE_UNMAKE_DEALS:
            for row in rows:
                engine.check_make_unmake(row, where)
        if not ref_moves:
            return
        to_found = [m for m in ref_moves if m[0] == "move" and m[2].startswith("f")]
        move = rng.choice(to_found if to_found and rng.random() < 0.5 else ref_moves)
        engine.play(api.move_row(move, engine.pa))
        pos = reference.apply_move(rules, pos, move)


@pytest.mark.slow
@pytest.mark.parametrize("setting", switch_settings(), ids=setting_id)
def test_engine_matches_reference_along_random_playouts(setting):
    game, switches = setting
    rules = resolve(game, **switches)
    rng = random.Random(setting_id(setting))
    for deal in range(DEALS_PER_SETTING):
        playout(rules, deal, rng)


def test_positions_differing_only_in_pile_order_share_a_key_where_piles_are_interchangeable():
    """The key's pile symmetry: swapping two piles keeps the key in Westcliff (turned stock)
    and changes it in Easthaven (rows are dealt by pile number)."""
    for game, same in (("westcliff", True), ("box-kite", True), ("easthaven", False), ("st-helena", False)):
        rules = resolve(game)
        pa = api.params(rules)
        pos = reference.initial_position(rules, deals.deck(3, rules["ncards"]))
        swapped = dataclasses.replace(pos, piles=[pos.piles[1], pos.piles[0], *pos.piles[2:]],
                                      down=[pos.down[1], pos.down[0], *pos.down[2:]])
        assert (api.key(encode(pos, pa), pa) == api.key(encode(swapped, pa), pa)) == same, game
