"""Run folders: atomic chunks, manifests, resuming and merging."""

import errno
import json
import os
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from solitaire_odds.runs import store
from solitaire_odds.runs.store import (
    StoreError,
    finished_chunks,
    load_rows,
    missing_ranges,
    read_manifest,
    write_chunk,
    write_manifest,
)

MANIFEST = {
    "game": "klondike",
    "switches": {"draw": 3},
    "player": "solver",
    "player_params": {"budgets": [100000]},
    "version": "0.1.0",
    "chunk_size": 10,
    "created": "2024-01-01T00:00:00Z",
}


def rows(first, last, verdict="won", **extra):
    """A chunk table of deals first..last, with the columns a run writes plus any extra."""
    count = last - first + 1
    return pd.DataFrame(
        {
            "deal": np.arange(first, last + 1, dtype=np.uint64),
            "verdict": [verdict] * count,
            "budget": np.full(count, 100000, dtype=np.int64),
            "nodes": np.full(count, 7, dtype=np.int64),
            "seconds": np.full(count, 0.5),
            "moves": np.full(count, 3, dtype=np.int32),
            "line": ["a b c"] * count,
            **extra,
        }
    )


def leftovers(run_dir):
    return sorted(path.name for path in (run_dir / "chunks").iterdir())


def test_manifest_round_trip_and_same_settings_accepted(tmp_path):
    run = tmp_path / "run"
    write_manifest(run, MANIFEST)
    assert read_manifest(run) == MANIFEST
    write_manifest(run, {**MANIFEST, "created": "later"})  # a resumed run restarts later
    assert read_manifest(run)["created"] == MANIFEST["created"]
    assert [path.name for path in run.iterdir()] == ["manifest.json"]


def test_manifest_mismatch_raises(tmp_path):
    write_manifest(tmp_path, MANIFEST)
    with pytest.raises(store.OtherSettings, match="other settings.*player_params") as caught:
        write_manifest(tmp_path, {**MANIFEST, "player_params": {"budgets": [5]}})
    assert caught.value.differing == ["player_params"] and caught.value.run_dir == tmp_path
    assert "--" not in str(caught.value), "the library names no option: the CLI words its remedy"
    with pytest.raises(StoreError, match="seed"):
        write_manifest(tmp_path, {**MANIFEST, "seed": 1})


def test_read_manifest_missing_or_malformed(tmp_path):
    with pytest.raises(StoreError, match="no manifest.json"):
        read_manifest(tmp_path)
    (tmp_path / "manifest.json").write_text("{not json")
    with pytest.raises(StoreError, match="not valid JSON"):
        read_manifest(tmp_path)
    (tmp_path / "manifest.json").write_text("[1, 2]")
    with pytest.raises(StoreError, match="JSON object"):
        read_manifest(tmp_path)


def test_write_chunk_is_atomic_and_round_trips(tmp_path):
    write_manifest(tmp_path, MANIFEST)
    table = rows(0, 9, extra_column=np.arange(10))
    path = write_chunk(tmp_path, 0, 9, table)
    assert path.name == "deals-00000000000000000000-00000000000000000009.parquet"
    assert leftovers(tmp_path) == [path.name]
    pd.testing.assert_frame_equal(pd.read_parquet(path), table)


@pytest.mark.parametrize(
    "deals",
    [[0, 1, 2], [0, 1, 2, 3, 3], [0, 1, 2, 3, 5], [1, 2, 3, 4], [0, 0, 2, 3]],
    ids=["short", "duplicate", "outside", "shifted", "repeat-and-gap"],
)
def test_write_chunk_rejects_a_wrong_deal_set(tmp_path, deals):
    write_manifest(tmp_path, MANIFEST)
    table = rows(0, len(deals) - 1).assign(deal=np.array(deals, dtype=np.uint64))
    with pytest.raises(ValueError, match="0..3"):
        write_chunk(tmp_path, 0, 3, table)
    assert finished_chunks(tmp_path) == []


@pytest.mark.parametrize("column", ["deal", "verdict", "line"])
def test_write_chunk_needs_every_row_column(tmp_path, column):
    write_manifest(tmp_path, MANIFEST)
    with pytest.raises(ValueError, match=f"missing: {column}"):
        write_chunk(tmp_path, 0, 1, rows(0, 1).drop(columns=[column]))


def test_write_chunk_needs_the_manifest_first(tmp_path):
    with pytest.raises(StoreError, match="no manifest.json"):
        write_chunk(tmp_path, 0, 9, rows(0, 9))
    assert finished_chunks(tmp_path) == []


