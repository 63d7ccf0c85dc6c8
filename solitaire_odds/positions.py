"""Is a game in progress still winnable? The solver's verdict from a position file's position,
or, where cards are hidden, the share of the ways the hidden cards can lie that are winnable.

A person who sees the table knows the visible cards and which cards are hidden, not where each
hidden card lies: every arrangement is equally likely to them. The share of winnable
arrangements is estimated from ``completions`` arrangements drawn at random (seeded, so the
same command gives the same answer), with its Wilson interval; arrangements the solver leaves
unknown widen the bracket, as in every run.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .game import reference
from .game.position_file import PositionFile
from .outcome import Outcome
from .players import make_player
from .rules import Rules
from .stats import Summary, summarize

DEFAULT_COMPLETIONS = 100


@dataclass
class PositionVerdict:
    """The answer for one position: ``outcome`` when every card is known, else the
    ``summary`` of ``completions`` arrangements of the hidden cards."""

    outcome: Outcome | None
    summary: Summary
    completions: int
    seed: int


def decide(rules: Rules, position: PositionFile, completions: int = DEFAULT_COMPLETIONS, seed: int = 0,
           **solver_params) -> PositionVerdict:
    """The solver's answer for ``position`` under ``rules`` (``solver_params``: the solver
    player's, e.g. ``budgets=(100_000, 1_000_000)``; default its ``auto`` ladder). Every win's
    line is replayed through the reference before it counts."""
    solver = make_player("solver", rules, **solver_params)
    if position.known:
        outcome = solver.play_position(position.position)
        _check_win(rules, position.position, outcome)
        return PositionVerdict(outcome, summarize([outcome.verdict]), 1, seed)
    rng = random.Random(seed)
    verdicts = []
    for _ in range(completions):
        filled = position.completion(rng)
        outcome = solver.play_position(filled)
        _check_win(rules, filled, outcome)
        verdicts.append(outcome.verdict)
    return PositionVerdict(None, summarize(verdicts), completions, seed)


def _check_win(rules: Rules, start, outcome: Outcome) -> None:
    if outcome.verdict != "won":
        return
    pos = start
    for move in outcome.line:
        pos = reference.apply_move(rules, pos, move)
    if not reference.is_won(rules, pos):
        raise RuntimeError("internal error: a winning line does not replay through the reference")
