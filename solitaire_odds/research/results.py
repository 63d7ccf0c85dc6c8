"""Results as tidy tables for notebooks, charts and the experiment scripts.

Every figure is computed from run folders or committed verdict files (found and read by
:mod:`solitaire_odds.runs.catalog`) through these few functions, so a chart, a CSV table and a
notebook cell that show the same run show the same numbers::

    from solitaire_odds.runs import catalog
    from solitaire_odds.research import results
    table = results.summarize_runs(catalog.find_verdicts("results"))   # one row per run
    rows = catalog.load_run(table.run_dir[0])                           # one row per deal
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..runs.catalog import describe_manifest, manifest_and_rows
from ..runs.records import SUMMARY_FIELDS, RunSummary
from ..stats import wilson

SUMMARY_COLUMNS = ("game", "rules", "changed", "player", "who", *SUMMARY_FIELDS, "run_dir")
HEADLINE_COLUMNS = ("game", "rules", "player", "deals", "won", "lost", "unknown", "share", "share_low", "share_high")


def summarize_runs(run_dirs, first: int | None = None, last: int | None = None) -> pd.DataFrame:
    """One row per run folder (or verdict file): who ran what, and the :class:`RunSummary`
    of its deals first..last."""
    records = []
    for run_dir in run_dirs:
        manifest, rows = manifest_and_rows(run_dir, first, last, columns=[])
        info = describe_manifest(manifest, run_dir)
        records.append({**info, **RunSummary.of(rows).fields()})
    return pd.DataFrame.from_records(records, columns=list(SUMMARY_COLUMNS))


def running_share(rows: pd.DataFrame, points: int = 200) -> pd.DataFrame:
    """The estimate as deals accumulate (in deal order): share won and its Wilson interval
    after the first n deals, and the bracket's upper end (won + unknown) / n, at about
    ``points`` values of n spread evenly on a log scale."""
    verdicts = rows.sort_values("deal")["verdict"].to_numpy()
    won = (verdicts == "won").cumsum()
    open_ = (verdicts != "lost").cumsum()
    total = len(won)
    if total == 0:
        return pd.DataFrame(columns=["deals", "share", "low", "high", "bracket_high"])
    ns = np.unique(np.geomspace(1, total, num=min(points, total)).round().astype(int))
    bounds = [wilson(int(won[n - 1]), int(n)) for n in ns]
    return pd.DataFrame({"deals": ns, "share": won[ns - 1] / ns,
                         "low": [b[0] for b in bounds], "high": [b[1] for b in bounds],
                         "bracket_high": open_[ns - 1] / ns})


def unknown_by_budget(rows: pd.DataFrame, budgets) -> pd.DataFrame:
    """Share of deals still undecided at each node budget, from a solver run with an
    escalation: a deal counts as decided at budget b when the budget that decided it is <= b
    (each attempt of an escalation is a fresh search, so this equals a run at budget b)."""
    n = len(rows)
    records = []
    for budget in sorted(int(b) for b in budgets):
        undecided = int(((rows["verdict"] == "unknown") | (rows["budget"] > budget)).sum())
        low, high = wilson(undecided, n)
        records.append({"budget": budget, "n": n, "undecided": undecided,
                        "unknown_share": undecided / n if n else math.nan, "low": low, "high": high})
    return pd.DataFrame.from_records(records)


def share_difference(won_a: int, n_a: int, won_b: int, n_b: int) -> tuple[float, float, float]:
    """Share a minus share b with a 95% interval (Newcombe's hybrid score interval, built from
    the two Wilson intervals; for the same deals played under both rules it is conservative)."""
    p_a, p_b = won_a / n_a, won_b / n_b
    low_a, high_a = wilson(won_a, n_a)
    low_b, high_b = wilson(won_b, n_b)
    diff = p_a - p_b
    return (diff, diff - math.hypot(p_a - low_a, high_b - p_b),
            diff + math.hypot(high_a - p_a, p_b - low_b))


def switch_effects(summary: pd.DataFrame) -> pd.DataFrame:
    """Each run whose rules differ from its game's defaults in one switch, against the run at
    the defaults with the same player and deals: ``effect`` is the change in the share won,
    and [low, high] a 95% interval for the change in the winnable share whatever the unknowns
    of either run turn out to be (with no unknowns, the interval of :func:`share_difference`).
    ``range_low``/``range_high`` bound the change in the winnable share on these deals
    whatever the unknowns turn out to be (no sampling error). Sorted by how far the interval
    lies from zero, then by the size of the effect; runs with more than one switch changed are
    left out."""
    base = summary[summary["changed"] == "defaults"]
    single = summary[(summary["changed"] != "defaults") & ~summary["changed"].str.contains(" ")]
    merged = single.merge(base, on=["game", "who", "first", "last"], suffixes=("", "_defaults"))
    records = []
    for row in merged.itertuples():
        effect = row.share - row.share_defaults
        low = share_difference(row.won, row.deals, row.won_defaults + row.unknown_defaults, row.deals_defaults)[1]
        high = share_difference(row.won + row.unknown, row.deals, row.won_defaults, row.deals_defaults)[2]
        records.append({"game": row.game, "switch": row.changed, "player": row.player, "who": row.who,
                        "deals": row.deals,
                        "share": row.share, "share_defaults": row.share_defaults,
                        "effect": effect, "low": low, "high": high,
                        "range_low": row.share - (row.won_defaults + row.unknown_defaults) / row.deals_defaults,
                        "range_high": (row.won + row.unknown) / row.deals - row.share_defaults,
                        "unknown_share": max(row.unknown_share, row.unknown_share_defaults),
                        "sure": max(low, -high, 0.0)})
    effects = pd.DataFrame.from_records(records, columns=["game", "switch", "player", "who", "deals", "share",
                                                          "share_defaults", "effect", "low", "high",
                                                          "range_low", "range_high", "unknown_share", "sure"])
    effects["size"] = effects["effect"].abs()
    effects = effects.sort_values(["sure", "size"], ascending=False, kind="stable")
    return effects.drop(columns=["sure", "size"]).reset_index(drop=True)


def budget_curves(run_dirs, first: int | None = None, last: int | None = None) -> pd.DataFrame:
    """:func:`unknown_by_budget` for every solver run among ``run_dirs`` (deals first..last),
    at each budget of its escalation, as one table with the run's game, rules and folder."""
    frames = []
    for run_dir in run_dirs:
        manifest, rows = manifest_and_rows(run_dir, first, last, columns=["budget"])
        info = describe_manifest(manifest, run_dir)
        if info["player"] != "solver":
            continue
        curve = unknown_by_budget(rows, info["params"]["budgets"])
        frames.append(curve.assign(game=info["game"], rules=info["rules"], run_dir=str(run_dir)))
    columns = ["game", "rules", "budget", "n", "undecided", "unknown_share", "low", "high", "run_dir"]
    return pd.concat(frames, ignore_index=True)[columns] if frames else pd.DataFrame(columns=columns)


def headline(summary: pd.DataFrame) -> pd.DataFrame:
    """The committed headline table of a :func:`summarize_runs` table: its
    :data:`HEADLINE_COLUMNS` (shares and Wilson 95% bounds as fractions)."""
    return summary.loc[:, list(HEADLINE_COLUMNS)]
