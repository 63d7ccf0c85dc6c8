"""Perfect-information solving: is a deal winnable with every card known?

:class:`Solver` owns the search's preallocated workspace (stack, transposition table) for one
set of rules and reuses it deal after deal; the table is never wiped between deals, each
search marks its entries with a fresh generation number instead.
"""

from __future__ import annotations

import time
from functools import partial

import numpy as np

from .engine import api, relaxation
from .engine.constants import FOUND_KINGS_AND_ACES, O_REDEALS, P_FOUND_KIND, P_NCARDS, P_REDEALS
from .engine.core import deal_into, shuffled_deck
from .engine.search import (
    BY_SEARCH, BY_SHORTCUTS, BY_WIN_FIRST, GEN_MASK, GENERATIONS, LOST, TT_WIDTH, UNKNOWN, WON, solve_root, workspace,
)
from .engine.state import encode
from .engine.two_deck_proofs import last_round, never_freed
from .engine.winfinder import DEEPEST_CARDS, DEEPEST_LENGTH, find_win, finder_space
from .outcome import Outcome
from .game.position import Position
from .rules import Rules

VERDICTS = {WON: "won", LOST: "lost", UNKNOWN: "unknown"}
PASSES = {BY_WIN_FIRST: "win-first", BY_SHORTCUTS: "shortcuts", BY_SEARCH: "search"}
"""Which part decided a deal (Outcome.decided_by), besides "relaxation"."""
DEFAULT_BUDGET = 1_000_000
MAX_DEPTH = 20_000
"""The longest line the search follows; a position deeper is left unexpanded and the verdict
can then only be unknown. Box Kite's depth-first lines wander far (cards move back and forth
between piles): at 1,500, deals 53 and 82 of its book reading stayed unknown after their search
had visited every other position; at 20,000 both are proven lost at 1e7, in the same number of
positions. The line's arrays are zeroed lazily by the system, so only the depths reached cost
memory (about 8 KB each)."""


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
                 reductions: bool = True, table_slots: int | None = None):
        if budget < 1:
            raise ValueError("the node budget must be at least 1")
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
        """Decide the position in ``ws.root``: with ``reductions``, where it is proven, first the
        relaxed game (engine.relaxation), which only loses; in the St. Helena family its own
        relaxation and the win finder (:class:`TwoDeckSteps`); then the search's passes
        (engine.search.solve_root); in the one-deck games, with ``win_first``, the win finder
        last, on a deal the search left unknown (its beam wins deals whose winning lines a
        depth-first search does not reach within the budget: Easthaven with spaces and
        returns, 10 of the 21 deals of 0..999 left unknown at 1e6 nodes); in the St. Helena
        family, with a redeal ahead, the finder's relay (:meth:`WinFinder.relay`) last.
        ``decided_by`` is empty when the verdict is unknown."""
        start = time.perf_counter()
        budget, gen = int(budget or self.budget), self._next_generation()
        if self._relaxation and relaxation.relaxed_lost(self._ws.root, self.pa):
            return Outcome("lost", 0, time.perf_counter() - start, [], budget, "relaxation")
        nodes_before, search_budget = 0, budget
        if self._two_deck is not None:
            finder_budget, search_budget = self._two_deck.shares(self._ws.root, budget)
            part, nodes_before, path, length = self._two_deck.run(self._ws.root, finder_budget, self.reductions)
            if part is not None:
                won = part == "win finder"
                return Outcome("won" if won else "lost", nodes_before, time.perf_counter() - start,
                               self._line_of(path, length) if won else [], budget, part)
        verdict, nodes, length, part = solve_root(self.pa, search_budget, self.win_first, self.reductions, gen,
                                                  self._ws)
        if (verdict == UNKNOWN and self._two_deck is None and self._finder is not None
                and budget >= WinFinder.ONE_DECK_MIN_BUDGET):
            found, rated = self._finder.find(self._ws.root, budget)
            if found >= 0:
                return Outcome("won", int(nodes) + rated, time.perf_counter() - start,
                               self._line_of(self._finder.fs.path, found), budget, "win finder")
            nodes += rated
        if verdict == UNKNOWN and self._two_deck is not None:
            line, rated = self._two_deck.relay(self._ws.root, budget)
            if line is not None:
                return Outcome("won", int(nodes) + nodes_before + rated, time.perf_counter() - start,
                               self._line_of(line, len(line)), budget, "relay")
            nodes += rated
        seconds = time.perf_counter() - start
        return Outcome(VERDICTS[verdict], int(nodes) + nodes_before, seconds, self._line_of(self._ws.path, length), budget,
                       "" if verdict == UNKNOWN else PASSES[part])

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
    a heuristic, so only its wins count (each is replayed like every other)."""

    FIRST_WIDTH = 16
    MAX_WIDTH = 1 << 16
    NODES_PER_WIDTH = 128
    """A beam of width w rates about 100 w positions to reach the end of a St. Helena deal
    (measured: width 16,384 wins after 1.4M-2.6M), so a finder's budget b affords beams up to
    about b / 128 wide."""
    LOGGED_SHARE = 4
    """A beam keeps one position of every 10-30 it rates: a log of a quarter of the budget
    never fills (a full log ends the attempt)."""
    ONE_DECK_MIN_BUDGET = 20_000
    """Below this the finder is not run after a one-deck search: the narrowest beam (16 wide,
    about 20 children a position) needs about 3e4 positions rated to play a game of about 100
    moves out, and at 3e3 and 1e4 it won none of the deals the search left unknown (Easthaven
    with spaces and returns, deals 0..29; Classic Westcliff, 0..39). The planner's solves
    (500 nodes) stay as they were."""

    def __init__(self, pa: np.ndarray, budget: int):
        self.pa = pa
        self.fs = finder_space(pa, self.widest(budget), max(1 << 16, budget // self.LOGGED_SHARE))
        self._gen = 0
        self._last_root: np.ndarray | None = None
        self._ended = (0, 0)  # attempts on _last_root that ended without a win, budget counted through them

    @classmethod
    def widest(cls, budget: int) -> int:
        """The widest beam worth buffers at ``budget``: a power of two from FIRST_WIDTH to
        MAX_WIDTH. Wider beams find far more wins (St. Helena deals 0..9: 3 at width 4,096, 7 at
        16,384), so the beam widens (x4 per restart) as long as the budget lasts."""
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
                                                  self.fs, *self._ended, True)
        self._ended = (int(ended), int(spent))
        return int(length), int(rated)

    RELAY_LEGS = 16
    RELAY_STRIDE = 4
    RELAY_SHARE = 16
    RELAY_MIN_CARDS = 60
    """The relay runs only from a deepest line that ended with at least this many cards on the
    foundations (of 104, the 8 bases included). St. Helena by the book, deals 0..199, ladder
    1e5 then 1e6 with the relay of 16x: of the relays from lines that ended below 60 cards, 3
    of 39 won at 1e5 (17.5 CPU-s in all) and none of 11 at 1e6 (36.8 CPU-s, a ninth of the
    whole run's time); from 60 cards up, 47 of 91 and 31 of 41."""

    def relay(self, root: np.ndarray, budget: int) -> tuple[np.ndarray | None, int]:
        """(the moves of a winning line from ``root``, or None; positions rated): fresh finder
        runs, of RELAY_SHARE x ``budget`` / RELAY_LEGS positions each, from the positions of the
        deepest line the finder met at ``root`` (:meth:`find` first) that still have a redeal
        ahead: the one just before its last redeal, then every RELAY_STRIDE moves back; none
        when that line ended with fewer than RELAY_MIN_CARDS cards on the foundations. A
        heuristic, so only its wins count (each is replayed like every other).

        The deepest line of a deal the finder cannot win mostly plays its last round out into
        a dead end, and it goes wrong before that round starts: a beam started from that line's
        own positions a little earlier keeps its good start and plans the rest anew, with all its
        width. Per position rated it wins far more than the finder's wider beams from the root,
        hence its larger share. St. Helena by the book, deals 0..199, ladder 1e5 then 1e6
        (won, CPU-s a deal): a relay of 1x the budget in 8 legs every 6th move
        154, 0.56; 2x 159, 0.64; 4x 164, 0.87; 8x 170, 1.27; 16x in 16 legs every 4th move
        179, 1.68; 32x 179, 2.67; 16x with a 3e5 step 179, 2.14; two rounds of 8x, the second
        from the first's deepest leg, 170, 1.52. Deals 0..99 with a 1e7 step and 1x: 89 won,
        2.80 CPU-s."""
        if self.fs.deepest[DEEPEST_CARDS] < self.RELAY_MIN_CARDS:
            return None, 0
        n = int(self.fs.deepest[DEEPEST_LENGTH])
        line = self.fs.deepest_path[:n].copy()
        states = [root.copy()]
        for row in line:
            states.append(states[-1].copy())
            api.play_row(states[-1], self.pa, row)
        starts = [i for i in range(n, -1, -1) if not last_round(states[i], self.pa)]
        rated, leg_budget = 0, budget * self.RELAY_SHARE // self.RELAY_LEGS
        for i in starts[::self.RELAY_STRIDE][:self.RELAY_LEGS]:
            self._gen += 64
            length, nodes, *_ = find_win(states[i], self.pa, leg_budget, self.FIRST_WIDTH,
                                         np.uint64(self._gen), self.fs, 0, 0, False)
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
        """(win finder's nodes, search's nodes) of a solve of ``budget`` from ``root``: half and
        all in the last round, where the search can still prove a loss; with a redeal left it
        can only find wins (no tree of three deals is exhausted), and the beam finds far more
        of them per node, so the finder gets all and the search a tenth. Measured on
        st-helena build_suit=any, deals 0..299, budgets 1e5 then 1e6: with half and all, the
        finder won 143 deals and the search 11 more. Without a finder the search gets all."""
        if self.finder is None:
            return 0, budget
        if root[self.pa[O_REDEALS]] < self.pa[P_REDEALS]:
            return budget, max(1, budget // 10)
        return budget // 2, budget

    def run(self, root: np.ndarray, budget: int, reductions: bool):
        """(who decided or None, nodes, path, line length): "relaxation" for a proven loss,
        "win finder" for a win found within ``budget`` nodes."""
        if reductions and never_freed(root, self.pa):
            return "relaxation", 0, None, 0
        if self.finder is None:
            return None, 0, None, 0
        length, nodes = self.finder.find(root, budget)
        return ("win finder" if length >= 0 else None), nodes, self.finder.fs.path, length

    def relay(self, root: np.ndarray, budget: int) -> tuple[np.ndarray | None, int]:
        """The finder's relay (:meth:`WinFinder.relay`) for a step of ``budget`` positions
        (it rates up to WinFinder.RELAY_SHARE times as many), where the
        search left the deal unknown and a redeal is still ahead (in its last round the
        search has the deal to itself); else nothing, at no cost."""
        if self.finder is None or last_round(root, self.pa):
            return None, 0
        return self.finder.relay(root, budget)
