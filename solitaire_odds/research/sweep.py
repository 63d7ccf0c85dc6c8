"""Parameter sweeps: the odds of a game as one or more rules vary, for one or more players.

``sweep("westcliff", {"tableau.piles": range(6, 13)}, players=["solver", "greedy"], deals=2000)``
runs every combination of the varied values (their cartesian product) for every player as an
ordinary run folder under ``root`` (:func:`RunSpec.default_dir`, as ``odds`` makes it), resumed
where it exists, so a rerun or a larger sweep solves only what is missing and any point can be
read again with ``summary`` or :mod:`.results`. A combination whose layout the rules checks
refuse (more cards laid out than the pack holds, say) is skipped and reported, one line each;
a value that the key does not take is an error before anything runs.

The answer is one tidy table, a row per point and player: the game, the rules label, one column
per varied rule holding its value, the player, the counts, the share won with its Wilson 95%
interval, the bracket won .. won + unknown (the solver's undecided deals are never dropped), the
CPU-seconds the deals cost and the deals per CPU-second, and the run folder.
"""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ..counts import InputError, parse_count
from ..game.deals import MAX_DEAL
from ..players import params_from_options, player_class, player_names
from ..rules import GAMES, QUALIFIED, Rules, RulesError, field_switch, format_value, resolve, rule_key
from ..runs.catalog import describe_run
from ..runs.estimate import _budget_text
from ..runs.records import SUMMARY_FIELDS, RunSummary
from ..runs.runner import RunSpec, run


class SweepError(ValueError):
    """A sweep that cannot be run as asked (a malformed ``--vary``, a key given twice, no
    playable combination); the message is one line saying what to change."""


@dataclass(frozen=True)
class Axis:
    """One varied rule: the table's column for it (the game's switch name, or the part field's
    qualified name such as ``tableau.piles``) and its values, parsed (a count stays a number,
    any other value is its text as ``--set`` takes it: ``on``, ``king``)."""

    column: str
    values: tuple


@dataclass(frozen=True)
class Point:
    """One combination of the varied values: ``values`` as (column, value) pairs, and its
    rules, or (``rules`` None) the reason the rules checks refuse it."""

    values: tuple
    rules: Rules | None
    problem: str = ""

    def setting(self) -> str:
        """``tableau.piles=6 space_fill=king``: the combination as ``--vary`` writes it."""
        return " ".join(f"{column}={format_value(value)}" for column, value in self.values)


def parse_vary(text: str) -> tuple[str, list[str]]:
    """``tableau.piles=6,7,8`` (or ``tableau.piles=6..8``) -> (``tableau.piles``, [values as
    text]); a SweepError for anything else."""
    name, sep, listed = str(text).partition("=")
    items = [item.strip() for item in listed.split(",")]
    if not sep or not name.strip() or not any(items):
        raise SweepError(f"--vary takes KEY=VALUE,VALUE,... (e.g. tableau.piles=6,7,8), not {text!r}")
    if not all(items):
        raise SweepError(f"--vary {text!r} has an empty value between its commas")
    values = []
    for item in items:
        low, dots, high = item.partition("..")
        if dots and low.strip().isdigit() and high.strip().isdigit() and int(low) <= int(high):
            values.extend(str(n) for n in range(int(low), int(high) + 1))
        elif dots:
            raise SweepError(f"--vary {text!r}: a range is two whole numbers, the smaller first (6..12), "
                             f"not {item!r}")
        else:
            values.append(item)
    return name.strip(), values


