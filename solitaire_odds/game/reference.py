"""Plain-Python reference rules: the test oracle for the numba engine.

Written for reading, not speed, straight from ``docs/rules.md`` and ``docs/rules-readings.md``
(deal layouts and exact move conventions). It reads only ``rules.game`` and
``rules.switches``, never the engine's derived rule values, so that it stays an independent
reading of the rules. Positions and move tuples follow :mod:`solitaire_odds.position`.

Each game family has a small class with three methods: ``deal`` (deck -> first position),
``moves`` (the legal moves of a position that is not won) and ``play`` (carry out a move
already known to be legal). The public functions below dispatch to them.
"""

from __future__ import annotations

from . import cards
from .position import Position
from ..rules import Rules

KING = 12
ACE = 0


# ---------------------------------------------------------------- public interface

def initial_position(rules: Rules, deck: list[int]) -> Position:
    """The position after the deal of ``deck`` (``deck[0]`` is dealt first)."""
    return _family(rules).deal(list(deck))


def legal_moves(rules: Rules, pos: Position) -> list[tuple]:
    """Every legal move of ``pos``, each once, in no particular order."""
    if is_won(rules, pos):
        return []
    return _family(rules).moves(pos)


def apply_move(rules: Rules, pos: Position, move: tuple) -> Position:
    """A new position with ``move`` made; ``pos`` is left unchanged."""
    if tuple(move) not in legal_moves(rules, pos):
        raise ValueError(f"illegal move {move!r} for {rules.game}")
    new = pos.copy()
    _family(rules).play(new, tuple(move))
    return new


def replay(rules: Rules, deck: list[int], line) -> Position:
    """The position after ``line`` is played from the deal of ``deck``; an illegal move raises
    ValueError (as :func:`apply_move` does), so a line that replays was legal move by move."""
    return play_line(rules, initial_position(rules, deck), line)


def play_line(rules: Rules, start: Position, line) -> Position:
    """The position after ``line`` is played from ``start``; ValueError naming the first illegal move."""
    pos = start
    for step, move in enumerate(line, 1):
        try:
            pos = apply_move(rules, pos, move)
        except ValueError as err:
            raise ValueError(f"move {step} of the line: {err}") from None
    return pos


def is_won(rules: Rules, pos: Position) -> bool:
    """Won when every foundation holds 13 cards (52 or 104 cards in all)."""
    return all(n == 13 for n in pos.found)


class ReplayError(AssertionError):
    """A line that a player or the solver reported as winning fails in the reference: a bug."""


def replay_win(rules: Rules, start: Position, line) -> Position:
    """The won position at the end of ``line`` played from ``start``; :class:`ReplayError` when
    a move is illegal here or the line does not end won. Every reported win goes through this
    before it counts."""
    try:
        pos = play_line(rules, start, line)
    except ValueError as err:
        raise ReplayError(f"{rules.label()}: a winning line's {err}") from None
    if not is_won(rules, pos):
        raise ReplayError(f"{rules.label()}: a winning line of {len(line)} moves does not end won")
    return pos


def _family(rules: Rules):
    if rules.game in Westcliff.PILES:
        return Westcliff(rules)
    if rules.game in ("st-helena", "louis", "box-kite"):
        return StHelena(rules)
    if rules.game == "duchess":
        return Duchess(rules)
    raise ValueError(f"the reference does not know the game {rules.game!r}")


# ---------------------------------------------------------------- shared helpers

def _place(kind: str, index: int) -> str:
    return f"{kind}{index}"


def _index(place: str) -> int:
    return int(place[1:])


def _take_from_pile(pos: Position, i: int, n: int) -> list[int]:
    """Lift the top ``n`` cards off pile ``i``; a face-down card left on top turns face up."""
    pile = pos.piles[i]
    moved = pile[len(pile) - n:]
    del pile[len(pile) - n:]
    if pile and pos.down[i] == len(pile):
        pos.down[i] -= 1
    return moved


def _alternate_down(lower: int, upper: int, wrap: bool) -> bool:
    """May ``lower`` lie on ``upper`` when building down in alternating colours?"""
    if cards.is_red(lower) == cards.is_red(upper):
        return False
    if wrap:
        return (cards.rank(lower) + 1) % 13 == cards.rank(upper)
    return cards.rank(lower) + 1 == cards.rank(upper)


def _run_length(pile: list[int], down: int, wrap: bool) -> int:
    """Length of the longest face-up run (down, alternating colours) on top of a pile."""
    if not pile:
        return 0
    length = 1
    while (length < len(pile) - down
           and _alternate_down(pile[-length], pile[-length - 1], wrap)):
        length += 1
    return length