def test_disk_full_leaves_nothing_behind(tmp_path, monkeypatch):
    def full_disk(table, file, **kwargs):
        file.write(b"half a parquet file")
        raise OSError(errno.ENOSPC, "No space left on device")

    write_manifest(tmp_path, MANIFEST)
    monkeypatch.setattr(store.pq, "write_table", full_disk)
    with pytest.raises(store.WriteFailure) as caught:
        write_chunk(tmp_path, 0, 9, rows(0, 9))
    assert caught.value.exit_code == 1
    assert caught.value.full and caught.value.target == store.RUN_FOLDER
    message = str(caught.value)
    assert "cannot write " in message
    assert "deals-00000000000000000000-00000000000000000009.parquet" in message
    assert "No space left on device" in message
    assert "free some disk space or put the run folder elsewhere" in message
    assert "\n" not in message
    assert leftovers(tmp_path) == []


def test_failed_rename_leaves_no_temp_file(tmp_path, monkeypatch):
    def refuse(src, dst):
        raise OSError(errno.EACCES, "Permission denied")

    write_manifest(tmp_path, MANIFEST)
    monkeypatch.setattr(store.os, "replace", refuse)
    with pytest.raises(StoreError, match="Permission denied"):
        write_chunk(tmp_path, 0, 9, rows(0, 9))
    assert leftovers(tmp_path) == []


def test_finished_chunks_ignores_temp_and_foreign_files(tmp_path):
    write_manifest(tmp_path, MANIFEST)
    write_chunk(tmp_path, 10, 19, rows(10, 19))
    write_chunk(tmp_path, 0, 9, rows(0, 9))
    chunks = tmp_path / "chunks"
    (chunks / ".tmp-abc-deals-00000000000000000020-00000000000000000029.parquet").write_bytes(b"x")
    (chunks / "notes.txt").write_text("hello")
    assert [(a, b) for a, b, _ in finished_chunks(tmp_path)] == [(0, 9), (10, 19)]
    assert all(path.parent == chunks for _, _, path in finished_chunks(tmp_path))


def test_finished_chunks_of_an_empty_run(tmp_path):
    assert finished_chunks(tmp_path) == []


def test_missing_ranges_resume_after_some_chunks(tmp_path):
    assert missing_ranges(tmp_path, 100, 124, 10) == [(100, 109), (110, 119), (120, 124)]
    write_manifest(tmp_path, MANIFEST)
    write_chunk(tmp_path, 110, 119, rows(110, 119))
    assert missing_ranges(tmp_path, 100, 124, 10) == [(100, 109), (120, 124)]
    write_chunk(tmp_path, 100, 109, rows(100, 109))
    write_chunk(tmp_path, 120, 124, rows(120, 124))
    assert missing_ranges(tmp_path, 100, 124, 10) == []


def test_missing_ranges_rejects_bad_arguments(tmp_path):
    with pytest.raises(ValueError):
        missing_ranges(tmp_path, 0, 9, 0)
    with pytest.raises(ValueError):
        missing_ranges(tmp_path, 9, 0, 5)


def make_run(run_dir, chunks, manifest=MANIFEST):
    write_manifest(run_dir, manifest)
    for first, last, verdict in chunks:
        write_chunk(run_dir, first, last, rows(first, last, verdict))


def test_load_rows_merges_overlapping_folders(tmp_path):
    make_run(tmp_path / "a", [(0, 9, "won"), (10, 19, "lost")])
    make_run(tmp_path / "b", [(10, 19, "lost"), (20, 29, "unknown")],
             {**MANIFEST, "created": "elsewhere", "deal_range": [10, 29]})
    merged = load_rows([tmp_path / "a", tmp_path / "b"])
    assert merged["deal"].tolist() == list(range(30))
    assert merged["verdict"].tolist() == ["won"] * 10 + ["lost"] * 10 + ["unknown"] * 10
    assert list(merged.columns) == list(rows(0, 0).columns)
    assert merged.index.tolist() == list(range(30))


def test_load_rows_restricts_to_a_range(tmp_path):
    make_run(tmp_path, [(0, 9, "won"), (10, 19, "lost"), (20, 29, "won")])
    assert load_rows([tmp_path], 5, 12)["deal"].tolist() == list(range(5, 13))
    assert load_rows([tmp_path], first=25)["deal"].tolist() == list(range(25, 30))
    assert load_rows([tmp_path], last=2)["deal"].tolist() == [0, 1, 2]


