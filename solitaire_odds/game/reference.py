"""Plain-Python reference rules: the test oracle for the numba engine.

Written for reading, not speed, straight from ``docs/rules.md`` and ``docs/rules-readings.md``
(deal layouts and exact move conventions). It reads only the rules' part values
(``rules["piles"]``, ``rules["stock"]``, ...), never a game's name nor the engine's derived
values, so that it stays an independent reading of the rules and plays a variant that no
declaration names (Westcliff with 8 piles, Easthaven with a waste) by the same clauses as the
seven games. Positions and move tuples follow :mod:`solitaire_odds.position`.

One class, :class:`Table`, holds the clauses, one method per part of a turn: ``deal`` (deck
-> first position), ``moves`` (the legal moves of a position that is not won) and ``play``
(carry out a move already known to be legal). The public functions below call it. A
combination of parts whose play these clauses cannot tell is refused before it gets here
(:mod:`solitaire_odds.rules.checks`).
"""

from __future__ import annotations

from functools import lru_cache

from . import cards
from .position import Position
from ..rules import Rules

KING = 12
ACE = 0


# ---------------------------------------------------------------- public interface

def initial_position(rules: Rules, deck: list[int]) -> Position:
    """The position after the deal of ``deck`` (``deck[0]`` is dealt first)."""
    return _table(rules).deal(list(deck))


def legal_moves(rules: Rules, pos: Position) -> list[tuple]:
    """Every legal move of ``pos``, each once, in no particular order."""
    if is_won(rules, pos):
        return []
    return _table(rules).moves(pos)


def apply_move(rules: Rules, pos: Position, move: tuple) -> Position:
    """A new position with ``move`` made; ``pos`` is left unchanged."""
    if tuple(move) not in legal_moves(rules, pos):
        raise ValueError(f"illegal move {move!r} for {rules.label()}")
    new = pos.copy()
    _table(rules).play(new, tuple(move))
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


@lru_cache(maxsize=64)
def _table(rules: Rules) -> Table:
    return Table(rules)


# ---------------------------------------------------------------- small helpers

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


def _run_sizes(run_moves: str, longest: int) -> list[int]:
    """Which run lengths may leave a pile whose top run is ``longest`` cards long."""
    if longest == 0:
        return []
    if run_moves == "single":
        return [1]
    if run_moves == "whole":
        return sorted({1, longest})
    return list(range(1, longest + 1))  # partial


# ---------------------------------------------------------------- the clauses

