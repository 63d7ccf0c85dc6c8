"""Perfect-information solving: is a deal winnable with every card known?

:class:`Solver` owns the search's preallocated workspace (stack, transposition table) for one
set of rules and reuses it deal after deal; the table is never wiped between deals, each
search marks its entries with a fresh generation number instead.
"""

from __future__ import annotations

import time
from functools import partial

import numpy as np

from .engine import api, relaxation, tuning
from .engine.constants import (FOUND_KINGS_AND_ACES, O_REDEALS, P_FOUND_KIND, P_NCARDS, P_REDEAL_KIND, P_REDEALS,
                               REDEAL_GATHER)
from .engine.core import deal_into, shuffled_deck
from . import steps
from .engine.tuning import MAX_DEPTH
from .engine.search import GEN_MASK, GENERATIONS, LOST, TT_WIDTH, UNKNOWN, WON, solve_root, workspace
from .engine.state import decode, encode
from .engine.two_deck_proofs import last_round, never_freed
from .engine.winfinder import DEEPEST_CARDS, DEEPEST_LENGTH, find_win, finder_space
from .outcome import Outcome
from .game.position import Position
from .rules import Rules, readings

VERDICTS = {WON: "won", LOST: "lost", UNKNOWN: "unknown"}
DEFAULT_BUDGET = 1_000_000
SLOT_BYTES = 8 * TT_WIDTH
"""Bytes of one table slot: two uint64 key halves and a uint64 generation."""


def table_size(budget: int) -> int:
    """Slots for a search of ``budget`` nodes (two passes): a power of two >= 4 x budget,
    capped at 2**26 (1.6 GB); beyond the cap searches stay sound, only slower."""
    size = 1 << 12
    while size < 4 * budget and size < (1 << 26):
        size <<= 1
    return size


def slots_for_megabytes(megabytes: float) -> int:
    """The most slots that fit in ``megabytes`` MiB: a power of two, at least 2**12. A table
    smaller than :func:`table_size` stays sound but may leave more deals unknown."""
    size = 1 << 12
    while 2 * size * SLOT_BYTES <= megabytes * 2**20:
        size <<= 1
    return size


