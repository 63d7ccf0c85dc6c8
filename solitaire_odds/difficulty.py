"""Winnable deals with a measured difficulty: how often players who see only what a person
sees win them.

A deal's rating comes from play, not from a guess: the greedy player's game (it draws nothing
at random, so one game) and :data:`PLANNER_GAMES` games of the planner with seeds 0, 1, ...:

* **easy**: greedy wins it;
* **medium**: greedy loses it, the planner wins at least half of its games;
* **hard**: greedy loses it and the planner wins fewer than half (perhaps none: winnable with
  every card known, but hardly by anyone who cannot see them).

Each rating also carries what the solver spent: the length of the winning line it found (not
always the shortest) and its nodes. Only deals the solver wins are rated, and each win is
replayed through the reference first.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, dataclass

from .game import deals, reference
from .players import make_player
from .rules import Rules

PLANNER_GAMES = 4
DIFFICULTIES = ("easy", "medium", "hard")
DEAL_COLUMNS = ("deal", "difficulty", "greedy_won", "planner_won", "planner_games", "line_length", "solver_nodes")


@dataclass(frozen=True)
class Rating:
    deal: int
    difficulty: str
    greedy_won: bool
    planner_won: int           # of PLANNER_GAMES games
    line_length: int           # moves of the solver's winning line
    solver_nodes: int

    def row(self) -> dict:
        return {**asdict(self), "planner_games": PLANNER_GAMES}


def difficulty_of(greedy_won: bool, planner_won: int, planner_games: int = PLANNER_GAMES) -> str:
    """The rating's word (see the module docstring)."""
    if greedy_won:
        return "easy"
    return "medium" if 2 * planner_won >= planner_games else "hard"


class Rater:
    """The players of a rating, built once for one set of rules and reused deal after deal."""

    def __init__(self, rules: Rules, **solver_params):
        self.rules = rules
        self.solver = make_player("solver", rules, **solver_params)
        self.greedy = make_player("greedy", rules)
        self.planners = [make_player("planner", rules, seed=seed) for seed in range(PLANNER_GAMES)]

    def rate(self, deal: int) -> Rating | None:
        """The rating of ``deal``, or None when the solver does not win it."""
        outcome = self.solver.play(deal)
        if outcome.verdict != "won":
            return None
        reference.replay_win(self.rules, reference.initial_position(self.rules, deals.deck(deal, self.rules["ncards"])),
                             outcome.line)
        greedy_won = self.greedy.play(deal).verdict == "won"
        planner_won = sum(planner.play(deal).verdict == "won" for planner in self.planners)
        return Rating(deal, difficulty_of(greedy_won, planner_won), greedy_won, planner_won, len(outcome.line),
                      outcome.nodes)


def winnable_deals(rules: Rules, count: int, difficulty: str | None = None, first: int = 0,
                   last: int = deals.MAX_DEAL, **solver_params) -> Iterator[Rating]:
    """The first ``count`` deals from ``first`` on (up to ``last``) that the solver wins, of
    ``difficulty`` when given, each with its rating."""
    if difficulty is not None and difficulty not in DIFFICULTIES:
        raise ValueError(f"difficulty must be one of {', '.join(DIFFICULTIES)}, not {difficulty!r}")
    rater = Rater(rules, **solver_params)
    found, deal = 0, first
    while found < count and deal <= last:
        rating = rater.rate(deal)
        if rating is not None and difficulty in (None, rating.difficulty):
            found += 1
            yield rating
        deal += 1
