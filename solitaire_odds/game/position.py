"""A readable position, the common language of the engine, the reference and the tests.

The numba engine keeps a flat ``uint8`` array; :func:`solitaire_odds.engine.state.to_position`
turns it into a :class:`Position` so that it can be compared with the plain-Python reference,
printed, or handed to a player.

Conventions
-----------
* Every list of cards runs bottom -> top: ``pile[-1]`` is the card on top.
* ``down[i]`` cards at the bottom of pile ``i`` are face down; a pile that is not empty always
  has its top card face up (``down[i] < len(piles[i])``).
* ``stock[-1]`` is the next card turned or dealt; ``waste[-1]`` is the available waste card.
* ``found[j]`` counts the cards on foundation ``j``. One-deck games: foundation ``j`` is suit
  ``j`` (C, D, H, S). St. Helena family: foundations 0-3 are the upper (King) foundations of
  suits C, D, H, S, built down; 4-7 the lower (Ace) foundations, built up.
* ``base_rank`` is Duchess' foundation base (-1 until chosen, and in every other game).
* ``redeals_used`` counts redeals made (St. Helena family, Duchess).
* ``opening`` is True during Louis' opening phase.
* ``waste_live`` is True right after a stock card was turned onto the waste, and only tracked
  when ``waste_playable`` is off (the turned card may then be played at once or never).

Moves are tuples:
``("move", src, dst, n)`` moves ``n`` cards from the top of ``src`` to ``dst``, where a place is
``"p<i>"`` (tableau pile), ``"r<i>"`` (reserve fan), ``"w"`` (waste), ``"s"`` (stock) or
``"f<j>"`` (foundation); ``("turn",)`` turns the stock's top card onto the waste;
``("deal",)`` deals from the stock onto the piles (Easthaven's row, Louis' rest of the stock);
``("redeal",)`` starts the next deal (St. Helena family gather, Duchess' waste turned over).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from . import cards


@dataclass
class Position:
    piles: list[list[int]]
    down: list[int]
    found: list[int]
    stock: list[int] = field(default_factory=list)
    waste: list[int] = field(default_factory=list)
    reserve: list[list[int]] = field(default_factory=list)
    redeals_used: int = 0
    base_rank: int = -1
    opening: bool = False
    waste_live: bool = False

    def copy(self) -> "Position":
        return Position(
            piles=[list(p) for p in self.piles], down=list(self.down), found=list(self.found),
            stock=list(self.stock), waste=list(self.waste),
            reserve=[list(r) for r in self.reserve], redeals_used=self.redeals_used,
            base_rank=self.base_rank, opening=self.opening, waste_live=self.waste_live,
        )

    def render(self) -> str:
        """Multi-line text picture; face-down cards show as ``##``."""
        lines = []
        found = " ".join(str(n) for n in self.found)
        head = f"foundations (cards on each): {found}"
        if self.base_rank >= 0:
            head += f"   base rank {cards.RANKS[self.base_rank]}"
        lines.append(head)
        for i, fan in enumerate(self.reserve):
            lines.append(f"r{i}: " + " ".join(cards.name(c) for c in fan))
        for i, pile in enumerate(self.piles):
            shown = ["##"] * self.down[i] + [cards.name(c) for c in pile[self.down[i]:]]
            lines.append(f"p{i}: " + " ".join(shown))
        if self.stock or self.waste:
            top = cards.name(self.waste[-1]) if self.waste else "--"
            lines.append(f"stock {len(self.stock)} cards, waste {len(self.waste)} cards (top {top})")
        return "\n".join(lines)


@lru_cache(maxsize=4096)
def format_move(move: tuple) -> str:
    """Compact notation without spaces: ``p3>f1``, ``p0>p5x3`` (a run of 3), ``turn``. Cached:
    a run formats every move of every winning line, and a game has few distinct moves."""
    if move[0] == "move":
        _, src, dst, n = move
        return f"{src}>{dst}" + (f"x{n}" if n > 1 else "")
    return move[0]


def parse_move(text: str) -> tuple:
    """Inverse of :func:`format_move`."""
    if text in ("turn", "deal", "redeal"):
        return (text,)
    src, _, rest = text.partition(">")
    dst, _, count = rest.partition("x")
    if not src or not dst:
        raise ValueError(f"not a move: {text!r}")
    return ("move", src, dst, int(count) if count else 1)


def describe_move(move: tuple, pos: "Position") -> str:
    """The move in words for a person, naming the cards, e.g. ``7H from p3 onto p5 (8S)``."""
    if move[0] != "move":
        return {"turn": "turn a stock card onto the waste", "deal": "deal from the stock",
                "redeal": "redeal"}[move[0]]
    _, src, dst, n = move
    kind, num = src[0], int(src[1:]) if src[1:] else 0
    if kind == "p":
        moved = pos.piles[num][-n]
    elif kind == "r":
        moved = pos.reserve[num][-1]
    elif kind == "w":
        moved = pos.waste[-1]
    elif kind == "s":
        moved = pos.stock[-1]
    else:
        moved = None
    what = cards.name(moved) if moved is not None and moved >= 0 else f"top card of {src}"  # < 0: not known
    if n > 1:
        what += f" and {n - 1} more"
    where = {"p": "pile", "r": "reserve", "w": "waste", "s": "stock", "f": "foundation"}
    text = f"{what}: {where[kind]} {src[1:]} -> {where[dst[0]]} {dst[1:]}".replace("  ", " ").strip()
    if kind == "r" and dst.startswith("f") and pos.base_rank < 0:
        text += f" (chooses the foundations' base rank: {cards.RANKS[cards.rank(moved)]})"
    return text
