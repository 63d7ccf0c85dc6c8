"""Charts of results: each takes a tidy table from :mod:`.results` and returns a matplotlib
Figure, so the CLI, the experiment scripts and the notebooks draw the same pictures.

Figures are made without pyplot, so no display or GUI backend is involved: files are drawn
by Agg, and a notebook shows a returned Figure inline.

Every share is drawn with its Wilson 95% interval; deals the solver left undecided are drawn
hatched (a bar's extension, a band around a line), never hidden. Every bar and line names its
player, a published claim is drawn only against the measurements of its kind (a person's share
against the players, a winnable share against the solver), and the axes leave room above 100%
and below 0% so that no line hides on the frame.
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
from matplotlib import colormaps
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from . import results
from ..runs import catalog
from ..runs.records import count_text
from .claims import CLAIMS, SOLVABLE, Claim

CLAIM_COLOUR = "crimson"
UNKNOWN_STYLE = dict(color="lightgrey", hatch="///", edgecolor="grey", linewidth=0)


def _figure(height: float, width: float = 10.0) -> tuple[Figure, Axes]:
    fig = Figure(figsize=(width, height), layout="constrained")
    return fig, fig.subplots()


def _bar_height(rows: int) -> float:
    """Inches for a chart of ``rows`` labelled bars."""
    return 1.6 + 0.32 * max(rows, 3)


def _percent(share: float) -> str:
    """A whole percentage, but never a misleading 0% or 100% for a share strictly between."""
    if 0 < share < 0.01:
        return "<1%"
    if 0.99 < share < 1:
        return ">99%"
    return f"{share:.0%}"


def _colour(i: int):
    return colormaps["tab10"](i % 10)


def _legend(fig: Figure, ax: Axes, columns: int = 2) -> None:
    """The legend below the axes, where it never hides a bar or a line."""
    handles, labels = ax.get_legend_handles_labels()
    if handles:
        fig.legend(handles, labels, loc="outside lower center", ncol=columns, fontsize="small", frameon=False)


def _percent_axis(axis) -> None:
    axis.set_major_formatter(PercentFormatter(xmax=1.0, decimals=0))


SHARE_LIMITS = (-0.03, 1.05)
"""A share axis with room around 0% and 100%, where shares of patience games often sit."""


def comparable(claim: Claim, player: str) -> bool:
    """Whether a run of ``player`` measures what ``claim`` states: the solver a winnable
    share, the players who see only what a person sees a person's share."""
    return (player == "solver") == (claim.measures == SOLVABLE)


def _claim_label(claim: Claim) -> str:
    kind = "winnable share" if claim.measures == SOLVABLE else "a person's share"
    return f"published {claim.text.split(' (')[0]} ({kind})"


def plot_shares(summary: pd.DataFrame, claims: tuple[Claim, ...] = CLAIMS, title: str | None = None) -> Figure:
    """Share won per game (one panel each), rule set and player: one bar per run with its Wilson
    95% interval and the undecided share hatched after it; a game's published claim is a red
    mark on the bars of its kind only (players for a person's share, the solver for a winnable
    share)."""
    games = sorted(set(summary["game"]))
    sizes = [int((summary["game"] == game).sum()) for game in games]
    fig = Figure(figsize=(10, 1.6 + 0.3 * sum(sizes) + 0.45 * len(games)), layout="constrained")
    axes = fig.subplots(len(games), 1, sharex=True, squeeze=False,
                        gridspec_kw={"height_ratios": [max(size, 1.5) for size in sizes]})[:, 0]
    colours = {who: _colour(i) for i, who in enumerate(sorted(set(summary["who"])))}
    labelled = set()

    def once(label: str) -> str | None:
        """Each legend entry once."""
        if label in labelled:
            return None
        labelled.add(label)
        return label

    for ax, game in zip(axes, games):
        table = summary[summary["game"] == game].sort_values(["rules", "who"], ascending=False)
        rows = table.to_dict("records")
        for y, row in enumerate(rows):
            ax.barh(y, row["share"], color=colours[row["who"]], height=0.7, label=once(row["who"]))
            if row["unknown"]:
                ax.barh(y, row["bracket_high"] - row["share"], left=row["share"], height=0.7, **UNKNOWN_STYLE,
                        label=once("undecided (budget spent)"))
            ax.errorbar(row["share"], y, xerr=[[row["share"] - row["low"]], [row["high"] - row["share"]]],
                        fmt="none", ecolor="black", capsize=3, linewidth=1)
        notes = []
        for claim in claims:
            if claim.game != game or claim.value is None:
                continue
            ys = [y for y, row in enumerate(rows) if comparable(claim, row["player"])]
            for y in ys:
                ax.plot([claim.value, claim.value], [y - 0.45, y + 0.45], color=CLAIM_COLOUR, linewidth=2.5,
                        solid_capstyle="butt", label=once("published claim (on the bars it can be compared with)"))
            notes.append(_claim_label(claim) + ("" if ys else ": nothing of its kind measured here"))
        ax.set_yticks(range(len(table)), [f"{_switches(row.rules, game)}  ({row.who})" for row in table.itertuples()])
        ax.set_ylim(-0.6, len(table) - 0.4)
        ax.set_title(game + ("  \u2014  " + "; ".join(notes) if notes else ""), loc="left", fontsize="medium",
                     fontweight="bold")
        ax.grid(axis="x", alpha=0.3)
    axes[-1].set_xlim(*SHARE_LIMITS)
    _percent_axis(axes[-1].xaxis)
    axes[-1].set_xlabel("share of deals won (whiskers: Wilson 95% interval)")
    fig.suptitle(title or f"Win share per game, rule set and player ({_deal_counts(summary['n'])})")
    handles = [h for ax in axes for h in zip(*ax.get_legend_handles_labels())]
    fig.legend([h for h, _ in handles], [label for _, label in handles], loc="outside lower center",
               ncol=3, fontsize="small", frameon=False)
    return fig


