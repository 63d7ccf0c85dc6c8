"""Tables out: JSON and CSV from `odds` and `summary`, the `table` command, budgets as people
write them, `--first` in every number form, and the one-call Python API."""

import io
import json

import pandas as pd
import pytest
from click.testing import CliRunner

import solitaire_odds
from solitaire_odds.cli import main
from solitaire_odds.runs.records import COLUMNS, count_text


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


ODDS = ("odds", "westcliff-classic", "--deals", 12, "--budget", "1e3,1e4", "--workers", 1, "--chunk-size", 6)


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("tables")
    outputs = [run(*ODDS, "--first", "1e3", "--out", root / "a", "--format", "json"),
               run(*ODDS, "--first", "1e3", "--out", root / "b", "--set", "aces_out_first=on", "--format", "csv")]
    for result in outputs:
        assert result.exit_code == 0, result.output
    return root, outputs


def test_odds_json_is_one_record_with_counts_that_add_up(two_runs):
    root, (as_json, _) = two_runs
    record = json.loads(as_json.output)
    assert set(record) == set(COLUMNS)
    assert (record["game"], record["switches"], record["player"], record["budget"]) == \
        ("westcliff-classic", "defaults", "solver", "1e3 then 1e4")
    assert (record["first"], record["last"], record["deals"]) == (1000, 1011, 12)
    assert record["won"] + record["lost"] + record["unknown"] == 12
    assert record["share_low"] <= record["share"] == record["bracket_low"] <= record["bracket_high"]


def test_odds_csv_and_summary_csv_agree(two_runs):
    root, (_, as_csv) = two_runs
    table = pd.read_csv(io.StringIO(as_csv.output))
    assert list(table.columns) == list(COLUMNS) and len(table) == 1
    assert table.loc[0, "switches"] == "aces_out_first=on"
    summary = run("summary", root / "b", "--format", "csv")
    assert summary.exit_code == 0, summary.output
    assert summary.output == as_csv.output


def test_table_has_one_row_per_run_in_every_format(two_runs):
    root, (as_json, _) = two_runs
    records = json.loads(run("table", root, "--format", "json").output)
    assert [r["switches"] for r in records] == ["defaults", "aces_out_first=on"]
    assert records[0] == json.loads(as_json.output)
    text = run("table", root).output.splitlines()
    assert text[0].split()[:5] == ["game", "switches", "player", "budget", "deals"]
    assert len(text) == 3 and "1e3 then 1e4" in text[1] and "[" in text[1]
    assert len(pd.read_csv(io.StringIO(run("table", root, "--format", "csv").output))) == 2


def test_table_without_runs_and_a_bad_format_are_usage_errors(tmp_path):
    result = run("table", tmp_path)
    assert result.exit_code == 2 and "no run folders" in result.output
    result = run("odds", "westcliff", "--format", "xml")
    assert result.exit_code == 2 and "'xml' is not one of 'text', 'json', 'csv'" in result.output


@pytest.mark.parametrize("n,text", [(100_000, "1e5"), (1_000_000, "1e6"), (25_000, "2.5e4"), (500, "500"),
                                    (123_456, "123,456")])
def test_budgets_are_printed_as_people_write_them(n, text):
    assert count_text(n) == text


def test_solve_escalates_through_every_budget_it_is_given():
    result = run("solve", "westcliff-classic", "--deal", 3, "--budget", "10,1e5")
    assert result.exit_code == 0, result.output
    assert "verdict: lost (budget 1e5:" in result.output  # unknown within 10 nodes
    assert "verdict: unknown" in run("solve", "westcliff-classic", "--deal", 3, "--budget", "10").output


def test_odds_prints_the_escalation_in_words(tmp_path):
    result = run("odds", "westcliff", "--deals", 4, "--first", "2k", "--budget", "1e3,1e4", "--workers", 1,
                 "--out", tmp_path)
    assert result.exit_code == 0, result.output
    assert "deals 2000..2003  budget 1e3 then 1e4" in result.output


def test_one_call_api_returns_the_summary_the_record_and_the_rows(tmp_path):
    estimate = solitaire_odds.odds("westcliff", deals=8, budget=1e4, root=tmp_path, workers=1, space_fill="king")
    assert estimate.summary.n == 8 and len(estimate.rows) == 8
    assert estimate.record["switches"] == "space_fill=king" and estimate.record["budget"] == "1e4"
    assert list(estimate.rows["deal"]) == list(range(8))
    assert estimate.table().loc[0, "won"] == estimate.summary.won
    again = solitaire_odds.odds("westcliff", deals=8, budget=1e4, root=tmp_path, workers=1, space_fill="king")
    assert again.record == estimate.record  # resumed: nothing solved twice
    greedy = solitaire_odds.odds("westcliff", deals=8, player="greedy", root=tmp_path, workers=1)
    assert greedy.record["player"] == "greedy" and greedy.record["budget"] == "-"
    with pytest.raises(ValueError, match="the greedy player does not search"):
        solitaire_odds.odds("westcliff", deals=8, player="greedy", budget=100, root=tmp_path)
    with pytest.raises(ValueError, match="must grow"):
        solitaire_odds.odds("westcliff", deals=8, budget="1e5,1e4", root=tmp_path)
