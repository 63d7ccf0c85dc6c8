"""Rules -> the engine's parameter vector and flat state layout.

The engine is one set of numba kernels for all games; what a game is reaches them as a small
``int64`` vector ``params`` (the rules as numbers plus the offsets of each region of the state).
The state is one flat ``uint8`` array:

    pile lengths | face-down counts | pile cards (CAP each) | stock length | stock | waste length |
    waste | foundation counts | redeals used | base rank (255 = none) | opening | waste live

Reserve fans (Duchess) are extra piles after the tableau piles. ``CAP`` = cards in the pack,
so no pile can overflow whatever the rules allow.
"""

from __future__ import annotations

import numpy as np

from ..rules import Rules

# --- parameter slots -------------------------------------------------------------------------
(P_NPILES, P_NRES, P_NCARDS, P_NFOUND, P_CAP, P_LAYOUT, P_ROWS_DOWN, P_ACES_OUT, P_FOUND_KIND,
 P_BUILD, P_SAME_SUIT, P_WRAP, P_RUN, P_SPACE, P_STOCK, P_WASTE_PLAYABLE, P_FRETURN,
 P_FTRANSFER, P_RESTRICT, P_REDEALS, P_REDEAL_KIND, P_REDEAL_ORDER,
 O_PLEN, O_PDOWN, O_PCARDS, O_SLEN, O_STOCK, O_WLEN, O_WASTE, O_FOUND, O_REDEALS, O_BASE,
 O_OPENING, O_WLIVE, S_SIZE, N_PARAMS) = range(36)

# --- enumerations ----------------------------------------------------------------------------
LAYOUT = {"westcliff": 0, "st-helena": 1, "louis": 2, "duchess": 3}
FOUND_KIND = {"suit-up": 0, "kings-and-aces": 1, "chosen-base": 2}
BUILD = {"alt-colour-down": 0, "up-or-down": 1}
RUN = {"single": 0, "whole": 1, "partial": 2}
SPACE = {"none": 0, "any": 1, "king": 2, "reserve-then-waste": 3}
STOCK = {"none": 0, "turn": 1, "deal-row": 2}
REDEAL_KIND_NONE, REDEAL_KIND_GATHER, REDEAL_KIND_WASTE = 0, 1, 2
REDEAL_ORDER = {"top_first": 0, "bottom_first": 1}

# --- move encoding: rows of int16 [kind, src, dst, n] ----------------------------------------
MOVE, TURN, DEAL, REDEAL = 0, 1, 2, 3
PLACE_WASTE, PLACE_STOCK, PLACE_FOUND = 60, 61, 64  # piles and reserve fans are 0..59
MAX_MOVES = 1024
NO_BASE = 255


def make_params(rules: Rules) -> np.ndarray:
    """The engine's view of ``rules``."""
    v = rules.values
    p = np.zeros(N_PARAMS, dtype=np.int64)
    npiles, nres, ncards = v["piles"], v["reserve_fans"], v["ncards"]
    nfound = 8 if v["foundations"] == "kings-and-aces" else 4
    cap = ncards
    p[P_NPILES], p[P_NRES], p[P_NCARDS], p[P_NFOUND], p[P_CAP] = npiles, nres, ncards, nfound, cap
    p[P_LAYOUT] = LAYOUT[v["layout"]]
    p[P_ROWS_DOWN] = v["rows_down"]
    p[P_ACES_OUT] = v["aces_out_first"]
    p[P_FOUND_KIND] = FOUND_KIND[v["foundations"]]
    p[P_BUILD] = BUILD[v["build"]]
    p[P_SAME_SUIT] = v["build_suit"] == "same"
    p[P_WRAP] = v["wrap"]
    p[P_RUN] = RUN[v["run_moves"]]
    p[P_SPACE] = SPACE[v["space_fill"]]
    p[P_STOCK] = STOCK[v["stock"]]
    p[P_WASTE_PLAYABLE] = v["waste_playable"]
    p[P_FRETURN] = v["foundation_return"]
    p[P_FTRANSFER] = v["foundation_transfer"]
    p[P_RESTRICT] = v["first_deal_restriction"]
    p[P_REDEALS] = v["redeals"]
    if v["layout"] in ("st-helena", "louis"):
        p[P_REDEAL_KIND] = REDEAL_KIND_GATHER
    elif v["layout"] == "duchess":
        p[P_REDEAL_KIND] = REDEAL_KIND_WASTE
    p[P_REDEAL_ORDER] = REDEAL_ORDER[v["redeal_order"]]
    n = npiles + nres
    offset = 0
    for slot, size in ((O_PLEN, n), (O_PDOWN, n), (O_PCARDS, n * cap), (O_SLEN, 1), (O_STOCK, ncards),
                       (O_WLEN, 1), (O_WASTE, ncards), (O_FOUND, nfound), (O_REDEALS, 1), (O_BASE, 1),
                       (O_OPENING, 1), (O_WLIVE, 1)):
        p[slot] = offset
        offset += size
    p[S_SIZE] = offset
    return p
