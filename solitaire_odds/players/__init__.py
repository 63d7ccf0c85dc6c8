"""Who plays a deal: the perfect-information solver, or a player that sees only what a person
sees (an :class:`~solitaire_odds.players.observation.Observation`).

Every player answers the same question for a run: given a deal number, did it win, with which
line, at what cost? :func:`make_player` builds one by name; runs, the CLI and the notebooks only
use that interface, so a new player is one module and one line in :func:`_player_classes`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..rules import Rules


@dataclass
class Outcome:
    """The result of one deal for one player."""

    verdict: str                 # won | lost | unknown (unknown: only the solver, budget spent)
    nodes: int                   # solver nodes spent (0 for players that do not search)
    seconds: float
    line: list = field(default_factory=list)   # the moves played (position.py tuples)
    budget: int = 0              # the solver budget that decided it (escalation), else 0


class SolverPlayer:
    """The perfect-information verdict: is the deal winnable with every card known?

    ``budgets`` is an escalation: a deal left unknown at ``budgets[i]`` nodes is searched
    again at ``budgets[i + 1]``; the outcome records the budget that decided it.
    ``table_mb`` fixes the transposition table's size in MiB (default: sized from the largest
    budget, see solver.table_size); it bounds the memory and can change verdicts."""

    name = "solver"

    def __init__(self, rules: Rules, budgets: tuple[int, ...] = (1_000_000,), win_first: bool = True,
                 table_mb: int | None = None):
        from ..solver import Solver, slots_for_megabytes

        self.rules = rules
        self.budgets = tuple(int(b) for b in budgets)
        self.win_first = bool(win_first)
        self.table_mb = table_mb
        slots = slots_for_megabytes(table_mb) if table_mb else None
        self._solver = Solver(rules, budget=max(self.budgets), win_first=self.win_first, table_slots=slots)

    def params(self) -> dict:
        table = {"table_mb": self.table_mb} if self.table_mb else {}
        return {"budgets": list(self.budgets), "win_first": self.win_first, **table}

    def play(self, deal: int) -> Outcome:
        nodes, seconds = 0, 0.0
        for budget in self.budgets:
            result = self._solver.solve(deal, budget=budget)
            nodes += result.nodes
            seconds += result.seconds
            if result.verdict != "unknown":
                break
        return Outcome(result.verdict, nodes, seconds, result.line, budget)


def _player_classes() -> dict:
    from .greedy import GreedyPlayer
    from .planner import PlannerPlayer
    from .random_player import RandomPlayer

    return {"solver": SolverPlayer, "random": RandomPlayer, "greedy": GreedyPlayer, "planner": PlannerPlayer}


def player_names() -> list[str]:
    return list(_player_classes())


def make_player(name: str, rules: Rules, **params):
    """The player called ``name`` for ``rules``; ``params`` are its keyword parameters
    (solver: budgets, win_first; planner: samples, budget; ...)."""
    classes = _player_classes()
    if name not in classes:
        raise ValueError(f"unknown player {name!r}; choose one of {', '.join(classes)}")
    return classes[name](rules, **params)
