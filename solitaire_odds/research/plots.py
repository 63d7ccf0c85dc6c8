"""Charts of results: each takes a tidy table from :mod:`.results` and returns a matplotlib
Figure, so the CLI, the experiment scripts and the notebooks draw the same pictures.

Figures are made without pyplot, so no display or GUI backend is involved: files are drawn
by Agg, and a notebook shows a returned Figure inline.

Every chart is 8 inches wide, so that saved at :data:`DPI` and shown at a README's width
(about 800 pixels) its text stays legible; many games make small multiples, not one tall
column. A player has one colour in every chart (:data:`PLAYER_COLOURS`). Every share is drawn
with its Wilson 95% interval; deals the solver left undecided are drawn hatched (the bracket
won..won + unknown, a band above a line), never hidden. A published claim is a line, labelled
with what it measures (a person's share, to read against the players; a winnable share, to
read against the solver), and the axes leave room above 100% and below 0% so that no line
hides on the frame.
"""

from __future__ import annotations

import itertools
import math
import os
import textwrap
from pathlib import Path

import pandas as pd
from matplotlib import colormaps
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from ..rules import GAMES, format_value
from ..runs import catalog
from ..runs.records import count_text
from . import results
from .claims import CLAIMS, PLAY, SOLVABLE, Claim

WIDTH = 8.0
"""Inches: every chart's width."""
DPI = 150
"""Pixels per inch of a saved chart (1,200 pixels wide, crisp when shown at 800)."""
FONT = 8
"""Points: tick labels and legends; titles are a little larger."""

PLAYER_COLOURS = {"solver": "#7b3294", "random": "#e08214", "greedy": "#2166ac", "planner": "#1b7837",
                  "hindsight": "#b2182b", "uct": "#762a83"}
"""The one colour of each player, in every chart (tests check that each player has one)."""
OTHER_COLOUR = "dimgrey"
"""A player this table does not know (a new one until it gets a colour here)."""
CLAIM_COLOUR = "crimson"
UNKNOWN_STYLE = dict(color="lightgrey", hatch="///", edgecolor="grey", linewidth=0)


def player_colour(player: str):
    """The colour of ``player`` in every chart."""
    return PLAYER_COLOURS.get(player, OTHER_COLOUR)


def _figure(height: float, width: float = WIDTH) -> tuple[Figure, Axes]:
    fig = Figure(figsize=(width, height), layout="constrained")
    return fig, fig.subplots()


def _bar_height(rows: int) -> float:
    """Inches for a chart of ``rows`` labelled bars."""
    return 1.6 + 0.25 * max(rows, 3)


def _percent(share: float) -> str:
    """A whole percentage, but never a misleading 0% or 100% for a share strictly between."""
    if 0 < share < 0.01:
        return "<1%"
    if 0.99 < share < 1:
        return ">99%"
    return f"{share:.0%}"


def _budget_colour(i: int, budgets: int):
    """The ``i``-th of ``budgets`` node budgets: shades of the solver's colour, darker for
    larger budgets, so that no budget is taken for a player."""
    return colormaps["Purples"](0.35 + 0.55 * i / max(budgets - 1, 1))


def _legend(fig: Figure, ax: Axes, columns: int = 2) -> None:
    """The legend below the axes, where it never hides a bar or a line."""
    handles, labels = ax.get_legend_handles_labels()
    if handles:
        fig.legend(handles, labels, loc="outside lower center", ncol=columns, fontsize=FONT, frameon=False)


def _percent_axis(axis) -> None:
    axis.set_major_formatter(PercentFormatter(xmax=1.0, decimals=0))


SHARE_LIMITS = (-0.03, 1.05)
"""A share axis with room around 0% and 100%, where shares of patience games often sit."""


def comparable(claim: Claim, player: str) -> bool:
    """Whether a run of ``player`` measures what ``claim`` states: the solver a winnable
    share, the players who see only what a person sees a person's share."""
    return (player == "solver") == (claim.measures == SOLVABLE)


def _claim_label(claim: Claim) -> str:
    return f"published {claim.text.split(' (')[0]} ({_KIND[claim.measures]})"


