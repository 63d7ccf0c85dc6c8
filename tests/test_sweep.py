"""Sweeps: every combination of the varied rules for every player is an ordinary run folder,
resumed and never recomputed; refused combinations are reported, bad input is one line and
exit status 2, and the table and chart say what the runs hold."""

import io
import json

import pandas as pd
import pytest
from click.testing import CliRunner

import solitaire_odds
from solitaire_odds.cli import main
from solitaire_odds.research import plots
from solitaire_odds.research.sweep import SweepError, parse_vary, plan, sweep, varied_columns
from solitaire_odds.rules import RulesError
from solitaire_odds.runs import runner, store

CHEAP = {"budget": "1e3", "workers": 1, "progress": False}
"""A solver budget that decides most Westcliff deals in milliseconds, in this process."""


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture
def solved(monkeypatch):
    """The deal ranges each run solves from here on (chunks are solved in this process)."""
    ranges = []
    solve = runner.solve_chunk

    def counting(rules, player, params, first, last):
        ranges.append((rules.label(), player, first, last))
        return solve(rules, player, params, first, last)

    monkeypatch.setattr(runner, "solve_chunk", counting)
    return ranges


def test_the_table_has_a_row_per_point_and_player_with_a_column_per_varied_rule(tmp_path):
    table = sweep("westcliff", {"tableau.piles": [9, 10], "space_fill": ["any", "king"]}, ["solver", "greedy"],
                  deals=6, root=tmp_path, **CHEAP)
    assert list(table.columns) == [
        "game", "rules", "tableau.piles", "space_fill", "player", "who", "first", "last", "deals", "won", "lost",
        "unknown", "share", "share_low", "share_high", "unknown_share", "bracket_low", "bracket_high",
        "bracket_ci_high", "cpu_seconds", "deals_per_cpu_second", "run_dir"]
    assert varied_columns(table) == ["tableau.piles", "space_fill"]
    assert list(zip(table["tableau.piles"], table["space_fill"], table["player"])) == [
        (piles, fill, player) for piles in (9, 10) for fill in ("any", "king") for player in ("solver", "greedy")]
    assert list(table["rules"][::2]) == ["westcliff tableau.piles=9", "westcliff space_fill=king tableau.piles=9",
                                         "westcliff", "westcliff space_fill=king"]
    assert set(table["who"]) == {"solver b1k", "greedy"}
    assert (table["deals"] == 6).all() and (table["won"] + table["lost"] + table["unknown"] == 6).all()
    assert (table["share"] == table["won"] / 6).all()
    assert (table["bracket_high"] == (table["won"] + table["unknown"]) / 6).all()
    assert (table["share_low"] <= table["share"]).all() and (table["share"] <= table["share_high"]).all()
    assert (table.loc[table["player"] == "greedy", "unknown"] == 0).all()
    assert (table["cpu_seconds"] > 0).all()
    assert (table["deals_per_cpu_second"] == 6 / table["cpu_seconds"]).all()
    assert table["run_dir"].nunique() == 8 and all(store.finished_chunks(d) for d in table["run_dir"])


def test_a_rerun_recomputes_nothing_and_more_deals_solve_only_the_new_ones(tmp_path, solved):
    vary = {"tableau.piles": [9, 10]}
    first = sweep("westcliff", vary, ["solver", "greedy"], deals=5, root=tmp_path, **CHEAP)
    assert len(solved) == 4
    solved.clear()
    again = sweep("westcliff", vary, ["solver", "greedy"], deals=5, root=tmp_path, **CHEAP)
    assert solved == []
    pd.testing.assert_frame_equal(first, again)
    more = sweep("westcliff", vary, ["solver", "greedy"], deals=8, root=tmp_path, **CHEAP)
    assert sorted(solved) == sorted((rules, player, 5, 7) for rules in ("westcliff tableau.piles=9", "westcliff")
                                    for player in ("solver", "greedy"))
    assert list(more["run_dir"]) == list(first["run_dir"]) and (more["deals"] == 8).all()


