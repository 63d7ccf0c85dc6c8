"""The research surface: published claims, the reproduce table, the results API and the charts."""

import math

import pandas as pd
import pytest
from click.testing import CliRunner

from solitaire_odds.research import results
from solitaire_odds.runs import catalog
from solitaire_odds.research.claims import CLAIMS, NO_FIGURE, PLAY, SOLVABLE, claims_for
from solitaire_odds.cli import main
from solitaire_odds.research.reproduce import closest
from solitaire_odds.rules import GAMES, resolve
from solitaire_odds.stats import wilson


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: c.key)
def test_claims_are_well_formed_and_every_reading_resolves(claim):
    assert claim.game in GAMES
    assert claim.measures in (SOLVABLE, PLAY)
    assert (claim.value is None) == (claim.text == NO_FIGURE)
    assert claim.value is None or 0 < claim.value < 1
    assert claim.source and claim.text and claim.note
    if claim.interval:
        assert claim.interval[0] < claim.value < claim.interval[1]
    assert "" in claim.readings, "every claim is measured under the game's defaults too"
    rules = [claim.rules(reading) for reading in claim.readings]
    assert len(set(rules)) == len(rules), "two readings give the same rules"
    assert {r.game for r in rules} == {claim.game}


def test_claims_name_the_figures_of_the_rules_brief():
    values = {claim.key: claim.value for claim in CLAIMS}
    assert values == {"westcliff-classic": 0.25, "westcliff": 0.9, "duchess": 0.125, "easthaven-solvitaire": 0.82844,
                      "st-helena": None, "louis": None, "box-kite": None}
    easthaven = claims_for(["easthaven-solvitaire"])[0]
    assert easthaven.measures == SOLVABLE and easthaven.interval == (0.82744, 0.82944)
    assert easthaven.rules(easthaven.readings[0]) == resolve("easthaven", space_fill="any", foundation_return="on")
    classic = claims_for(["westcliff-classic"])[0]
    assert resolve("westcliff-classic", waste_playable="off") in {classic.rules(r) for r in classic.readings}
    with pytest.raises(ValueError, match="unknown claim 'klondike'; choose from westcliff-classic"):
        claims_for(["klondike"])


def test_the_two_deck_games_have_entries_under_both_suit_readings_and_spaces():
    """St. Helena, Louis and Box Kite: no published figure, measured under the book's and
    PySolFC's building and with spaces filled."""
    for key in ("st-helena", "louis", "box-kite"):
        claim = claims_for([key])[0]
        rules = {claim.rules(r) for r in claim.readings}
        assert claim.value is None and claim.measures == SOLVABLE
        assert {r["build_suit"] for r in rules} == {"same", "any"}
        assert "any" in {r["space_fill"] for r in rules}
    table = pd.DataFrame([_row("box-kite", "defaults", "solver", 0, 10)])
    assert closest(claims_for(["box-kite"])[0], table) == (None, [
        "no published figure: these are the first measured odds we know of"])


def _row(claim, reading, player, won, unknown, n=100):
    return {"claim": claim, "reading": reading, "player": player, "who": player, "deals": n, "won": won,
            "unknown": unknown, "share": won / n, "bracket_high": (won + unknown) / n}


def test_closest_compares_a_solvable_claim_with_the_solver_and_reports_ties():
    table = pd.DataFrame([
        _row("easthaven-solvitaire", "defaults", "solver", 60, 0),
        _row("easthaven-solvitaire", "space_fill=any foundation_return=on", "solver", 80, 5),
        _row("easthaven-solvitaire", "space_fill=any", "solver", 70, 20),
        _row("easthaven-solvitaire", "foundation_return=on", "random", 83, 0),
    ])
    best, notes = closest(claims_for(["easthaven-solvitaire"])[0], table)
    assert best["reading"] == "space_fill=any foundation_return=on"  # narrowest bracket holding 82.8%
    assert notes == ["the claim also lies in the bracket of: space_fill=any (solver) "
                     "(more deals or a larger budget would tell them apart)"]