_KIND = {SOLVABLE: "winnable share", PLAY: "a person's share"}
CLAIM_LINES = {SOLVABLE: ":", PLAY: "--"}
"""The line of a published figure by what it measures, so a chart shows which runs it is read
against without a note in every panel."""
CLAIM_LEGEND = {SOLVABLE: "published winnable share (read against the solver)",
                PLAY: "published share a person wins (read against the players)"}


def _players_in_order(players) -> list[str]:
    """Players in :data:`PLAYER_COLOURS` order, any other after them."""
    known = list(PLAYER_COLOURS)
    return sorted(set(players), key=lambda p: (known.index(p) if p in known else len(known), p))


def _panels(summary: pd.DataFrame, claims: tuple[Claim, ...]) -> list[tuple[str, str, Claim | None]]:
    """(key, game, claim) of each panel of :func:`plot_shares`: one per claim when the table
    has a ``claim`` column (as :mod:`.reproduce` makes), else one per game with the game's
    published claim, if any."""
    by_key = {claim.key: claim for claim in claims}
    if "claim" in summary:
        games = summary.groupby("claim")["game"].first()
        keys = sorted(games.index, key=lambda key: (_game_order(games[key]), key))
        return [(key, games[key], by_key.get(key)) for key in keys]
    published = {claim.game: claim for claim in claims if claim.value is not None}
    return [(game, game, published.get(game)) for game in sorted(set(summary["game"]), key=_game_order)]


def _game_order(game: str) -> tuple[int, str]:
    """Games in the order they are declared, any unknown one after them."""
    order = list(GAMES)
    return (order.index(game) if game in order else len(order), game)


def _row_label(rules: str, game: str, solver_who: str | None, width: int = 22) -> str:
    """A panel row's tick label: its switches, wrapped, and the solver's largest budget when
    the row has a solver run (``who`` such as "solver b10k+100k"), which sets how wide its
    bracket is."""
    lines = textwrap.wrap(_switches(rules, game), width) or ["defaults"]
    if solver_who and solver_who != "solver":
        lines.append(f"(solver to {solver_who.split('+')[-1].removeprefix('solver b')})")
    return "\n".join(lines)


