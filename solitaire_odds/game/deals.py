"""Numbered deals: deal number -> shuffled deck, and deck text files.

Deal ``n`` of a game with ``N`` cards (52 or 104) is this shuffle, the same forever:

1. Start from the deck ``[c % 52 for c in range(N)]`` (two decks hold every code twice).
2. Seed a splitmix64 generator with ``state = n`` (the deal number, an unsigned 64-bit int).
3. Fisher-Yates: for ``i`` from ``N - 1`` down to 1, draw ``x = splitmix64()`` and swap
   positions ``i`` and ``x % (i + 1)``.

Only 64-bit integer arithmetic is used, so the numba twin in :mod:`solitaire_odds.engine`
and any other implementation give the same deck on every machine and numpy version
(the modulo bias is below 1e-17 per draw). ``deck[0]`` is the first card dealt.
"""

from __future__ import annotations

import codecs
from pathlib import Path

from . import cards

MASK64 = (1 << 64) - 1
MAX_DEAL = MASK64


def splitmix64(state: int) -> tuple[int, int]:
    """One step: returns (new state, output)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def deck(deal: int, ncards: int = 52) -> list[int]:
    """The shuffled deck of deal number ``deal``: card codes, first card dealt first."""
    if not 0 <= deal <= MAX_DEAL:
        raise ValueError(f"deal number {deal} is out of range 0..2**64-1")
    cards_ = [c % 52 for c in range(ncards)]
    state = deal
    for i in range(ncards - 1, 0, -1):
        state, x = splitmix64(state)
        j = x % (i + 1)
        cards_[i], cards_[j] = cards_[j], cards_[i]
    return cards_


def format_deck(deck_: list[int]) -> str:
    """Deck as text: card names separated by spaces, 13 to a line."""
    names = [cards.name(c) for c in deck_]
    return "\n".join(" ".join(names[i:i + 13]) for i in range(0, len(names), 13)) + "\n"


class DealFileError(ValueError):
    """A deal file that cannot be a deck of the game."""


def parse_deck(text: str, ncards: int) -> list[int]:
    """Parse card names (whitespace separated, ``#`` starts a comment) into a deck of
    ``ncards`` cards, each of the 52 cards exactly ``ncards // 52`` times."""
    tokens = []
    for line in text.splitlines():
        tokens.extend(line.split("#", 1)[0].split())
    deck_ = []
    for pos, tok in enumerate(tokens, 1):
        try:
            deck_.append(cards.parse(tok))
        except ValueError as err:
            raise DealFileError(f"card {pos}: {err}") from None
    if len(deck_) != ncards:
        raise DealFileError(f"{len(deck_)} cards, this game needs {ncards}")
    copies = ncards // 52
    counts = [0] * 52
    for c in deck_:
        counts[c] += 1
    for c in range(52):
        if counts[c] > copies:
            raise DealFileError(f"{cards.name(c)} appears {counts[c]} times, at most {copies} allowed")
    return deck_


MAX_DEAL_FILE_BYTES = 1 << 20
"""A deal file of 104 cards with comments is a few kilobytes; more is some other file."""


def read_deck(path: str | Path, ncards: int) -> list[int]:
    """The deck in the text file ``path`` (card names in UTF-8, or UTF-16 with its byte-order
    mark; see :func:`parse_deck`)."""
    p = Path(path)
    try:
        with p.open("rb") as file:
            data = file.read(MAX_DEAL_FILE_BYTES + 1)
    except OSError as err:
        raise DealFileError(f"cannot read {p}: {err.strerror}") from None
    if len(data) > MAX_DEAL_FILE_BYTES:
        raise DealFileError(f"{p} is larger than {MAX_DEAL_FILE_BYTES:,} bytes: not a deal file of card names")
    utf16 = data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))  # as some editors save "Unicode"
    if not utf16 and b"\0" in data:
        raise DealFileError(f"{p} holds NUL bytes (binary, or UTF-16 without its byte-order mark); save it "
                            "as plain text with card names such as 7H TS")
    try:
        text = data.decode("utf-16" if utf16 else "utf-8-sig")
    except UnicodeDecodeError as err:
        raise DealFileError(f"{p} is not a text file (undecodable byte at {err.start}); save it as plain "
                            "text with card names such as 7H TS") from None
    try:
        return parse_deck(text, ncards)
    except DealFileError as err:
        raise DealFileError(f"{p}: {err}") from None


def write_deck(path: str | Path, deck_: list[int]) -> None:
    Path(path).write_text(format_deck(deck_))
