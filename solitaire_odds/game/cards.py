"""Card codes, names and colours.

A card is an int ``suit * 13 + rank``: rank 0 = Ace ... 12 = King, suits in the order
Clubs, Diamonds, Hearts, Spades. Two-deck games use the same 52 codes: the twin cards of a
double pack are the same card to every rule, so they share a code.
"""

RANKS = "A23456789TJQK"
SUITS = "CDHS"
RED_SUITS = frozenset((1, 2))


def rank(card: int) -> int:
    return card % 13


def suit(card: int) -> int:
    return card // 13


def is_red(card: int) -> bool:
    return suit(card) in RED_SUITS


def make(rank_: int, suit_: int) -> int:
    return suit_ * 13 + rank_


def name(card: int) -> str:
    """Two-character name such as ``7H`` or ``TS``."""
    return RANKS[rank(card)] + SUITS[suit(card)]


def parse(text: str) -> int:
    """Inverse of :func:`name`; also accepts ``10`` for ten and lower case."""
    t = text.strip().upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise ValueError(f"unknown card {text!r} (expected rank A23456789TJQK and suit CDHS, e.g. 7H)")
    return make(RANKS.index(t[0]), SUITS.index(t[1]))