def plot_shares(summary: pd.DataFrame, claims: tuple[Claim, ...] = CLAIMS, title: str | None = None,
                columns: int = 2) -> Figure:
    """Share won per game (or per claim) in small multiples: a row per rule set, a dot per
    player in the player's colour with its Wilson 95% interval, the solver's bracket
    won..won + unknown hatched after its dot, and the published figure a dashed line labelled
    with what it measures."""
    panels = _panels(summary, claims)
    key_column = "claim" if "claim" in summary else "game"
    players = _players_in_order(summary["player"])
    offsets = {p: 0.28 - 0.56 * i / max(len(players) - 1, 1) for i, p in enumerate(players)}
    rows_of = [summary[summary[key_column] == key] for key, _, _ in panels]
    sizes = [max(table["rules"].nunique(), 1) for table in rows_of]
    grid_rows = math.ceil((len(panels) + 1) / columns)  # one cell more: the legend's
    ratios = [max([*sizes[r * columns:(r + 1) * columns], 2]) for r in range(grid_rows)]
    fig = Figure(figsize=(WIDTH, 0.9 + 0.55 * sum(ratios) + 0.45 * grid_rows), layout="constrained")
    axes = fig.subplots(grid_rows, columns, squeeze=False, gridspec_kw={"height_ratios": ratios}).ravel()
    handles = {}
    for ax, (key, game, claim), table in zip(axes, panels, rows_of):
        rule_sets = sorted(set(table["rules"]), key=lambda r: (r != game, r))[::-1]
        labels = []
        for y, rules in enumerate(rule_sets):
            at = table[table["rules"] == rules]
            solver = at[at["player"] == "solver"]
            labels.append(_row_label(rules, game, solver["who"].iloc[0] if len(solver) else None))
            for row in at.itertuples():
                colour = player_colour(row.player)
                yy = y + offsets[row.player]
                if row.unknown:
                    handles["bracket"] = ax.barh(yy, row.bracket_high - row.share, left=row.share, height=0.2,
                                                 facecolor="white", edgecolor=colour, hatch="////", linewidth=0.6)
                ax.errorbar(row.share, yy, xerr=[[row.share - row.share_low], [row.share_high - row.share]], fmt="none",
                            ecolor=colour, capsize=2, linewidth=1)
                handles[row.player] = ax.plot(row.share, yy, "o", color=colour, markersize=4.5)[0]
        ax.set_yticks(range(len(rule_sets)), labels, fontsize=FONT - 1)
        ax.set_ylim(-0.6, len(rule_sets) - 0.4)
        for y in range(len(rule_sets) - 1):
            ax.axhline(y + 0.5, color="lightgrey", linewidth=0.6)
        heading = game
        if claim is not None and claim.value is not None:
            handles[claim.measures] = ax.axvline(claim.value, color=CLAIM_COLOUR, linewidth=1.3,
                                                 linestyle=CLAIM_LINES[claim.measures])
            heading += f": published {claim.text.split(' (')[0]}"
        ax.set_title(heading, loc="left", fontsize=FONT + 1, fontweight="bold")
        ax.set_xlim(*SHARE_LIMITS)
        _percent_axis(ax.xaxis)
        ax.tick_params(axis="x", labelsize=FONT - 1)
        ax.grid(axis="x", alpha=0.3)
    legend_ax, spare = axes[len(panels)], axes[len(panels) + 1:]
    for ax in [legend_ax, *spare]:
        ax.set_axis_off()
    names = {**{p: p for p in players}, "bracket": "solver: undecided deals (won .. won + unknown)",
             **CLAIM_LEGEND}
    shown = [k for k in (*players, "bracket", PLAY, SOLVABLE) if k in handles]
    legend_ax.legend([handles[k] for k in shown], [names[k] for k in shown], loc="center", fontsize=FONT,
                     frameon=False, title="dots: share won, whiskers: Wilson 95%", title_fontsize=FONT)
    fig.suptitle(title or f"Win share per game, rule set and player ({_deal_counts(summary['deals'])})",
                 fontsize=FONT + 3)
    return fig


def _switches(rules: str, game: str) -> str:
    """A rules label without its game, for a panel that names the game."""
    return rules[len(game):].strip() or "defaults"


def _deal_counts(counts: pd.Series) -> str:
    low, high = int(counts.min()), int(counts.max())
    return f"{low:,} deals each" if low == high else f"{low:,}-{high:,} deals per bar"


LINE_STYLES = ("-", "--", "-.", ":")
"""Rule sets of one panel, told apart by line style (the colour is the player's)."""


def _grid(panels: int, height: float, columns: int = 2) -> tuple[Figure, list[Axes], Axes]:
    """Small multiples: ``panels`` axes of ``height`` inches in ``columns`` columns, and one
    cell more, left without axes, for the figure's legend."""
    grid_rows = math.ceil((panels + 1) / columns)
    fig = Figure(figsize=(WIDTH, 0.9 + height * grid_rows), layout="constrained")
    axes = list(fig.subplots(grid_rows, columns, squeeze=False).ravel())
    for ax in axes[panels:]:
        ax.set_axis_off()
    return fig, axes[:panels], axes[panels]