def axes_of(game: str, vary, settings: Mapping) -> list[Axis]:
    """The varied rules of ``vary`` (a mapping of key to values, or ``KEY=V,V`` texts), each
    value parsed as the key takes it, or a RulesError / SweepError naming the first problem:
    an unknown key, a key varied twice or also set, an empty or repeated value list, a value
    the key does not take."""
    pairs = list(vary.items()) if isinstance(vary, Mapping) else [parse_vary(text) for text in vary]
    if not pairs:
        raise SweepError("give at least one rule to vary, e.g. --vary tableau.piles=6,7,8")
    declaration = GAMES.get(resolve(game).game)
    switches = {s.name: s for s in declaration.switches} if declaration is not None else {}

    def parsed(key, value):
        return (switches[key].parse if key in switches else field_switch(key).parse)(value, game)

    fixed = {rule_key(name) for name in settings}
    for name, value in settings.items():
        parsed(rule_key(name), value)
    axes, seen = [], set()
    for name, values in pairs:
        key = rule_key(name)
        column = key if key in switches else QUALIFIED[key]
        if key in seen:
            raise SweepError(f"{column} is varied twice; give its values in one --vary")
        if key in fixed:
            raise SweepError(f"{column} is both varied and set with --set; give it in one of them")
        seen.add(key)
        texts = [values] if isinstance(values, str) else list(values)
        if not texts:
            raise SweepError(f"{column} has no values to vary over")
        chosen = [parsed(key, value) for value in texts]
        doubled = next((format_value(v) for i, v in enumerate(chosen) if v in chosen[:i]), None)
        if doubled is not None:
            raise SweepError(f"{column} lists {doubled} twice")
        axes.append(Axis(column, tuple(v if isinstance(v, int) and not isinstance(v, bool) else format_value(v)
                                       for v in chosen)))
    return axes


def plan(game: str, vary, **settings) -> list[Point]:
    """Every combination of the varied values (in the order given, the last key varying
    fastest), each with its rules or the reason the rules checks refuse it. ``settings`` are
    fixed for every point (``--set``)."""
    axes = axes_of(game, vary, settings)
    points = []
    for combination in itertools.product(*(axis.values for axis in axes)):
        values = tuple((axis.column, value) for axis, value in zip(axes, combination))
        try:
            rules = resolve(game, **settings, **dict(values))
        except RulesError as err:
            points.append(Point(values, None, "; ".join(str(err).splitlines())))
            continue
        points.append(Point(values, rules))
    return points


def players_params(players: Iterable[str], options: Mapping[str, str]) -> dict[str, dict]:
    """Each player's recorded parameters from the player options (``--budget`` -> text, only
    those given): an option goes to the players that declare it (``--budget`` to the solver,
    not to greedy), and one that no chosen player takes is an InputError."""
    chosen = list(dict.fromkeys(players))
    if not chosen:
        raise InputError(f"give at least one player; choose from {', '.join(player_names())}")
    unknown = [player for player in chosen if player not in player_names()]
    if unknown:
        params_from_options(unknown[0], {})  # raises, naming the players
    takes = {player: {p.option for p in player_class(player).parameters} for player in chosen}
    for option, text in options.items():
        if not any(option in options_of for options_of in takes.values()):
            params_from_options(chosen[0], {option: text})  # raises, naming who takes it
    return {player: params_from_options(player, {o: t for o, t in options.items() if o in takes[player]})
            for player in chosen}


TABLE_FIELDS = ("player", "who", *SUMMARY_FIELDS, "cpu_seconds", "deals_per_cpu_second", "run_dir")
"""The columns of a sweep's table after ``game``, ``rules`` and the varied rules' columns."""


def point_record(point: Point, player: str, run_dir: Path, rows: pd.DataFrame) -> dict:
    """One row of the table: the point's values, who played, the summary of ``rows`` (per-deal
    rows with ``verdict`` and ``seconds``), their CPU cost and the run folder. The CPU-seconds
    are each deal's solving time in its single-threaded worker, summed: its CPU time on a
    machine left to the run, more (the waits for a core) on one shared with other work."""
    seconds = float(rows["seconds"].sum())
    summary = RunSummary.of(rows).fields()
    return {"game": point.rules.game, "rules": point.rules.label(), **dict(point.values), "player": player,
            "who": describe_run(run_dir)["who"], **summary, "cpu_seconds": seconds,
            "deals_per_cpu_second": summary["deals"] / seconds if seconds > 0 else math.nan,
            "run_dir": str(run_dir)}


def varied_columns(table: pd.DataFrame) -> list[str]:
    """The varied rules' columns of a sweep's table (those between ``rules`` and ``player``),
    also of one read back from its CSV."""
    columns = list(table.columns)
    return columns[columns.index("rules") + 1:columns.index("player")]


