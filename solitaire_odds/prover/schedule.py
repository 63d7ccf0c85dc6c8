"""A complete schedule model of a one-deck position for CP-SAT: when each card moves, and where.

Instead of a state per step, each card not on a foundation gets the time it goes up and at
most two times it is put on another card (a King: once, into a space); the cards it may lie
on, the waste's order and one move at a time become constraints between those times. Where
:func:`refusal` is empty, every shortest winning line is a solution (docs/prover.md, "The
schedule model", proves it), so an infeasible model is a loss; a solution is decoded into a
line and replayed through the reference before it counts as a win.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.reductions import twin_swap, twin_swap_without_stock
from ..game import cards
from ..game.position import Position
from ..rules import Rules
from .westcliff import KING, fits

Holder = tuple
"""What a card lies on: ``("c", card)``, or ``("f", pile)`` for a pile's floor at the start.
A King put into a space lies on ``SPACE``, any floor: the floors are interchangeable, so the
model counts the cards on floors (at most one a pile) instead of choosing which."""

SPACE: Holder = ("f", None)


def uncovered(rules: Rules) -> str:
    """Why the completeness argument does not hold under ``rules`` whatever the position
    ("" where it may hold: see :func:`refusal` for the position's part)."""
    if rules["ncards"] != 52 or rules["build"] != "alt-colour-down" or rules["wrap"]:
        return "only the one-deck games built down in alternating colours without wrap are modelled"
    if rules["reserve_fans"]:
        return "a reserve is not modelled"
    if rules["foundation_return"]:
        return "foundation_return=on: a card may come back, so its moves are not bounded"
    if rules["run_moves"] != "partial":
        return f"run_moves={rules['run_moves']}: the twin argument needs partial run moves"
    if rules["space_fill"] not in ("king", "none"):
        return (f"space_fill={rules['space_fill']}: any card may enter a space, and no bound on "
                "how often a card does is proven")
    if not rules["waste_playable"]:
        return "waste_playable=off is not modelled"
    if rules["stock"] not in ("turn", "deal-row") or rules["redeals"]:
        return "only a stock turned once, or rows dealt until it is empty, is modelled"
    if not (twin_swap(rules) or twin_swap_without_stock(rules)):
        return "the twin argument does not hold for these rules"
    return ""


def refusal(rules: Rules, pos: Position) -> str:
    """Why the model may not decide ``pos`` under ``rules``; "" when an infeasible model is a
    loss there (rows still to deal break the twin argument: see reductions.twin_swap)."""
    why = uncovered(rules)
    if why:
        return why
    if rules["stock"] == "deal-row" and pos.stock:
        return "rows are still to be dealt onto the piles"
    return ""


@dataclass
class ScheduleAnswer:
    status: str          # "won" | "lost" | "limit"
    line: list
    work: float          # CP-SAT's deterministic seconds


class ScheduleModel:
    """The CP-SAT model of one position. Times are the line's move numbers (a turn counts)."""

    def __init__(self, rules: Rules, pos: Position):
        from ortools.sat.python import cp_model

        self.rules, self.pos, self.cp = rules, pos, cp_model
        self.m = m = cp_model.CpModel()
        self.play = [cards.make(r, s) for s in range(4) for r in range(pos.found[s], 13)]
        self.talon = list(pos.waste) + list(pos.stock[::-1])   # in the order turned
        self.turned_at_start = len(pos.waste)
        self._layout()
        events = len(self.play) + len(pos.stock) + sum(len(t) for t in self.targets.values())
        self.horizon = horizon = events + 1
        self.events = []          # unit intervals, one move at a time
        self.F = {c: m.NewIntVar(1, horizon, "") for c in self.play}
        self.S = {}
        for j, c in enumerate(self.talon):
            if j >= self.turned_at_start:
                self.S[c] = m.NewIntVar(1, horizon, "")
                self._event(self.S[c], None)
        for c in self.play:
            self._event(self.F[c], None)
        self.place = {}           # (card, holder) -> (presence, time)
        self.order = {}           # card with two targets -> "the first target's placement comes first"
        self.depart = {}          # card -> the time it first leaves where it lies
        self.stay = {h: [] for h in self.holders}   # holder -> intervals of cards lying on it
        for c in self.play:
            self._card(c)
        self._holders()
        self._pile_rule()
        self._waste()
        self._foundations()
        self._safe_placements()
        self._twin_moves()
        m.AddNoOverlap(self.events)

    # ------------------------------------------------------------ what may lie on what

    def _layout(self) -> None:
        pos, rules = self.pos, self.rules
        npiles = len(pos.piles)
        in_play = set(self.play)
        self.start: dict[int, Holder] = {}       # a pile card -> what it lies on at the start
        self._on_face_up = on_face_up = set()    # pile cards that start on a face-up card
        for i, pile in enumerate(pos.piles):
            for k, c in enumerate(pile):
                self.start[c] = ("f", i) if k == 0 else ("c", pile[k - 1])
                if 0 < k and k - 1 >= pos.down[i]:
                    on_face_up.add(c)
        self.holders = [("c", c) for c in self.play] + [("f", i) for i in range(npiles)] + [SPACE]
        self.targets: dict[int, list[Holder]] = {}
        for c in self.play:
            if cards.rank(c) == KING:
                floors = rules["space_fill"] == "king" and self.start.get(c, ("w",))[0] != "f"
                tg = [SPACE] if floors else []
            else:
                tg = [("c", x) for x in in_play if fits(c, x)]
            # never back onto a face-up card it leaves (docs/prover.md); a face-down one may
            # take it again once turned
            self.targets[c] = [h for h in tg if not (h == self.start.get(c) and c in on_face_up)]

    def _event(self, time, presence) -> None:
        m = self.m
        if presence is None:
            self.events.append(m.NewFixedSizeIntervalVar(time, 1, ""))
        else:
            self.events.append(m.NewOptionalFixedSizeIntervalVar(time, 1, presence, ""))

    # ------------------------------------------------------------ one card's moves

    def _card(self, c: int) -> None:
        """Its placements, the time it first leaves (``depart``), and the intervals it lies
        on each holder. A King has at most one placement (into a space); any other card at most
        one on each of its two targets, in either order."""
        m, F, H = self.m, self.F[c], self.horizon
        opts = []
        for h in self.targets[c]:
            b, t, end = m.NewBoolVar(""), m.NewIntVar(1, H, ""), m.NewIntVar(1, H, "")
            m.Add(end <= F).OnlyEnforceIf(b)
            self.place[(c, h)] = (b, t)
            self._event(t, b)
            opts.append((h, b, t, end))
        d = m.NewIntVar(1, H, "")
        m.Add(d <= F)
        self.depart[c] = d
        if cards.rank(c) == KING:
            m.AddAtMostOne([b for _, b, _, _ in opts])
            for _, b, t, end in opts:
                m.Add(end == F).OnlyEnforceIf(b)
                m.Add(d == t).OnlyEnforceIf(b)
            if opts:
                m.Add(d == F).OnlyEnforceIf([b.Not() for _, b, _, _ in opts])
            else:
                m.Add(d == F)
        elif len(opts) == 2:
            (_, b1, t1, e1), (_, b2, t2, e2) = opts
            first = m.NewBoolVar("")   # with both: the first target's placement comes first
            self.order[c] = first
            m.Add(t1 < t2).OnlyEnforceIf([b1, b2, first])
            m.Add(e1 == t2).OnlyEnforceIf([b1, b2, first])
            m.Add(e2 == F).OnlyEnforceIf([b1, b2, first])
            m.Add(d == t1).OnlyEnforceIf([b1, b2, first])
            m.Add(t2 < t1).OnlyEnforceIf([b1, b2, first.Not()])
            m.Add(e2 == t1).OnlyEnforceIf([b1, b2, first.Not()])
            m.Add(e1 == F).OnlyEnforceIf([b1, b2, first.Not()])
            m.Add(d == t2).OnlyEnforceIf([b1, b2, first.Not()])
            m.Add(e1 == F).OnlyEnforceIf([b1, b2.Not()])
            m.Add(d == t1).OnlyEnforceIf([b1, b2.Not()])
            m.Add(e2 == F).OnlyEnforceIf([b1.Not(), b2])
            m.Add(d == t2).OnlyEnforceIf([b1.Not(), b2])
            m.Add(d == F).OnlyEnforceIf([b1.Not(), b2.Not()])
        elif len(opts) == 1:
            _, b, t, end = opts[0]
            m.Add(end == F).OnlyEnforceIf(b)
            m.Add(d == t).OnlyEnforceIf(b)
            m.Add(d == F).OnlyEnforceIf(b.Not())
        else:
            m.Add(d == F)
        for h, b, t, end in opts:
            if h == self.start.get(c):   # back on the face-down card it starts on: after leaving it
                m.Add(t > d).OnlyEnforceIf(b)
            size = m.NewIntVar(1, H, "")
            self.stay[h].append((m.NewOptionalIntervalVar(t, size, end, b, ""), b, end))
        if c in self.start:
            self.stay[self.start[c]].append((m.NewIntervalVar(0, d, d, ""), None, d))

    # ------------------------------------------------------------ constraints between cards

    def _holders(self) -> None:
        """One card at a time on a card or a floor (on floors: no more cards than piles, which
        lets the Kings be given floors in the order they come, each a floor then empty); a
        card is put only on a card still on the
        tableau (after it left the waste, before it goes up), and goes up only when clear."""
        m = self.m
        floors = [iv for h, stays in self.stay.items() if h[0] == "f" for iv, _, _ in stays]
        m.AddCumulative(floors, [1] * len(floors), len(self.pos.piles))
        for h, stays in self.stay.items():
            if h[0] != "c":
                continue
            m.AddNoOverlap([iv for iv, _, _ in stays])
            x = h[1]
            for _, b, end in stays:
                cond = [b] if b is not None else []
                m.Add(end < self.F[x]).OnlyEnforceIf(cond)
        for (c, h), (b, t) in self.place.items():
            if h[0] == "c" and h[1] not in self.start:          # the target starts in the talon
                m.Add(t > self.depart[h[1]]).OnlyEnforceIf(b)

    def _pile_rule(self) -> None:
        """A card moves with the cards above it only as a built run: while a card lies on one
        face down or on one it does not build on (joints that only the start holds), nothing
        below that joint moves."""
        pos = self.pos
        for i, pile in enumerate(pos.piles):
            for k in range(len(pile) - 1):
                upper, lower = pile[k + 1], pile[k]
                built = k >= pos.down[i] and fits(upper, lower)
                if not built:
                    for below in pile[:k + 1]:
                        self.m.Add(self.depart[below] > self.depart[upper])

    def _waste(self) -> None:
        """Cards are turned in order, leave the waste after they are turned, and only from its
        top: a card turned later has left before an earlier one does, unless the earlier one
        left before it was turned."""
        m = self.m
        talon, turned = self.talon, self.talon[self.turned_at_start:]
        for a, b in zip(turned, turned[1:]):
            m.Add(self.S[a] < self.S[b])
        for c in turned:
            m.Add(self.depart[c] > self.S[c])
        for j, a in enumerate(talon):
            for b in talon[j + 1:]:
                if b not in self.S:           # both in the waste at the start: b lies on a
                    m.Add(self.depart[b] < self.depart[a])
                    continue
                before = m.NewBoolVar("")
                m.Add(self.depart[a] < self.S[b]).OnlyEnforceIf(before)
                m.Add(self.depart[b] < self.depart[a]).OnlyEnforceIf(before.Not())

    def _foundations(self) -> None:
        for s in range(4):
            suit = [c for c in self.play if cards.suit(c) == s]
            for a, b in zip(suit, suit[1:]):
                self.m.Add(self.F[a] < self.F[b])

    def _safe_placements(self) -> None:
        """No card is put on another while it could go up and nothing can ever be built on it
        (its suit's card below and both cards one rank lower of the other colour are up):
        some shortest winning line has no such move (docs/prover.md)."""
        m, found = self.m, self.pos.found
        for (c, h), (b, t) in self.place.items():
            r, s = cards.rank(c), cards.suit(c)
            needed = [cards.make(r - 1, s)] if r else []
            needed += [cards.make(r - 1, o) for o in range(4) if r and cards.is_red(cards.make(0, o)) != cards.is_red(c)]
            waiting = []
            for x in needed:
                if found[cards.suit(x)] > cards.rank(x):
                    continue                      # up already
                later = m.NewBoolVar("")
                m.Add(t < self.F[x]).OnlyEnforceIf(later)
                waiting.append(later)
            m.AddBoolOr(waiting).OnlyEnforceIf(b)

    def _twin_moves(self) -> None:
        """A card leaves a face-up card it builds on for that card's twin only when the card
        it uncovers can then go up (its suit's card below is up): the partial-pile rule of
        reductions.twin_swap, which some shortest winning line keeps (docs/prover.md)."""
        m, found = self.m, self.pos.found

        def uncovered_may_go_up(y: int, t, cond: list) -> None:
            below = cards.make(cards.rank(y) - 1, cards.suit(y))
            if found[cards.suit(y)] <= cards.rank(below):
                m.Add(t > self.F[below]).OnlyEnforceIf(cond)

        for c in self.play:
            targets = [h for h in self.targets[c] if h[0] == "c"]
            if c in self._on_face_up and fits(c, self.start[c][1]):
                for h in targets:
                    b, t = self.place[(c, h)]
                    uncovered_may_go_up(self.start[c][1], t, [b])
            if len(targets) == 2:
                (y, w), first = targets, self.order[c]
                (by, ty), (bw, tw) = self.place[(c, y)], self.place[(c, w)]
                uncovered_may_go_up(y[1], tw, [by, bw, first])
                uncovered_may_go_up(w[1], ty, [by, bw, first.Not()])

    # ------------------------------------------------------------ solving and decoding

    def solve(self, deterministic_seconds: float) -> ScheduleAnswer:
        cp = self.cp
        solver = cp.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.max_deterministic_time = float(deterministic_seconds)
        status = solver.Solve(self.m)
        work = solver.deterministic_time
        if status in (cp.OPTIMAL, cp.FEASIBLE):
            return ScheduleAnswer("won", self.decode(solver), work)
        if status == cp.INFEASIBLE:
            return ScheduleAnswer("lost", [], work)
        return ScheduleAnswer("limit", [], work)

    def decode(self, solver) -> list[tuple]:
        """The solution's moves in time order as the reference's tuples, replayed through the
        reference: an illegal move raises, so a model error never becomes a win."""
        from ..game import reference

        moves = [(solver.Value(t), "turn", c, None) for c, t in self.S.items()]
        moves += [(solver.Value(t), "up", c, None) for c, t in self.F.items()]
        moves += [(solver.Value(t), "put", c, h) for (c, h), (b, t) in self.place.items()
                  if solver.BooleanValue(b)]
        rules, pos, line = self.rules, self.pos.copy(), []
        for _, kind, c, h in sorted(moves):
            if kind == "turn":
                move = ("turn",)
            else:
                src, n = _source(pos, c)
                if kind == "up":
                    move = ("move", src, f"f{cards.suit(c)}", 1)
                else:
                    move = ("move", src, _destination(pos, h), n)
            pos = reference.apply_move(rules, pos, move)
            line.append(move)
        if not reference.is_won(rules, pos):
            raise reference.ReplayError("the schedule's line does not win")
        return line


def _destination(pos: Position, holder: Holder) -> str:
    """The pile of the card ``holder``, or for SPACE the first empty pile."""
    if holder == SPACE:
        return f"p{next((i for i, pile in enumerate(pos.piles) if not pile), 0)}"
    return _source(pos, holder[1])[0]


def _source(pos: Position, card: int) -> tuple[str, int]:
    """Where ``card`` lies (``"w"`` or ``"p<i>"``) and how many cards a move of it carries."""
    if pos.waste and pos.waste[-1] == card:
        return "w", 1
    for i, pile in enumerate(pos.piles):
        if card in pile:
            return f"p{i}", len(pile) - pile.index(card)
    raise ValueError(f"{cards.name(card)} is neither on a pile nor the waste's top")
