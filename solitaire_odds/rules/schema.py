"""The rule vocabulary every game is declared in: typed parts with defaults, and switches.

A game is a :class:`Game`: a handful of parts (:class:`Pack`, :class:`Tableau`, :class:`Deal`,
:class:`Foundations`, :class:`Stock`, :class:`Redeal`), each with defaults so that a declaration
spells out only what differs, plus named :class:`Switch` es that a user may set. Resolving a
game with switch settings gives :class:`Rules`: the parts with the switches applied. Every rule
is a field of one part, and the field's name is the rule's key (``rules["space_fill"]``), so a
switch is declared by naming the field it changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from types import MappingProxyType


class RulesError(ValueError):
    """A game, switch or value that does not exist; the message lists the valid choices."""


# --- the parts -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pack:
    ncards: int = 52  # 52 (one deck) or 104 (two decks; twin cards are interchangeable)


@dataclass(frozen=True)
class Tableau:
    piles: int = 7
    build: str = "alt-colour-down"   # alt-colour-down | up-or-down (one rank either way)
    build_suit: str = "same"          # up-or-down building: same suit | any suit
    wrap: bool = False                # building turns the corner (King and Ace adjacent)
    run_moves: str = "partial"        # what moves between piles: single | whole (or top card) | partial
    space_fill: str = "any"           # none | any | king | reserve-then-waste (Duchess)


@dataclass(frozen=True)
class Deal:
    """How the first position is laid out, and what happens before normal play."""

    pattern: str = "rows"        # rows: rows_down face-down rows, then a face-up row |
    #                              round-robin: every card, one a pile in turn | one-each: a card a pile
    rows_down: int = 0
    reserve_fans: int = 0        # face-up fans dealt before the piles; only their top cards play
    fan_size: int = 0
    opening: str = "none"        # none | foundation-plays-then-deal: only foundation plays, an emptied
    #                              pile refilled from the stock, until the rest of the stock is dealt


@dataclass(frozen=True)
class Foundations:
    foundations: str = "suit-up"     # suit-up: Ace to King | kings-and-aces: a King and an Ace of each
    #                                  suit out first, built down and up | chosen-base: the first card
    #                                  played from the reserve sets every foundation's base, wrapping
    aces_out_first: bool = False
    foundation_return: bool = False  # a foundation's top card may come back to the tableau
    foundation_transfer: bool = False  # a card may cross between the two foundations of its suit
    first_deal_foundations: tuple = ()  # per pile, where its cards may go up before the first redeal:
    #                                     "upper" (King foundations), "lower" (Ace ones), "either";
    #                                     empty: no restriction


@dataclass(frozen=True)
class Stock:
    stock: str = "turn"          # none | turn (one card to the waste) | deal-row (one card onto each pile)
    waste_playable: bool = True  # the waste's top card stays available (off: only the card just turned)


@dataclass(frozen=True)
class Redeal:
    redeals: int = 0
    redeal_kind: str = "none"       # none | gather-piles (St. Helena) | turn-waste (the waste becomes the stock)
    redeal_order: str = "top_first"  # gather-piles: the gathered pack dealt top_first or bottom_first


PARTS = (Pack, Tableau, Deal, Foundations, Stock, Redeal)
RULE_KEYS = tuple(f.name for part in PARTS for f in fields(part))
_PART_OF = {f.name: i for i, part in enumerate(PARTS) for f in fields(part)}
QUALIFIED = {f.name: f"{part.__name__.lower()}.{f.name}" for part in PARTS for f in fields(part)}
"""Each rule key's name with its part, ``tableau.piles``: how a setting of a part field that
is not one of the game's switches is written."""

