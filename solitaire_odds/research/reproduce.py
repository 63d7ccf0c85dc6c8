"""Published odds against measured odds: every claim, under every reading that could explain it,
for the solver and each player, on the same numbered deals.

Each measurement is an ordinary run in ``results/runs/...`` (see :mod:`.runs`), resumed when it
exists, so a rerun with more deals only solves the new ones, and the numbers can be reloaded
with :mod:`.results`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pandas as pd

from . import results
from ..runs import catalog
from ..runs import store
from .claims import SOLVABLE, Claim
from ..players import make_player
from ..runs.catalog import describe_run
from ..runs.records import SUMMARY_FIELDS, RunSummary, share_text
from ..runs.runner import RunSpec, run


def player_params(player: str, rules, budgets: tuple[int, ...]) -> dict:
    """The parameters a run records: the solver with the given budget escalation, any other
    player with its own defaults written out, so a later change of default never merges
    with these rows."""
    if player == "solver":
        return {"budgets": tuple(budgets), "win_first": True}
    return make_player(player, rules).params()


def plan(claims: list[Claim], players: list[str], deals: int, budgets: tuple[int, ...]):
    """(claim, reading, RunSpec) for every measurement, deals 0..deals-1."""
    out = []
    for claim in claims:
        for reading in claim.readings:
            rules = claim.rules(reading)
            for player in players:
                params = player_params(player, rules, budgets)
                out.append((claim, reading, RunSpec.of(rules, 0, deals, player=player, **params)))
    return out


def run_specs(specs: list[RunSpec], root: str | Path = "results", workers: int | None = None,
              log: Callable[[str], None] | None = None, dask: str | None = None,
              allow_other_engine: bool = False) -> list[Path]:
    """Run (or resume) each spec in its default folder under ``root``, on local workers or a
    Dask cluster (``dask``, as :func:`runs.run` takes it; so is ``allow_other_engine``);
    return the folders."""
    folders = []
    for spec in specs:
        run_dir = spec.default_dir(Path(root))
        if log:
            log(f"{spec.rules.label()}, {spec.player}, deals {spec.first}..{spec.last} -> {run_dir}")
        run(spec, run_dir, workers=workers, resume=True, dask=dask, allow_other_engine=allow_other_engine)
        folders.append(run_dir)
    return folders


def reproduce(claims: list[Claim], players: list[str], deals: int, budgets: tuple[int, ...],
              root: str | Path = "results", workers: int | None = None,
              log: Callable[[str], None] | None = None, allow_other_engine: bool = False) -> pd.DataFrame:
    """Run (or resume) every measurement and return one row per claim, reading and player:
    counts, share won with its Wilson interval, unknown share, and the run folder."""
    planned = plan(claims, players, deals, budgets)
    folders = run_specs([spec for _, _, spec in planned], root, workers, log, allow_other_engine=allow_other_engine)
    records = []
    for (claim, reading, spec), run_dir in zip(planned, folders):
        info = describe_run(run_dir)
        rows = store.load_rows([run_dir], spec.first, spec.last)
        records.append({"claim": claim.key, "game": claim.game, "reading": claim.reading_label(reading),
                        "rules": info["rules"], "player": spec.player, "who": info["who"], **RunSummary.of(rows).fields(),
                        "run_dir": str(run_dir)})
    return pd.DataFrame.from_records(records)


def from_verdicts(claims: list[Claim], players: list[str], root: str | Path = "results",
                  log: Callable[[str], None] | None = None) -> pd.DataFrame:
    """:func:`reproduce`'s table made from the committed verdict files under ``root`` (every
    deal each holds, the solver at whatever escalation its file reached) instead of run
    folders; a measurement without a file is left out (and logged)."""
    files = catalog.find_verdicts(root)
    summary = results.summarize_runs(files) if files else pd.DataFrame(columns=list(results.SUMMARY_COLUMNS))
    records = []
    for claim, reading, spec in plan(claims, players, 1, (1,)):
        mine = summary[(summary["rules"] == spec.rules.label()) & (summary["player"] == spec.player)]
        if mine.empty:
            if log:
                log(f"no verdict file for {spec.rules.label()}, {spec.player}: left out")
            continue
        row = mine.sort_values("deals").iloc[-1]  # the largest measurement
        records.append({"claim": claim.key, "game": claim.game, "reading": claim.reading_label(reading),
                        "rules": row["rules"], "player": spec.player, "who": row["who"],
                        **{key: row[key] for key in SUMMARY_FIELDS},
                        "run_dir": row["run_dir"]})
    return pd.DataFrame.from_records(records)


def distance(claim: Claim, row) -> float:
    """How far the claim lies from the measured bracket [won/n, (won + unknown)/n]."""
    if row.share <= claim.value <= row.bracket_high:
        return 0.0
    return min(abs(claim.value - row.share), abs(claim.value - row.bracket_high))


def closest(claim: Claim, table: pd.DataFrame) -> tuple[pd.Series | None, list[str]]:
    """The measurement of the claim's kind nearest to it (ties: the narrowest bracket), and
    notes: the other measurements whose bracket holds the claim too, and, for a person's
    share with no player run, that the solver's share is only an upper bound."""
    mine = table[table["claim"] == claim.key]
    if claim.value is None:
        return None, ["no published figure: these are the first measured odds we know of"]
    notes = []
    if claim.measures == SOLVABLE:
        candidates = mine[mine["player"] == "solver"]
    else:
        candidates = mine[mine["player"] != "solver"]
        if candidates.empty:
            candidates = mine[mine["player"] == "solver"]
            notes.append("no player ran: the solver's share is only an upper bound for a person's")
    if candidates.empty:
        return None, ["nothing measured"]
    keys = [(distance(claim, row), row.bracket_high - row.share) for row in candidates.itertuples()]
    order = sorted(range(len(keys)), key=keys.__getitem__)
    best = candidates.iloc[order[0]]
    ties = [f"{candidates.iloc[i]['reading']} ({candidates.iloc[i]['who']})" for i in order[1:] if keys[i][0] == 0]
    if keys[order[0]][0] == 0 and ties:
        notes.append("the claim also lies in the bracket of: " + "; ".join(ties)
                     + " (more deals or a larger budget would tell them apart)")
    return best, notes


