"""Position files: a game in progress, typed by a person from the table or a screen.

One line per part, ``name: tokens``; ``#`` starts a comment. Cards are named as in deal files
(``7H``, ``TS``, ``10S``); ``##`` is a card whose face is not known (``##x20`` twenty of them).
Piles and fans are numbered from 0, as the solver's lines name them (``p0``, ``r0``)::

    # Classic Westcliff after a few moves
    foundations: AC - 2H -        # the top card of each suit's foundation, C D H S ('-': empty)
    p0: ## ## | 7H 6C             # face-down cards, then '|', then the face-up cards, bottom to top
    p1: ## 9D                     # without '|': the leading ## are face down, the rest face up
    p2:                           # an empty pile
    stock: ##x18                  # in the order the cards come off the stock, or only a count
    waste: 3C 8D                  # bottom to top

The St. Helena family names its two rows of foundations ``upper:`` (the King foundations, by
their lowest card) and ``lower:`` (the Ace foundations, by their highest), and ``redeals: N``
the redeals made so far; Duchess adds ``base: 5`` (the foundations' base rank, once chosen),
``r0:`` .. ``r3:`` (its reserve fans, bottom to top) and ``redeals: N``. A part left out is
empty (foundations: only the St. Helena family's bases).

:func:`read_position` refuses a position that cannot occur in the game with one line naming the
problem (:class:`PositionFileError`); the cards not placed anywhere are the hidden ones, and
:meth:`PositionFile.completion` deals them at random onto the ``##`` places.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from . import cards, deals
from .position import Position
from ..rules import Rules

HIDDEN = -1
"""A card place in :attr:`PositionFile.position` whose card is not known."""
MAX_FILE_BYTES = 1 << 16
SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")


class PositionFileError(ValueError):
    """A position file that is not a position of the game (one line, exit status 2)."""


@dataclass
class PositionFile:
    """A parsed position: ``position`` with :data:`HIDDEN` where a card is not known, and the
    cards those places hold between them (``hidden``, one of each copy)."""

    position: Position
    hidden: list[int] = field(default_factory=list)

    @property
    def known(self) -> bool:
        return not self.hidden

    def completion(self, rng: random.Random) -> Position:
        """The position with the hidden cards dealt at random onto the hidden places: every
        arrangement equally likely, which is all a person who sees the table knows."""
        order = list(self.hidden)
        rng.shuffle(order)
        filled = self.position.copy()
        for place in [*filled.piles, filled.stock]:
            for k, card in enumerate(place):
                if card == HIDDEN:
                    place[k] = order.pop()
        return filled


def read_position(path: str | Path, rules: Rules) -> PositionFile:
    """The position in the text file ``path`` for ``rules`` (see the module's docstring)."""
    p = Path(path)
    try:
        data = p.read_bytes()[:MAX_FILE_BYTES + 1]
    except OSError as err:
        raise PositionFileError(f"cannot read {p}: {err.strerror}") from None
    if len(data) > MAX_FILE_BYTES or b"\0" in data:
        raise PositionFileError(f"{p} is not a position file (a short text file of card names)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise PositionFileError(f"{p} is not a text file; save it as plain text") from None
    try:
        return parse_position(text, rules)
    except PositionFileError as err:
        raise PositionFileError(f"{p}: {err}") from None


def parse_position(text: str, rules: Rules) -> PositionFile:
    """The position that ``text`` describes, checked against ``rules``."""
    return _Parser(rules).parse(text)


class _Parser:
    def __init__(self, rules: Rules):
        self.rules = rules
        self.two_decks = rules["ncards"] == 104
        self.npiles, self.nfans = rules["piles"], rules["reserve_fans"]
        self.duchess = rules["foundations"] == "chosen-base"
        self.has_waste = rules["stock"] == "turn" and not self.two_decks
        self.has_stock = rules["stock"] != "none"
        self.face_down = rules["pattern"] == "rows"
        self.seen: dict[str, int] = {}

    def parse(self, text: str) -> PositionFile:
        pos = Position(piles=[[] for _ in range(self.npiles)], down=[0] * self.npiles,
                       found=[1] * 8 if self.two_decks else [0] * 4,
                       reserve=[[] for _ in range(self.nfans)])
        for number, raw in enumerate(text.splitlines(), 1):
            line = _strip_comment(raw)
            if not line.strip():
                continue
            name, sep, rest = line.partition(":")
            if not sep:
                raise PositionFileError(f"line {number}: expected 'name: cards', as in 'p0: ## 7H'")
            self._part(number, name.strip().lower(), rest.split(), pos)
        if self.duchess and any(pos.found) and pos.base_rank < 0:
            raise PositionFileError("cards are on the foundations but no 'base:' rank is given")
        self._check_counts(pos)
        hidden = self._hidden_cards(pos)
        return PositionFile(pos, hidden)

    def _part(self, number: int, name: str, tokens: list[str], pos: Position) -> None:
        where = f"line {number} ({name})"
        if name in self.seen:
            raise PositionFileError(f"{where}: {name} is given twice (lines {self.seen[name]} and {number})")
        self.seen[name] = number
        if name[:1] in "pr" and name[1:].isdigit():
            self._pile_or_fan(where, name, tokens, pos)
        elif name == "stock":
            if not self.has_stock:
                raise PositionFileError(f"{where}: {self.rules.game} has no stock")
            pos.stock = self._cards(where, tokens)[::-1]  # typed in the order they come off
        elif name == "waste":
            if not self.has_waste:
                raise PositionFileError(f"{where}: {self.rules.game} has no waste")
            pos.waste = self._cards(where, tokens, hidden_ok=False)
        elif name == "foundations" and not self.two_decks:
            pos.found = self._tops(where, tokens, lambda r: r + 1)
        elif name in ("upper", "lower") and self.two_decks:
            counts = self._tops(where, tokens, (lambda r: 13 - r) if name == "upper" else (lambda r: r + 1),
                                empty=1)
            pos.found = pos.found[:4] + counts if name == "lower" else counts + pos.found[4:]
        elif name == "base" and self.duchess:
            pos.base_rank = _rank(tokens, where)
        elif name == "redeals" and self.rules["redeals"] > 0:
            pos.redeals_used = _count(tokens, where, self.rules["redeals"])
        else:
            raise PositionFileError(f"{where}: {self.rules.game} has no part {name!r}; its parts are "
                                    f"{', '.join(self._part_names())}")

    def _part_names(self) -> list[str]:
        names = [f"p0..p{self.npiles - 1}"] + ([f"r0..r{self.nfans - 1}"] if self.nfans else [])
        names += ["upper", "lower"] if self.two_decks else ["foundations"]
        names += ["stock"] * self.has_stock + ["waste"] * self.has_waste + ["base"] * self.duchess
        return names + ["redeals"] * (self.rules["redeals"] > 0)

    def _pile_or_fan(self, where: str, name: str, tokens: list[str], pos: Position) -> None:
        index, fans = int(name[1:]), name[0] == "r"
        count = self.nfans if fans else self.npiles
        if index >= count:
            what = "reserve fans" if fans else "piles"
            raise PositionFileError(f"{where}: {self.rules.game} has {count} {what}"
                                    + (f", {name[0]}0..{name[0]}{count - 1}" if count else ""))
        if fans:
            pos.reserve[index] = self._cards(where, tokens, hidden_ok=False)
            return
        if "|" in tokens:
            cut = tokens.index("|")
            down_tokens, up_tokens = tokens[:cut], tokens[cut + 1:]
            if "|" in up_tokens:
                raise PositionFileError(f"{where}: one '|' at most, between face-down and face-up cards")
        else:
            lead = next((k for k, t in enumerate(tokens) if not t.startswith("##")), len(tokens))
            down_tokens, up_tokens = tokens[:lead], tokens[lead:]
        down = self._cards(where, down_tokens)
        up = self._cards(where, up_tokens, hidden_ok=False,
                         hidden_why="a face-down card cannot lie above a face-up one")
        if down and not up:
            raise PositionFileError(f"{where}: the top card of a pile is face up; name it after its face-down cards")
        if down and not self.face_down:
            raise PositionFileError(f"{where}: {self.rules.game} deals every card face up")
        self._check_builds(where, up)
        pos.piles[index], pos.down[index] = down + up, len(down)

    def _check_builds(self, where: str, up: list[int]) -> None:
        """In the games where face-up cards come to lie on each other only by building (not
        Easthaven, whose rows are dealt onto the piles, nor the St. Helena family, dealt face
        up), each face-up card above the lowest must build on the one below it."""
        if self.rules["stock"] == "deal-row" or self.two_decks or self.rules["run_moves"] == "single":
            return
        wrap = self.rules["wrap"]
        for lower, upper in zip(up, up[1:]):
            steps_down = (cards.rank(lower) - cards.rank(upper)) % 13 if wrap else cards.rank(lower) - cards.rank(upper)
            if steps_down != 1 or cards.is_red(lower) == cards.is_red(upper):
                raise PositionFileError(f"{where}: {cards.name(upper)} cannot lie face up on {cards.name(lower)} "
                                        "(cards are built down in alternating colours)")

    def _cards(self, where: str, tokens: list[str], hidden_ok: bool = True,
               hidden_why: str = "") -> list[int]:
        out = []
        for token in tokens:
            if token.startswith("##"):
                if not hidden_ok:
                    raise PositionFileError(f"{where}: {hidden_why or 'every card here is face up: name it'}")
                times = token[2:]
                if times and not (times[:1] in "xX*" and times[1:].isdigit()):
                    raise PositionFileError(f"{where}: {token!r}: write ## for one unknown card, ##x20 for twenty")
                out.extend([HIDDEN] * (int(times[1:]) if times else 1))
                continue
            try:
                out.append(cards.parse(token))
            except ValueError as err:
                raise PositionFileError(f"{where}: {err}") from None
            if len(out) > self.rules["ncards"]:
                break
        return out

    def _tops(self, where: str, tokens: list[str], count_of, empty: int = 0) -> list[int]:
        """Foundation counts from the top cards typed per suit (C D H S, ``-`` for none)."""
        if len(tokens) != 4:
            raise PositionFileError(f"{where}: name the top card of each foundation, clubs diamonds hearts "
                                    "spades, '-' for an empty one, e.g. 'AC - 3H -'")
        counts = []
        for suit, token in enumerate(tokens):
            if token == "-":
                counts.append(empty)
                continue
            try:
                card = cards.parse(token)
            except ValueError as err:
                raise PositionFileError(f"{where}: {err}") from None
            if cards.suit(card) != suit:
                raise PositionFileError(f"{where}: {token} is not a card of the {SUIT_WORDS[suit]} foundation "
                                        "(the foundations are listed clubs, diamonds, hearts, spades)")
            counts.append(count_of(cards.rank(card)))
        return counts

    def _foundation_cards(self, pos: Position) -> list[int]:
        """Every card the foundation counts of ``pos`` put on the foundations."""
        if self.two_decks:
            return [cards.make(12 - k, s) for s in range(4) for k in range(pos.found[s])] + \
                   [cards.make(k, s) for s in range(4) for k in range(pos.found[4 + s])]
        base = max(pos.base_rank, 0)
        return [cards.make((base + k) % 13, s) for s in range(4) for k in range(pos.found[s])]

    def _check_counts(self, pos: Position) -> None:
        if self.duchess and pos.base_rank >= 0:
            pos.found = [self._duchess_count(pos, s) for s in range(4)]
        placed = [c for pile in pos.piles for c in pile] + pos.stock + pos.waste + \
                 [c for fan in pos.reserve for c in fan] + self._foundation_cards(pos)
        copies = self.rules["ncards"] // 52
        counts = [0] * 52
        for card in placed:
            if card != HIDDEN:
                counts[card] += 1
        for card, n in enumerate(counts):
            if n > copies:
                times = "twice" if n == 2 else f"{n} times"
                pack = "a deck holds one" if copies == 1 else f"the pack holds {copies}"
                raise PositionFileError(f"{cards.name(card)} is placed {times} (counting the foundations); {pack}")
        ncards = self.rules["ncards"]
        if len(placed) < ncards:
            raise PositionFileError(f"only {len(placed)} of the {ncards} cards are accounted for (foundations, "
                                    "piles, stock, waste and ## places): add the others, ## for those not known")
        if len(placed) > ncards:
            raise PositionFileError(f"{len(placed)} cards are placed, but {self.rules.game} is played with {ncards}")

    def _duchess_count(self, pos: Position, suit: int) -> int:
        """Duchess' foundations were typed as ranks counted from the Ace; from the base they
        wrap: a top card of rank r holds (r - base) mod 13 + 1 cards."""
        count = pos.found[suit]
        return 0 if count == 0 else (count - 1 - pos.base_rank) % 13 + 1

    def _hidden_cards(self, pos: Position) -> list[int]:
        copies = self.rules["ncards"] // 52
        placed = [c for pile in pos.piles for c in pile] + pos.stock + pos.waste + \
                 [c for fan in pos.reserve for c in fan] + self._foundation_cards(pos)
        return [card for card in range(52) for _ in range(copies - placed.count(card))]


def _strip_comment(raw: str) -> str:
    """``raw`` without its comment: a ``#`` that is not part of a ``##`` token."""
    out, k = [], 0
    while k < len(raw):
        if raw.startswith("##", k):
            out.append("##")
            k += 2
        elif raw[k] == "#":
            break
        else:
            out.append(raw[k])
            k += 1
    return "".join(out)


def _rank(tokens: list[str], where: str) -> int:
    if len(tokens) != 1 or tokens[0].upper().replace("10", "T") not in cards.RANKS:
        raise PositionFileError(f"{where}: give one rank, A 2 .. 9 T J Q K")
    return cards.RANKS.index(tokens[0].upper().replace("10", "T"))


def _count(tokens: list[str], where: str, most: int) -> int:
    if len(tokens) != 1 or not tokens[0].isdigit() or int(tokens[0]) > most:
        raise PositionFileError(f"{where}: give how many redeals were made, 0..{most}")
    return int(tokens[0])


def deal_position(rules: Rules, deal: int) -> str:
    """The first position of deal number ``deal`` as a position file's text, every card known
    (a start for typing a position, and the tests' round trip)."""
    from . import reference

    return format_position(reference.initial_position(rules, deals.deck(deal, rules["ncards"])), rules)


def format_position(pos: Position, rules: Rules) -> str:
    """``pos`` as a position file's text (every card known)."""
    names = lambda cs: " ".join(cards.name(c) for c in cs)  # noqa: E731
    lines = []
    if rules["ncards"] == 104:
        upper = [cards.name(cards.make(13 - n, s)) for s, n in enumerate(pos.found[:4])]
        lower = [cards.name(cards.make(n - 1, s)) for s, n in enumerate(pos.found[4:])]
        lines += [f"upper: {' '.join(upper)}", f"lower: {' '.join(lower)}"]
    else:
        base = max(pos.base_rank, 0)
        tops = [cards.name(cards.make((base + n - 1) % 13, s)) if n else "-" for s, n in enumerate(pos.found)]
        lines.append(f"foundations: {' '.join(tops)}")
        if pos.base_rank >= 0:
            lines.append(f"base: {cards.RANKS[pos.base_rank]}")
    lines += [f"r{i}: {names(fan)}" for i, fan in enumerate(pos.reserve)]
    for i, pile in enumerate(pos.piles):
        down, up = pile[:pos.down[i]], pile[pos.down[i]:]
        lines.append(f"p{i}: " + (f"{names(down)} | {names(up)}" if down else names(up)))
    if rules["stock"] != "none":
        lines.append(f"stock: {names(pos.stock[::-1])}")
    if rules["stock"] == "turn" and rules["ncards"] == 52:
        lines.append(f"waste: {names(pos.waste)}")
    if rules["redeals"] > 0:
        lines.append(f"redeals: {pos.redeals_used}")
    return "\n".join(lines) + "\n"
