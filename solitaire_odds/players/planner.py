"""Perfect-information Monte Carlo: guess the hidden cards many ways, solve each guess.

At each decision the planner sees an :class:`~.observation.Observation` and the moves the
:class:`~.table.Table` offers (legal, not returning to a position already seen). It

1. plays the only move when there is one, and a safe foundation move when there is one (the
   solver's proven rule: it loses no win whatever the hidden cards are);
2. when nothing is hidden any more, solves the position once and follows the winning line; a
   position proven lost ends the game (lost); undecided within the budget, or won by a line
   whose next move goes back to a position of this game (which the table does not offer), it
   plays greedy's choice and tries again at the next decision;
3. otherwise draws ``samples`` completions of the hidden cards (uniform, consistent with the
   observation) and solves each with the numba solver on ``budget`` nodes per pass. Each
   completion the solver wins votes for the first move of its winning line; the move with the
   most votes is played. Ties (including no win anywhere) go to greedy's preferred move, then
   to the first in the engine's move order.

   Voting with the solver's first move costs one solve per completion. Solving every offered
   move in every completion (the textbook rule) was measured at about three times the cost
   for a like result on Classic Westcliff (20 deals, 4 completions: 10 won against 9).

The game ends, lost unless won, when no move is offered or after the move cap of
:mod:`.table`. Completions are drawn from a generator seeded by (``seed``, deal number).
"""

from __future__ import annotations

import time

import numpy as np

from ..engine import api
from ..engine.playout import MAX_PLAY_MOVES, greedy_scores
from ..engine.reductions import is_safe_foundation_move
from ..rules import Rules
from ..solver import Solver
from ..outcome import Outcome
from .parameters import SEED, budget_param, count_param, of, short
from .table import DealPlayer, Table, is_offered, stream

DEFAULT_SAMPLES = 4
DEFAULT_BUDGET = 500


class PlannerPlayer(DealPlayer):
    """Perfect-information Monte Carlo over ``samples`` completions, each decided by the
    solver on ``budget`` nodes (see the module docstring for the whole rule)."""

    name = "planner"
    parameters = (
        count_param("samples", DEFAULT_SAMPLES, f"completions of the hidden cards solved per decision "
                    f"(default {DEFAULT_SAMPLES})", "--samples", label=lambda samples: f"k{short(samples)}"),
        budget_param("budget", DEFAULT_BUDGET, f"node budget per solve (default {DEFAULT_BUDGET})"),
        SEED,
    )

    def __init__(self, rules: Rules, samples: int, budget: int, seed: int):
        if samples < 1 or budget < 1:
            raise ValueError("the planner needs samples >= 1 and budget >= 1")
        self.rules = rules
        self.samples = int(samples)
        self.budget = int(budget)
        self.seed = int(seed)
        self.pa = api.params(rules)
        self._solver = Solver(rules, budget=self.budget)

    def params(self) -> dict:
        return of(self)

    def play_state(self, state: np.ndarray, key: int) -> Outcome:
        """Play on from the engine state ``state`` (left unchanged). Its seconds are this
        process's CPU time, so that a game's cost does not count other jobs on a shared machine."""
        start = time.process_time()
        table = Table(self.pa, state)
        rng = np.random.default_rng(stream(self.seed, key))
        self._nodes = 0
        self._plan: list[np.ndarray] = []
        while not table.won and len(table.line) < MAX_PLAY_MOVES:
            offered = table.candidates()
            if not offered:
                break
            move = self._decide(table.observation(), offered, rng)
            if move is None:
                break
            table.play(move)
        verdict = "won" if table.won else "lost"
        return Outcome(verdict, self._nodes, time.process_time() - start, table.moves())

    # --- one decision ---------------------------------------------------------------------

    def _decide(self, obs, offered: list[np.ndarray], rng) -> np.ndarray | None:
        if self._plan and is_offered(self._plan[0], offered):
            return self._plan.pop(0)
        self._plan = []
        if len(offered) == 1:
            return offered[0]
        for move in offered:
            if self._is_safe_foundation_move(obs.state, move):
                return move
        if not obs.unseen:
            verdict, line = self._solve(obs.state)
            # the solver knows nothing of the game so far: its line may begin by going back to a
            # position already seen, which the table does not offer (Easthaven, deal 767)
            if verdict == "won" and is_offered(line[0], offered):
                self._plan = line[1:]
                return line[0]
            if verdict == "lost":
                return None
            return offered[self._greedy_order(obs.state, offered)[0]]
        scores = self._scores(obs, offered, rng)
        order = self._greedy_order(obs.state, offered)
        return offered[max(order, key=lambda i: scores[i])]  # max keeps the first of equals

    def _scores(self, obs, offered: list[np.ndarray], rng) -> np.ndarray:
        """Each offered move's votes: the completions whose winning line starts with it."""
        votes = np.zeros(len(offered), dtype=np.int64)
        for _ in range(self.samples):
            verdict, line = self._solve(obs.complete(rng))
            if verdict == "won":
                votes += [np.array_equal(move, line[0]) for move in offered]
        return votes

    def _greedy_order(self, state: np.ndarray, offered: list[np.ndarray]) -> list[int]:
        """Indices of ``offered`` by greedy's preference, best first (engine order among equals)."""
        rows = np.array(offered, dtype=np.int16)
        scores = np.zeros(len(offered), dtype=np.int64)
        greedy_scores(state, self.pa, rows, len(offered), scores)
        return [int(i) for i in np.argsort(-scores, kind="stable")]

    def _is_safe_foundation_move(self, state: np.ndarray, move: np.ndarray) -> bool:
        """Would the search play ``move`` at once as a safe foundation move?"""
        return is_safe_foundation_move(state, self.pa, move)

    def _solve(self, state: np.ndarray) -> tuple[str, list[np.ndarray]]:
        """The solver's verdict on a full state and its winning line as engine rows."""
        result = self._solver.solve_state(state, self.budget)
        self._nodes += result.nodes
        return result.verdict, [api.move_row(m, self.pa) for m in result.line]

    def _verdict(self, state: np.ndarray) -> str:
        """The solver's verdict on a full state alone (no line to translate)."""
        result = self._solver.solve_state(state, self.budget)
        self._nodes += result.nodes
        return result.verdict