class Solver:
    """Solves deals of one rule set. ``win_first`` runs the heuristic first pass (see
    engine.search); ``reductions`` the proven reductions in the exhaustive pass. Both off
    gives the plain search, which the tests compare with the reduced one."""

    def __init__(self, rules: Rules, budget: int = DEFAULT_BUDGET, win_first: bool = True,
                 reductions: bool = True, table_slots: int | None = None, looser: Rules | None = None,
                 stricter: Rules | None = None, prover_seconds: float = 0.0, prover_after: int | None = None):
        if budget < 1:
            raise ValueError("the node budget must be at least 1")
        if looser is not None:
            readings.require_looser(looser, rules)
        if stricter is not None:
            readings.require_looser(rules, stricter)
        self._relatives = [(other, verdict) for other, verdict in ((looser, "lost"), (stricter, "won"))
                           if other is not None and other != rules]
        """(another reading, the verdict of it that holds here) for the transfer step."""
        self._relative_solvers: dict = {}
        if prover_seconds < 0:
            raise ValueError("the prover's seconds must not be negative")
        self.prover_seconds = float(prover_seconds)
        """CPU-seconds (made deterministic) of the prover step on a deal left unknown at the
        budget ``prover_after`` (default: the solver's own, an escalation's last rung); 0: off."""
        self.prover_after = int(prover_after or budget)
        self.rules = rules
        self.budget = int(budget)
        self.win_first = bool(win_first)
        self.reductions = bool(reductions)
        self.pa = api.params(rules)
        self._relaxation = self.reductions and relaxation.applies(rules)
        self._ws = workspace(self.pa, table_slots or table_size(self.budget), MAX_DEPTH)
        self._gen = 0
        self._moves_seen: dict = {}
        two_deck = self.pa[P_FOUND_KIND] == FOUND_KINGS_AND_ACES
        self._finder = (WinFinder(self.pa, self.budget)
                        if self.win_first and (two_deck or self.budget >= WinFinder.ONE_DECK_MIN_BUDGET) else None)
        self._two_deck = TwoDeckSteps(self.pa, self._finder) if two_deck else None
        self._rounds = (WinFinder(self.pa, self.budget, rounds=True)
                        if self.win_first and self.pa[P_REDEAL_KIND] == REDEAL_GATHER else None)

    def warm_up(self) -> None:
        """Load or compile every kernel a solve may run (the search's passes, the relaxations,
        the win finder), so that a timing started after it measures solving only. A warm-up
        solve alone may stop before the search (Box Kite's deal 0 is proven lost by the
        relaxation at its root) and leaves the one-deck finder, which runs only on a deal left
        unknown, to be compiled inside the first such deal's time."""
        self.solve(deal=0, budget=1000)
        solve_root(self.pa, 1000, self.win_first, self.reductions, self._next_generation(), self._ws)
        if self._finder is not None:
            self._finder.find(self._ws.root, WinFinder.ONE_DECK_MIN_BUDGET)

    def _next_generation(self) -> np.uint64:
        """The first of GENERATIONS fresh table generations for one solve (0 marks a free slot).
        Generations are 32-bit tags: when they run out the table is wiped and they start again."""
        if self._gen + 2 * GENERATIONS > int(GEN_MASK):
            self._ws.tt[:] = 0
            self._gen = 0
        first = self._gen + 1
        self._gen += GENERATIONS
        return np.uint64(first)

    def solve(self, deal: int | None = None, deck: list[int] | None = None,
              budget: int | None = None) -> Outcome:
        """Solve deal number ``deal``, or the given ``deck``, within ``budget`` nodes per pass
        (default: the solver's budget)."""
        if (deal is None) == (deck is None):
            raise ValueError("give a deal number or a deck")
        if deck is not None:
            return self.solve_position(api.initial_position(self.rules, deck), budget)
        shuffled_deck(np.uint64(deal), self.pa[P_NCARDS], self._ws.deck)
        deal_into(self._ws.root, self.pa, self._ws.deck, self._ws.scratch)
        return self._run(budget)

    def solve_position(self, position: Position, budget: int | None = None) -> Outcome:
        """Solve from any position of this game (a constructed one, or one met in play)."""
        return self.solve_state(encode(position, self.pa), budget)

    def solve_state(self, state: np.ndarray, budget: int | None = None) -> Outcome:
        """Solve from an engine state (the flat array players and kernels hold)."""
        self._ws.root[:] = state
        return self._run(budget)

    def _run(self, budget) -> Outcome:
        """Decide the position in ``ws.root`` by the steps of :data:`~solitaire_odds.steps.STEPS`,
        in their order, each where it applies (its game, and ``reductions`` for a proof or
        ``win_first`` for a heuristic) and with its share of ``budget``; the first verdict is
        the answer. ``decided_by`` names the step, and is empty when the verdict is unknown;
        ``spent`` holds each step's nodes."""
        start = time.perf_counter()
        budget, gen = int(budget or self.budget), self._next_generation()
        root, spent = self._ws.root, {}
        for finder in self._finders():
            finder.most_cards = -1

        def outcome(verdict: str, step: str = "", line=None) -> Outcome:
            return Outcome(verdict, sum(spent.values()), time.perf_counter() - start, line or [], budget,
                           step if verdict != "unknown" else "", spent)

        if self._relaxation and relaxation.relaxed_lost(root, self.pa):
            return outcome("lost", steps.RELAXATION.name)
        search_budget = budget
        if self._two_deck is not None:
            finder_budget, search_budget = self._two_deck.shares(root, budget)
            part, nodes, path, length = self._two_deck.run(root, finder_budget, self.reductions)
            if nodes:  # the finder ran (the two-deck relaxation spends none)
                spent[steps.FINDER_FIRST.name] = nodes
            if part is not None:
                won = part == steps.FINDER_FIRST.name
                return outcome("won" if won else "lost", part, self._line_of(path, length) if won else None)
        verdict, nodes, length, part = solve_root(self.pa, search_budget, self.win_first, self.reductions, gen,
                                                  self._ws)
        spent[steps.SEARCH_PASSES[part]] = int(nodes)
        if verdict != UNKNOWN:
            return outcome(VERDICTS[verdict], steps.SEARCH_PASSES[part], self._line_of(self._ws.path, length))
        if self._two_deck is None and self._finder is not None and budget >= WinFinder.ONE_DECK_MIN_BUDGET:
            found, rated = self._finder.find(root, int(budget * steps.FINDER_AFTER.share()))
            spent[steps.FINDER_AFTER.name] = rated
            if found >= 0:
                return outcome("won", steps.FINDER_AFTER.name, self._line_of(self._finder.fs.path, found))
        if self._two_deck is not None:
            line, rated = self._two_deck.relay(root, budget)
            spent[steps.RELAY.name] = rated
            if line is not None:
                return outcome("won", steps.RELAY.name, self._line_of(line, len(line)))
        if self._rounds is not None and not last_round(root, self.pa):
            line, rated = self._rounds.by_rounds(root, budget)
            spent[steps.ROUND_FINDER.name] = rated
            if line is not None:
                return outcome("won", steps.ROUND_FINDER.name, self._line_of(line, len(line)))
        for other, carried in self._relatives:
            result = self._relative(other).solve_position(self._as_position_of(other), budget)
            spent[steps.TRANSFER.name] = spent.get(steps.TRANSFER.name, 0) + result.nodes
            if result.verdict == carried:
                return outcome(carried, steps.TRANSFER.name, partial(lambda r: r.line, result))
        if self.prover_seconds and budget == self.prover_after and self.pa[P_NCARDS] == 52:
            from .prover import decide

            proof = decide(self.rules, decode(root, self.pa), self.prover_seconds)
            if proof.verdict != "unknown":
                return outcome(proof.verdict, steps.PROVER.name, proof.line)
        return outcome("unknown")

    def _finders(self) -> list:
        return [finder for finder in (self._finder, self._rounds) if finder is not None]

    def deepest_cards(self) -> int:
        """How far the last solve got: the most cards on the foundations at the end of a line
        its win finders met (-1 where none ran, e.g. a deal decided before them). Read it for
        a deal left unknown: it says how close the heuristics came to a win."""
        return max((finder.most_cards for finder in self._finders()), default=-1)

    def deepest_redeals(self) -> int:
        """The redeals made along the line :meth:`deepest_cards` counts (-1 where none ran): with
        the game's redeals, whether the heuristics' best line reached the last round."""
        ran = [finder for finder in self._finders() if finder.most_cards >= 0]
        if not ran:
            return -1
        return max(ran, key=lambda finder: finder.most_cards).deepest_redeals()

    def _relative(self, other: Rules) -> Solver:
        """The solver of reading ``other`` for the transfer step (made on first use: its table
        is as large as this one's), with this solver's settings and no relatives of its own."""
        if other not in self._relative_solvers:
            self._relative_solvers[other] = Solver(other, self.budget, self.win_first, self.reductions,
                                                   len(self._ws.tt))
        return self._relative_solvers[other]

    def _as_position_of(self, other: Rules) -> Position:
        """The position in ``ws.root`` as one of reading ``other``: the same cards in the same
        places (the readings the transfer relates share the layout, rules.readings); a waste
        that stays playable has no live card to track."""
        position = decode(self._ws.root, self.pa)
        if other["waste_playable"]:
            position.waste_live = False
        return position

    def _line_of(self, path: np.ndarray, length: int):
        """A function making the first ``length`` moves of ``path`` (copied now: the workspace
        is overwritten by the next solve) as tuples, for :attr:`Outcome.line`."""
        return partial(self._line, path[:length].copy())

    def _line(self, rows: np.ndarray) -> list:
        """The moves ``rows`` as tuples. Each row is packed into one integer
        by numpy and each distinct row converted once per solver: converting every move anew
        cost a quarter of an easy American Westcliff deal's time."""
        fields = rows.astype(np.int64) & 0xFFFF
        codes = ((fields[:, 0] << 48) | (fields[:, 1] << 32) | (fields[:, 2] << 16) | fields[:, 3]).tolist()
        seen = self._moves_seen
        for code in set(codes) - seen.keys():
            seen[code] = api.move_tuple(rows[codes.index(code)], self.pa)
        return list(map(seen.__getitem__, codes))