def _switches(rules: str, game: str) -> str:
    """A rules label without its game, for a panel that names the game."""
    return rules[len(game):].strip() or "defaults"


def _deal_counts(counts: pd.Series) -> str:
    low, high = int(counts.min()), int(counts.max())
    return f"{low:,} deals each" if low == high else f"{low:,}-{high:,} deals per bar"


def plot_convergence(rows: pd.DataFrame, claims: tuple[Claim, ...] = CLAIMS, title: str | None = None) -> Figure:
    """The running share won as deals accumulate, one panel per game and one line per run
    (rules and player named), with its Wilson 95% band and, hatched above it, the deals still
    undecided (the winnable share lies anywhere in the hatched band). A published claim is
    drawn in a panel only when a run of its kind is there."""
    games = sorted(set(rows["game"]))
    fig = Figure(figsize=(11, 1.5 + 2.6 * len(games)), layout="constrained")
    axes = fig.subplots(len(games), 1, sharex=True, squeeze=False)[:, 0]
    runs = sorted(set(rows["run_dir"]))
    for ax, game in zip(axes, games):
        mine = rows[rows["game"] == game]
        players = set(mine["player"])
        for run_dir, run_rows in mine.groupby("run_dir", sort=True):
            colour = _colour(runs.index(run_dir))
            curve = results.running_share(run_rows)
            first = run_rows.iloc[0]
            name = f"{_switches(first['rules'], game)}, {first['who']}"
            ax.plot(curve["deals"], curve["share"], color=colour, linewidth=1.6, label=f"{name}: share won")
            ax.fill_between(curve["deals"], curve["low"], curve["high"], color=colour, alpha=0.15, linewidth=0)
            if (curve["bracket_high"] > curve["share"]).any():
                ax.fill_between(curve["deals"], curve["share"], curve["bracket_high"], facecolor="none",
                                edgecolor=colour, hatch="///", linewidth=0,
                                label=f"{name}: undecided so far")
        for claim in claims:
            if claim.game == game and claim.value is not None and any(comparable(claim, player) for player in players):
                ax.axhline(claim.value, color=CLAIM_COLOUR, linestyle="--", linewidth=1.4, label=_claim_label(claim))
        ax.set_ylim(*SHARE_LIMITS)
        _percent_axis(ax.yaxis)
        ax.set_ylabel("share so far")
        ax.grid(alpha=0.3)
        ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize="small", frameon=False)
        ax.set_title(game, loc="left", fontsize="medium", fontweight="bold")
    axes[-1].set_xscale("log")
    axes[-1].set_xlabel("deals played (log scale); band: Wilson 95% interval of the share won")
    fig.suptitle(title or "Convergence of the estimate as deals accumulate")
    return fig