def test_a_point_is_the_run_odds_makes_of_the_same_rules(tmp_path, solved):
    table = sweep("westcliff", ["tableau.piles=8,9"], ["solver"], deals=6, root=tmp_path, **CHEAP)
    solved.clear()
    estimate = solitaire_odds.odds("westcliff", deals=6, budget="1e3", root=tmp_path, workers=1, progress=False,
                                   **{"tableau.piles": "9"})
    assert solved == []
    row = table[table["tableau.piles"] == 9].iloc[0]
    assert row["run_dir"] == str(estimate.run_dir)
    assert (row["won"], row["lost"], row["unknown"]) == (estimate.summary.won, estimate.summary.lost,
                                                          estimate.summary.unknown)
    assert (row["share_low"], row["share_high"]) == estimate.summary.interval


def test_an_interrupted_sweep_keeps_its_finished_points(tmp_path, solved, monkeypatch):
    counting = runner.solve_chunk

    def interrupted(rules, *args):
        if rules["piles"] == 10:
            raise KeyboardInterrupt
        return counting(rules, *args)

    monkeypatch.setattr(runner, "solve_chunk", interrupted)
    with pytest.raises(KeyboardInterrupt):
        sweep("westcliff", ["tableau.piles=8..10"], ["solver"], deals=4, root=tmp_path, **CHEAP)
    monkeypatch.setattr(runner, "solve_chunk", counting)
    solved.clear()
    table = sweep("westcliff", ["tableau.piles=8..10"], ["solver"], deals=4, root=tmp_path, **CHEAP)
    assert [label for label, *_ in solved] == ["westcliff"]
    assert list(table["tableau.piles"]) == [8, 9, 10]


def test_a_combination_the_rules_checks_refuse_is_reported_and_skipped(tmp_path):
    lines = []
    table = sweep("westcliff", {"tableau.piles": [17, 18]}, ["greedy"], deals=3, root=tmp_path, log=lines.append,
                  workers=1, progress=False)
    assert list(table["tableau.piles"]) == [17]
    refused = [line for line in lines if "refused" in line]
    assert refused == table.attrs["refused"] and len(refused) == 1
    assert refused[0].startswith("westcliff tableau.piles=18: refused (") and "54 cards" in refused[0]
    result = cli("sweep", "westcliff", "--vary", "tableau.piles=17,18", "--players", "greedy", "--deals", "3",
                 "--root", tmp_path, "--workers", "1", "--format", "csv", "--quiet")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == refused
    assert pd.read_csv(io.StringIO(result.stdout))["tableau.piles"].tolist() == [17]


def test_a_sweep_with_every_combination_refused_is_a_usage_error(tmp_path):
    with pytest.raises(SweepError, match="every combination of the varied rules is refused"):
        sweep("westcliff", {"tableau.piles": [18, 19]}, deals=3, root=tmp_path, **CHEAP)
    result = cli("sweep", "westcliff", "--vary", "tableau.piles=18,19", "--deals", "3", "--root", tmp_path)
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 3 and all("refused" in line for line in lines[:2])
    assert lines[2].startswith("solitaire-odds: error: every combination of the varied rules is refused (2 of 2)")
    assert not (tmp_path / "runs").exists()


