"""Hindsight optimisation: judge every offered move by how many guesses of the hidden cards it
keeps winnable.

The planner lets each completion of the hidden cards vote for the first move of the line that
wins it. That rewards clairvoyance: a completion's line starts with whatever happens to suit
its own hidden cards, the votes scatter, and a move that keeps most completions alive gets no
vote at all. Measured on Easthaven (deals 0..29, King spaces), the planner at 8 completions of
50,000 nodes won 1 game at 1.9 CPU-s a game.

This player instead draws ``samples`` completions once per decision and, for every offered
move, plays the move in each completion and asks the solver (``budget`` nodes, the solver's
proven reductions included) whether the child is winnable: a win scores 1, an undecided child
1/2, a loss 0. The move with the highest total is played; ties go to greedy's preference.
The same completions judge every move, so that the moves are compared on the same guesses
(common random numbers) rather than on luck. This is hindsight optimisation (HOP) in the sense
of Bjarnason, Fern and Tadepalli (ICAPS 2009); its known weakness remains: it still assumes
that after this move the hidden cards will be known, so it undervalues moves that gather
information.

Its thinking budget per decision is therefore at most ``samples`` x (offered moves) x
``budget`` nodes, counted in nodes so that a result does not depend on the machine. Everything
else (a single offered move, safe foundation moves, playing to a known win when nothing is
hidden, the table's termination rule, the random streams) is the planner's.
"""

from __future__ import annotations

import numpy as np

from ..engine import api
from .parameters import SEED, budget_param, count_param, short
from .planner import PlannerPlayer

DEFAULT_SAMPLES = 8
DEFAULT_BUDGET = 2_000
UNDECIDED = 0.5
"""What an undecided child scores: a guess between the won (1) and the lost (0)."""


class HindsightPlayer(PlannerPlayer):
    """Hindsight optimisation over ``samples`` completions, every offered move solved in each
    on ``budget`` nodes (see the module docstring)."""

    name = "hindsight"
    parameters = (
        count_param("samples", DEFAULT_SAMPLES, f"completions of the hidden cards per decision, each "
                    f"solved after every offered move (default {DEFAULT_SAMPLES})", "--samples",
                    label=lambda samples: f"k{short(samples)}"),
        budget_param("budget", DEFAULT_BUDGET, f"node budget per solve (default {DEFAULT_BUDGET:,})"),
        SEED,
    )

    def _scores(self, obs, offered: list[np.ndarray], rng) -> np.ndarray:
        """Each offered move's total over the completions: won 1, undecided 1/2, lost 0."""
        completions = [obs.complete(rng) for _ in range(self.samples)]
        scores = np.zeros(len(offered))
        for i, move in enumerate(offered):
            for completion in completions:
                child = completion.copy()
                api.play_row(child, self.pa, move)
                verdict = self._verdict(child)
                scores[i] += 1.0 if verdict == "won" else UNDECIDED if verdict == "unknown" else 0.0
        return scores
