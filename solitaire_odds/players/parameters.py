"""What each player takes, declared once.

A player class lists its parameters as :class:`Param` records in ``parameters``; from that
list alone come its defaults (:func:`complete`), the command-line options that set them and
their validation (:func:`from_options`), the parameters a run records in its manifest, the
short label of its run folder (:func:`label`) and the words that show its values to people
(:func:`budget_text`, :func:`describe`). A new parameter is one more record.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..counts import MAX_BUDGET, InputError, parse_budgets, parse_count, parse_seconds, parse_seed

MAX_TABLE_MB = 2**20
"""A transposition table of at most 1 TiB per worker: larger is a typing slip, not a machine."""


@dataclass(frozen=True)
class Param:
    """One parameter of a player.

    ``default`` None means unset: left out of the manifest, so that runs made before the
    parameter existed keep their identity. ``option`` is the command-line option that sets it
    (``parse`` reads its text), ``label`` its part of the run-folder name (none: not shown),
    ``absent`` what a player lacking it does not do, for the message that refuses the option,
    ``text`` how a value reads to people (default: ``100,000``)."""

    name: str
    default: object
    help: str = ""
    option: str | None = None
    parse: Callable[[str], object] | None = None
    label: Callable[[object], str] | None = None
    absent: str = ""
    text: Callable[[object], str] | None = None

    def show(self, value) -> str:
        """``value`` as people read it."""
        if self.text is not None:
            return self.text(value)
        return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


def short(n: int) -> str:
    """1000000 -> 1M, 10000 -> 10k, 500 -> 500."""
    for unit, size in (("M", 10**6), ("k", 10**3)):
        if n % size == 0:
            return f"{n // size}{unit}"
    return str(n)


SEED = Param("seed", 0, help="seed of its random draws (default 0)", option="--seed", parse=parse_seed,
             absent="draws nothing at random")


def count_text(n: int) -> str:
    """A node count as people write it: ``1e5``, ``2.5e4``, ``500``, ``123,456``."""
    if n >= 1000:
        mantissa, exponent = f"{n:.1e}".split("e")
        if float(mantissa) * 10 ** int(exponent) == n:
            return f"{float(mantissa):g}e{int(exponent)}"
    return f"{n:,}"


def budgets_of(value) -> tuple:
    return tuple(value) if isinstance(value, (list, tuple)) else (value,)


def _budget_label(value) -> str:
    if value == AUTO:
        return AUTO
    return "b" + "+".join(short(int(v)) for v in budgets_of(value))


def _budget_text(value) -> str:
    """``1e5 then 1e6`` for an escalation, ``500`` for one budget."""
    if value == AUTO:
        return "auto (the game's ladder)"
    return " then ".join(count_text(int(v)) for v in budgets_of(value))


AUTO = "auto"
"""The solver's escalation left to the game's declaration (rules.auto_ladder), resolved when
the rules are known: what a run records and shows is always the ladder itself."""


def _parse_escalation(text: str):
    return AUTO if str(text).strip().lower() == AUTO else parse_budgets(text)


def budget_param(name: str, default, help: str, escalation: bool = False) -> Param:
    """A node budget set by ``--budget``: the solver's escalation (1e5,1e6, or ``auto``), the
    planner's budget per solve (one number)."""
    parse = _parse_escalation if escalation else (lambda text: parse_count(text, "--budget", MAX_BUDGET))
    return Param(name, default, help=help, option="--budget", parse=parse, label=_budget_label,
                 absent="does not search", text=_budget_text)


def count_param(name: str, default, help: str, option: str, label: Callable[[object], str] | None = None,
                most: int | None = None) -> Param:
    """A whole number >= 1 (at most ``most``) typed as 100000, 1e5 or 100k."""
    return Param(name, default, help=help, option=option, parse=lambda text: parse_count(text, option, most),
                 label=label)


def seconds_param(name: str, help: str, option: str, label: Callable[[object], str] | None = None) -> Param:
    """CPU-seconds above 0 (``2``, ``0.5``), unset by default."""
    return Param(name, None, help=help, option=option, parse=lambda text: float(parse_seconds(text, option, 1e-3)),
                 label=label, text=lambda seconds: f"{seconds:g} s")


def complete(player_class, params: dict) -> dict:
    """``params`` with every declared parameter of ``player_class`` present (its default when
    not given); a name it does not declare is refused."""
    declared = {param.name: param for param in player_class.parameters}
    unknown = sorted(set(params) - set(declared))
    if unknown:
        raise ValueError(f"the {player_class.name} player takes no parameter {unknown[0]!r}; "
                         f"it takes {', '.join(declared) or 'none'}")
    return {name: params.get(name, param.default) for name, param in declared.items()}


def recorded(player_class, params: dict) -> dict:
    """The parameters a run records: all of them, defaults written out, unset ones left out."""
    return {name: value for name, value in complete(player_class, params).items() if value is not None}


def of(player) -> dict:
    """The recorded parameters of a player object (each declared one is an attribute)."""
    return recorded(type(player), {param.name: getattr(player, param.name) for param in player.parameters})


def from_options(classes: dict, player: str, options: dict[str, str]) -> dict:
    """The recorded parameters of ``player`` from the command line's ``options`` (option ->
    text, only those given), refusing an option this player does not declare."""
    if player not in classes:
        raise InputError(f"unknown player {player!r}; choose one of {', '.join(classes)}")
    chosen = classes[player]
    params = {}
    for option, text in options.items():
        param = next((p for p in chosen.parameters if p.option == option), None)
        if param is None:
            raise InputError(_not_for(classes, player, option))
        params[param.name] = param.parse(text)
    return recorded(chosen, params)


def _not_for(classes: dict, player: str, option: str) -> str:
    takers = [(name, p) for name, cls in classes.items() for p in cls.parameters if p.option == option]
    names = [name for name, _ in takers]
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    why = takers[0][1].absent
    who = "the solver" if player == "solver" else f"the {player} player"
    return f"{option} applies to --player {listed} only" + (f"; {who} {why}" if why else "")


def options(classes: dict) -> dict[str, str]:
    """Every option a player declares, with its help: what it sets for the players that take it."""
    takers: dict[str, dict[str, list[str]]] = {}  # option -> help -> players
    for name, cls in classes.items():
        for param in cls.parameters:
            if param.option:
                takers.setdefault(param.option, {}).setdefault(param.help, []).append(name)
    return {option: "; ".join(f"{', '.join(names)}: {text}" for text, names in helps.items()) + "."
            for option, helps in takers.items()}


def label(player_class, params: dict) -> str:
    """A short readable tag for a run-folder name: b100k+1M, k16-b10k, ... (``default`` when
    no labelled parameter is set)."""
    parts = []
    for param in player_class.parameters:
        value = params.get(param.name, param.default)
        if param.label and value is not None:
            parts.append(param.label(value))
    return "-".join(parts) or "default"


def budget_text(player_class, params: dict) -> str:
    """The search budget in ``params`` (defaults filled in) as people read it: ``1e5 then 1e6``
    for the solver's escalation, the planner's budget per solve, ``-`` for a player that does
    not search."""
    for param in player_class.parameters:
        if param.option == "--budget":
            value = params.get(param.name, param.default)
            return "-" if value is None else param.show(value)
    return "-"


def describe(player_class, params: dict) -> str:
    """``budget 500, samples 4, seed 0``: the set parameters in ``params``, by name, as people
    read them."""
    declared = {param.name: param for param in player_class.parameters}
    return ", ".join(f"{name} {declared[name].show(value) if name in declared else value}"
                     for name, value in sorted(params.items()) if value is not None)