def sweep(game: str, vary, players: Iterable[str] = ("solver",), deals: int = 1000, first: int = 0,
          root: str | os.PathLike = "results", workers: int | None = None, budget=None,
          samples: int | None = None, seed: int | None = None, table_mb: int | None = None,
          think: int | None = None, prover_seconds: float | None = None, prover_after: int | None = None,
          progress: bool | None = None, log: Callable[[str], None] | None = None, **settings) -> pd.DataFrame:
    """Run (or resume) deals ``first .. first + deals - 1`` of every combination of ``vary``
    (``{"tableau.piles": range(6, 13), "space_fill": ["any", "king"]}``, or ``--vary`` texts
    such as ``"tableau.piles=6..12"``) for every player, and return the table, a row per
    point and player (see the module's docstring). ``budget``, ``samples``, ``seed``,
    ``table_mb``, ``think``, ``prover_seconds`` and ``prover_after`` go to the players that take
    them; ``settings`` are fixed for every point.

    Combinations the rules checks refuse are skipped, each reported on ``log`` and listed in
    the table's ``attrs["refused"]``; if none is left, a SweepError. Each point's run keeps its
    finished chunks when interrupted (KeyboardInterrupt), and a rerun continues from them."""
    points = plan(game, vary, **settings)
    given = {"--budget": None if budget is None else _budget_text(budget), "--samples": samples, "--seed": seed,
             "--table-mb": table_mb, "--think": think, "--prover-seconds": prover_seconds,
             "--prover-after": prover_after}
    params = players_params(players, {option: str(v) for option, v in given.items() if v is not None})
    count = parse_count(str(deals), "--deals")
    start = parse_count(str(first), "--first", least=0)
    if start + count - 1 > MAX_DEAL:
        raise InputError(f"deals {start}..{start + count - 1} run past the last deal number {MAX_DEAL}")
    refused = [f"{game} {point.setting()}: refused ({point.problem}); skipped" for point in points if point.rules is None]
    for line in refused:
        if log:
            log(line)
    if len(refused) == len(points):
        raise SweepError(f"every combination of the varied rules is refused ({len(points)} of {len(points)}); "
                         f"the first: {points[0].problem}")
    records = []
    for point in points:
        if point.rules is None:
            continue
        for player, player_params in params.items():
            spec = RunSpec.of(point.rules, start, count, player=player, **player_params)
            run_dir = spec.default_dir(Path(root))
            if log:
                log(f"{point.rules.label()}, {player}, deals {spec.first}..{spec.last} -> {run_dir}")
            rows = run(spec, run_dir, workers=workers, resume=True, progress=progress, columns=["seconds"])
            records.append(point_record(point, player, run_dir, rows))
    columns = ["game", "rules", *(column for column, _ in points[0].values), *TABLE_FIELDS]
    table = pd.DataFrame.from_records(records, columns=columns)
    table.attrs["refused"] = refused
    return table


def format_table(table: pd.DataFrame) -> str:
    """The table for people: shares in percent, the interval and bracket in brackets."""
    def percent(x):
        return "-" if pd.isna(x) else f"{x:.2%}"

    shown = pd.DataFrame({
        "rules": table["rules"], **{column: table[column].map(format_value) for column in varied_columns(table)},
        "who": table["who"], "deals": [f"{n:,}" for n in table["deals"]],
        "won": table["won"], "lost": table["lost"], "unknown": table["unknown"],
        "share": table["share"].map(percent),
        "95% interval": [f"{percent(a)} - {percent(b)}" for a, b in zip(table["share_low"], table["share_high"])],
        "bracket": [f"[{percent(a)}, {percent(b)}]" for a, b in zip(table["bracket_low"], table["bracket_high"])],
        "CPU s": [f"{s:,.1f}" for s in table["cpu_seconds"]],
        "deals/CPU-s": [f"{r:,.1f}" for r in table["deals_per_cpu_second"]],
    })
    return shown.to_string(index=False) + "\n"


def to_json(table: pd.DataFrame) -> str:
    """The table as a JSON list of objects (shares as fractions; an undefined number is null)."""
    import json

    def plain(value):
        if isinstance(value, float) and math.isnan(value):
            return None
        return value.item() if hasattr(value, "item") else value

    return json.dumps([{k: plain(v) for k, v in row.items()} for row in table.to_dict("records")], indent=1) + "\n"


def to_csv(table: pd.DataFrame) -> str:
    """The table as CSV (shares as fractions to six decimals)."""
    return table.to_csv(index=False, float_format="%.6f", lineterminator="\n")