def test_closest_compares_a_persons_claim_with_the_players_or_says_the_solver_is_a_bound():
    duchess = claims_for(["duchess"])[0]
    table = pd.DataFrame([_row("duchess", "defaults", "solver", 13, 0), _row("duchess", "defaults", "greedy", 5, 0),
                          _row("duchess", "redeals=0", "greedy", 2, 0)])
    best, notes = closest(duchess, table)
    assert (best["reading"], best["player"], notes) == ("defaults", "greedy", [])
    best, notes = closest(duchess, table[table["player"] == "solver"])
    assert best["player"] == "solver" and "only an upper bound" in notes[0]


def test_unknown_by_budget_counts_a_deal_decided_only_at_a_larger_budget_as_undecided():
    rows = pd.DataFrame({"deal": [0, 1, 2, 3], "verdict": ["won", "lost", "won", "unknown"],
                         "budget": [1000, 10000, 100000, 100000]})
    curve = results.unknown_by_budget(rows, [100000, 1000, 10000])
    assert list(curve["budget"]) == [1000, 10000, 100000]
    assert list(curve["undecided"]) == [3, 2, 1]


def test_running_share_ends_at_the_share_of_all_deals_with_its_interval():
    rows = pd.DataFrame({"deal": range(50), "verdict": ["won", "lost"] * 25})
    curve = results.running_share(rows, points=10)
    assert curve["deals"].iloc[0] == 1 and curve["deals"].iloc[-1] == 50
    assert curve["share"].iloc[-1] == 0.5
    assert (curve["low"] <= curve["share"]).all() and (curve["share"] <= curve["high"]).all()


def test_share_difference_interval_holds_zero_for_equal_shares_and_not_for_far_ones():
    diff, low, high = results.share_difference(30, 100, 30, 100)
    assert diff == 0 and low < 0 < high
    diff, low, high = results.share_difference(90, 100, 10, 100)
    assert math.isclose(diff, 0.8) and 0 < low < diff < high < 1


@pytest.fixture(scope="module")
def tiny_reproduce(tmp_path_factory):
    """A reproduce run small enough for the suite: 6 deals of the American Westcliff claim."""
    root = tmp_path_factory.mktemp("results")
    args = ("reproduce", "--deals", 6, "--budget", "1e3,1e4", "--workers", 1, "--players", "solver,random",
            "--claims", "westcliff", "--root", root, "--csv", root / "claims.csv")
    return root, args, run(*args)


def test_reproduce_prints_one_table_with_every_reading_and_player(tiny_reproduce):
    root, args, result = tiny_reproduce
    assert result.exit_code == 0, result.output
    out = result.output
    assert "westcliff: published 9 in 10 = 90.0%" in out
    assert "solver b1k+10k" in out and "random" in out
    for reading in ("defaults", "run_moves=whole", "run_moves=single", "space_fill=king"):
        assert f"\n  {reading} " in out
    assert "\n  closest: " in out
    table = pd.read_csv(root / "claims.csv")
    assert len(table) == 8 and set(table["deals"]) == {6}
    assert (table["won"] + table["lost"] + table["unknown"] == 6).all()
    assert len(catalog.find_runs(root)) == 8


def test_reproduce_resumes_and_gives_the_same_table(tiny_reproduce):
    root, args, first = tiny_reproduce
    again = run(*args)
    assert again.exit_code == 0, again.output
    assert again.output == first.output


@pytest.mark.parametrize("args,message", [
    (("reproduce", "--players", "solver,oracle"), "unknown player 'oracle'; choose from solver"),
    (("reproduce", "--claims", "klondike"), "unknown claim 'klondike'"),
    (("reproduce", "--deals", "0"), "--deals must be a whole number >= 1"),
    (("plot", "pie", "--out", "x.png"), "unknown chart 'pie'; choose one of shares, convergence, budget, effects"),
])
def test_research_usage_errors_are_one_line_with_status_2(args, message):
    result = run(*args)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("solitaire-odds: error: ") and message in lines[0]


