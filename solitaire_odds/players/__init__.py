"""Who plays a deal: the perfect-information solver, or a player that sees only what a person
sees (an :class:`~solitaire_odds.players.observation.Observation`).

Every player answers the same question for a run: given a deal number, did it win, with which
line, at what cost? :func:`make_player` builds one by name; runs, the CLI and the notebooks only
use that interface, so a new player is one module and one line in :func:`_player_classes`. Each
player class declares what it takes once, in ``parameters`` (see :mod:`.parameters`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from ..outcome import Outcome
from ..rules import Rules, auto_ladder
from . import parameters as declared
from ..counts import MAX_BUDGET, InputError, parse_count
from .parameters import MAX_TABLE_MB, Param, budget_param, count_param, seconds_param


class SolverPlayer:
    """The perfect-information verdict: is the deal winnable with every card known?

    ``budgets`` is an escalation: a deal left unknown at ``budgets[i]`` nodes is searched
    again at ``budgets[i + 1]``; the outcome records the budget that decided it.
    ``table_mb`` fixes the transposition table's size in MiB (default: sized from the largest
    budget, see solver.table_size); it bounds the memory and can change verdicts."""

    name = "solver"
    parameters = (
        budget_param("budgets", declared.AUTO, "node budget, or an escalation such as 1e5,1e6,1e7, or auto: "
                     "the game's own ladder, about a CPU-second a deal (default auto; `games` lists them)",
                     escalation=True),
        Param("win_first", True),
        count_param("table_mb", None, "transposition table per worker, in MiB (default: 80 bytes per "
                    "budget node, at most 1280); part of the run's identity, since another size can change "
                    "which deals are decided within the budget", "--table-mb",
                    label=lambda megabytes: f"t{megabytes}MiB", most=MAX_TABLE_MB),
        seconds_param("prover_seconds", "CPU-seconds (made deterministic) of the prover on a deal the search "
                      "leaves unknown at the rung --prover-after (default: no prover; needs the prover extra)",
                      "--prover-seconds", label=lambda seconds: f"prover{seconds:g}s"),
        Param("prover_after", None, help="the rung of the escalation after which the prover runs (default: "
              "its last)", option="--prover-after", parse=lambda text: parse_count(text, "--prover-after", MAX_BUDGET),
              label=lambda budget: f"after{declared.short(budget)}", absent="does not search",
              text=declared.count_text),
    )

    @staticmethod
    def for_rules(rules: Rules, params: dict) -> dict:
        """``params`` with ``budgets="auto"`` replaced by the game's ladder for ``rules`` (and,
        where the prover's complete model covers the rules, its step: :func:`auto_prover`), and
        the prover's rung written out (a deepened file keeps the rung it ran after)."""
        if params.get("budgets") == declared.AUTO:
            ladder = auto_ladder(rules)
            params = {**params, "budgets": ladder, **auto_prover(rules, ladder, params)}
        if params.get("prover_seconds") is not None and params.get("prover_after") is None:
            ladder = params.get("budgets", declared.complete(SolverPlayer, {})["budgets"])
            if ladder != declared.AUTO:
                params = {**params, "prover_after": int(declared.budgets_of(ladder)[-1])}
        return params

    def __init__(self, rules: Rules, budgets: tuple[int, ...] | str, win_first: bool, table_mb: int | None,
                 prover_seconds: float | None = None, prover_after: int | None = None):
        from ..solver import Solver, slots_for_megabytes

        self.rules = rules
        resolved = self.for_rules(rules, {"budgets": budgets, "prover_seconds": prover_seconds,
                                          "prover_after": prover_after})
        self.budgets = tuple(int(b) for b in resolved["budgets"])
        prover_seconds, prover_after = resolved["prover_seconds"], resolved["prover_after"]
        self.win_first = bool(win_first)
        self.table_mb = table_mb
        if prover_after is not None and prover_seconds is None:
            raise InputError("--prover-after needs --prover-seconds")
        if prover_seconds is not None and prover_after is not None and prover_after not in self.budgets:
            raise InputError(f"--prover-after must be one of the rungs of --budget "
                             f"({', '.join(map(declared.count_text, self.budgets))}), not {declared.count_text(prover_after)}")
        self.prover_seconds = prover_seconds
        self.prover_after = None if prover_seconds is None else (prover_after or self.budgets[-1])
        slots = slots_for_megabytes(table_mb) if table_mb else None
        self._solver = Solver(rules, budget=max(self.budgets), win_first=self.win_first, table_slots=slots,
                              prover_seconds=prover_seconds or 0.0, prover_after=self.prover_after)

    def params(self) -> dict:
        return declared.of(self)

    def play(self, deal: int) -> Outcome:
        return self._escalate(deal=deal)

    def play_deck(self, deck, key: int = 0) -> Outcome:
        """The verdict on ``deck`` (``key`` is unused: the solver draws nothing at random)."""
        return self._escalate(deck=deck)

    def play_position(self, position) -> Outcome:
        """The verdict from ``position`` (a game in progress, every card known)."""
        return self._escalate(position=position)

    def _escalate(self, **deal_deck_or_position) -> Outcome:
        return escalate(self._solver, self.budgets, **deal_deck_or_position)