def _run_sizes(run_moves: str, longest: int) -> list[int]:
    """Which run lengths may leave a pile whose top run is ``longest`` cards long."""
    if longest == 0:
        return []
    if run_moves == "single":
        return [1]
    if run_moves == "whole":
        return sorted({1, longest})
    return list(range(1, longest + 1))  # partial


# ---------------------------------------------------------------- Westcliff family

class Westcliff:
    """Westcliff (Classic and American) and Easthaven: one deck, piles of 2 down + 1 up,
    foundations Ace to King by suit, building down in alternating colours, no wrap."""

    PILES = {"westcliff-classic": 7, "westcliff": 10, "easthaven": 7}

    def __init__(self, rules: Rules):
        sw = rules.switches
        self.npiles = self.PILES[rules.game]
        self.deals_rows = rules.game == "easthaven"  # Easthaven deals rows, has no waste
        # Classic fixes run_moves=partial and space_fill=any; Easthaven fixes partial runs.
        self.run_moves = sw.get("run_moves", "partial")
        self.space_fill = sw.get("space_fill", "any")
        self.waste_playable = sw.get("waste_playable", True)
        self.aces_out_first = sw.get("aces_out_first", False)
        self.foundation_return = sw["foundation_return"]

    def deal(self, deck: list[int]) -> Position:
        found = [0, 0, 0, 0]
        if self.aces_out_first:
            deck = [c for c in deck if cards.rank(c) != ACE]
            found = [1, 1, 1, 1]
        p = self.npiles
        piles = [[deck[i], deck[p + i], deck[2 * p + i]] for i in range(p)]
        return Position(piles=piles, down=[2] * p, found=found, stock=deck[3 * p:][::-1])

    def fits_space(self, bottom_card: int) -> bool:
        if self.space_fill == "any":
            return True
        if self.space_fill == "king":
            return cards.rank(bottom_card) == KING
        return False  # none

    def targets(self, pos: Position, card: int, src: str) -> list[str]:
        """Piles that may take a run whose bottom card is ``card`` (never its own pile)."""
        out = []
        for j, pile in enumerate(pos.piles):
            dst = _place("p", j)
            if dst == src:
                continue
            if pile and _alternate_down(card, pile[-1], wrap=False):
                out.append(dst)
            elif not pile and self.fits_space(card):
                out.append(dst)
        return out

    def waste_available(self, pos: Position) -> bool:
        return bool(pos.waste) and (self.waste_playable or pos.waste_live)

    def moves(self, pos: Position) -> list[tuple]:
        moves = []
        for i, pile in enumerate(pos.piles):
            if not pile:
                continue
            src = _place("p", i)
            top = pile[-1]
            if pos.found[cards.suit(top)] == cards.rank(top):
                moves.append(("move", src, _place("f", cards.suit(top)), 1))
            for n in _run_sizes(self.run_moves, _run_length(pile, pos.down[i], wrap=False)):
                for dst in self.targets(pos, pile[-n], src):
                    moves.append(("move", src, dst, n))
        if self.waste_available(pos):
            top = pos.waste[-1]
            if pos.found[cards.suit(top)] == cards.rank(top):
                moves.append(("move", "w", _place("f", cards.suit(top)), 1))
            for dst in self.targets(pos, top, "w"):
                moves.append(("move", "w", dst, 1))
        if self.foundation_return:
            for s, count in enumerate(pos.found):
                if count > 0:
                    src = _place("f", s)
                    for dst in self.targets(pos, cards.make(count - 1, s), src):
                        moves.append(("move", src, dst, 1))
        if pos.stock:
            moves.append(("deal",) if self.deals_rows else ("turn",))
        return moves

    def play(self, pos: Position, move: tuple) -> None:
        # With waste_playable off, only a card just turned is live; any other move kills it.
        pos.waste_live = move == ("turn",) and not self.waste_playable
        if move == ("turn",):
            pos.waste.append(pos.stock.pop())
            return
        if move == ("deal",):
            for j in range(min(self.npiles, len(pos.stock))):
                pos.piles[j].append(pos.stock.pop())
            return
        _, src, dst, n = move
        if src == "w":
            moved = [pos.waste.pop()]
        elif src[0] == "f":
            s = _index(src)
            pos.found[s] -= 1
            moved = [cards.make(pos.found[s], s)]
        else:
            moved = _take_from_pile(pos, _index(src), n)
        if dst[0] == "f":
            pos.found[_index(dst)] += 1
        else:
            pos.piles[_index(dst)].extend(moved)


# ---------------------------------------------------------------- St. Helena family