def test_plot_without_runs_says_what_to_do(tmp_path):
    result = run("plot", "shares", tmp_path, "--out", tmp_path / "a.png")
    assert result.exit_code == 2 and "no run folders" in result.output


@pytest.mark.parametrize("chart", ["shares", "convergence", "budget", "effects"])
def test_plot_draws_each_chart_of_a_small_run(tiny_reproduce, tmp_path, chart):
    root, _, _ = tiny_reproduce
    out = tmp_path / f"{chart}.png"
    result = run("plot", chart, root, "--out", out)
    assert result.exit_code == 0, result.output
    assert out.read_bytes().startswith(b"\x89PNG") and out.stat().st_size > 10_000


def test_summaries_and_effects_come_from_the_run_folders(tiny_reproduce):
    root, _, _ = tiny_reproduce
    summary = results.summarize_runs(catalog.find_runs(root))
    assert set(summary["changed"]) == {"defaults", "run_moves=whole", "run_moves=single", "space_fill=king"}
    effects = results.switch_effects(summary)
    assert len(effects) == 6  # 3 switches x 2 players, each against the defaults
    assert (effects["low"] <= effects["effect"]).all() and (effects["effect"] <= effects["high"]).all()
    curves = results.budget_curves(catalog.find_runs(root))
    assert set(curves["budget"]) == {1000, 10000} and len(curves) == 8


def _legend_entries(fig):
    """(label, colour) of every legend entry of a figure, in the figure's legends and its axes'."""
    import numpy as np
    from matplotlib.colors import to_hex
    from matplotlib.lines import Line2D

    def colour(handle):
        """A line's colour, a filled patch's face, a hatched (unfilled) patch's edge."""
        if isinstance(handle, Line2D):
            return to_hex(handle.get_color())
        face, edge = np.atleast_2d(handle.get_facecolor())[0], np.atleast_2d(handle.get_edgecolor())[0]
        return to_hex(edge if face[3] == 0 or tuple(face[:3]) == (1, 1, 1) else face)

    legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend() is not None]
    return [(text.get_text(), colour(handle))
            for legend in legends for handle, text in zip(legend.legend_handles, legend.get_texts())]


def test_every_player_has_one_colour_and_every_chart_uses_it(tiny_reproduce):
    from matplotlib.colors import to_hex

    from solitaire_odds.players import player_names
    from solitaire_odds.research import plots

    assert set(plots.PLAYER_COLOURS) == set(player_names())
    assert len({to_hex(c) for c in plots.PLAYER_COLOURS.values()}) == len(plots.PLAYER_COLOURS)
    root, _, _ = tiny_reproduce
    runs = catalog.find_runs(root)
    seen, labels = set(), set()
    for chart in ("shares", "convergence", "effects"):
        for label, colour in _legend_entries(plots.draw(chart, runs)):
            labels.add((chart, label))
            player = label.split()[0].rstrip(":") if label else ""
            if player in plots.PLAYER_COLOURS:
                assert colour == to_hex(plots.PLAYER_COLOURS[player]), (chart, label)
                seen.add((chart, player))
    assert seen == {(chart, player) for chart in ("shares", "convergence", "effects") for player in ("solver", "random")}
    assert ("shares", "solver: undecided deals (won .. won + unknown)") in labels  # the bracket, in the solver's colour


def _summary_row(game, rules, player, won, lost, unknown):
    n = won + lost + unknown
    low, high = wilson(won, n)
    return {"game": game, "rules": rules, "player": player, "who": player, "deals": n, "won": won, "lost": lost,
            "unknown": unknown, "share": won / n, "share_low": low, "share_high": high, "bracket_high": (won + unknown) / n}


