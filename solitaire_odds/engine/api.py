"""The engine behind the same four calls as the reference, on :class:`Position` objects.

Slow (it converts positions both ways on every call): for tests, the CLI's replay and the
players, never for the search itself.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..position import Position
from ..rules import Rules
from . import core
from .layout import (
    DEAL, MAX_MOVES, MOVE, NO_BASE, O_BASE, O_FOUND, O_OPENING, O_PCARDS, O_PDOWN, O_PLEN,
    O_REDEALS, O_SLEN, O_STOCK, O_WASTE, O_WLEN, O_WLIVE, P_CAP, P_NCARDS, P_NFOUND, P_NPILES,
    P_NRES, PLACE_FOUND, PLACE_STOCK, PLACE_WASTE, REDEAL, S_SIZE, TURN, make_params,
)

_KIND_NAMES = {TURN: "turn", DEAL: "deal", REDEAL: "redeal"}


@lru_cache(maxsize=64)
def _params_for(rules: Rules) -> np.ndarray:
    return make_params(rules)


def params(rules: Rules) -> np.ndarray:
    return _params_for(rules)


# --- places and moves ------------------------------------------------------------------------

def place_name(code: int, pa: np.ndarray) -> str:
    npiles = int(pa[P_NPILES])
    if code == PLACE_WASTE:
        return "w"
    if code == PLACE_STOCK:
        return "s"
    if code >= PLACE_FOUND:
        return f"f{code - PLACE_FOUND}"
    return f"p{code}" if code < npiles else f"r{code - npiles}"


def place_code(name: str, pa: np.ndarray) -> int:
    kind, num = name[0], name[1:]
    if kind == "w":
        return PLACE_WASTE
    if kind == "s":
        return PLACE_STOCK
    if kind == "f":
        return PLACE_FOUND + int(num)
    if kind == "r":
        return int(pa[P_NPILES]) + int(num)
    return int(num)


def move_tuple(row, pa) -> tuple:
    kind = int(row[0])
    if kind == MOVE:
        return ("move", place_name(int(row[1]), pa), place_name(int(row[2]), pa), int(row[3]))
    return (_KIND_NAMES[kind],)


def move_row(move: tuple, pa) -> np.ndarray:
    row = np.zeros(4, dtype=np.int16)
    if move[0] == "move":
        row[:] = (MOVE, place_code(move[1], pa), place_code(move[2], pa), move[3])
    else:
        row[0] = {v: k for k, v in _KIND_NAMES.items()}[move[0]]
    return row


# --- positions -------------------------------------------------------------------------------

def to_position(s: np.ndarray, pa: np.ndarray) -> Position:
    npiles, nres, cap = int(pa[P_NPILES]), int(pa[P_NRES]), int(pa[P_CAP])

    def pile(p):
        n = int(s[pa[O_PLEN] + p])
        start = int(pa[O_PCARDS]) + p * cap
        return [int(c) for c in s[start:start + n]]

    slen, wlen = int(s[pa[O_SLEN]]), int(s[pa[O_WLEN]])
    base = int(s[pa[O_BASE]])
    return Position(
        piles=[pile(p) for p in range(npiles)],
        down=[int(s[pa[O_PDOWN] + p]) for p in range(npiles)],
        found=[int(x) for x in s[pa[O_FOUND]:pa[O_FOUND] + pa[P_NFOUND]]],
        stock=[int(c) for c in s[pa[O_STOCK]:pa[O_STOCK] + slen]],
        waste=[int(c) for c in s[pa[O_WASTE]:pa[O_WASTE] + wlen]],
        reserve=[pile(npiles + r) for r in range(nres)],
        redeals_used=int(s[pa[O_REDEALS]]),
        base_rank=-1 if base == NO_BASE else base,
        opening=bool(s[pa[O_OPENING]]),
        waste_live=bool(s[pa[O_WLIVE]]),
    )


def from_position(pos: Position, pa: np.ndarray) -> np.ndarray:
    s = np.zeros(int(pa[S_SIZE]), dtype=np.uint8)
    cap, npiles = int(pa[P_CAP]), int(pa[P_NPILES])
    for p, cards_ in enumerate(list(pos.piles) + list(pos.reserve)):
        s[pa[O_PLEN] + p] = len(cards_)
        s[pa[O_PCARDS] + p * cap:pa[O_PCARDS] + p * cap + len(cards_)] = cards_
    for p, d in enumerate(pos.down):
        s[pa[O_PDOWN] + p] = d
    s[pa[O_SLEN]] = len(pos.stock)
    s[pa[O_STOCK]:pa[O_STOCK] + len(pos.stock)] = pos.stock
    s[pa[O_WLEN]] = len(pos.waste)
    s[pa[O_WASTE]:pa[O_WASTE] + len(pos.waste)] = pos.waste
    s[pa[O_FOUND]:pa[O_FOUND] + len(pos.found)] = pos.found
    s[pa[O_REDEALS]] = pos.redeals_used
    s[pa[O_BASE]] = NO_BASE if pos.base_rank < 0 else pos.base_rank
    s[pa[O_OPENING]] = pos.opening
    s[pa[O_WLIVE]] = pos.waste_live
    assert npiles == len(pos.piles)
    return s


# --- the reference's interface ---------------------------------------------------------------

def initial_position(rules: Rules, deck: list[int]) -> Position:
    pa = params(rules)
    s = np.zeros(int(pa[S_SIZE]), dtype=np.uint8)
    scratch = np.zeros(int(pa[P_NCARDS]), dtype=np.uint8)
    core.deal_into(s, pa, np.asarray(deck, dtype=np.uint8), scratch)
    return to_position(s, pa)


def legal_rows(s: np.ndarray, pa: np.ndarray) -> np.ndarray:
    out = np.zeros((MAX_MOVES, 4), dtype=np.int16)
    n = core.legal_moves(s, pa, out)
    return out[:n]


def legal_moves(rules: Rules, pos: Position) -> list[tuple]:
    pa = params(rules)
    return [move_tuple(row, pa) for row in legal_rows(from_position(pos, pa), pa)]


def apply_move(rules: Rules, pos: Position, move: tuple) -> Position:
    pa = params(rules)
    if move not in legal_moves(rules, pos):
        raise ValueError(f"illegal move {move}")
    s = from_position(pos, pa)
    core.apply_move(s, pa, move_row(move, pa), np.zeros(int(pa[P_NCARDS]), dtype=np.uint8))
    return to_position(s, pa)


def is_won(rules: Rules, pos: Position) -> bool:
    pa = params(rules)
    return bool(core.is_won(from_position(pos, pa), pa))
