"""Run folders that cannot lie: a chunk carries its settings and deal range, so a folder
without its manifest, a chunk under another chunk's name or a chunk of other rules is refused
with one line instead of being counted; gaps and overlaps are reported and gaps refilled.

These tests drive the command line only, as a user would."""

import json
import shutil

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from solitaire_odds.cli import main

ODDS = ("odds", "westcliff", "--budget", "1e3", "--chunk-size", 10, "--workers", 1)


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def chunk(run_dir, first, last):
    return run_dir / "chunks" / f"deals-{first:020d}-{last:020d}.parquet"


def one_line_error(result, code, *phrases):
    assert result.exit_code == code, result.output
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("solitaire-odds: error: "), result.output
    for phrase in phrases:
        assert phrase in lines[0], lines[0]
    assert "Traceback" not in result.output


@pytest.fixture(scope="module")
def default_rules(tmp_path_factory):
    """Deals 0..29 at the default rules, in chunks of 10."""
    out = tmp_path_factory.mktemp("default") / "run"
    result = cli(*ODDS, "--deals", 30, "--out", out)
    assert result.exit_code == 0, result.output
    return out


def test_a_folder_without_its_manifest_is_refused(tmp_path, default_rules):
    """Issue case 1: chunks of the default rules, manifest gone, resumed under other rules."""
    out = tmp_path / "run"
    shutil.copytree(default_rules, out)
    (out / "manifest.json").unlink()
    result = cli(*ODDS, "--deals", 30, "--set", "space_fill=none", "--out", out, "--resume")
    one_line_error(result, 2, f"{out} holds chunks but no manifest.json", "restore its manifest.json")
    assert not (out / "manifest.json").exists()
    one_line_error(cli("summary", out), 2, f"no manifest.json in {out}")


def test_chunks_copied_into_a_run_of_other_rules_are_refused(tmp_path, default_rules):
    out = tmp_path / "none"
    result = cli(*ODDS, "--deals", 10, "--set", "space_fill=none", "--out", out)
    assert result.exit_code == 0, result.output
    shutil.copy(chunk(default_rules, 10, 19), chunk(out, 10, 19))
    result = cli(*ODDS, "--deals", 30, "--set", "space_fill=none", "--out", out, "--resume")
    one_line_error(result, 1, str(chunk(out, 10, 19)), "holds results of other settings",
                   "delete it and rerun `odds` with --resume")


def test_a_chunk_under_another_chunks_name_is_refused(tmp_path, default_rules):
    """Issue case 2: a copy of chunk 0..9 saved under the name 10..19."""
    out = tmp_path / "run"
    shutil.copytree(default_rules, out)
    misnamed = chunk(out, 10, 19)
    shutil.copy(chunk(out, 0, 9), misnamed)
    result = cli(*ODDS, "--deals", 30, "--out", out, "--resume")
    one_line_error(result, 1, str(misnamed), "holds deals 0..9 but its name says 10..19",
                   "delete it and rerun `odds` with --resume")
    one_line_error(cli("summary", out), 1, str(misnamed))
    misnamed.unlink()
    assert "gaps: deals 10..19 are missing" in cli("summary", out).output
    resumed = cli(*ODDS, "--deals", 30, "--out", out, "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert cli("summary", out).output == cli("summary", default_rules).output


def test_summary_reports_overlapping_chunks_and_counts_each_deal_once(tmp_path, default_rules):
    fine = tmp_path / "fine"
    result = cli("odds", "westcliff", "--budget", "1e3", "--chunk-size", 5, "--workers", 1, "--deals", 5,
                 "--first", 5, "--out", fine)
    assert result.exit_code == 0, result.output
    out = tmp_path / "run"
    shutil.copytree(default_rules, out)
    shutil.copy(chunk(fine, 5, 9), chunk(out, 5, 9))  # the same settings, cut at other deals
    result = cli("summary", out)
    assert result.exit_code == 0, result.output
    assert f"overlaps: deals 5..9 are held by more than one chunk of {out}" in result.output
    assert "deals 30: won" in result.output and "gaps" not in result.output


def rewritten(path, change):
    """Rewrite a chunk's rows through ``change`` (a pyarrow Table -> Table), keeping its metadata."""
    table = pq.read_table(path)
    pq.write_table(change(table).replace_schema_metadata(table.schema.metadata), path)


DAMAGE = {
    "truncated": (lambda path: path.write_bytes(path.read_bytes()[:100]), "is damaged"),
    "empty": (lambda path: path.write_bytes(b""), "is damaged"),
    "foreign": (lambda path: path.write_text("deal,verdict\n0,won\n"), "is damaged"),
    "without identity": (lambda path: pq.write_table(pq.read_table(path).replace_schema_metadata(None), path),
                         "carries no run identity"),
    "unknown verdict": (lambda path: rewritten(path, lambda t: t.set_column(
        t.schema.get_field_index("verdict"), "verdict", pa.array(["maybe"] * t.num_rows))),
        "has an unknown verdict 'maybe'"),
    "missing column": (lambda path: rewritten(path, lambda t: t.drop_columns(["nodes"])),
                       "lacks the column 'nodes'"),
    "rows of other deals": (lambda path: rewritten(path, lambda t: t.set_column(
        0, "deal", pa.array(range(100, 100 + t.num_rows), pa.uint64()))),
        "does not hold deals 0..9 each exactly once"),
}


@pytest.mark.parametrize("damage", DAMAGE)
def test_a_damaged_chunk_is_named_with_what_to_do(tmp_path, default_rules, damage):
    out = tmp_path / "run"
    shutil.copytree(default_rules, out)
    harm, problem = DAMAGE[damage]
    harm(chunk(out, 0, 9))
    for result in (cli("summary", out), cli(*ODDS, "--deals", 30, "--out", out, "--resume")):
        one_line_error(result, 1, str(chunk(out, 0, 9)), problem, "delete it and rerun `odds` with --resume")
    chunk(out, 0, 9).unlink()
    assert cli(*ODDS, "--deals", 30, "--out", out, "--resume").exit_code == 0
    assert cli("summary", out).output == cli("summary", default_rules).output


@pytest.mark.parametrize("text,problem", [
    ("{}", "lacks 'game'"),
    ("{not json", "is not valid JSON"),
    ("[1, 2]", "does not hold a JSON object"),
    (None, "malformed 'switches'"),
    ("\udcff", "is not a text file"),
])
def test_a_damaged_manifest_is_named_with_what_to_do(tmp_path, default_rules, text, problem):
    out = tmp_path / "run"
    shutil.copytree(default_rules, out)
    manifest = out / "manifest.json"
    if text is None:
        text = json.dumps({**json.loads(manifest.read_text()), "switches": ["space_fill"]})
    manifest.write_bytes(text.encode("utf-8", "surrogateescape"))
    for result in (cli("summary", out), cli(*ODDS, "--deals", 30, "--out", out, "--resume")):
        one_line_error(result, 1, str(manifest), problem, "restore it or start a new run")