def test_the_shares_chart_hatches_the_solver_bracket_and_draws_the_published_figure_as_a_line():
    from matplotlib.patches import Rectangle

    from solitaire_odds.research import plots

    summary = pd.DataFrame([_summary_row("westcliff", "westcliff", "solver", 50, 20, 30),
                            _summary_row("westcliff", "westcliff", "greedy", 40, 60, 0),
                            _summary_row("duchess", "duchess", "solver", 10, 90, 0)])
    fig = plots.plot_shares(summary)
    panels = {ax.get_title(loc="left").split(":")[0]: ax for ax in fig.axes if ax.get_title(loc="left")}
    assert set(panels) == {"westcliff", "duchess"}
    hatched = [(p.get_x(), p.get_width()) for ax in panels.values() for p in ax.patches
               if isinstance(p, Rectangle) and p.get_hatch()]
    assert len(hatched) == 1 and hatched[0][0] == pytest.approx(0.5) and hatched[0][1] == pytest.approx(0.3)
    lines = {name: [line.get_xdata()[0] for line in ax.get_lines() if line.get_linestyle() == "--"]
             for name, ax in panels.items()}
    assert lines == {"westcliff": [0.9], "duchess": [0.125]}  # both claims are a person's share: dashed
    assert fig.get_size_inches()[0] * plots.DPI <= 1200 and fig.get_size_inches()[1] < 2 * fig.get_size_inches()[0]


def test_the_strength_chart_draws_each_player_in_its_colour_under_the_hatched_winnable_bracket():
    from matplotlib.colors import to_hex
    from matplotlib.patches import Rectangle

    from solitaire_odds.research import plots

    def point(player, seconds, won, solvable=(0.80, 0.90)):
        low, high = wilson(won, 100)
        return {"game": "westcliff-classic", "rules": "westcliff-classic", "player": player, "deals": 100, "won": won,
                "share": won / 100, "low": low, "high": high, "seconds_per_game": seconds,
                "solvable_low": solvable[0], "solvable_high": solvable[1]}

    points = pd.DataFrame([point("greedy", 0.001, 14), point("planner", 0.3, 44), point("hindsight", 0.5, 50),
                           point("hindsight", 2.5, 55)])
    fig = plots.plot_strength(points)
    ax = next(ax for ax in fig.axes if ax.get_title(loc="left"))
    assert ax.get_title(loc="left") == "westcliff-classic (100 deals each)"
    spans = [p for p in ax.patches if isinstance(p, Rectangle) and p.get_hatch()]
    assert len(spans) == 1 and spans[0].get_y() == pytest.approx(0.80)
    assert spans[0].get_y() + spans[0].get_height() == pytest.approx(0.90)
    curves = {to_hex(line.get_color()): list(line.get_ydata()) for line in ax.get_lines() if line.get_marker() == "o"}
    assert curves[to_hex(plots.PLAYER_COLOURS["hindsight"])] == [0.50, 0.55]
    assert curves[to_hex(plots.PLAYER_COLOURS["greedy"])] == [0.14]
    dashed = [line.get_ydata()[0] for line in ax.get_lines() if line.get_linestyle() == "--"]
    assert dashed == [0.25]  # "about 1 in 4" is a person's share


def test_a_claim_is_placed_on_its_strength_curve():
    from solitaire_odds.research.claims import CLAIMS
    from solitaire_odds.research.pages import on_the_curve

    claim = next(c for c in CLAIMS if c.game == "westcliff-classic")  # "about 1 in 4"

    def point(player, won, n=2000):
        low, high = wilson(won, n)
        return {"player": player, "parameters": "p", "deals": n, "won": won, "share": won / n, "low": low,
                "high": high, "seconds_per_game": 0.5}

    curve = pd.DataFrame([point("planner", 1000), point("greedy", 280), point("random", 30)])
    assert on_the_curve(claim, curve) == ("between greedy (p; 14.00%, 0.5 s a game) and "
                                          "planner (p; 50.00%, 0.5 s a game)")
    assert on_the_curve(claim, pd.DataFrame([point("greedy", 500)])).startswith("inside the 95% interval of greedy")
    assert on_the_curve(claim, pd.DataFrame([point("greedy", 1000)])).startswith("below every player")
    assert on_the_curve(claim, pd.DataFrame([point("greedy", 100)])).startswith("above every player")