def auto_prover(rules: Rules, ladder: tuple[int, ...], params: dict) -> dict:
    """The prover step ``--budget auto`` adds where the schedule model decides every position
    of ``rules`` (prover.covers): :data:`~solitaire_odds.prover.AUTO_SECONDS` a deal after the
    ladder's last rung but one, so that the cheap proofs come before the largest search. None
    where the rules are not covered or the prover's step is given."""
    from ..prover import AUTO_SECONDS, covers

    if params.get("prover_seconds") is not None or params.get("prover_after") is not None or not covers(rules):
        return {}
    return {"prover_seconds": AUTO_SECONDS, "prover_after": ladder[-2] if len(ladder) > 1 else ladder[-1]}


def escalate(solver, budgets, position=None, **deal_or_deck) -> Outcome:
    """``solver``'s outcome on a deal (``deal=`` or ``deck=``) or from a ``position``, searched
    at each of ``budgets`` in turn until one decides it, each a fresh search: the nodes, seconds
    and each step's nodes summed, and the budget that decided it (or the last) recorded."""
    nodes, seconds, spent = 0, 0.0, Counter()
    for budget in budgets:
        if position is not None:
            result = solver.solve_position(position, budget)
        else:
            result = solver.solve(**deal_or_deck, budget=budget)
        nodes += result.nodes
        seconds += result.seconds
        spent.update(result.spent)
        if result.verdict != "unknown":
            break
    return replace(result, nodes=nodes, seconds=seconds, budget=budget, spent=dict(spent))


def _player_classes() -> dict:
    from .greedy import GreedyPlayer
    from .hindsight import HindsightPlayer
    from .planner import PlannerPlayer
    from .random_player import RandomPlayer
    from .uct import UctPlayer

    return {"solver": SolverPlayer, "random": RandomPlayer, "greedy": GreedyPlayer, "planner": PlannerPlayer,
            "hindsight": HindsightPlayer, "uct": UctPlayer}


def player_names() -> list[str]:
    return list(_player_classes())


def player_class(name: str):
    classes = _player_classes()
    if name not in classes:
        raise ValueError(f"unknown player {name!r}; choose one of {', '.join(classes)}")
    return classes[name]


def make_player(name: str, rules: Rules, **params):
    """The player called ``name`` for ``rules``; ``params`` are its keyword parameters (those
    it declares in ``parameters``; each one left out takes its declared default)."""
    cls = player_class(name)
    return cls(rules, **declared.complete(cls, params))


def for_rules(name: str, rules: Rules, params: dict) -> dict:
    """The parameters of ``name`` as a run of ``rules`` records them: what depends on the
    rules (the solver's ``auto`` ladder) resolved."""
    resolve_for = getattr(player_class(name), "for_rules", None)
    return resolve_for(rules, params) if resolve_for else params


def params_from_options(player: str, options: dict[str, str]) -> dict:
    """The parameters a run of ``player`` records, from the command-line options given."""
    return declared.from_options(_player_classes(), player, options)


def player_options() -> dict[str, str]:
    """The command-line options players declare, each with its help."""
    return declared.options(_player_classes())


def player_label(name: str, params: dict) -> str:
    """The run-folder tag of ``name`` with ``params``: b100k+1M, k16-b10k, ..."""
    return declared.label(player_class(name), params)


def player_budget_text(name: str, params: dict) -> str:
    """The search budget of ``name`` with ``params`` for people: 1e5 then 1e6 (then the prover
    2 s, where the solver has that step), 500, or -."""
    if name == "solver" and params.get("prover_seconds") is not None:
        return " then ".join(step if isinstance(step, str) else declared.count_text(step)
                             for step in solver_steps(params))
    return declared.budget_text(player_class(name), params)


def solver_steps(params: dict) -> tuple:
    """A solver run's steps from its recorded parameters: its node budgets, with its prover step
    (as ``prover 20 s``) after the rung it follows."""
    steps = [int(b) for b in declared.budgets_of(params.get("budgets", ()))]
    if params.get("prover_seconds") is not None:
        steps.insert(steps.index(int(params["prover_after"])) + 1, f"prover {params['prover_seconds']:g} s")
    return tuple(steps)


def describe_params(name: str, params: dict) -> str:
    """``budget 500, samples 4, seed 0``: the parameters of ``name`` for people."""
    return declared.describe(player_class(name), params)
