"""Results as tidy tables for notebooks, charts and the experiment scripts.

Every figure is computed from run folders (:mod:`.store`) through these few functions, so a
chart, a CSV table and a notebook cell that show the same run show the same numbers::

    from solitaire_odds import results
    table = results.summarize_runs(results.find_runs("results"))   # one row per run
    rows = results.load_run(table.run_dir[0])                        # one row per deal

Wherever a run folder is taken, a committed verdict file (:mod:`.verdicts`) may stand in for
it, so the committed tables and charts are made without the run folders::

    table = results.summarize_runs(results.find_verdicts("results"))
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np
import pandas as pd

from . import store, verdicts
from .players import player_label
from .rules import RulesError, resolve
from .stats import summarize, wilson

RECORD_COLUMNS = ("first", "last", "n", "won", "lost", "unknown", "share", "low", "high", "unknown_share",
                  "bracket_high", "bracket_ci_high")
"""What :func:`summary_record` gives for a table of per-deal rows."""
SUMMARY_COLUMNS = ("game", "rules", "changed", "player", "who", *RECORD_COLUMNS, "run_dir")
HEADLINE_COLUMNS = ("game", "rules", "player", "deals", "won", "lost", "unknown", "share", "low", "high")


def find_runs(root: str | os.PathLike = "results") -> list[Path]:
    """Every run folder (one holding a manifest) under ``root``, in a stable order."""
    return sorted(path.parent for path in Path(root).rglob(store.MANIFEST))


def find_verdicts(root: str | os.PathLike = "results") -> list[Path]:
    """Every committed verdict file under ``root``/verdicts, in a stable order."""
    return sorted((Path(root) / verdicts.FOLDER).rglob("*.parquet"))


def _manifest_and_rows(source: str | os.PathLike, first: int | None = None, last: int | None = None,
                       columns: list[str] | None = None) -> tuple[dict, pd.DataFrame]:
    """(manifest, per-deal rows of deals first..last) of a run folder or a verdict file."""
    if not verdicts.is_verdict_file(source):
        return store.read_manifest(source), store.load_rows([source], first, last, columns)
    manifest, rows = verdicts.read(source)
    wanted = rows["deal"].between(0 if first is None else first, math.inf if last is None else last)
    return manifest, rows[wanted].reset_index(drop=True)


def describe_run(run_dir: str | os.PathLike) -> dict:
    """What a run measured, from its manifest: game, rules label, the switches that differ
    from the defaults, player, and ``who`` (player plus its budget or samples). ``run_dir``
    may be a verdict file."""
    manifest = verdicts.read(run_dir)[0] if verdicts.is_verdict_file(run_dir) else store.read_manifest(run_dir)
    return describe_manifest(manifest, run_dir)


def describe_manifest(manifest: dict, run_dir: str | os.PathLike) -> dict:
    """:func:`describe_run` of a manifest read from ``run_dir`` (named in errors)."""
    where = run_dir if verdicts.is_verdict_file(run_dir) else Path(run_dir) / store.MANIFEST
    player = manifest["player"]
    try:
        rules = resolve(manifest["game"], **manifest["switches"])
        label = player_label(player, manifest["player_params"])
    except (RulesError, ValueError) as err:
        raise store.StoreFailure(f"{where} does not describe a run of this version "
                                 f"({err}); restore it or start a new run") from None
    changed = rules.label()[len(rules.game):].strip()
    params = {key: tuple(value) if isinstance(value, list) else value
              for key, value in manifest["player_params"].items()}
    return {"game": rules.game, "rules": rules.label(), "changed": changed or "defaults",
            "player": player, "who": player if label == "default" else f"{player} {label}",
            "params": params, "run_dir": str(run_dir)}


def load_run(run_dir: str | os.PathLike, first: int | None = None, last: int | None = None) -> pd.DataFrame:
    """The per-deal rows of one run folder (or verdict file), with the run's description as
    extra columns."""
    manifest, rows = _manifest_and_rows(run_dir, first, last)
    info = describe_manifest(manifest, run_dir)
    for key in ("game", "rules", "changed", "player", "who", "run_dir"):
        rows[key] = info[key]
    return rows


def summarize_runs(run_dirs, first: int | None = None, last: int | None = None) -> pd.DataFrame:
    """One row per run folder (or verdict file): counts, the win share with its Wilson 95%
    interval, the unknown share, the bracket's upper end ((won + unknown) / n) and the upper
    end of its 95% interval, restricted to deals first..last."""
    records = []
    for run_dir in run_dirs:
        manifest, rows = _manifest_and_rows(run_dir, first, last, columns=[])
        info = describe_manifest(manifest, run_dir)
        records.append({**info, **summary_record(rows)})
    return pd.DataFrame.from_records(records, columns=list(SUMMARY_COLUMNS))


def summary_record(rows: pd.DataFrame) -> dict:
    """Counts and intervals of a table of per-deal rows."""
    counts = summarize(rows["verdict"])
    low, high = counts.interval
    return {"first": int(rows["deal"].min()) if counts.n else None,
            "last": int(rows["deal"].max()) if counts.n else None,
            "n": counts.n, "won": counts.won, "lost": counts.lost, "unknown": counts.unknown,
            "share": counts.share, "low": low, "high": high, "unknown_share": counts.unknown_share,
            "bracket_high": counts.bracket[1] if counts.n else math.nan,
            "bracket_ci_high": counts.bracket_interval[1]}


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
        low = share_difference(row.won, row.n, row.won_defaults + row.unknown_defaults, row.n_defaults)[1]
        high = share_difference(row.won + row.unknown, row.n, row.won_defaults, row.n_defaults)[2]
        records.append({"game": row.game, "switch": row.changed, "who": row.who, "n": row.n,
                        "share": row.share, "share_defaults": row.share_defaults,
                        "effect": effect, "low": low, "high": high,
                        "range_low": row.share - (row.won_defaults + row.unknown_defaults) / row.n_defaults,
                        "range_high": (row.won + row.unknown) / row.n - row.share_defaults,
                        "unknown_share": max(row.unknown_share, row.unknown_share_defaults),
                        "sure": max(low, -high, 0.0)})
    effects = pd.DataFrame.from_records(records, columns=["game", "switch", "who", "n", "share",
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
        manifest, rows = _manifest_and_rows(run_dir, first, last, columns=["budget"])
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
    return summary.rename(columns={"n": "deals"}).loc[:, list(HEADLINE_COLUMNS)]


def verdict_path(root: str | os.PathLike, manifest: dict) -> Path:
    """Where the verdict file of the run that ``manifest`` describes goes (its folder need not
    exist): <root>/verdicts/<game>/<switches>--<player>.parquet, named from the rules and the
    player with its parameters (``defaults--solver-b10k+100k``)."""
    info = describe_manifest(manifest, Path(root))
    return Path(root) / verdicts.FOLDER / info["game"] / verdict_name(info)


def verdict_name(info: dict) -> str:
    """A verdict file's name from its run's :func:`describe_run`: ``<switches>--<player>.parquet``."""
    return f"{info['changed'].replace(' ', '+')}--{info['who'].replace(' ', '-')}.parquet"


def export_verdicts(run_dir: str | os.PathLike, root: str | os.PathLike = "results",
                    first: int | None = None, last: int | None = None, keep: bool = False) -> Path:
    """Write the verdicts a run folder holds for deals first..last as its verdict file under
    ``root`` and return the file's path. An older file there is replaced, or with ``keep``
    extended: its deals that the folder lacks stay (a machine without the folder's first chunks
    ran only the deals after the committed ones)."""
    manifest = store.read_manifest(run_dir)
    rows = store.load_rows([run_dir], first, last, columns=[*verdicts.COLUMNS, "seconds"])
    seconds = float(rows["seconds"].sum())
    path = verdict_path(root, manifest)
    if keep and path.exists():
        _, older = verdicts.read(path)
        kept = older[~older["deal"].isin(rows["deal"])]
        seconds = shared_seconds(path, len(kept), len(older), seconds)
        rows = pd.concat([kept, rows], ignore_index=True)
    return verdicts.write(path, manifest, rows, seconds)


def shared_seconds(path: Path, kept: int, held: int, added: float | None) -> float | None:
    """``added`` CPU-seconds plus the share of the verdict file ``path``'s seconds that its
    ``kept`` of ``held`` deals cost (None where the file kept no time)."""
    older = verdicts.cpu_seconds(path)
    if kept == 0:
        return added
    if older is None or added is None:
        return None
    return added + older * kept / held
