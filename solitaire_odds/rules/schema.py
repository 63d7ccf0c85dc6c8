"""The rule vocabulary every game is declared in, and switch validation.

A game is a :class:`Game`: a layout, fixed rule values and named :class:`Switch` es. Resolving
a game with switch settings gives :class:`Rules`, a flat mapping of every rule key to its value,
which is what the engine, the reference and the results files all read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType

# Every rule key and its meaning. Values not switchable in a game are fixed in its declaration.
RULE_KEYS = {
    "layout": "how the deck is dealt: westcliff | st-helena | louis | duchess",
    "ncards": "cards in the pack: 52 or 104",
    "piles": "tableau piles",
    "rows_down": "westcliff layout: face-down rows under the face-up row",
    "reserve_fans": "duchess layout: reserve fans of 3 cards",
    "foundations": "suit-up (Ace to King by suit) | kings-and-aces (St. Helena) | chosen-base (Duchess, wraps)",
    "build": "alt-colour-down (tableau down in alternating colours) | up-or-down (St. Helena family)",
    "build_suit": "up-or-down building: same suit or any suit",
    "wrap": "building turns the corner (King and Ace adjacent)",
    "run_moves": "what moves between piles: single card | whole run or top card | partial run",
    "space_fill": "what may fill a space: none | any | king (King or King-headed run) | reserve-then-waste (Duchess)",
    "stock": "none | turn (one card to the waste) | deal-row (one card onto each pile)",
    "waste_playable": "the waste's top card stays available (off: only the card just turned)",
    "aces_out_first": "the four Aces start on the foundations",
    "foundation_return": "the top foundation card may come back to the tableau",
    "foundation_transfer": "a card may move between the King and Ace foundations of its suit",
    "first_deal_restriction": "in the first deal piles 1-4 play only to King foundations, 7-10 only to Ace foundations",
    "redeals": "how many redeals are allowed",
    "redeal_order": "gathered pack dealt top_first or bottom_first",
}


class RulesError(ValueError):
    """A game, switch or value that does not exist; the message lists the valid choices."""


@dataclass(frozen=True)
class Switch:
    name: str
    default: object
    choices: tuple = ()  # allowed values; empty for a non-negative int
    source: str = ""     # who plays it which way

    def parse(self, value, game: str):
        """Turn a CLI string or Python value into the switch's value, or raise RulesError."""
        if isinstance(self.default, bool):
            table = {"on": True, "off": False, "true": True, "false": False, "1": True, "0": False, "yes": True, "no": False}
            if isinstance(value, bool):
                return value
            key = str(value).strip().lower()
            if key in table:
                return table[key]
            raise RulesError(f"{game}: switch {self.name} takes on | off, not {value!r}")
        if isinstance(self.default, int):
            try:
                number = int(str(value).strip())
            except ValueError:
                number = -1
            if number < 0 or isinstance(value, bool):
                raise RulesError(f"{game}: switch {self.name} takes a whole number >= 0, not {value!r}")
            return number
        text = str(value).strip().lower()
        if text not in self.choices:
            raise RulesError(f"{game}: switch {self.name} takes {' | '.join(self.choices)}, not {value!r}")
        return text

    def describe(self) -> str:
        if isinstance(self.default, bool):
            choices = "on | off"
            default = "on" if self.default else "off"
        elif isinstance(self.default, int):
            choices, default = "0, 1, 2, ...", str(self.default)
        else:
            choices, default = " | ".join(self.choices), self.default
        return f"{self.name} = {choices} (default {default})"


@dataclass(frozen=True)
class Game:
    name: str
    title: str
    source: str
    fixed: dict
    switches: tuple[Switch, ...]
    claim: str = ""

    def __post_init__(self):
        keys = set(self.fixed) | {s.name for s in self.switches}
        missing = set(RULE_KEYS) - keys
        unknown = keys - set(RULE_KEYS)
        if missing or unknown:
            raise AssertionError(f"{self.name}: rule keys missing {sorted(missing)}, unknown {sorted(unknown)}")

    def switch(self, name: str) -> Switch:
        for s in self.switches:
            if s.name == name:
                return s
        valid = ", ".join(s.name for s in self.switches)
        raise RulesError(f"{self.name} has no switch {name!r}; its switches are: {valid}")


@dataclass(frozen=True, eq=False)
class Rules:
    """A game with every switch set: the exact rules a result was produced under."""

    game: str
    values: MappingProxyType = field(repr=False)
    switches: MappingProxyType = field(repr=False)

    def _key(self):
        return self.game, tuple(sorted(self.switches.items()))

    def __eq__(self, other):
        return isinstance(other, Rules) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return f"Rules({self.label()!r})"

    def __getitem__(self, key):
        return self.values[key]

    def label(self) -> str:
        """``game`` plus the switches that differ from the defaults, e.g. ``westcliff space_fill=king``."""
        from .games import GAMES
        game = GAMES[self.game]
        changed = [f"{k}={format_value(v)}" for k, v in self.switches.items() if game.switch(k).default != v]
        return " ".join([self.game] + changed)

    def switch_strings(self) -> dict:
        return {k: format_value(v) for k, v in self.switches.items()}


def format_value(value) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)