def plot_convergence(rows: pd.DataFrame, claims: tuple[Claim, ...] = CLAIMS, title: str | None = None) -> Figure:
    """The running share won as deals accumulate, in small multiples (a panel per game), a
    line per run in its player's colour (its rule set's line style when a panel has several)
    with its Wilson 95% band and, hatched above it, the deals still undecided (the winnable
    share lies anywhere in the hatched band). A published claim is drawn in a panel only when
    a run of its kind is there."""
    games = sorted(set(rows["game"]), key=_game_order)
    fig, axes, legend_ax = _grid(len(games), 2.3)
    handles = {}
    for ax, game in zip(axes, games):
        mine = rows[rows["game"] == game]
        players = set(mine["player"])
        rule_sets = sorted(set(mine["rules"]), key=lambda r: (r != game, r))
        for run_dir, run_rows in mine.groupby("run_dir", sort=True):
            first = run_rows.iloc[0]
            colour = player_colour(first["player"])
            curve = results.running_share(run_rows)
            name = first["who"] if len(rule_sets) == 1 else f"{first['who']}: {_switches(first['rules'], game)}"
            ax.plot(curve["deals"], curve["share"], color=colour, linewidth=1.4,
                    linestyle=LINE_STYLES[rule_sets.index(first["rules"]) % len(LINE_STYLES)], label=name)
            ax.fill_between(curve["deals"], curve["low"], curve["high"], color=colour, alpha=0.15, linewidth=0)
            if (curve["bracket_high"] > curve["share"]).any():
                handles["undecided"] = ax.fill_between(curve["deals"], curve["share"], curve["bracket_high"],
                                                       facecolor="none", edgecolor=colour, hatch="////",
                                                       linewidth=0)
        for claim in claims:
            if claim.game == game and claim.value is not None and any(comparable(claim, player) for player in players):
                handles[claim.measures] = ax.axhline(claim.value, color=CLAIM_COLOUR, linewidth=1.3,
                                                     linestyle=CLAIM_LINES[claim.measures])
        ax.set_ylim(*SHARE_LIMITS)
        ax.set_xscale("log")
        _percent_axis(ax.yaxis)
        ax.tick_params(labelsize=FONT - 1)
        ax.grid(alpha=0.3)
        ax.legend(loc="best", fontsize=FONT - 1.5, frameon=True, framealpha=0.8)
        ax.set_title(game, loc="left", fontsize=FONT + 1, fontweight="bold")
    names = {"undecided": "solver: undecided so far (won .. won + unknown)", **CLAIM_LEGEND}
    shown = [k for k in ("undecided", PLAY, SOLVABLE) if k in handles]
    legend_ax.legend([handles[k] for k in shown], [names[k] for k in shown], loc="center", fontsize=FONT,
                     frameon=False, title="share so far against deals played (log scale);\n"
                                          "band: Wilson 95% interval", title_fontsize=FONT)
    fig.suptitle(title or "Convergence of the estimate as deals accumulate", fontsize=FONT + 3)
    return fig


def plot_strength(points: pd.DataFrame, claims: tuple[Claim, ...] = CLAIMS, title: str | None = None) -> Figure:
    """Strength curves, a panel per rule set: each player's share won (Wilson 95% whiskers)
    against the time it took a game (log scale), its settings joined by a line, beneath the
    winnable share's bracket (hatched: won .. won + unknown of the deepest solver measurement)
    and the published figure, where it is about a person's share."""
    rule_sets = list(dict.fromkeys(points["rules"]))
    fig, axes, legend_ax = _grid(len(rule_sets), 2.4)
    handles = {}
    for ax, rules in zip(axes, rule_sets):
        mine = points[points["rules"] == rules]
        for player, curve in mine.groupby("player", sort=False):
            curve = curve.sort_values("seconds_per_game")
            colour = player_colour(player)
            handles[player] = ax.errorbar(curve["seconds_per_game"], curve["share"],
                                          yerr=[curve["share"] - curve["low"], curve["high"] - curve["share"]],
                                          color=colour, marker="o", markersize=3.5, linewidth=1.2, capsize=2)
        low, high = mine["solvable_low"].iloc[0], mine["solvable_high"].iloc[0]
        if not math.isnan(low):
            handles["winnable"] = ax.axhspan(low, max(high, low + 0.004), facecolor="white",
                                             edgecolor=player_colour("solver"), hatch="////", linewidth=0.6)
        game = mine["game"].iloc[0]
        for claim in claims:
            if claim.game == game and claim.value is not None and claim.measures == PLAY:
                handles[PLAY] = ax.axhline(claim.value, color=CLAIM_COLOUR, linewidth=1.3,
                                           linestyle=CLAIM_LINES[PLAY])
        ax.set_ylim(*SHARE_LIMITS)
        ax.set_xscale("log")
        _percent_axis(ax.yaxis)
        ax.tick_params(labelsize=FONT - 1)
        ax.grid(alpha=0.3)
        ax.set_title(textwrap.fill(f"{rules} ({_deal_counts(mine['deals'])})", 48), loc="left", fontsize=FONT,
                     fontweight="bold")
    names = {"winnable": "winnable (solver's bracket, hatched)", **CLAIM_LEGEND}
    shown = [k for k in _players_in_order(points["player"]) if k in handles] + [k for k in ("winnable", PLAY)
                                                                               if k in handles]
    legend_ax.legend([handles[k] for k in shown], [names.get(k, k) for k in shown], loc="center", fontsize=FONT,
                     frameon=False, title="share won against seconds a game (log scale);\n"
                                          "whiskers: Wilson 95% interval", title_fontsize=FONT)
    fig.suptitle(title or "How well a player who cannot see the hidden cards does", fontsize=FONT + 3)
    return fig


