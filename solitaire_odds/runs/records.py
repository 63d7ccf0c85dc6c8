"""Results for people and for other programs: one record per run, shared by the ``odds``,
``summary`` and ``table`` commands and the Python API, written as aligned text, JSON or CSV.

A record says everything a number needs to be quoted: game, switches, player, budget, deal
range, counts, the share with its Wilson 95% interval and the bracket the unknowns allow.
"""

from __future__ import annotations

import io
import json
import math
import os
from dataclasses import dataclass

import pandas as pd

from . import store
from .engine_identity import mixed_text
from ..players import player_budget_text
from ..players.parameters import count_text  # noqa: F401  (budgets as people write them)
from ..stats import Summary, summarize

FORMATS = ("text", "json", "csv")
SUMMARY_FIELDS = ("first", "last", "deals", "won", "lost", "unknown", "share", "share_low", "share_high",
                  "unknown_share", "bracket_low", "bracket_high", "bracket_ci_high")
"""The fields of a :class:`RunSummary`, under these names in every table and record."""
COLUMNS = ("game", "switches", "player", "budget", "first", "last", "deals", "won", "lost", "unknown",
           "share", "share_low", "share_high", "bracket_low", "bracket_high", "engine", "run_dir")
"""What a run record shows: who ran what, most of its summary, the engine that decided its
verdicts (``mixed: a, b`` when it holds verdicts of several, ``unrecorded`` before engines were
recorded), and where it lives."""


@dataclass(frozen=True)
class RunSummary:
    """The one summary of a set of a run's deals, whoever shows it (``odds``, ``summary``,
    the research tables, the charts): the deal range, the counts, the share won with its
    Wilson 95% interval, the share left unknown, the bracket [won, won + unknown] / deals and
    the upper end of its 95% interval."""

    first: int | None
    last: int | None
    counts: Summary

    @classmethod
    def of(cls, rows: pd.DataFrame) -> RunSummary:
        """The summary of per-deal rows (columns ``deal`` and ``verdict``)."""
        counts = summarize(rows["verdict"])
        return cls(int(rows["deal"].min()) if counts.n else None, int(rows["deal"].max()) if counts.n else None,
                   counts)

    def fields(self) -> dict:
        """:data:`SUMMARY_FIELDS` with their values: shares as fractions, nan without deals,
        where the bracket is the whole [0, 1]."""
        counts = self.counts
        low, high = counts.interval
        bracket_low, bracket_high = counts.bracket
        return {"first": self.first, "last": self.last, "deals": counts.n, "won": counts.won, "lost": counts.lost,
                "unknown": counts.unknown, "share": counts.share, "share_low": low, "share_high": high,
                "unknown_share": counts.unknown_share, "bracket_low": bracket_low, "bracket_high": bracket_high,
                "bracket_ci_high": counts.bracket_interval[1]}


def run_record(run_dirs: list[str | os.PathLike], rows: pd.DataFrame | None = None,
               allow_other_engine: bool = False) -> dict:
    """The record of run folders of one rule set and player (``summary`` merges several),
    counted over ``rows`` (default: every deal they hold)."""
    from .catalog import describe_run, engines

    info = describe_run(run_dirs[0])
    if rows is None:
        rows = store.load_rows(list(run_dirs), columns=["verdict"], allow_other_engine=allow_other_engine)
    record = {"game": info["game"], "switches": info["changed"], "player": info["player"],
              "budget": player_budget_text(info["player"], info["params"]), **RunSummary.of(rows).fields(),
              "engine": mixed_text(engine for run_dir in run_dirs for engine in engines(run_dir)),
              "run_dir": " ".join(str(d) for d in run_dirs)}
    return {column: record[column] for column in COLUMNS}


def share_text(share: float, low: float, high: float, decimals: int = 2) -> str:
    """A share with its interval as the tables show it: ``12.34% [11.00%, 13.71%]``."""
    return f"{share:.{decimals}%} [{low:.{decimals}%}, {high:.{decimals}%}]"


def bracket_text(low: float, high: float, decimals: int = 2) -> str:
    """The bracket [won, won + unknown] / deals as the tables show it: ``[88.76%, 97.91%]``."""
    return f"[{low:.{decimals}%}, {high:.{decimals}%}]"


def render(records: list[dict], fmt: str, one: bool = False) -> str:
    """Records as ``text`` (aligned columns, shares in percent), ``json`` (a list of
    objects, or with ``one`` the single record's object; shares as fractions) or ``csv`` (a
    header and a line per record)."""
    if fmt == "json":
        plain = [{k: _plain(v) for k, v in record.items()} for record in records]
        return json.dumps(plain[0] if one else plain, indent=1) + "\n"
    table = pd.DataFrame.from_records(records, columns=list(COLUMNS))
    if fmt == "csv":
        buffer = io.StringIO()
        table.to_csv(buffer, index=False, float_format="%.6f", lineterminator="\n")
        return buffer.getvalue()
    if fmt == "text":
        return _aligned(table)
    raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")


def _plain(value):
    """JSON has no NaN: an undefined share (no deals) is null."""
    return None if isinstance(value, float) and math.isnan(value) else value


def _aligned(table: pd.DataFrame) -> str:
    def percent(x):
        return "-" if pd.isna(x) else f"{x:.2%}"

    shown = pd.DataFrame({
        "game": table["game"], "switches": table["switches"], "player": table["player"],
        "budget": table["budget"],
        "deals": [f"{n:,}" for n in table["deals"]],
        "won": table["won"], "lost": table["lost"], "unknown": table["unknown"],
        "share": table["share"].map(percent),
        "95% interval": [f"{percent(a)} - {percent(b)}" for a, b in zip(table["share_low"], table["share_high"])],
        "bracket": [f"[{percent(a)}, {percent(b)}]" for a, b in zip(table["bracket_low"], table["bracket_high"])],
        "engine": table["engine"],
    })
    return shown.to_string(index=False) + "\n"
