"""The command line: outputs, results files, and one-line errors with exit status 2."""

import pandas as pd
import pytest
from click.testing import CliRunner

from solitaire_odds.cli import main
from solitaire_odds.runs.store import load_rows, read_manifest


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.mark.parametrize("args,message", [
    (("odds", "klondike"), "unknown game 'klondike'; choose one of: westcliff-classic, westcliff, easthaven"),
    (("odds", "westcliff", "--set", "colour=red"), "westcliff has no switch 'colour'; its switches are: run_moves, space_fill, foundation_return"),
    (("odds", "westcliff", "--set", "space_fill=queen"), "switch space_fill takes any | king | none, not 'queen'"),
    (("odds", "westcliff", "--set", "space_fill"), "--set takes key=value"),
    (("odds", "westcliff", "--deals", "0"), "--deals must be a whole number >= 1"),
    (("odds", "westcliff", "--deals", "ten"), "--deals must be a number"),
    (("odds", "westcliff", "--first", "18446744073709551615", "--deals", "2"), "run past the last deal number"),
    (("solve", "westcliff", "--deal", "-3"), "deal number -3 is out of range"),
    (("solve", "westcliff"), "give exactly one of --deal N, --file F or --position F"),
    (("odds", "westcliff", "--budget", "1e6,1e5"), "--budget escalation must grow"),
])
def test_usage_errors_are_one_line_with_status_2(args, message):
    result = run(*args)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("solitaire-odds: error: ")
    assert message in lines[0]


def test_malformed_deal_file_is_refused(tmp_path):
    path = tmp_path / "deal.txt"
    path.write_text("AS AS 2C")
    result = run("solve", "westcliff", "--file", path)
    assert result.exit_code == 2
    assert "3 cards, this game needs 52" in result.output


def test_solve_prints_deal_verdict_and_line_and_writes_the_deal(tmp_path):
    path = tmp_path / "deal3.txt"
    result = run("solve", "westcliff", "--deal", 3, "--budget", "1e5", "--write", path)
    assert result.exit_code == 0, result.output
    assert "westcliff deal 3" in result.output
    assert "verdict: won" in result.output
    assert "AC: pile 0 -> foundation 0" in result.output
    again = run("solve", "westcliff", "--file", path, "--budget", "1e5")
    assert "verdict: won" in again.output


def test_solve_names_the_step_that_decided_the_deal():
    """Deal 185 of American Westcliff with King spaces: 1,000 nodes leave it unknown, the
    prover's schedule model proves it lost."""
    result = run("solve", "westcliff", "--set", "space_fill=king", "--deal", 185, "--budget", "1e3",
                 "--prover-seconds", "2")
    assert result.exit_code == 0, result.output
    assert "verdict: lost (budget 1e3: " in result.output and "; step: prover)" in result.output
    assert "; step: win-first)" in run("solve", "westcliff", "--deal", 3, "--budget", "1e5").output


def test_games_lists_switches_and_defaults():
    result = run("games")
    assert "westcliff-classic" in result.output
    assert "waste_playable = on | off (default on)" in result.output
    assert "redeals = 0, 1, 2, ... (default 2)" in result.output


def test_odds_writes_rows_and_manifest(tmp_path):
    out = tmp_path / "run"
    result = run("odds", "westcliff", "--deals", 30, "--first", 100, "--budget", "2e4", "--workers", 1,
                 "--chunk-size", 10, "--out", out, "--set", "space_fill=king")
    assert result.exit_code == 0, result.output
    assert "deals 30: won" in result.output and "95% CI" in result.output and "bracket" in result.output
    rows = load_rows([out])
    assert rows["deal"].tolist() == list(range(100, 130))
    assert set(rows.columns) >= {"deal", "verdict", "budget", "nodes", "seconds", "moves", "line"}
    manifest = read_manifest(out)
    assert manifest["switches"]["space_fill"] == "king" and manifest["player_params"]["budgets"] == [20000]
    again = run("odds", "westcliff", "--deals", 30, "--first", 100, "--budget", "2e4", "--workers", 1,
                "--chunk-size", 10, "--out", out, "--set", "space_fill=king")
    assert again.exit_code == 2 and "--resume" in again.output


def test_results_do_not_depend_on_the_number_of_workers(tmp_path):
    tables = []
    for workers in (1, 2):
        out = tmp_path / f"w{workers}"
        result = run("odds", "westcliff-classic", "--deals", 24, "--budget", "5000", "--workers", workers,
                     "--chunk-size", 5, "--out", out)
        assert result.exit_code == 0, result.output
        tables.append(load_rows([out]).drop(columns=["seconds"]))
    pd.testing.assert_frame_equal(tables[0], tables[1])


def test_resume_finishes_an_interrupted_run_without_gaps_or_doubles(tmp_path):
    args = ("odds", "westcliff", "--deals", 40, "--budget", "5000", "--workers", 1, "--chunk-size", 10)
    full = tmp_path / "full"
    assert run(*args, "--out", full).exit_code == 0
    cut = tmp_path / "cut"
    assert run(*args[:3], 20, *args[4:], "--out", cut).exit_code == 0  # a run stopped after 2 chunks
    (cut / "chunks" / ".tmp-half-written").write_bytes(b"PAR1")           # and a write it never finished
    assert run(*args, "--out", cut, "--resume").exit_code == 0
    pd.testing.assert_frame_equal(load_rows([full]).drop(columns=["seconds"]),
                                  load_rows([cut]).drop(columns=["seconds"]))


def test_duchess_line_shows_the_base_choice():
    result = run("solve", "duchess", "--deal", 1, "--budget", "1e5")
    assert result.exit_code == 0, result.output
    assert "verdict: won" in result.output
    assert "1. 4D: reserve 0 -> foundation 1 (chooses the foundations' base rank: 4)" in result.output