class WinFinder:
    """The beam-search win finder (engine.winfinder) with its buffers, for one set of rules:
    a heuristic, so only its wins count (each is replayed like every other). With ``rounds``
    its beams plan each round for the next gathered deal (engine.winfinder.beam_search)."""

    FIRST_WIDTH = tuning.FINDER_FIRST_WIDTH
    MAX_WIDTH = tuning.FINDER_MAX_WIDTH
    NODES_PER_WIDTH = tuning.FINDER_NODES_PER_WIDTH
    LOGGED_SHARE = tuning.FINDER_LOGGED_SHARE
    ONE_DECK_MIN_BUDGET = tuning.FINDER_ONE_DECK_MIN_BUDGET
    """Below this the finder is not run after a one-deck search (so the planner's solves of
    500 nodes never run it)."""

    def __init__(self, pa: np.ndarray, budget: int, rounds: bool = False):
        self.pa = pa
        self.rounds = rounds
        self.fs = finder_space(pa, self.widest(budget), max(1 << 16, budget // self.LOGGED_SHARE))
        self._gen = 0
        self._last_root: np.ndarray | None = None
        self._ended = (0, 0)  # attempts on _last_root that ended without a win, budget counted through them
        self.most_cards = -1
        """The most cards on the foundations at the end of a line the finder met since the
        solver's current solve began (relay legs included: they start on the deal's own line)."""

    @classmethod
    def widest(cls, budget: int) -> int:
        """The widest beam worth buffers at ``budget``: a power of two from FIRST_WIDTH to
        MAX_WIDTH: wider beams find far more wins, so the beam widens (x4 per restart) as long
        as the budget lasts."""
        width = cls.FIRST_WIDTH
        while width < cls.MAX_WIDTH and 2 * width * cls.NODES_PER_WIDTH <= budget:
            width *= 2
        return width

    def find(self, root: np.ndarray, budget: int) -> tuple[int, int]:
        """(length of the winning line written to ``self.fs.path``, or -1; positions rated).

        Called again on the same root (the next budget of an escalation such as 1e5,1e6,1e7),
        it starts after the attempts that ended without a win last time, since they would end
        the same way: the verdict is the one a fresh call gives, only sooner. St. Helena's
        deals left unknown at 1e6 repeated about 1.2 million positions at 1e7 without it."""
        self._gen += 64
        if self._last_root is None or not np.array_equal(root, self._last_root):
            self._last_root, self._ended = root.copy(), (0, 0)
        length, rated, _, ended, spent = find_win(root, self.pa, budget, self.FIRST_WIDTH, np.uint64(self._gen),
                                                  self.fs, *self._ended, True, self.rounds)
        self._ended = (int(ended), int(spent))
        self.most_cards = max(self.most_cards, int(self.fs.deepest[DEEPEST_CARDS]))
        return int(length), int(rated)

    def by_rounds(self, root: np.ndarray, budget: int) -> tuple[np.ndarray | None, int]:
        """(the moves of a winning line from ``root``, or None; positions rated): the round
        finder step (a finder built with ``rounds``): beams from ``root`` of the step's share of
        ``budget``, then, without a win, the relay from their deepest line (:meth:`relay`)."""
        length, rated = self.find(root, int(budget * steps.ROUND_FINDER.share()))
        if length >= 0:
            return self.fs.path[:length].copy(), rated
        line, relayed = self.relay(root, budget)
        return line, rated + relayed

    def deepest_line(self, root: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
        """The moves of the deepest line the finder met at ``root`` and its positions, ``root``
        first (no moves where none was met)."""
        line = self.fs.deepest_path[:max(0, int(self.fs.deepest[DEEPEST_LENGTH]))].copy()
        states = [root.copy()]
        for row in line:
            states.append(states[-1].copy())
            api.play_row(states[-1], self.pa, row)
        return line, states

    def deepest_redeals(self) -> int:
        """The redeals made along the deepest line met at the last root (0 where none was met)."""
        if self._last_root is None:
            return 0
        return int(self.deepest_line(self._last_root)[1][-1][self.pa[O_REDEALS]])

    RELAY_LEGS = tuning.RELAY_LEGS
    RELAY_STRIDE = tuning.RELAY_STRIDE
    RELAY_MIN_CARDS = tuning.RELAY_MIN_CARDS

    def relay(self, root: np.ndarray, budget: int) -> tuple[np.ndarray | None, int]:
        """(the moves of a winning line from ``root``, or None; positions rated): fresh finder
        runs, of the relay step's share of ``budget`` / RELAY_LEGS positions each, from the positions of the
        deepest line the finder met at ``root`` (:meth:`find` first) that still have a redeal
        ahead: the one just before its last redeal, then every RELAY_STRIDE moves back; none
        when that line ended with fewer than RELAY_MIN_CARDS cards on the foundations. A
        heuristic, so only its wins count (each is replayed like every other).

        The deepest line of a deal the finder cannot win mostly plays its last round out into
        a dead end, and it goes wrong before that round starts: a beam started from that line's
        own positions a little earlier keeps its good start and plans the rest anew, with all its
        width. Per position rated it wins far more than the finder's wider beams from the root,
        hence its larger share (docs/tuning.md)."""
        if self.fs.deepest[DEEPEST_CARDS] < self.RELAY_MIN_CARDS:
            return None, 0
        line, states = self.deepest_line(root)
        n = len(line)
        starts = [i for i in range(n, -1, -1) if not last_round(states[i], self.pa)]
        rated, leg_budget = 0, int(budget * steps.RELAY.share()) // self.RELAY_LEGS
        for i in starts[::self.RELAY_STRIDE][:self.RELAY_LEGS]:
            self._gen += 64
            length, nodes, *_ = find_win(states[i], self.pa, leg_budget, self.FIRST_WIDTH,
                                         np.uint64(self._gen), self.fs, 0, 0, False, self.rounds)
            rated += int(nodes)
            if length >= 0:
                return np.concatenate([line[:i], self.fs.path[:length]]), rated
        return None, rated


class TwoDeckSteps:
    """The St. Helena family's steps before the main search: the relaxation's loss proof
    (engine.two_deck_proofs, sound: only with ``reductions``) and the win finder (only with
    ``win_first``)."""

    def __init__(self, pa: np.ndarray, finder: WinFinder | None):
        self.pa = pa
        self.finder = finder

    def shares(self, root: np.ndarray, budget: int) -> tuple[int, int]:
        """(win finder's nodes, search's nodes) of a solve of ``budget`` from ``root``, by the
        steps' declared shares: with a redeal left the search can only find wins (no tree of
        three deals is exhausted) and the beam finds far more of them per node; in the last
        round the search can still prove a loss. Without a finder the search gets all."""
        if self.finder is None:
            return 0, budget
        situation = "a redeal ahead" if root[self.pa[O_REDEALS]] < self.pa[P_REDEALS] else "last round"
        search = steps.SEARCH.share("two decks, a redeal ahead") if situation == "a redeal ahead" else 1
        return int(budget * steps.FINDER_FIRST.share(situation)), max(1, int(budget * search))

    def run(self, root: np.ndarray, budget: int, reductions: bool):
        """(who decided or None, nodes, path, line length): "relaxation" for a proven loss,
        "win finder" for a win found within ``budget`` nodes."""
        if reductions and never_freed(root, self.pa):
            return steps.RELAXATION.name, 0, None, 0
        if self.finder is None:
            return None, 0, None, 0
        length, nodes = self.finder.find(root, budget)
        return (steps.FINDER_FIRST.name if length >= 0 else None), nodes, self.finder.fs.path, length

    def relay(self, root: np.ndarray, budget: int) -> tuple[np.ndarray | None, int]:
        """The finder's relay (:meth:`WinFinder.relay`) for a step of ``budget`` positions
        (it rates up to the relay step's share of it), where the
        search left the deal unknown and a redeal is still ahead (in its last round the
        search has the deal to itself); else nothing, at no cost."""
        if self.finder is None or last_round(root, self.pa):
            return None, 0
        return self.finder.relay(root, budget)
