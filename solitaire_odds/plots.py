"""Charts of results: each takes a tidy table from :mod:`.results` and returns a matplotlib
Figure, so the CLI, the experiment scripts and the notebooks draw the same pictures.

Figures are made without pyplot, so no display or GUI backend is involved: files are drawn
by Agg, and a notebook shows a returned Figure inline.

Every share is drawn with its Wilson 95% interval, and deals the solver left undecided are
drawn as a hatched extension of the bar, never hidden.
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
from .claims import CLAIMS, Claim

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


def plot_shares(summary: pd.DataFrame, claims: tuple[Claim, ...] = CLAIMS, title: str | None = None) -> Figure:
    """Share won per game (one panel each), rule set and player: one bar per run with its Wilson
    95% interval, the unknown share hatched, and the game's published claim as a red line."""
    games = sorted(set(summary["game"]))
    sizes = [int((summary["game"] == game).sum()) for game in games]
    fig = Figure(figsize=(10, 1.4 + 0.3 * sum(sizes) + 0.35 * len(games)), layout="constrained")
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
        for y, row in enumerate(table.to_dict("records")):
            ax.barh(y, row["share"], color=colours[row["who"]], height=0.7, label=once(row["who"]))
            if row["unknown"]:
                ax.barh(y, row["bracket_high"] - row["share"], left=row["share"], height=0.7, **UNKNOWN_STYLE,
                        label=once("undecided (budget spent)"))
            ax.errorbar(row["share"], y, xerr=[[row["share"] - row["low"]], [row["high"] - row["share"]]],
                        fmt="none", ecolor="black", capsize=3, linewidth=1)
        for claim in claims:
            if claim.game == game:
                ax.axvline(claim.value, color=CLAIM_COLOUR, linewidth=2.5, label=once("published claim"))
        ax.set_yticks(range(len(table)), [f"{row.rules}  ({row.who})" for row in table.itertuples()])
        ax.set_ylim(-0.6, len(table) - 0.4)
        ax.set_title(game, loc="left", fontsize="medium", fontweight="bold")
        ax.grid(axis="x", alpha=0.3)
    axes[-1].set_xlim(0, 1)
    _percent_axis(axes[-1].xaxis)
    axes[-1].set_xlabel("share of deals won (bars: Wilson 95% interval)")
    fig.suptitle(title or f"Win share per game, rule set and player ({_deal_counts(summary['n'])})")
    handles = [h for ax in axes for h in zip(*ax.get_legend_handles_labels())]
    fig.legend([h for h, _ in handles], [label for _, label in handles], loc="outside lower center",
               ncol=4, fontsize="small", frameon=False)
    return fig


def _deal_counts(counts: pd.Series) -> str:
    low, high = int(counts.min()), int(counts.max())
    return f"{low:,} deals each" if low == high else f"{low:,}-{high:,} deals per bar"


def plot_convergence(rows: pd.DataFrame, claims: tuple[Claim, ...] = CLAIMS, title: str | None = None) -> Figure:
    """The running share won as deals accumulate, one line per run with its Wilson 95% band,
    and the published claim of each game as a dashed line in the colour of the game's first run."""
    fig, ax = _figure(5 + 0.12 * rows["run_dir"].nunique())
    game_colour = {}
    for i, (run_dir, run_rows) in enumerate(rows.groupby("run_dir", sort=True)):
        curve = results.running_share(run_rows)
        colour = _colour(i)
        first = run_rows.iloc[0]
        game_colour.setdefault(first["game"], colour)
        ax.plot(curve["deals"], curve["share"], color=colour, label=f"{first['rules']} ({first['who']})")
        ax.fill_between(curve["deals"], curve["low"], curve["high"], color=colour, alpha=0.12, linewidth=0)
    for claim in claims:
        if claim.game in game_colour:
            ax.axhline(claim.value, color=game_colour[claim.game], linestyle="--", linewidth=1.2,
                       label=f"published ({claim.game}): {claim.text}")
    ax.set_xscale("log")
    ax.set_ylim(0, 1)
    _percent_axis(ax.yaxis)
    ax.set_xlabel("deals played (log scale)")
    ax.set_ylabel("share proven won so far (band: Wilson 95%)")
    fig.suptitle(title or "Convergence of the estimate as deals accumulate")
    _legend(fig, ax)
    ax.grid(alpha=0.3)
    return fig


def plot_budget(curves: pd.DataFrame, title: str | None = None) -> Figure:
    """Share of deals the solver leaves undecided at each node budget, one line per rule set,
    with Wilson 95% error bars (a marker shape per line, so lines that coincide stay visible)."""
    fig, ax = _figure(5 + 0.12 * curves["run_dir"].nunique())
    for i, (run_dir, curve) in enumerate(curves.groupby("run_dir", sort=True)):
        curve = curve.sort_values("budget")
        ax.errorbar(curve["budget"], curve["unknown_share"],
                    yerr=[curve["unknown_share"] - curve["low"], curve["high"] - curve["unknown_share"]],
                    marker="osD^vPX"[i % 7], markersize=7, capsize=3, color=_colour(i), alpha=0.85,
                    label=f"{curve['rules'].iloc[0]} ({int(curve['n'].iloc[0]):,} deals)")
    ax.set_xscale("log")
    ax.set_ylim(-0.02, 1.03)
    _percent_axis(ax.yaxis)
    ax.set_xlabel("solver node budget per deal (log scale)")
    ax.set_ylabel("share of deals undecided")
    fig.suptitle(title or "Deals left undecided against the solver's budget")
    _legend(fig, ax)
    ax.grid(alpha=0.3)
    return fig


def plot_effects(effects: pd.DataFrame, title: str | None = None) -> Figure:
    """Change in the share won when one switch moves off its default, per game, with the 95%
    interval of :func:`results.switch_effects` (which covers the undecided deals); the
    clearest effect at the top."""
    table = effects.iloc[::-1].reset_index(drop=True)
    fig, ax = _figure(_bar_height(len(table)))
    colours = [_colour(0) if effect >= 0 else _colour(3) for effect in table["effect"]]
    ax.barh(range(len(table)), table["effect"], color=colours, height=0.7)
    ax.errorbar(table["effect"], range(len(table)),
                xerr=[table["effect"] - table["low"], table["high"] - table["effect"]],
                fmt="none", ecolor="black", capsize=3, linewidth=1)
    ax.axvline(0, color="black", linewidth=0.8)
    labels = [f"{row.game}: {row.switch}" + (f"  (up to {_percent(row.unknown_share)} undecided)"
                                             if row.unknown_share else "")
              for row in table.itertuples()]
    ax.set_yticks(range(len(table)), labels)
    ax.set_xlim(-1, 1)
    ax.xaxis.set_major_formatter(PercentFormatter(xmax=1.0, decimals=0, symbol=" pp"))
    ax.set_xlabel("change in share won against the game's defaults (percentage points)\n"
                  "whiskers: 95% interval for the change in winnable share,\n"
                  "whatever the undecided deals turn out to be")
    n = _deal_counts(table["n"]) if len(table) else "no runs"
    fig.suptitle(title or f"Which rule switch moves the odds most ({n})")
    ax.grid(axis="x", alpha=0.3)
    return fig


CHARTS = ("shares", "convergence", "budget", "effects")


def draw(chart: str, run_dirs: list[str | os.PathLike]) -> Figure:
    """The named chart of the given run folders, loaded through :mod:`.results`."""
    if chart == "shares":
        return plot_shares(results.summarize_runs(run_dirs))
    if chart == "convergence":
        return plot_convergence(pd.concat([results.load_run(d) for d in run_dirs], ignore_index=True))
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
