"""The engine behind the same four calls as the reference, on :class:`Position` objects.

Slow (it converts positions both ways on every call): for tests, the CLI's replay and the
players, never for the search itself.
"""

from __future__ import annotations

import numpy as np

from ..game.position import Position
from ..rules import Rules
from . import core
from .compile import params
from .constants import DEAL, MAX_MOVES, MOVE, P_NCARDS, P_NPILES, PLACE_FOUND, PLACE_STOCK, PLACE_WASTE, REDEAL, TURN
from .state import decode, empty, encode

_KIND_NAMES = {TURN: "turn", DEAL: "deal", REDEAL: "redeal"}

__all__ = ["params", "place_name", "place_code", "move_tuple", "move_row", "first_state", "play_row",
           "key", "is_won_state", "legal_rows", "initial_position", "legal_moves", "apply_move", "is_won"]


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


# --- engine states, one move at a time (slow: for players, tests and replays) -----------------

def first_state(pa: np.ndarray, deck) -> np.ndarray:
    """The engine's state right after dealing ``deck``."""
    s = empty(pa)
    core.deal_into(s, pa, np.asarray(deck, dtype=np.uint8), np.zeros(int(pa[P_NCARDS]), dtype=np.uint8))
    return s


def play_row(s: np.ndarray, pa: np.ndarray, row) -> None:
    """Play move ``row`` on state ``s`` in place (no legality check)."""
    core.do_move(s, pa, np.zeros(core.H_SIZE, dtype=np.uint64), np.asarray(row, dtype=np.int16),
                 np.zeros(core.U_SIZE, dtype=np.uint64), np.zeros_like(s), np.zeros(int(pa[P_NCARDS]), dtype=np.uint8))


def key(s: np.ndarray, pa: np.ndarray) -> tuple[int, int]:
    """The position key of ``s`` (equal for positions the search treats as one)."""
    k1, k2 = core.state_key(s, pa, np.zeros(core.H_SIZE, dtype=np.uint64))
    return int(k1), int(k2)


def is_won_state(s: np.ndarray, pa: np.ndarray) -> bool:
    return bool(core.is_won(s, pa))


def legal_rows(s: np.ndarray, pa: np.ndarray) -> np.ndarray:
    out = np.zeros((MAX_MOVES, 4), dtype=np.int16)
    n = core.legal_moves(s, pa, out)
    return out[:n]


# --- the reference's interface ---------------------------------------------------------------

def initial_position(rules: Rules, deck: list[int]) -> Position:
    pa = params(rules)
    return decode(first_state(pa, deck), pa)


def legal_moves(rules: Rules, pos: Position) -> list[tuple]:
    pa = params(rules)
    return [move_tuple(row, pa) for row in legal_rows(encode(pos, pa), pa)]


def apply_move(rules: Rules, pos: Position, move: tuple) -> Position:
    pa = params(rules)
    if move not in legal_moves(rules, pos):
        raise ValueError(f"illegal move {move}")
    s = encode(pos, pa)
    play_row(s, pa, move_row(move, pa))
    return decode(s, pa)


def is_won(rules: Rules, pos: Position) -> bool:
    pa = params(rules)
    return is_won_state(encode(pos, pa), pa)