class Table:
    """The rules of one set of parts. Foundations are numbered as in
    :mod:`solitaire_odds.game.position`: one per suit (f0-f3, C D H S), or with King and Ace
    foundations the King ones f0-f3 (built down) and the Ace ones f4-f7 (built up)."""

    def __init__(self, rules: Rules):
        self.npiles = rules["piles"]
        self.nfans, self.fan_size = rules["reserve_fans"], rules["fan_size"]
        self.pattern, self.rows_down = rules["pattern"], rules["rows_down"]
        self.opening = rules["opening"] == "foundation-plays-then-deal"
        self.build, self.build_suit, self.wrap = rules["build"], rules["build_suit"], rules["wrap"]
        self.run_moves, self.space_fill = rules["run_moves"], rules["space_fill"]
        self.foundations = rules["foundations"]
        self.nfound = 8 if self.foundations == "kings-and-aces" else 4
        self.aces_out_first = rules["aces_out_first"]
        self.foundation_return = rules["foundation_return"]
        self.foundation_transfer = rules["foundation_transfer"]
        self.first_deal = rules["first_deal_foundations"]
        self.stock, self.waste_playable = rules["stock"], rules["waste_playable"]
        self.redeals, self.redeal_kind = rules["redeals"], rules["redeal_kind"]
        self.redeal_order = rules["redeal_order"]

    # --- the deal

    def deal(self, deck: list[int]) -> Position:
        """Cards that start on the foundations come out first (a King and an Ace of each suit,
        the first met, for King and Ace foundations; the Aces with ``aces_out_first``); the
        reserve fans are dealt next, a fan at a time, then the piles by the pattern; what is
        left is the stock, the next card to deal on top."""
        found = [0] * self.nfound
        rest = []
        for c in deck:
            s = cards.suit(c)
            if self.foundations == "kings-and-aces" and cards.rank(c) == KING and found[s] == 0:
                found[s] = 1
            elif self.foundations == "kings-and-aces" and cards.rank(c) == ACE and found[4 + s] == 0:
                found[4 + s] = 1
            elif self.aces_out_first and cards.rank(c) == ACE:
                found[s] = 1
            else:
                rest.append(c)
        n = self.npiles
        reserve = [rest[i * self.fan_size:(i + 1) * self.fan_size] for i in range(self.nfans)]
        rest = rest[self.nfans * self.fan_size:]
        down = [0] * n
        if self.pattern == "rows":
            rows = self.rows_down + 1
            piles = [[rest[r * n + i] for r in range(rows)] for i in range(n)]
            down = [self.rows_down] * n
            rest = rest[rows * n:]
        elif self.pattern == "one-each":
            piles = [[c] for c in rest[:n]]
            rest = rest[n:]
        else:  # round-robin: every card, one a pile in turn
            piles = [rest[i::n] for i in range(n)]
            rest = []
        return Position(piles=piles, down=down, found=found, stock=rest[::-1], reserve=reserve,
                        opening=self.opening)

    # --- what goes where

    def builds_on(self, card: int, under: int) -> bool:
        """May ``card`` lie on ``under`` in the tableau?"""
        if self.build == "alt-colour-down":
            if cards.is_red(card) == cards.is_red(under):
                return False
            step = (cards.rank(card) + 1) % 13 if self.wrap else cards.rank(card) + 1
            return step == cards.rank(under)
        if self.build_suit == "same" and cards.suit(card) != cards.suit(under):
            return False
        gap = abs(cards.rank(card) - cards.rank(under))
        return gap == 1 or (self.wrap and gap == 12)

    def run_length(self, pile: list[int], down: int) -> int:
        """Face-up cards on top of a pile each lying on the one below by the building rule."""
        if not pile:
            return 0
        length = 1
        while length < len(pile) - down and self.builds_on(pile[-length], pile[-length - 1]):
            length += 1
        return length

    def space_takes(self, pos: Position, card: int, src: str) -> bool:
        """May ``card`` (a run's bottom card) coming from place ``src`` enter an empty pile?
        ``reserve-then-waste``: a reserve card while the reserve has cards; once it is empty
        the waste's top card, or the stock's top card when there is no waste."""
        if self.space_fill == "any":
            return True
        if self.space_fill == "king":
            return cards.rank(card) == KING
        if self.space_fill == "reserve-then-waste":
            if src[0] == "r":
                return True
            if any(pos.reserve):
                return False
            return src == "w" or (src == "s" and not pos.waste)
        return False  # none

    def targets(self, pos: Position, card: int, src: str) -> list[str]:
        """Piles that may take a run whose bottom card is ``card`` (never its own pile)."""
        out = []
        for j, pile in enumerate(pos.piles):
            dst = _place("p", j)
            if dst == src:
                continue
            if pile and self.builds_on(card, pile[-1]):
                out.append(dst)
            elif not pile and self.space_takes(pos, card, src):
                out.append(dst)
        return out

    def next_rank(self, pos: Position, j: int):
        """The rank foundation ``j`` takes next; None when it is complete or has no base yet."""
        count = pos.found[j]
        if count >= 13:
            return None
        if self.foundations == "kings-and-aces":
            return KING - count if j < 4 else count
        if self.foundations == "chosen-base":
            return None if pos.base_rank < 0 else (pos.base_rank + count) % 13
        return count

    def top_card(self, pos: Position, j: int) -> int:
        """The card on top of foundation ``j`` (it holds at least one)."""
        count = pos.found[j]
        if self.foundations == "kings-and-aces":
            rank = KING - count + 1 if j < 4 else count - 1
        elif self.foundations == "chosen-base":
            rank = (pos.base_rank + count - 1) % 13
        else:
            rank = count - 1
        return cards.make(rank, j % 4)

    def foundation_moves(self, pos: Position, src: str, card: int, groups=("upper", "lower")) -> list[tuple]:
        """``card`` from ``src`` to each foundation of its suit that takes it next, among the
        ``groups`` allowed (King foundations "upper", Ace ones "lower"; in a one-deck game
        every foundation counts as "upper")."""
        s = cards.suit(card)
        allowed = [j for j in (s, s + 4) if j < self.nfound and ("upper" if j < 4 else "lower") in groups]
        return [("move", src, _place("f", j), 1) for j in allowed if self.next_rank(pos, j) == cards.rank(card)]

    def pile_groups(self, pos: Position, i: int) -> tuple:
        """The foundation groups pile ``i``'s cards may go up to: before the first redeal as
        ``first_deal_foundations`` says for it ("either" past its end), else any."""
        if self.first_deal and pos.redeals_used == 0 and i < len(self.first_deal):
            where = self.first_deal[i]
            return ("upper", "lower") if where == "either" else (where,)
        return ("upper", "lower")

    def waste_available(self, pos: Position) -> bool:
        return bool(pos.waste) and (self.waste_playable or pos.waste_live)

    # --- the legal moves

    def moves(self, pos: Position) -> list[tuple]:
        if pos.opening:
            return self.opening_moves(pos)
        if self.foundations == "chosen-base" and pos.base_rank < 0:
            # the opening choice: a reserve fan's top card goes up and sets every base
            return [("move", _place("r", i), _place("f", cards.suit(fan[-1])), 1)
                    for i, fan in enumerate(pos.reserve) if fan]
        moves = []
        for i, pile in enumerate(pos.piles):
            if not pile:
                continue
            src = _place("p", i)
            moves += self.foundation_moves(pos, src, pile[-1], self.pile_groups(pos, i))
            for n in _run_sizes(self.run_moves, self.run_length(pile, pos.down[i])):
                moves += [("move", src, dst, n) for dst in self.targets(pos, pile[-n], src)]
        singles = [(_place("r", i), fan[-1]) for i, fan in enumerate(pos.reserve) if fan]
        if self.waste_available(pos):
            singles.append(("w", pos.waste[-1]))
        for src, card in singles:
            moves += self.foundation_moves(pos, src, card)
            moves += [("move", src, dst, 1) for dst in self.targets(pos, card, src)]
        if pos.stock and not pos.waste and self.space_fill == "reserve-then-waste":
            card = pos.stock[-1]
            moves += [("move", "s", _place("p", j), 1) for j, pile in enumerate(pos.piles)
                      if not pile and self.space_takes(pos, card, "s")]
        for j, count in enumerate(pos.found):
            src = _place("f", j)
            if self.foundation_return and count > 0:
                moves += [("move", src, dst, 1) for dst in self.targets(pos, self.top_card(pos, j), src)]
            # a transfer never takes the base King or Ace: a foundation keeps at least one card
            if self.foundation_transfer and count >= 2:
                partner = j + 4 if j < 4 else j - 4
                if self.next_rank(pos, partner) == cards.rank(self.top_card(pos, j)):
                    moves.append(("move", src, _place("f", partner), 1))
        if pos.stock and self.stock == "turn":
            moves.append(("turn",))
        elif pos.stock and self.stock == "deal-row":
            moves.append(("deal",))
        if pos.redeals_used < self.redeals and (
                self.redeal_kind == "gather-piles"
                or (self.redeal_kind == "turn-waste" and not pos.stock and pos.waste)):
            moves.append(("redeal",))
        return moves

    def opening_moves(self, pos: Position) -> list[tuple]:
        """The opening (Louis): only pile tops to foundations, then the deal of the rest."""
        moves = []
        for i, pile in enumerate(pos.piles):
            if pile:
                moves += self.foundation_moves(pos, _place("p", i), pile[-1])
        return moves or [("deal",)]

    # --- making a move

    def play(self, pos: Position, move: tuple) -> None:
        # With waste_playable off, only a card just turned is live; any other move kills it.
        pos.waste_live = move == ("turn",) and not self.waste_playable
        if move == ("turn",):
            pos.waste.append(pos.stock.pop())
            return
        if move == ("deal",):
            if pos.opening:  # the rest of the stock round the piles, top card first
                self.deal_round_robin(pos, pos.stock[::-1])
                pos.stock = []
                pos.opening = False
            else:  # a row: one card onto each pile in turn, while the stock lasts
                for j in range(min(self.npiles, len(pos.stock))):
                    pos.piles[j].append(pos.stock.pop())
            return
        if move == ("redeal",):
            if self.redeal_kind == "turn-waste":
                pos.stock = pos.waste[::-1]  # the waste turned over: its bottom card on top
                pos.waste = []
            else:  # gather the piles, the last onto the one before ... onto the first, and deal again
                pack = [c for pile in reversed(pos.piles) for c in reversed(pile)]  # its top first
                if self.redeal_order == "bottom_first":
                    pack.reverse()
                pos.piles = [[] for _ in range(self.npiles)]
                self.deal_round_robin(pos, pack)
            pos.redeals_used += 1
            return
        _, src, dst, n = move
        if src[0] == "f" and dst[0] == "f":  # a transfer between the two foundations of a suit
            pos.found[_index(src)] -= 1
            pos.found[_index(dst)] += 1
            return
        if src[0] == "p":
            moved = _take_from_pile(pos, _index(src), n)
        elif src[0] == "r":
            moved = [pos.reserve[_index(src)].pop()]
        elif src == "w":
            moved = [pos.waste.pop()]
        elif src == "s":
            moved = [pos.stock.pop()]
        else:  # a foundation's top card comes back
            moved = [self.top_card(pos, _index(src))]
            pos.found[_index(src)] -= 1
        if dst[0] == "f":
            if self.foundations == "chosen-base" and pos.base_rank < 0:
                pos.base_rank = cards.rank(moved[0])
            pos.found[_index(dst)] += 1
        else:
            pos.piles[_index(dst)].extend(moved)
        if pos.opening and src[0] == "p" and not pos.piles[_index(src)] and pos.stock:
            pos.piles[_index(src)].append(pos.stock.pop())  # the opening refills an emptied pile at once

    @staticmethod
    def deal_round_robin(pos: Position, pack: list[int]) -> None:
        for k, c in enumerate(pack):
            pos.piles[k % len(pos.piles)].append(c)