def test_load_rows_rejects_conflicting_verdicts(tmp_path):
    make_run(tmp_path / "a", [(0, 9, "won")])
    make_run(tmp_path / "b", [(0, 9, "lost")])
    with pytest.raises(StoreError, match="different verdicts"):
        load_rows([tmp_path / "a", tmp_path / "b"])


def test_load_rows_rejects_runs_of_other_settings(tmp_path):
    make_run(tmp_path / "a", [(0, 9, "won")])
    make_run(tmp_path / "b", [(10, 19, "won")], {**MANIFEST, "player_params": {"budgets": [1]}})
    with pytest.raises(StoreError, match="other settings"):
        load_rows([tmp_path / "a", tmp_path / "b"])


def test_load_rows_empty(tmp_path):
    write_manifest(tmp_path, MANIFEST)
    empty = load_rows([tmp_path])
    assert empty.empty and "deal" in empty.columns
    write_chunk(tmp_path, 0, 9, rows(0, 9))
    outside = load_rows([tmp_path], 50, 60)
    assert outside.empty
    pd.testing.assert_series_equal(outside.dtypes, rows(0, 0).dtypes)


def test_manifest_file_is_plain_json(tmp_path):
    write_manifest(tmp_path, MANIFEST)
    assert json.loads((tmp_path / "manifest.json").read_text()) == MANIFEST


def test_missing_ranges_cut_at_chunk_multiples_around_chunks_of_another_range(tmp_path):
    write_manifest(tmp_path, MANIFEST)
    write_chunk(tmp_path, 5, 9, rows(5, 9))
    assert missing_ranges(tmp_path, 0, 24, 10) == [(0, 4), (10, 19), (20, 24)]


def test_stale_temp_files_are_removed_and_fresh_ones_kept(tmp_path):
    make_run(tmp_path, [(0, 9, "won")])
    chunks = tmp_path / "chunks"
    stale_chunk = chunks / ".tmp-a-deals-00000000000000000010-00000000000000000019.parquet"
    stale_manifest = tmp_path / ".tmp-b-manifest.json"
    fresh = chunks / ".tmp-c-deals-00000000000000000020-00000000000000000029.parquet"
    for path in (stale_chunk, stale_manifest, fresh):
        path.write_bytes(b"PAR1 half")
    old = time.time() - 2 * store.STALE_TEMP_SECONDS
    for path in (stale_chunk, stale_manifest):
        os.utime(path, (old, old))
    assert store.remove_stale_temp_files(tmp_path) == 2
    assert leftovers(tmp_path) == [fresh.name, "deals-00000000000000000000-00000000000000000009.parquet"]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["chunks", "manifest.json"]
    assert store.remove_stale_temp_files(tmp_path / "no-such-run") == 0


def test_load_rows_reads_only_the_columns_asked_for(tmp_path):
    make_run(tmp_path, [(0, 9, "won"), (10, 19, "lost")])
    counts = load_rows([tmp_path], 5, 14, columns=["nodes"])
    assert list(counts.columns) == ["deal", "verdict", "nodes"]
    assert counts["deal"].tolist() == list(range(5, 15))
    assert list(load_rows([tmp_path], 50, 60, columns=["verdict"]).columns) == ["deal", "verdict"]


def test_the_library_names_no_option_and_the_command_line_words_each_remedy():
    from solitaire_odds.cli import worded
    from solitaire_odds.runs.runner import CHUNKS_KEPT, NoDistributed, OutOfMemory, WorkerDied

    errors = [store.PartlyDone(Path("run"), 0, 9), store.UnknownChunks(Path("run")),
              store.OtherSettings(Path("run"), ["seed"]), store.DamagedChunk(Path("chunk"), "is damaged (truncated)"),
              store.WriteFailure(Path("f"), "No space left on device", True, store.RUN_FOLDER),
              WorkerDied(CHUNKS_KEPT), WorkerDied(None), OutOfMemory(CHUNKS_KEPT), OutOfMemory(), NoDistributed()]
    for err in errors:
        assert "--" not in str(err), str(err)
        assert "--" in worded(err), worded(err)
        if not isinstance(err, NoDistributed):  # the same facts, other words for the remedy
            assert worded(err).split()[:3] == str(err).split()[:3]
    assert worded(store.PartlyDone(Path("run"), 0, 9)) == (
        "run already holds results for part of deals 0..9; add --resume to continue that run, or choose another --out")