def format_share(row) -> str:
    """``24.1% [21.5, 26.9]`` plus ``+0.5% unk`` when deals were left unknown."""
    if not row["deals"]:
        return "no deals"
    text = share_text(row["share"], row["share_low"], row["share_high"], 1)
    if row["unknown"]:
        text += f" +{row['unknown_share']:.1%} unk"
    return text


def _header(player: str, whos: pd.Series) -> str:
    """A player's column header: its one description (``solver b10k+100k``), or its name where
    the claim's readings were measured with different parameters (or not at all)."""
    return whos.iloc[0] if whos.nunique() == 1 else player


def short_count(n: int) -> str:
    """A deal count in a cell: ``1M``, ``100k``, ``20k``, ``4,000``."""
    for size, suffix in ((1_000_000, "M"), (1_000, "k")):
        if n >= size and n % size == 0:
            return f"{n // size}{suffix}"
    return f"{n:,}"


def format_table(claims: list[Claim], table: pd.DataFrame) -> str:
    """One block per claim: a line per reading with the solver's and each player's share,
    then the reading that comes closest to the published figure."""
    players = list(dict.fromkeys(table["player"]))
    n = int(table["deals"].max()) if len(table) else 0
    varied = len(set(table["deals"])) > 1
    first = (f"Published odds against measured odds, deals 0..n-1, n from {int(table['deals'].min()):,} to {n:,} "
             "(after each cell)." if varied else f"Published odds against measured odds, deals 0..{n - 1} "
             f"({n:,} deals per cell).")
    lines = [first,
             "Cells: share won, Wilson 95% interval; '+x% unk' = share the solver left undecided "
             "(the winnable share lies between the share and share + unk).", ""]
    width = max([len("reading")] + [len(claim.reading_label(r)) for claim in claims for r in claim.readings])
    for claim in claims:
        mine = table[table["claim"] == claim.key]
        if mine.empty:
            continue
        who = {player: _header(player, mine[mine["player"] == player]["who"]) for player in players}
        cells = {(row["reading"], row["player"]): format_share(row) + (f", {short_count(row['deals'])}" if varied else "")
                 for _, row in mine.iterrows()}
        col = max(len(text) for text in list(cells.values()) + list(who.values())) + 2
        published = f" ({claim.interval[0]:.3%} - {claim.interval[1]:.3%})" if claim.interval else ""
        kind = "solvable share" if claim.measures == SOLVABLE else "a person's share (method not stated)"
        if claim.value is None:
            lines.append(f"{claim.game}: {claim.text}; measured: {kind}")
        else:
            lines.append(f"{claim.game}: published {claim.text} = {claim.value:.1%}{published}, {kind}")
        lines.append(f"  source: {claim.source}")
        lines.append("  " + "reading".ljust(width + 2) + "".join(who[p].ljust(col) for p in players).rstrip())
        for reading in claim.readings:
            label = claim.reading_label(reading)
            lines.append("  " + label.ljust(width + 2)
                         + "".join(cells.get((label, p), "-").ljust(col) for p in players).rstrip())
        best, notes = closest(claim, table)
        if best is not None:
            inside = best["share_low"] <= claim.value <= best["bracket_ci_high"]
            verdict = "the claim lies inside its 95% bracket" if inside else \
                f"{distance(claim, best):.1%} from the claim"
            lines.append(f"  closest: {best['reading']} ({best['who']}: {format_share(best)}; {verdict})")
        lines.extend(f"  note: {note}" for note in notes)
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