def plot_budget(curves: pd.DataFrame, title: str | None = None) -> Figure:
    """Share of deals the solver leaves undecided at each node budget: for each rule set a group
    of hatched bars, one per budget, with Wilson 95% whiskers and the share written on top, so
    that rule sets with equal shares stay side by side instead of on top of each other."""
    rule_sets = list(dict.fromkeys(curves.sort_values(["game", "rules"])["rules"]))
    budgets = sorted(set(curves["budget"]))
    fig, ax = _figure(4.6, width=max(WIDTH, 0.75 * len(rule_sets)))
    width = 0.8 / max(len(budgets), 1)
    for i, budget in enumerate(budgets):
        colour = _budget_colour(i, len(budgets))
        at = curves[curves["budget"] == budget].set_index("rules").reindex(rule_sets)
        xs = [k + (i - (len(budgets) - 1) / 2) * width for k in range(len(rule_sets))]
        ax.bar(xs, at["unknown_share"], width=width * 0.95, facecolor=colour, alpha=0.75, edgecolor="black",
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
    bar has its player's colour and is labelled with its budget), with the span the undecided deals leave open
    hatched and the 95% interval of :func:`results.switch_effects` (which covers them) as
    whiskers; the clearest effect at the top."""
    table = effects.iloc[::-1].reset_index(drop=True)
    fig, ax = _figure(_bar_height(len(table)))
    labelled = set()
    for y, row in enumerate(table.itertuples()):
        label = row.who if row.who not in labelled else None
        labelled.add(row.who)
        if row.range_high > row.range_low:  # behind the bar: the bar stays in plain sight
            ax.barh(y, row.range_high - row.range_low, left=row.range_low, height=0.8, **UNKNOWN_STYLE, zorder=1,
                    label=None if "undecided" in labelled else "change still open (undecided deals)")
            labelled.add("undecided")
        ax.barh(y, row.effect, color=player_colour(row.player), height=0.45, label=label, zorder=2)
    ax.errorbar(table["effect"], range(len(table)),
                xerr=[table["effect"] - table["low"], table["high"] - table["effect"]],
                fmt="none", ecolor="black", capsize=3, linewidth=1, zorder=3)
    ax.axvline(0, color="black", linewidth=0.8)
    labels = [f"{row.game}: {row.switch}  ({row.who})" for row in table.itertuples()]
    ax.set_yticks(range(len(table)), labels, fontsize=FONT)
    ax.set_ylim(-0.6, len(table) - 0.4)
    ax.set_xlim(-1.05, 1.05)
    ax.set_xticks([-1, -0.5, 0, 0.5, 1])
    ax.xaxis.set_major_formatter(PercentFormatter(xmax=1.0, decimals=0, symbol=" pp"))
    ax.tick_params(axis="x", labelsize=FONT)
    ax.set_xlabel("change in share won against the game's defaults (percentage points)\n"
                  "hatched: where the change in winnable share may lie once the undecided\n"
                  "deals are decided; whiskers: 95% interval for it, sampling error included", fontsize=FONT)
    n = _deal_counts(table["deals"]) if len(table) else "no runs"
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
    fig.savefig(path, dpi=DPI)
    return path


def plot_sweep(table: pd.DataFrame, x: str | None = None, title: str | None = None) -> Figure:
    """The share won against a varied rule (``x``, default the sweep's first) from a sweep's
    table (:func:`.sweep.sweep`, or its CSV read back): a line per player in its colour, Wilson
    95% whiskers, and above the solver's line, hatched, the bracket won .. won + unknown that its
    undecided deals leave open; one panel per combination of the other varied rules' values."""
    from .sweep import varied_columns

    varied = varied_columns(table)
    x = x or varied[0]
    if x not in varied:
        raise ValueError(f"{x!r} is not a varied rule of this sweep; it varies {', '.join(varied)}")
    others = [column for column in varied if column != x]
    panels = list(table.groupby(others, sort=False)) if others else [((), table)]
    order = list(dict.fromkeys(table[x]))
    numeric = pd.api.types.is_numeric_dtype(table[x]) and not pd.api.types.is_bool_dtype(table[x])
    position = {v: (v if numeric else i) for i, v in enumerate(order)}
    if len(panels) == 1:  # one panel: the legend below it, not in a cell of its own
        fig, ax = _figure(4.2)
        axes, legend_ax = [ax], None
    else:
        fig, axes, legend_ax = _grid(len(panels), 2.6)
    handles = {}
    players = _players_in_order(table["player"])
    # players side by side at each value, so that equal shares do not hide one another
    step = min((b - a for a, b in itertools.pairwise(sorted(position.values()))), default=1)
    shift = {p: 0.06 * step * (i - (len(players) - 1) / 2) for i, p in enumerate(players)}
    for ax, (key, mine) in zip(axes, panels):
        for player in players:
            at = mine[mine["player"] == player].copy()
            if at.empty:
                continue
            at["at"] = at[x].map(position) + shift[player]
            at = at.sort_values("at")
            colour = player_colour(player)
            handles[player] = ax.plot(at["at"], at["share"], "o-", color=colour, markersize=4, linewidth=1.3,
                                      label=at["who"].iloc[0])[0]
            ax.errorbar(at["at"], at["share"], yerr=[at["share"] - at["share_low"], at["share_high"] - at["share"]],
                        fmt="none", ecolor=colour, capsize=2, linewidth=0.9)
            if (at["unknown"] > 0).any():
                handles["bracket"] = ax.fill_between(at["at"], at["share"], at["bracket_high"], facecolor="none",
                                                     edgecolor=colour, hatch="////", linewidth=0)
        ax.set_xticks(list(position.values()), [format_value(v) for v in order])
        ax.set_xlabel(x, fontsize=FONT)
        ax.set_ylim(*SHARE_LIMITS)
        _percent_axis(ax.yaxis)
        ax.tick_params(labelsize=FONT - 1)
        ax.grid(alpha=0.3)
        key = key if isinstance(key, tuple) else (key,)
        heading = " ".join(f"{column}={format_value(value)}" for column, value in zip(others, key))
        ax.set_title(heading or table["game"].iloc[0], loc="left", fontsize=FONT + 1, fontweight="bold")
    whos = {p: table[table["player"] == p]["who"].iloc[0] for p in players}
    names = {**whos, "bracket": "undecided deals (won .. won + unknown)"}
    shown = [k for k in (*players, "bracket") if k in handles]
    legend = {"fontsize": FONT, "frameon": False, "title": "dots: share won, whiskers: Wilson 95%",
              "title_fontsize": FONT}
    if legend_ax is None:
        fig.legend([handles[k] for k in shown], [names[k] for k in shown], loc="outside lower center",
                   ncol=len(shown), **legend)
    else:
        legend_ax.legend([handles[k] for k in shown], [names[k] for k in shown], loc="center", **legend)
    fig.suptitle(title or f"{table['game'].iloc[0]}: share won by {x} ({_deal_counts(table['deals'])})",
                 fontsize=FONT + 3)
    return fig
