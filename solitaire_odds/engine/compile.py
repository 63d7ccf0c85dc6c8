"""The one compile step from :class:`~solitaire_odds.rules.Rules` to what the kernels read.

The kernels serve every game; what a game is reaches them as the ``int64`` vector ``params``
(slots named in :mod:`.constants`): each rule as a number, the reductions that hold
(:mod:`.reductions`), the state's offsets (:mod:`.state`) and, per pile, the foundations its
cards may go to in the first deal. No kernel reads a game's name.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..rules import Rules
from . import constants as k
from .reductions import capabilities
from .state import place_offsets


@lru_cache(maxsize=64)
def _compiled(rules: Rules) -> np.ndarray:
    p = np.zeros(k.N_PARAMS, dtype=np.int64)
    npiles, nres, ncards = rules["piles"], rules["reserve_fans"], rules["ncards"]
    nfound = 8 if rules["foundations"] == "kings-and-aces" else 4
    if npiles + nres > k.MAX_PLACES:
        raise ValueError(f"at most {k.MAX_PLACES} piles and reserve fans")
    if ncards >= k.MAX_CARDS:
        raise ValueError(f"at most {k.MAX_CARDS - 1} cards")
    p[k.P_NPILES], p[k.P_NRES], p[k.P_FAN_SIZE] = npiles, nres, rules["fan_size"]
    p[k.P_NCARDS], p[k.P_NFOUND], p[k.P_CAP] = ncards, nfound, ncards
    p[k.P_DEAL_PATTERN] = k.DEAL_PATTERN[rules["pattern"]]
    p[k.P_ROWS_DOWN] = rules["rows_down"]
    p[k.P_OPENING] = k.OPENING[rules["opening"]]
    p[k.P_ACES_OUT] = rules["aces_out_first"]
    p[k.P_FOUND_KIND] = k.FOUND_KIND[rules["foundations"]]
    p[k.P_BUILD] = k.BUILD[rules["build"]]
    p[k.P_SAME_SUIT] = rules["build_suit"] == "same"
    p[k.P_WRAP] = rules["wrap"]
    p[k.P_RUN] = k.RUN[rules["run_moves"]]
    p[k.P_SPACE] = k.SPACE[rules["space_fill"]]
    p[k.P_STOCK] = k.STOCK[rules["stock"]]
    p[k.P_WASTE_PLAYABLE] = rules["waste_playable"]
    p[k.P_FRETURN] = rules["foundation_return"]
    p[k.P_FTRANSFER] = rules["foundation_transfer"]
    p[k.P_REDEALS] = rules["redeals"]
    p[k.P_REDEAL_KIND] = k.REDEAL_KIND[rules["redeal_kind"]]
    p[k.P_REDEAL_ORDER] = k.REDEAL_ORDER[rules["redeal_order"]]
    limits = rules["first_deal_foundations"]
    p[k.P_FIRST_DEAL_LIMITS] = bool(limits)
    for pile in range(k.MAX_PLACES):
        p[k.P_PILE_FOUND + pile] = k.GROUPS[limits[pile]] if limits and pile < len(limits) else k.UPPER | k.LOWER
    flags = capabilities(rules)
    p[k.C_SAFE_FOUNDATION] = flags["safe_foundation"]
    p[k.C_SAFE_LOW] = flags["safe_foundation_low"]
    p[k.C_POINTLESS_RETURN] = flags["pointless_return"]
    p[k.C_TWIN_SWAP] = flags["twin_swap"]
    p[k.C_TWIN_SWAP_WITHOUT_STOCK] = flags["twin_swap_without_stock"]
    p[k.C_INTERCHANGEABLE_PILES] = flags["interchangeable_piles"]
    p[k.C_DEAD_WASTE] = flags["dead_waste"]
    p[k.C_WIN_FIRST] = flags["win_first"]
    p[k.C_INTERCHANGEABLE_WITHOUT_STOCK] = flags["interchangeable_without_stock"]
    accept = accept_masks(rules)
    p[k.P_ACCEPT:k.P_ACCEPT + 52] = accept
    p[k.P_BUILDERS:k.P_BUILDERS + 52] = [sum(1 << card for card in range(52) if accept[card] >> onto & 1)
                                         for onto in range(52)]
    p[k.C_RELAXED_DEAD_ENDS] = flags["relaxed_dead_ends"]
    p[k.C_SHORTCUTS] = flags["shortcuts"]
    p[k.C_SAFE_OVERLAP] = flags["safe_overlap"]
    p[k.C_TURN_TO_PLAY] = flags["turn_to_play"]
    p[k.C_PERSISTENT] = flags["persistent_sets"]
    p[k.C_WASTE_ROOM] = flags["waste_room"]
    place_offsets(p, npiles, nres, ncards, nfound)
    return p


def builds_on(rules: Rules, card: int, onto: int) -> bool:
    """The building rule: may ``card`` (a value 0..51) be placed on ``onto`` in the tableau?"""
    rank, onto_rank = card % 13, onto % 13
    ace_king = rules["wrap"] and {rank, onto_rank} == {0, 12}
    if rules["build"] == "alt-colour-down":
        if (card // 13 in (1, 2)) == (onto // 13 in (1, 2)):
            return False
        return rank + 1 == onto_rank or (ace_king and rank == 12)
    if rules["build_suit"] == "same" and card // 13 != onto // 13:
        return False
    return abs(rank - onto_rank) == 1 or ace_king


def accept_masks(rules: Rules) -> list[int]:
    """Per card value, the bit mask of the values it may be built on: the kernels find every
    destination of a card with one AND against the mask of the piles' top cards."""
    return [sum(1 << onto for onto in range(52) if builds_on(rules, card, onto)) for card in range(52)]


def params(rules: Rules) -> np.ndarray:
    """The kernels' view of ``rules`` (computed once per rule set)."""
    return _compiled(rules)