CHOICES = {
    "build": ("alt-colour-down", "up-or-down"),
    "build_suit": ("same", "any"),
    "run_moves": ("partial", "whole", "single"),
    "space_fill": ("none", "any", "king", "reserve-then-waste"),
    "pattern": ("rows", "round-robin", "one-each"),
    "opening": ("none", "foundation-plays-then-deal"),
    "foundations": ("suit-up", "kings-and-aces", "chosen-base"),
    "stock": ("none", "turn", "deal-row"),
    "redeal_kind": ("none", "gather-piles", "turn-waste"),
    "redeal_order": ("top_first", "bottom_first"),
}
"""The values a text rule takes (the engine's compile step maps each to a number)."""
FIRST_DEAL_GROUPS = ("upper", "lower", "either")


def rule_key(name: str) -> str:
    """The rule key a setting names: ``piles`` or ``tableau.piles``; RulesError if none."""
    key = name.strip()
    _, dot, bare = key.partition(".")
    if dot and QUALIFIED.get(bare) == key:
        return bare
    if not dot and key in _PART_OF:
        return key
    raise RulesError(f"no rule {name!r}; rules are: {', '.join(QUALIFIED.values())}")


def field_switch(key: str) -> Switch:
    """A part field as a switch (its type and allowed values), to parse a setting of it."""
    default = next(f.default for f in fields(PARTS[_PART_OF[key]]) if f.name == key)
    return Switch(key, default, CHOICES.get(key, ()))


# --- switches and games ----------------------------------------------------------------------

MAX_COUNT = 200
"""The largest count a switch takes: the engine counts redeals in one byte, and no game of
these needs more than a few."""


@dataclass(frozen=True)
class Switch:
    """A rule a user may set: the field ``name`` of one part, its default and allowed values."""

    name: str
    default: object
    choices: tuple = ()  # allowed values; empty for a non-negative int
    source: str = ""     # who plays it which way

    def parse(self, value, game: str):
        """Turn a CLI string or Python value into the switch's value, or raise RulesError."""
        if isinstance(self.default, tuple):
            items = value if isinstance(value, (tuple, list)) else [v for v in str(value).split(",") if v.strip()]
            items = tuple(str(v).strip().lower() for v in items)
            wrong = [v for v in items if v not in FIRST_DEAL_GROUPS]
            if wrong:
                raise RulesError(f"{game}: {self.name} takes a list of {' | '.join(FIRST_DEAL_GROUPS)}, "
                                 f"not {wrong[0]!r}")
            return items
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
            if number > MAX_COUNT:
                raise RulesError(f"{game}: switch {self.name} takes at most {MAX_COUNT}, not {value!r}")
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
    """A game's declaration: its parts (defaults where not given) and its switches."""

    name: str
    title: str
    source: str
    pack: Pack = Pack()
    tableau: Tableau = Tableau()
    deal: Deal = Deal()
    foundations: Foundations = Foundations()
    stock: Stock = Stock()
    redeal: Redeal = Redeal()
    switches: tuple[Switch, ...] = ()
    claim: str = ""
    ladder: tuple[int, ...] = (100_000, 1_000_000)
    """The solver's escalation for ``--budget auto``: each step a fresh search of that many nodes
    on a deal the step before left unknown, chosen from the measured deciding table so that a
    deal costs about a CPU-second on average. The last step caps a deal's work (in nodes, so the
    verdicts do not depend on the machine)."""
    reading_ladders: tuple = ()
    """((switch, value) pairs, ladder) for readings whose cost differs from the defaults': a
    reading takes the ladder whose pairs are exactly its switches off their defaults."""

    def __post_init__(self):
        unknown = [s.name for s in self.switches if s.name not in _PART_OF]
        if unknown:
            raise AssertionError(f"{self.name}: switches {unknown} name no rule")

    def ladder_for(self, rules: "Rules") -> tuple[int, ...]:
        """The ``--budget auto`` escalation of ``rules`` (a reading of this game)."""
        defaults = dict(rules.defaults)
        changed = {k: v for k, v in rules.switches.items() if defaults[k] != v}
        return next((ladder for pairs, ladder in self.reading_ladders if dict(pairs) == changed), self.ladder)

    def parts(self) -> tuple:
        return (self.pack, self.tableau, self.deal, self.foundations, self.stock, self.redeal)

    def switch(self, name: str) -> Switch:
        for s in self.switches:
            if s.name == name:
                return s
        valid = ", ".join(s.name for s in self.switches)
        raise RulesError(f"{self.name} has no switch {name!r}; its switches are: {valid} "
                         f"(any other rule is set by its part's name, e.g. tableau.piles=8)")

    def resolve(self, settings: dict, changes: dict | None = None, title: str = "") -> "Rules":
        """The rules with ``settings`` (already parsed switch values) over the switches'
        defaults, and ``changes`` (parsed values of other part fields) over the declaration.
        A change to the value the declaration already has is no change: the same rules are
        the same :class:`Rules`, however they were written. ``title`` is for display only."""
        chosen = {s.name: s.default for s in self.switches}
        chosen.update(settings)
        parts = list(self.parts())
        declared = {key: getattr(parts[_PART_OF[key]], key) for key in (changes or {})}
        changed = {key: value for key, value in (changes or {}).items() if declared[key] != value}
        for key, value in {**chosen, **changed}.items():
            i = _PART_OF[key]
            parts[i] = replace(parts[i], **{key: value})
        defaults = tuple((s.name, s.default) for s in self.switches)
        return Rules(self.name, tuple(parts), tuple(chosen.items()), defaults, tuple(sorted(changed.items())),
                     title)


