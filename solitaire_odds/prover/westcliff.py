"""A planning model of the Westcliff games (Classic and American) for a SAT solver.

The model has a state per step and one move per step (after any number of stock turns); a
satisfying assignment is a winning line of at most ``horizon`` moves, which
:meth:`WestcliffModel.decode` turns into the reference's move tuples. docs/prover.md
describes the variables and why a model solution is a legal line.
"""

from __future__ import annotations

from ..game import cards
from ..game.position import Position
from ..rules import Rules
from .cnf import Cnf

KING = 12


class NotModelled(ValueError):
    """The position or the rules lie outside what the model describes."""


def fits(card: int, under: int) -> bool:
    """``card`` builds on ``under``: one rank lower, the other colour."""
    return cards.rank(card) + 1 == cards.rank(under) and cards.is_red(card) != cards.is_red(under)


class WestcliffModel:
    def __init__(self, rules: Rules, pos: Position, horizon: int):
        if rules.game not in ("westcliff-classic", "westcliff"):
            raise NotModelled(f"the model covers the Westcliff games, not {rules.game}")
        sw = rules.switches
        if sw["foundation_return"]:
            raise NotModelled("foundation_return=on is not modelled")
        self.rules, self.pos, self.H = rules, pos, horizon
        self.run_moves = sw.get("run_moves", "partial")
        self.space_fill = sw.get("space_fill", "any")
        self.waste_playable = sw.get("waste_playable", True)
        self.npiles = len(pos.piles)
        self._layout()
        self.cnf = Cnf()
        self.TRUE = self.cnf.var()
        self.cnf.add(self.TRUE)
        self._variables()
        self._initial()
        for t in range(self.H):
            self._step(t)
        for c in self.play:
            self.cnf.add(self.inF[self.H][c])

    # ------------------------------------------------------------ the position's layout

    def _layout(self) -> None:
        pos = self.pos
        self.play = [cards.make(r, s) for s in range(4) for r in range(pos.found[s], 13)]
        in_play = set(self.play)
        self.talon = list(pos.waste) + list(pos.stock[::-1])
        self.m = len(pos.waste)
        self.tix = {c: j for j, c in enumerate(self.talon)}
        self.support0: dict[int, tuple] = {}
        self.above: dict[int, int] = {}
        for i, pile in enumerate(pos.piles):
            for k, c in enumerate(pile):
                self.support0[c] = ("f", i) if k == 0 else ("c", pile[k - 1])
                if k < pos.down[i]:
                    self.above[c] = pile[k + 1]
                elif k > pos.down[i] and self.run_moves != "single" and not fits(c, pile[k - 1]):
                    raise NotModelled("a face-up card lies on a card it does not build on")
        self.targets: dict[int, list[tuple]] = {}
        self.slots: dict[int, list[tuple]] = {}
        for c in self.play:
            tg = [("c", x) for x in in_play if fits(c, x)]
            if self.space_fill == "any" or (self.space_fill == "king" and cards.rank(c) == KING):
                tg += [("f", i) for i in range(self.npiles)]
            self.targets[c] = tg
            sl = list(tg)
            if c in self.support0 and self.support0[c] not in sl:
                sl.append(self.support0[c])
            self.slots[c] = sl
        self.on_slot: dict[tuple, list[int]] = {}
        for c in self.play:
            for s in self.slots[c]:
                self.on_slot.setdefault(s, []).append(c)

    # ------------------------------------------------------------ variables

    def _variables(self) -> None:
        v, H = self.cnf.var, self.H
        self.on = [{c: {s: v() for s in self.slots[c]} for c in self.play} for _ in range(H + 1)]
        self.inF = [{c: v() for c in self.play} for _ in range(H + 1)]
        self.down = [{d: v() for d in self.above} for _ in range(H + 1)]
        L = len(self.talon)
        self.T = [[self.TRUE if j < self.m else v() for j in range(L)] for _ in range(H)]
        self.T_before = [self.TRUE if j < self.m else -self.TRUE for j in range(L)]
        self.cl = [{c: v() for c in self.play} for _ in range(H)]
        self.inT = [{c: v() for c in self.play} for _ in range(H)]
        self.empty = [[v() for _ in range(self.npiles)] for _ in range(H)]
        self.X = [[v() for _ in range(L)] for _ in range(H)]
        self.wav = [{c: v() for c in self.talon} for _ in range(H)]
        self.fT = [{c: v() for c in self.play} for _ in range(H)]
        self.fW = [{c: v() for c in self.talon} for _ in range(H)]
        self.mT = [{c: {s: v() for s in self.targets[c]} for c in self.play} for _ in range(H)]
        self.mW = [{c: {s: v() for s in self.targets[c]} for c in self.talon} for _ in range(H)]
        self.lb = [{c: v() for c in self.play} for _ in range(H)] if self.run_moves == "whole" else None
        self.g = [v() for _ in range(H)]

    def _initial(self) -> None:
        add = self.cnf.add
        for c in self.play:
            add(-self.inF[0][c])
            for s, x in self.on[0][c].items():
                add(x if self.support0.get(c) == s else -x)
        for d in self.above:
            add(self.down[0][d])

    # ------------------------------------------------------------ one step

    def _step(self, t: int) -> None:
        add, cnf = self.cnf.add, self.cnf
        on, on1 = self.on[t], self.on[t + 1]
        inF, inF1 = self.inF[t], self.inF[t + 1]
        T, Tb = self.T[t], (self.T[t - 1] if t else self.T_before)
        cl, inT, empty, X, wav = self.cl[t], self.inT[t], self.empty[t], self.X[t], self.wav[t]
        fT, fW, mT, mW = self.fT[t], self.fW[t], self.mT[t], self.mW[t]
        L = len(self.talon)

        # a step is either one move to a pile, or foundation moves from distinct places (each
        # card's predecessor already up at the step's start, so they may be made in any order)
        others = []
        for c in self.play:
            others += mT[c].values()
        for c in self.talon:
            others += mW[c].values()
        cnf.at_most_one(others)
        cnf.at_most_one(list(fW.values()))
        g = self.g[t]
        for a in list(fT.values()) + list(fW.values()):
            add(-a, g)
        for a in others:
            add(-a, -g)

        # where each card is: at most one place
        for c in self.play:
            cnf.at_most_one(list(on[c].values()) + [inF[c]])
            cnf.clause([-inT[c]] + list(on[c].values()))
            for y in self.on_slot.get(("c", c), []):
                add(-cl[c], -on[y][("c", c)])
        for i in range(self.npiles):
            for y in self.on_slot.get(("f", i), []):
                add(-empty[i], -on[y][("f", i)])

        # the stock: turned cards stay turned, in order
        for j in range(self.m, L):
            add(-Tb[j], T[j])
            if j + 1 < L:
                add(-T[j + 1], T[j])

        # the waste's available card
        for j, c in enumerate(self.talon):
            left = [inF[c]] + list(on[c].values())
            add(-T[j], *left, X[j])
            if j + 1 < L:
                add(-X[j + 1], X[j])
            w = wav[c]
            add(-w, T[j])
            for lit in left:
                add(-w, -lit)
            if self.waste_playable:
                if j + 1 < L:
                    add(-w, -X[j + 1])
            elif j >= self.m:
                if j + 1 < L:
                    add(-w, -T[j + 1])
                add(-w, -Tb[j])
            elif j == self.m - 1 and t == 0 and self.pos.waste_live:
                if j + 1 < L:
                    add(-w, -T[j + 1])
            else:
                add(-w)

        # foundations
        for c in self.play:
            add(-inF[c], inF1[c])
            add(-inF1[c], inF[c], fT[c], *([fW[c]] if c in fW else []))
            prev = c - 1 if cards.rank(c) > self.pos.found[cards.suit(c)] else None
            for a in [fT[c]] + ([fW[c]] if c in fW else []):
                add(-a, inF1[c])
                if prev is not None:
                    add(-a, inF[prev])
            add(-fT[c], inT[c])
            add(-fT[c], cl[c])
            if c in fW:
                add(-fW[c], wav[c])

        # moves to a pile: the card (a run's bottom card) and where it lands
        for c in self.play:
            for s in self.targets[c]:
                moves = [mT[c][s]] + ([mW[c][s]] if c in mW else [])
                for a in moves:
                    add(-a, on1[c][s])
                    if s[0] == "c":
                        add(-a, inT[s[1]])
                        add(-a, cl[s[1]])
                    else:
                        add(-a, empty[s[1]])
                if c in mW:
                    add(-mW[c][s], wav[c])
                a = mT[c][s]
                add(-a, inT[c])
                add(-a, -on[c][s])
                if c in self.above:
                    add(-a, -self.down[t][c])
                if self.run_moves == "single":
                    add(-a, cl[c])
                elif self.run_moves == "whole":
                    add(-a, cl[c], self.lb[t][c])
            if self.run_moves == "whole":
                self._longest_run_bottom(t, c)

        # frame: a card changes place only by a move of its own
        for c in self.play:
            own = list(mT[c].values()) + [fT[c]]
            for s, x in on[c].items():
                add(-x, on1[c][s], *own)
                enter = [mT[c][s]] if s in mT[c] else []
                if c in mW and s in mW[c]:
                    enter.append(mW[c][s])
                add(-on1[c][s], x, *enter)

        # face-down cards turn up as soon as the card dealt on them has left
        for d, a in self.above.items():
            dn, dn1 = self.down[t][d], self.down[t + 1][d]
            add(-dn1, dn)
            add(-dn1, on1[a][("c", d)])
            add(-dn, -on1[a][("c", d)], dn1)

    def _longest_run_bottom(self, t: int, c: int) -> None:
        """``lb``: the card is the bottom of the longest run on its pile (run_moves=whole):
        it lies in a space, on a face-down card, or on a card it does not build on."""
        add = self.cnf.add
        on = self.on[t][c]
        lits = [on[s] for s in on if s[0] == "f"]
        s0 = self.support0.get(c)
        if s0 is not None and s0[0] == "c":
            under = s0[1]
            if not fits(c, under):
                lits.append(on[s0])
            elif under in self.above:
                q = self.cnf.var()
                add(-q, on[s0])
                add(-q, self.down[t][under])
                lits.append(q)
        add(-self.lb[t][c], *lits)

    # ------------------------------------------------------------ a solution as moves

    def decode(self, model: set[int]) -> list[tuple]:
        """The moves of a satisfying assignment, as the reference's tuples, checked legal and
        winning by replaying them through the reference."""
        from ..game import reference

        rules, pos = self.rules, self.pos.copy()
        line = []

        def play(move):
            nonlocal pos
            pos = reference.apply_move(rules, pos, move)
            line.append(move)

        def pile_of(card):
            for i, pile in enumerate(pos.piles):
                if card in pile:
                    return i, len(pile) - pile.index(card)
            raise AssertionError(f"{cards.name(card)} is not on a pile")

        def dest(s):
            if s[0] == "f":
                return f"p{s[1]}"
            i, _ = pile_of(s[1])
            return f"p{i}"

        before = sum(1 for x in self.T_before if x == self.TRUE)
        for t in range(self.H):
            turned = sum(1 for x in self.T[t] if x == self.TRUE or x in model)
            for _ in range(turned - before):
                play(("turn",))
            before = turned
            for c in self.talon:  # first: with waste_playable off only a card just turned plays
                if self.fW[t][c] in model:
                    play(("move", "w", f"f{cards.suit(c)}", 1))
            for c in self.play:
                if self.fT[t][c] in model:
                    i, _ = pile_of(c)
                    play(("move", f"p{i}", f"f{cards.suit(c)}", 1))
                for s, a in self.mT[t][c].items():
                    if a in model:
                        i, n = pile_of(c)
                        play(("move", f"p{i}", dest(s), n))
                if c in self.mW[t]:
                    for s, a in self.mW[t][c].items():
                        if a in model:
                            play(("move", "w", dest(s), 1))
        if not reference.is_won(rules, pos):
            raise AssertionError("the model's line does not win")
        return line