def plot_budget(curves: pd.DataFrame, title: str | None = None) -> Figure:
    """Share of deals the solver leaves undecided at each node budget: for each rule set a group
    of hatched bars, one per budget, with Wilson 95% whiskers and the share written on top, so
    that rule sets with equal shares stay side by side instead of on top of each other."""
    rule_sets = list(dict.fromkeys(curves.sort_values(["game", "rules"])["rules"]))
    budgets = sorted(set(curves["budget"]))
    fig, ax = _figure(5.2, width=max(10.0, 1.3 * len(rule_sets)))
    width = 0.8 / max(len(budgets), 1)
    for i, budget in enumerate(budgets):
        colour = _colour(i)
        at = curves[curves["budget"] == budget].set_index("rules").reindex(rule_sets)
        xs = [k + (i - (len(budgets) - 1) / 2) * width for k in range(len(rule_sets))]
        ax.bar(xs, at["unknown_share"], width=width * 0.95, facecolor=colour, alpha=0.35, edgecolor=colour,
               hatch="///", label=f"budget {count_text(int(budget))} nodes")
        ax.errorbar(xs, at["unknown_share"], yerr=[at["unknown_share"] - at["low"], at["high"] - at["unknown_share"]],
                    fmt="none", ecolor="black", capsize=2, linewidth=0.8)
        for x, share, high in zip(xs, at["unknown_share"], at["high"]):
            if pd.notna(share):
                ax.text(x, high + 0.01, _percent(share), ha="center", va="bottom", fontsize=7)
    counts = curves.groupby("rules")["n"].max().reindex(rule_sets)
    ax.set_xticks(range(len(rule_sets)), [f"{rules}\n({int(n):,} deals)" for rules, n in counts.items()],
                  fontsize="small")
    ax.set_ylim(0, 1.1)
    _percent_axis(ax.yaxis)
    ax.set_ylabel("share of deals undecided (solver)")
    fig.suptitle(title or "Deals the solver leaves undecided, by node budget")
    _legend(fig, ax, columns=len(budgets))
    ax.grid(axis="y", alpha=0.3)
    return fig


def plot_effects(effects: pd.DataFrame, title: str | None = None) -> Figure:
    """Change in the share won when one switch moves off its default, per game and player (the
    bar's colour and label name the player), with the span the undecided deals leave open
    hatched and the 95% interval of :func:`results.switch_effects` (which covers them) as
    whiskers; the clearest effect at the top."""
    table = effects.iloc[::-1].reset_index(drop=True)
    fig, ax = _figure(_bar_height(len(table)))
    colours = {who: _colour(i) for i, who in enumerate(sorted(set(table["who"])))}
    labelled = set()
    for y, row in enumerate(table.itertuples()):
        label = row.who if row.who not in labelled else None
        labelled.add(row.who)
        if row.range_high > row.range_low:  # behind the bar: the bar stays in plain sight
            ax.barh(y, row.range_high - row.range_low, left=row.range_low, height=0.8, **UNKNOWN_STYLE, zorder=1,
                    label=None if "undecided" in labelled else "change still open (undecided deals)")
            labelled.add("undecided")
        ax.barh(y, row.effect, color=colours[row.who], height=0.45, label=label, zorder=2)
    ax.errorbar(table["effect"], range(len(table)),
                xerr=[table["effect"] - table["low"], table["high"] - table["effect"]],
                fmt="none", ecolor="black", capsize=3, linewidth=1, zorder=3)
    ax.axvline(0, color="black", linewidth=0.8)
    labels = [f"{row.game}: {row.switch}  ({row.who})" for row in table.itertuples()]
    ax.set_yticks(range(len(table)), labels)
    ax.set_ylim(-0.6, len(table) - 0.4)
    ax.set_xlim(-1.05, 1.05)
    ax.xaxis.set_major_formatter(PercentFormatter(xmax=1.0, decimals=0, symbol=" pp"))
    ax.set_xlabel("change in share won against the game's defaults (percentage points)\n"
                  "hatched: where the change in winnable share may lie once the undecided deals are decided;\n"
                  "whiskers: 95% interval for that change, sampling error included")
    n = _deal_counts(table["n"]) if len(table) else "no runs"
    fig.suptitle(title or f"Which rule switch moves the odds most ({n})")
    _legend(fig, ax, columns=3)
    ax.grid(axis="x", alpha=0.3)
    return fig


CHARTS = ("shares", "convergence", "budget", "effects")


def draw(chart: str, run_dirs: list[str | os.PathLike]) -> Figure:
    """The named chart of the given run folders, loaded through :mod:`.results`."""
    if chart == "shares":
        return plot_shares(results.summarize_runs(run_dirs))
    if chart == "convergence":
        return plot_convergence(pd.concat([catalog.load_run(d) for d in run_dirs], ignore_index=True))
    if chart == "budget":
        return plot_budget(results.budget_curves(run_dirs))
    if chart == "effects":
        return plot_effects(results.switch_effects(results.summarize_runs(run_dirs)))
    raise ValueError(f"unknown chart {chart!r}; choose one of {', '.join(CHARTS)}")


def save(fig: Figure, path: str | os.PathLike) -> Path:
    """Write a PNG, creating its folder."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    return path
