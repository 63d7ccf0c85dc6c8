"""A search tree over the player's own choices, its leaves judged in hindsight (HOP-UCT).

The hindsight player (:mod:`.hindsight`) judges each offered move as if every hidden card
became known right after it, so two moves that both keep a completion winnable score alike
even when one of them leaves the player to guess later and the other does not. This player
looks further: it grows a tree of its own decisions in the style of single-observer
information-set Monte Carlo tree search (Cowling, Powley and Whitehouse, 2012), with
Bjarnason, Fern and Tadepalli's (ICAPS 2009) use of hindsight verdicts where the tree ends.

One iteration of a decision

1. draws a completion of the hidden cards (uniform, consistent with what the player saw);
2. walks down the tree from the decision, at each node choosing among the moves legal there
   by UCB1 (unvisited moves first, in greedy's order). A node is what the player would see
   (the state with hidden cards blanked), so a move that turns a card face up leads to as
   many children as there are cards it may show, and the choice made in each is the same for
   every completion that shows that card: the player cannot choose with hindsight inside
   the tree. Where a safe foundation move is legal it is the node's only move (the solver's
   proven rule: it loses no win whatever the hidden cards are);
3. at the first node not yet in the tree (or after :data:`MAX_DEPTH` moves), asks the solver, on
   ``budget`` nodes, whether this completion is still winnable from there: won 1, undecided
   1/2, lost 0; a won position counts 1 and a position without a legal move 0 at once;
4. adds that value to every move on the way down.

Iterations run until ``think`` solver nodes have been spent on the decision, each counted as
at least ``budget`` / 8 nodes so that solves a proof ends at once (a relaxation spends none)
still use up the budget; the decision then plays the root move visited most (ties: greedy's
preference). The thinking budget per decision is thus fixed and counted in nodes, so that a
result does not depend on the machine. Everything else (a single offered move, safe
foundation moves, a known win when nothing is hidden, the table's termination rule, the
random streams) is the planner's.
"""

from __future__ import annotations

import math

import numpy as np

from ..engine import api
from ..engine.reductions import is_safe_foundation_move
from ..engine.state import public_copy
from .hindsight import UNDECIDED
from .observation import HIDDEN
from .parameters import SEED, budget_param, count_param, short
from .planner import PlannerPlayer

DEFAULT_THINK = 100_000
DEFAULT_BUDGET = 1_000
MAX_DEPTH = 12
"""Moves a walk goes down the tree at most before its hindsight solve."""
EXPLORATION = 0.5
"""UCB1's exploration constant for values in [0, 1]."""
LEAST_SHARE = 8
"""An iteration costs at least ``budget // LEAST_SHARE`` nodes of the thinking budget."""


class _Node:
    """A decision as the player sees it: its moves, their visits and summed values."""

    __slots__ = ("moves", "total", "values", "visits")

    def __init__(self, moves: list[np.ndarray]):
        self.moves = moves
        self.visits = np.zeros(len(moves))
        self.values = np.zeros(len(moves))
        self.total = 0

    def choose(self) -> int:
        """UCB1: the first unvisited move (moves come in greedy's order), else the best bound."""
        unvisited = np.flatnonzero(self.visits == 0)
        if unvisited.size:
            return int(unvisited[0])
        bound = self.values / self.visits + EXPLORATION * np.sqrt(math.log(self.total) / self.visits)
        return int(np.argmax(bound))

    def add(self, i: int, value: float) -> None:
        self.visits[i] += 1
        self.values[i] += value
        self.total += 1


class UctPlayer(PlannerPlayer):
    """A tree over the player's own choices, ``think`` nodes a decision, each leaf a hindsight
    solve on ``budget`` nodes (see the module docstring)."""

    name = "uct"
    parameters = (
        count_param("think", DEFAULT_THINK, f"solver nodes a decision may spend, the player's thinking "
                    f"budget (default {DEFAULT_THINK:,})", "--think", label=lambda think: f"n{short(think)}"),
        budget_param("budget", DEFAULT_BUDGET, f"node budget per solve (default {DEFAULT_BUDGET:,})"),
        SEED,
    )

    def __init__(self, rules, think: int, budget: int, seed: int):
        if think < 1:
            raise ValueError("the uct player needs think >= 1")
        super().__init__(rules, samples=1, budget=budget, seed=seed)
        self.think = int(think)

    def _scores(self, obs, offered: list[np.ndarray], rng) -> np.ndarray:
        """Each offered move's visits after the decision's iterations."""
        order = self._greedy_order(obs.state, offered)
        root = _Node([offered[i] for i in order])
        tree: dict[bytes, _Node] = {}
        least, spent = max(1, self.budget // LEAST_SHARE), 0
        while spent < self.think:
            before = self._nodes
            self._iterate(root, tree, obs.complete(rng))
            spent += max(least, self._nodes - before)
        scores = np.zeros(len(offered))
        scores[order] = root.visits
        return scores

    def _iterate(self, root: _Node, tree: dict[bytes, _Node], state: np.ndarray) -> None:
        """One walk down from ``root`` in the completion ``state`` (changed in place)."""
        path, node = [], root
        for _ in range(MAX_DEPTH):
            i = node.choose()
            path.append((node, i))
            api.play_row(state, self.pa, node.moves[i])
            if api.is_won_state(state, self.pa):
                value = 1.0
                break
            seen = public_copy(state, self.pa, HIDDEN)
            key = seen.tobytes()
            child = tree.get(key)
            if child is None:
                tree[key] = child = self._node(seen)
                value = self._value(state, child)
                break
            if not child.moves:
                value = 0.0
                break
            node = child
        else:
            value = self._value(state, node)
        for visited, i in path:
            visited.add(i, value)

    def _node(self, seen: np.ndarray) -> _Node:
        """The decision at ``seen`` (a state as the player sees it: no rule reads a hidden
        card): a safe foundation move alone, else every legal move in greedy's order."""
        moves = [row.copy() for row in api.legal_rows(seen, self.pa)]
        for move in moves:
            if is_safe_foundation_move(seen, self.pa, move):
                return _Node([move])
        if len(moves) > 1:
            moves = [moves[i] for i in self._greedy_order(seen, moves)]
        return _Node(moves)

    def _value(self, state: np.ndarray, node: _Node) -> float:
        """This completion's hindsight verdict at ``state``: won 1, undecided 1/2, lost 0."""
        if not node.moves:
            return 0.0
        verdict = self._verdict(state)
        return 1.0 if verdict == "won" else UNDECIDED if verdict == "unknown" else 0.0