@dataclass(frozen=True, eq=False)
class Rules:
    """A game with every switch set: the exact rules a result was produced under. Pickles whole
    (workers receive it as it is). Compares and hashes by its resolved values, never by the
    game's name: two rule sets that play alike are one, and a name reused for other rules is
    not mistaken for the original (caches of compiled parameters rely on this)."""

    game: str
    parts: tuple = field(repr=False)
    settings: tuple = field(repr=False)  # (switch, value) pairs, every switch of the game
    defaults: tuple = field(repr=False)  # (switch, default) pairs, for labels
    changes: tuple = field(default=(), repr=False)  # (rule key, value) pairs off the declaration, not switches
    title: str = field(default="", repr=False)  # a rules file's title, for display: never part of the identity

    @property
    def switches(self) -> MappingProxyType:
        return MappingProxyType(dict(self.settings))

    def _key(self):
        return tuple(self.values.items())

    def __eq__(self, other):
        return isinstance(other, Rules) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return f"Rules({self.label()!r})"

    def __getitem__(self, key):
        try:
            return getattr(self.parts[_PART_OF[key]], key)
        except KeyError:
            raise KeyError(f"no rule {key!r}; rules are: {', '.join(RULE_KEYS)}") from None

    @property
    def values(self) -> MappingProxyType:
        """Every rule key and its value (what a run's manifest records)."""
        return MappingProxyType({key: self[key] for key in RULE_KEYS})

    def label(self) -> str:
        """``game`` plus the switches that differ from the defaults and the part fields changed,
        e.g. ``westcliff space_fill=king tableau.piles=8``."""
        defaults = dict(self.defaults)
        changed = [f"{k}={format_value(v)}" for k, v in self.switches.items() if defaults[k] != v]
        changed += [f"{QUALIFIED[k]}={format_value(v)}" for k, v in self.changes]
        return " ".join([self.game] + changed)

    def heading(self) -> str:
        """The label, after the title a rules file gives (``Westcliff 8 x 4 (westcliff
        tableau.piles=8 deal.rows_down=3)``): what a command's output is headed with."""
        return f"{self.title} ({self.label()})" if self.title and self.title != self.game else self.label()

    def switch_strings(self) -> dict:
        return {k: format_value(v) for k, v in self.switches.items()}

    def change_strings(self) -> dict:
        """The part fields changed off the declaration, by qualified name, as text."""
        return {QUALIFIED[k]: format_value(v) for k, v in self.changes}

    def settings_text(self) -> dict:
        """Every setting as ``--set`` takes it: the switches, then the changed part fields."""
        return {**self.switch_strings(), **self.change_strings()}


def format_value(value) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, tuple):
        return ",".join(value)
    return str(value)