class StHelena:
    """St. Helena, Louis and Box Kite: two decks all face up, 12 piles round 4 King
    foundations (f0-f3, built down) and 4 Ace foundations (f4-f7, built up); one card moves
    at a time, building up or down."""

    # First deal of St. Helena: which foundations each pile may play to.
    KING_ONLY_PILES = (0, 1, 2, 3)
    ACE_ONLY_PILES = (6, 7, 8, 9)

    def __init__(self, rules: Rules):
        sw = rules.switches
        self.game = rules.game
        self.space_fill = sw["space_fill"]
        self.build_suit = sw["build_suit"]
        self.redeals = sw["redeals"]
        self.redeal_order = sw["redeal_order"]
        self.foundation_transfer = sw["foundation_transfer"]
        self.wrap = sw["wrap"]

    def deal(self, deck: list[int]) -> Position:
        """Take out the first King and first Ace of each suit; deal the other 96 cards."""
        rest = []
        out = set()
        for c in deck:
            if cards.rank(c) in (KING, ACE) and c not in out:
                out.add(c)
            else:
                rest.append(c)
        if self.game == "louis":
            return Position(piles=[[c] for c in rest[:12]], down=[0] * 12, found=[1] * 8,
                            stock=rest[12:][::-1], opening=True)
        piles = [[] for _ in range(12)]
        for k, c in enumerate(rest):
            piles[k % 12].append(c)
        return Position(piles=piles, down=[0] * 12, found=[1] * 8)

    @staticmethod
    def next_rank(pos: Position, j: int) -> int:
        """Rank foundation ``j`` takes next (-1 or 13 once complete: nothing fits)."""
        if j < 4:
            return KING - pos.found[j]
        return pos.found[j]

    @staticmethod
    def top_rank(pos: Position, j: int) -> int:
        """Rank of the card on top of foundation ``j``."""
        if j < 4:
            return KING - pos.found[j] + 1
        return pos.found[j] - 1

    def fitting_foundations(self, pos: Position, card: int) -> list[int]:
        s = cards.suit(card)
        return [j for j in (s, s + 4) if self.next_rank(pos, j) == cards.rank(card)]

    def allowed_foundations(self, pos: Position, pile: int) -> tuple[int, ...]:
        """St. Helena's first deal restricts piles 1-4 to Kings, 7-10 to Aces."""
        if self.game == "st-helena" and pos.redeals_used == 0:
            if pile in self.KING_ONLY_PILES:
                return (0, 1, 2, 3)
            if pile in self.ACE_ONLY_PILES:
                return (4, 5, 6, 7)
        return tuple(range(8))

    def builds_on(self, card: int, under: int) -> bool:
        if self.build_suit == "same" and cards.suit(card) != cards.suit(under):
            return False
        gap = abs(cards.rank(card) - cards.rank(under))
        return gap == 1 or (self.wrap and gap == 12)

    def moves(self, pos: Position) -> list[tuple]:
        if pos.opening:
            return self.opening_moves(pos)
        moves = []
        for i, pile in enumerate(pos.piles):
            if not pile:
                continue
            src, top = _place("p", i), pile[-1]
            for j in self.fitting_foundations(pos, top):
                if j in self.allowed_foundations(pos, i):
                    moves.append(("move", src, _place("f", j), 1))
            for k, other in enumerate(pos.piles):
                if k == i:
                    continue
                if (other and self.builds_on(top, other[-1])) or (not other and self.space_fill == "any"):
                    moves.append(("move", src, _place("p", k), 1))
        if self.foundation_transfer:
            for j in range(8):
                partner = j + 4 if j < 4 else j - 4
                # the base King or Ace never leaves: a foundation keeps at least one card
                if pos.found[j] >= 2 and self.next_rank(pos, partner) == self.top_rank(pos, j):
                    moves.append(("move", _place("f", j), _place("f", partner), 1))
        if pos.redeals_used < self.redeals:
            moves.append(("redeal",))
        return moves

    def opening_moves(self, pos: Position) -> list[tuple]:
        """Louis' opening: only pile tops to foundations, then the deal of the rest."""
        moves = []
        for i, pile in enumerate(pos.piles):
            if pile:
                for j in self.fitting_foundations(pos, pile[-1]):
                    moves.append(("move", _place("p", i), _place("f", j), 1))
        return moves or [("deal",)]

    def play(self, pos: Position, move: tuple) -> None:
        if move == ("deal",):  # Louis: the rest of the stock, top card first
            self.deal_round_robin(pos, pos.stock[::-1])
            pos.stock = []
            pos.opening = False
            return
        if move == ("redeal",):
            pack = [c for pile in reversed(pos.piles) for c in reversed(pile)]  # top_first
            if self.redeal_order == "bottom_first":
                pack.reverse()
            pos.piles = [[] for _ in range(12)]
            self.deal_round_robin(pos, pack)
            pos.redeals_used += 1
            return
        _, src, dst, _n = move
        if src[0] == "f":  # foundation transfer
            pos.found[_index(src)] -= 1
            pos.found[_index(dst)] += 1
            return
        i = _index(src)
        card = pos.piles[i].pop()
        if dst[0] == "f":
            pos.found[_index(dst)] += 1
        else:
            pos.piles[_index(dst)].append(card)
        if pos.opening and not pos.piles[i] and pos.stock:
            pos.piles[i].append(pos.stock.pop())  # Louis refills an emptied pile at once

    @staticmethod
    def deal_round_robin(pos: Position, pack: list[int]) -> None:
        for k, c in enumerate(pack):
            pos.piles[k % 12].append(c)


