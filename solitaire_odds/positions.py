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
    if outcome.verdict == "won":
        reference.replay_win(rules, start, outcome.line)


@dataclass
class MoveRating:
    """One legal move of a position and how the arrangements of its hidden cards fare after
    it (with nothing hidden: the one exact verdict)."""

    move: tuple
    summary: Summary


def hint(rules: Rules, position: PositionFile, completions: int = DEFAULT_COMPLETIONS, seed: int = 0,
         **solver_params) -> list[MoveRating]:
    """Every legal move of ``position`` rated by the share of the hidden cards' arrangements
    that are winnable after it, best first (the lower end of the bracket, then its upper end,
    then the engine's order). The same arrangements rate every move, so that differences
    between moves are not the draw's. With nothing hidden each move gets its exact verdict."""
    solver = make_player("solver", rules, **solver_params)
    rng = random.Random(seed)
    arrangements = [position.position] if position.known else [position.completion(rng) for _ in range(completions)]
    moves = reference.legal_moves(rules, arrangements[0])
    verdicts: dict[tuple, list[str]] = {move: [] for move in moves}
    for filled in arrangements:
        if sorted(reference.legal_moves(rules, filled)) != sorted(moves):
            raise RuntimeError("internal error: the legal moves depend on a hidden card")
        for move in moves:
            after = reference.apply_move(rules, filled, move)
            outcome = solver.play_position(after)
            _check_win(rules, after, outcome)
            verdicts[move].append(outcome.verdict)
    rated = [MoveRating(move, summarize(verdicts[move])) for move in moves]
    order = {move: k for k, move in enumerate(moves)}
    return sorted(rated, key=lambda r: (-r.summary.won, -(r.summary.won + r.summary.unknown), order[r.move]))
