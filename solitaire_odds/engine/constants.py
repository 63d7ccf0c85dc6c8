"""Named numbers the kernels read: slots of the ``params`` vector, rule enumerations, move kinds
and places. The kernels compare against these names, never against bare numbers.

``params`` is one ``int64`` vector (built by :mod:`.compile`): the rules as numbers, the
reductions that hold for them (:mod:`.reductions`), the offsets of the flat state (:mod:`.state`)
and one small per-pile array (where a pile's cards may go up in the first deal).
"""

from __future__ import annotations

_slots = iter(range(1000))

# --- the rules -------------------------------------------------------------------------------
P_NPILES = next(_slots)         # tableau piles
P_NRES = next(_slots)           # reserve fans (extra piles after the tableau piles)
P_FAN_SIZE = next(_slots)
P_NCARDS = next(_slots)
P_NFOUND = next(_slots)
P_CAP = next(_slots)            # room for cards in every pile of the state (= the pack)
P_DEAL_PATTERN = next(_slots)
P_ROWS_DOWN = next(_slots)
P_OPENING = next(_slots)
P_ACES_OUT = next(_slots)
P_FOUND_KIND = next(_slots)
P_BUILD = next(_slots)
P_SAME_SUIT = next(_slots)
P_WRAP = next(_slots)
P_RUN = next(_slots)
P_SPACE = next(_slots)
P_STOCK = next(_slots)
P_WASTE_PLAYABLE = next(_slots)
P_FRETURN = next(_slots)
P_FTRANSFER = next(_slots)
P_FIRST_DEAL_LIMITS = next(_slots)  # any pile restricted in the first deal (see P_PILE_FOUND)
P_REDEALS = next(_slots)
P_REDEAL_KIND = next(_slots)
P_REDEAL_ORDER = next(_slots)
# --- reductions that hold for these rules (decided once, see reductions.py) -------------------
C_SAFE_FOUNDATION = next(_slots)
C_SAFE_LOW = next(_slots)
C_POINTLESS_RETURN = next(_slots)
C_TWIN_SWAP = next(_slots)
C_INTERCHANGEABLE_PILES = next(_slots)
C_DEAD_WASTE = next(_slots)
C_WIN_FIRST = next(_slots)
C_INTERCHANGEABLE_WITHOUT_STOCK = next(_slots)
C_RELAXED_DEAD_ENDS = next(_slots)  # two_deck_proofs.never_freed ends a line
C_SHORTCUTS = next(_slots)
C_SAFE_OVERLAP = next(_slots)
C_TURN_TO_PLAY = next(_slots)
C_PERSISTENT = next(_slots)  # persistent.persistent_piles limits the moves tried
C_TWIN_SWAP_WITHOUT_STOCK = next(_slots)
C_WASTE_ROOM = next(_slots)  # reductions.no_room_to_dig ends a line (Duchess)
# --- offsets of the flat state (see state.py) ------------------------------------------------
O_PLEN = next(_slots)
O_PDOWN = next(_slots)
O_PCARDS = next(_slots)
O_SLEN = next(_slots)
O_STOCK = next(_slots)
O_WLEN = next(_slots)
O_WASTE = next(_slots)
O_FOUND = next(_slots)
O_REDEALS = next(_slots)
O_BASE = next(_slots)
O_OPENING = next(_slots)
O_WLIVE = next(_slots)
S_SIZE = next(_slots)
# --- per pile: bit UPPER / LOWER set when its top card may go to that foundation group ------
MAX_PLACES = 60                 # tableau piles plus reserve fans
MAX_CARDS = 128                 # a pack's size limit: core's hash values cover heights 0..127
P_PILE_FOUND = next(_slots)
# --- per card value 0..51: the bit mask of the card values it may be built on (the building rule)
P_ACCEPT = P_PILE_FOUND + MAX_PLACES
# --- per card value 0..51: the bit mask of the card values that may be built on it (P_ACCEPT read the other way)
P_BUILDERS = P_ACCEPT + 52
N_PARAMS = P_BUILDERS + 52
del _slots

# --- enumerations ----------------------------------------------------------------------------
DEAL_ROWS, DEAL_ROUND_ROBIN, DEAL_ONE_EACH = 0, 1, 2
DEAL_PATTERN = {"rows": DEAL_ROWS, "round-robin": DEAL_ROUND_ROBIN, "one-each": DEAL_ONE_EACH}
OPENING_NONE, OPENING_FOUNDATION_PLAYS = 0, 1
OPENING = {"none": OPENING_NONE, "foundation-plays-then-deal": OPENING_FOUNDATION_PLAYS}
FOUND_SUIT_UP, FOUND_KINGS_AND_ACES, FOUND_CHOSEN_BASE = 0, 1, 2
FOUND_KIND = {"suit-up": FOUND_SUIT_UP, "kings-and-aces": FOUND_KINGS_AND_ACES, "chosen-base": FOUND_CHOSEN_BASE}
UPPER, LOWER = 1, 2             # foundation groups: King foundations 0..3, Ace foundations 4..7
GROUPS = {"upper": UPPER, "lower": LOWER, "either": UPPER | LOWER}
BUILD_ALT_DOWN, BUILD_UP_OR_DOWN = 0, 1
BUILD = {"alt-colour-down": BUILD_ALT_DOWN, "up-or-down": BUILD_UP_OR_DOWN}
RUN_SINGLE, RUN_WHOLE, RUN_PARTIAL = 0, 1, 2
RUN = {"single": RUN_SINGLE, "whole": RUN_WHOLE, "partial": RUN_PARTIAL}
SPACE_NONE, SPACE_ANY, SPACE_KING, SPACE_RESERVE_THEN_WASTE = 0, 1, 2, 3
SPACE = {"none": SPACE_NONE, "any": SPACE_ANY, "king": SPACE_KING, "reserve-then-waste": SPACE_RESERVE_THEN_WASTE}
STOCK_NONE, STOCK_TURN, STOCK_DEAL_ROW = 0, 1, 2
STOCK = {"none": STOCK_NONE, "turn": STOCK_TURN, "deal-row": STOCK_DEAL_ROW}
REDEAL_NONE, REDEAL_GATHER, REDEAL_WASTE = 0, 1, 2
REDEAL_KIND = {"none": REDEAL_NONE, "gather-piles": REDEAL_GATHER, "turn-waste": REDEAL_WASTE}
REDEAL_ORDER = {"top_first": 0, "bottom_first": 1}
REDEAL_BOTTOM_FIRST = 1

# --- moves: rows of int16 [kind, src, dst, n] ------------------------------------------------
MOVE, TURN, DEAL, REDEAL = 0, 1, 2, 3
PLACE_WASTE, PLACE_STOCK, PLACE_FOUND = 60, 61, 64  # piles and reserve fans are 0..59
MAX_MOVES = 1024
NO_BASE = 255