# ---------------------------------------------------------------- Duchess

class Duchess:
    """Duchess: 4 reserve fans of 3, 4 piles, foundations from a chosen base rank, building
    down in alternating colours with wrap; spaces are filled from reserve, waste or stock."""

    def __init__(self, rules: Rules):
        self.run_moves = rules.switches["run_moves"]
        self.redeals = rules.switches["redeals"]

    def deal(self, deck: list[int]) -> Position:
        reserve = [deck[3 * i:3 * i + 3] for i in range(4)]
        piles = [[deck[12 + i]] for i in range(4)]
        return Position(piles=piles, down=[0] * 4, found=[0] * 4, stock=deck[16:][::-1],
                        reserve=reserve)

    @staticmethod
    def fits_foundation(pos: Position, card: int) -> bool:
        count = pos.found[cards.suit(card)]
        return count < 13 and (pos.base_rank + count) % 13 == cards.rank(card)

    def single_card_moves(self, pos: Position, src: str, card: int) -> list[tuple]:
        """A reserve or waste card: to its foundation or onto a pile (not into a space)."""
        moves = []
        if self.fits_foundation(pos, card):
            moves.append(("move", src, _place("f", cards.suit(card)), 1))
        for j, pile in enumerate(pos.piles):
            if pile and _alternate_down(card, pile[-1], wrap=True):
                moves.append(("move", src, _place("p", j), 1))
        return moves

    def moves(self, pos: Position) -> list[tuple]:
        if pos.base_rank == -1:  # the opening choice of base card
            return [("move", _place("r", i), _place("f", cards.suit(fan[-1])), 1)
                    for i, fan in enumerate(pos.reserve) if fan]
        moves = []
        for i, fan in enumerate(pos.reserve):
            if fan:
                moves += self.single_card_moves(pos, _place("r", i), fan[-1])
        if pos.waste:
            moves += self.single_card_moves(pos, "w", pos.waste[-1])
        for i, pile in enumerate(pos.piles):
            if not pile:
                continue
            src = _place("p", i)
            if self.fits_foundation(pos, pile[-1]):
                moves.append(("move", src, _place("f", cards.suit(pile[-1])), 1))
            for n in _run_sizes(self.run_moves, _run_length(pile, pos.down[i], wrap=True)):
                for j, other in enumerate(pos.piles):
                    if j != i and other and _alternate_down(pile[-n], other[-1], wrap=True):
                        moves.append(("move", src, _place("p", j), n))
        moves += self.space_fills(pos)
        if pos.stock:
            moves.append(("turn",))
        elif pos.waste and pos.redeals_used < self.redeals:
            moves.append(("redeal",))
        return moves

    @staticmethod
    def space_fills(pos: Position) -> list[tuple]:
        """Reserve tops while the reserve lasts; then the waste top, or the stock top."""
        if any(fan for fan in pos.reserve):
            sources = [_place("r", i) for i, fan in enumerate(pos.reserve) if fan]
        elif pos.waste:
            sources = ["w"]
        elif pos.stock:
            sources = ["s"]
        else:
            sources = []
        spaces = [_place("p", j) for j, pile in enumerate(pos.piles) if not pile]
        return [("move", src, dst, 1) for src in sources for dst in spaces]

    def play(self, pos: Position, move: tuple) -> None:
        if move == ("turn",):
            pos.waste.append(pos.stock.pop())
            return
        if move == ("redeal",):
            pos.stock = pos.waste[::-1]  # the waste turned over: its bottom card on top
            pos.waste = []
            pos.redeals_used += 1
            return
        _, src, dst, n = move
        if src[0] == "p":
            moved = _take_from_pile(pos, _index(src), n)
        elif src[0] == "r":
            moved = [pos.reserve[_index(src)].pop()]
        elif src == "w":
            moved = [pos.waste.pop()]
        else:  # "s"
            moved = [pos.stock.pop()]
        if dst[0] == "f":
            if pos.base_rank == -1:
                pos.base_rank = cards.rank(moved[0])
            pos.found[_index(dst)] += 1
        else:
            pos.piles[_index(dst)].extend(moved)