BAD = [
    (("--vary", "tableau.piles"), "--vary takes KEY=VALUE,VALUE,..."),
    (("--vary", "=6,7"), "--vary takes KEY=VALUE,VALUE,..."),
    (("--vary", "tableau.piles="), "--vary takes KEY=VALUE,VALUE,..."),
    (("--vary", "tableau.piles=6,,7"), "has an empty value between its commas"),
    (("--vary", "tableau.piles=9..6"), "a range is two whole numbers, the smaller first"),
    (("--vary", "tableau.pilez=6,7"), "no rule 'tableau.pilez'"),
    (("--vary", "tableau.piles=6,seven"), "takes a whole number >= 0, not 'seven'"),
    (("--vary", "space_fill=any,diagonal"), "switch space_fill takes any | king | none, not 'diagonal'"),
    (("--vary", "tableau.piles=6,7,6"), "tableau.piles lists 6 twice"),
    (("--vary", "piles=6", "--vary", "tableau.piles=7"), "tableau.piles is varied twice"),
    (("--vary", "tableau.piles=6", "--set", "piles=7"), "tableau.piles is both varied and set with --set"),
    (("--vary", "tableau.piles=6", "--set", "space_fill=queen"), "switch space_fill takes any | king | none"),
    (("--vary", "tableau.piles=6", "--players", "greedy", "--budget", "1e4"),
     "--budget applies to --player solver, planner, hindsight and uct only; the greedy player does not search"),
    (("--vary", "tableau.piles=6", "--players", "solver,champion"), "unknown player 'champion'"),
    (("--vary", "tableau.piles=6", "--players", ","), "give at least one player"),
    (("--vary", "tableau.piles=6", "--deals", "0"), "--deals must be a whole number >= 1"),
    (("--vary", "tableau.piles=6", "--first", "18446744073709551615", "--deals", "2"), "run past the last deal"),
    (("--vary", "tableau.piles=6", "--out", "table.xlsx"), "--out takes a .csv or .json file, not 'table.xlsx'"),
    (("--vary", "tableau.piles=6", "--chart", "chart.gif"), "--chart takes a .png or .svg or .pdf file"),
    (("--vary", "tableau.piles=6", "--workers", "0"), "--workers must lie in 1..256"),
    ((), "Missing option '--vary'"),
]


@pytest.mark.parametrize("args, phrase", BAD, ids=[" ".join(args) or "no --vary" for args, _ in BAD])
def test_bad_input_is_one_line_and_exit_status_2(tmp_path, args, phrase):
    result = cli("sweep", "westcliff", *args, "--root", tmp_path)
    assert result.exit_code == 2, result.output
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("solitaire-odds: error: "), result.output
    assert phrase in lines[0], lines[0]
    assert not (tmp_path / "runs").exists()


def test_the_python_api_refuses_what_the_command_refuses(tmp_path):
    with pytest.raises(RulesError, match="no rule 'deal.rowz'"):
        plan("westcliff", {"deal.rowz": [1, 2]})
    with pytest.raises(SweepError, match="has no values"):
        plan("westcliff", {"deal.rows_down": []})
    with pytest.raises(SweepError, match="give at least one rule to vary"):
        plan("westcliff", {})
    assert parse_vary("tableau.piles=6..8,10") == ("tableau.piles", ["6", "7", "8", "10"])


def test_the_command_writes_the_table_and_the_chart(tmp_path):
    args = ["sweep", "westcliff", "--vary", "deal.rows_down=1,2", "--vary", "space_fill=any,king", "--players",
            "solver,greedy", "--deals", "4", "--budget", "1e3", "--root", tmp_path, "--workers", "1", "--quiet"]
    result = cli(*args, "--out", tmp_path / "sweep.csv", "--chart", tmp_path / "sweep.png")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "sweep.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    table = pd.read_csv(tmp_path / "sweep.csv")
    assert len(table) == 8 and varied_columns(table) == ["deal.rows_down", "space_fill"]
    assert "deal.rows_down" in result.stdout and "westcliff deal.rows_down=1" in result.stdout
    as_json = cli(*args, "--format", "json", "--out", tmp_path / "sweep.json")
    rows = json.loads(as_json.stdout)
    assert rows == json.loads((tmp_path / "sweep.json").read_text())
    assert [row["won"] for row in rows] == table["won"].tolist()
    assert [row["deal.rows_down"] for row in rows] == [1, 1, 1, 1, 2, 2, 2, 2]
    figure = plots.plot_sweep(table)
    assert [ax.get_title(loc="left") for ax in figure.axes[:2]] == ["space_fill=any", "space_fill=king"]
    assert [ax.get_xlabel() for ax in figure.axes[:2]] == ["deal.rows_down"] * 2
    by_fill = plots.plot_sweep(table, x="space_fill")
    assert [ax.get_title(loc="left") for ax in by_fill.axes[:2]] == ["deal.rows_down=1", "deal.rows_down=2"]
    with pytest.raises(ValueError, match="not a varied rule"):
        plots.plot_sweep(table, x="player")
