"""Runs that are stopped, resumed, merged, watched and sent to Dask: always the same table."""

import os
import signal
import subprocess
import sys
import time

import cloudpickle
import dask
import pandas as pd
import psutil
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from .processes import start_command
from distributed import Client, LocalCluster

from solitaire_odds.runs import runner as runs, store
from solitaire_odds.cli import main
from solitaire_odds.solver import SLOT_BYTES, slots_for_megabytes

RUN = ("odds", "westcliff", "--deals", 600, "--budget", "1e4", "--chunk-size", 20)
CHUNKS = 30


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def table(run_dir):
    """The per-deal rows of a run, without the timings (which differ between runs)."""
    return store.load_rows([run_dir]).drop(columns=["seconds"])


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """RUN solved in one go by one worker: the folder every other way must reproduce."""
    out = tmp_path_factory.mktemp("reference")
    result = cli(*RUN, "--workers", 1, "--out", out)
    assert result.exit_code == 0, result.output
    assert table(out)["deal"].tolist() == list(range(600))
    return out


@pytest.fixture(scope="module")
def uninterrupted(reference):
    return table(reference)


def start(out, *extra):
    """RUN as a command of its own, in a process group of its own (as a shell starts it)."""
    command = [sys.executable, "-m", "solitaire_odds.cli", *map(str, RUN), "--out", str(out), *map(str, extra)]
    return start_command(command)


def wait_for_chunks(process, out, count, timeout=120.0):
    deadline = time.monotonic() + timeout
    while len(store.finished_chunks(out)) < count:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the run wrote no chunks"
        time.sleep(0.02)


def workers_of(process):
    children = psutil.Process(process.pid).children(recursive=True)
    assert len(children) == 2
    return children


def assert_all_gone(processes):
    _, alive = psutil.wait_procs(processes, timeout=10)
    assert alive == [], f"orphan workers left running: {alive}"


@pytest.mark.slow
def test_ctrl_c_stops_the_pool_and_resume_completes_the_run(tmp_path, uninterrupted):
    out = tmp_path / "run"
    process = start(out, "--workers", 2)
    wait_for_chunks(process, out, 2)
    workers = workers_of(process)
    os.killpg(process.pid, signal.SIGINT)  # Ctrl-C in a terminal reaches the whole group
    stdout, stderr = process.communicate(timeout=30)
    assert process.returncode == 130
    assert stdout == ""
    assert stderr.splitlines() == [f"solitaire-odds: interrupted; the finished chunks are kept in {out}: "
                                   "rerun the same command with --resume to continue"]
    assert_all_gone(workers)
    assert 2 <= len(store.finished_chunks(out)) < CHUNKS
    assert all(not path.name.startswith(store.TEMP_PREFIX) for path in (out / "chunks").iterdir())
    resumed = cli(*RUN, "--workers", 2, "--out", out, "--resume")
    assert resumed.exit_code == 0, resumed.output
    pd.testing.assert_frame_equal(table(out), uninterrupted)


@pytest.mark.slow
def test_a_killed_run_leaves_whole_chunks_and_workers_that_exit(tmp_path, uninterrupted):
    out = tmp_path / "run"
    process = start(out, "--workers", 2)
    wait_for_chunks(process, out, 2)
    workers = workers_of(process)
    process.kill()  # the parent alone: no clean-up, its workers are orphaned
    process.communicate(timeout=30)
    assert process.returncode == -signal.SIGKILL
    assert_all_gone(workers)
    finished = store.finished_chunks(out)
    assert len(finished) < CHUNKS
    for first, last, path in finished:
        assert pd.read_parquet(path)["deal"].tolist() == list(range(first, last + 1))
    # What a kill during a write leaves: a temp file, never read as a chunk. One left long ago
    # is removed by the next run; a fresh one may be another run's write under way, so it stays.
    first, last, path = finished[0]
    half = path.read_bytes()[:100]
    stale = out / "chunks" / f"{store.TEMP_PREFIX}stale-deals-{580:020d}-{599:020d}.parquet"
    fresh = out / "chunks" / f"{store.TEMP_PREFIX}fresh-deals-{580:020d}-{599:020d}.parquet"
    for temp in (stale, fresh):
        temp.write_bytes(half)
    old = time.time() - 2 * store.STALE_TEMP_SECONDS
    os.utime(stale, (old, old))
    resumed = cli(*RUN, "--workers", 1, "--out", out, "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert not stale.exists() and fresh.exists()
    pd.testing.assert_frame_equal(table(out), uninterrupted)


@pytest.mark.slow
def test_ctrl_c_does_not_wait_for_the_chunks_under_way(tmp_path):
    out = tmp_path / "run"
    process = start(out, "--workers", 2, "--chunk-size", 50_000, "--deals", 100_000)  # minutes a chunk
    deadline = time.monotonic() + 60
    while len(psutil.Process(process.pid).children()) < 2 or \
            min(child.cpu_times().user for child in psutil.Process(process.pid).children()) < 1.0:
        assert time.monotonic() < deadline and process.poll() is None
        time.sleep(0.05)
    workers = workers_of(process)
    os.killpg(process.pid, signal.SIGINT)
    stopped = time.monotonic()
    process.communicate(timeout=30)
    assert time.monotonic() - stopped < 5.0
    assert process.returncode == 130
    assert_all_gone(workers)
    assert store.finished_chunks(out) == []


def test_summary_merges_runs_over_other_deal_ranges(tmp_path, uninterrupted):
    args = ("odds", "westcliff", "--budget", "1e4", "--chunk-size", 20, "--workers", 1)
    low, high = tmp_path / "machine-a", tmp_path / "machine-b"
    assert cli(*args, "--deals", 100, "--out", low).exit_code == 0
    assert cli(*args, "--deals", 100, "--first", 100, "--out", high).exit_code == 0
    merged = cli("summary", low, high)
    assert merged.exit_code == 0, merged.output
    counts = runs.summary(uninterrupted[uninterrupted["deal"] < 200])
    assert f"deals {counts.n}: won {counts.won}, lost {counts.lost}, unknown {counts.unknown}" in merged.output
    assert "deals 0..199 from 2 run folders" in merged.output
    assert "95% CI" in merged.output
    apart = cli("summary", low)
    assert "deals 0..99 from 1 run folder" in apart.output
    assert cli("summary", high, low).output == merged.output


def test_summary_names_gaps_and_accepts_overlaps_that_agree(tmp_path):
    args = ("odds", "westcliff", "--budget", "1e4", "--chunk-size", 10, "--workers", 1, "--deals", 20)
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    assert cli(*args, "--out", a).exit_code == 0
    assert cli(*args, "--first", 10, "--out", b).exit_code == 0
    assert cli(*args, "--first", 100, "--out", c).exit_code == 0
    result = cli("summary", a, b, c)
    assert result.exit_code == 0, result.output
    assert "deals 0..29, 100..119 from 3 run folders" in result.output
    assert "deals 50: won" in result.output


@pytest.mark.parametrize("change,message", [
    (("--budget", "2e4"), "other settings (differing: player_params)"),
    (("--set", "space_fill=king"), "other settings (differing: switches)"),
])
def test_summary_refuses_runs_of_other_settings(tmp_path, change, message):
    args = ("odds", "westcliff", "--chunk-size", 10, "--workers", 1, "--deals", 10)
    assert cli(*args, "--budget", "1e4", "--out", tmp_path / "a").exit_code == 0
    assert cli(*args, "--budget", "1e4", *change, "--first", 10, "--out", tmp_path / "b").exit_code == 0
    result = cli("summary", tmp_path / "a", tmp_path / "b")
    assert result.exit_code == 2
    assert result.output.startswith("solitaire-odds: error: ") and result.output.count("\n") == 1
    assert message in result.output


def test_summary_refuses_overlaps_that_disagree(tmp_path):
    args = ("odds", "westcliff", "--budget", "1e4", "--chunk-size", 10, "--workers", 1, "--deals", 10)
    assert cli(*args, "--out", tmp_path / "a").exit_code == 0
    assert cli(*args, "--out", tmp_path / "b").exit_code == 0
    (_, _, path), = store.finished_chunks(tmp_path / "b")
    rows = pd.read_parquet(path)
    rows.loc[3, "verdict"] = "lost" if rows.loc[3, "verdict"] == "won" else "won"
    identity = pq.read_schema(path).metadata  # a forged verdict in an otherwise proper chunk
    pq.write_table(pa.Table.from_pandas(rows, preserve_index=False).replace_schema_metadata(identity), path)
    result = cli("summary", tmp_path / "a", tmp_path / "b")
    assert result.exit_code == 2 and result.output.count("\n") == 1
    assert "1 deal(s) have different verdicts in different folders (e.g. 3)" in result.output


def test_summary_of_a_folder_that_is_no_run(tmp_path):
    result = cli("summary", tmp_path)
    assert result.exit_code == 2
    assert result.output == f"solitaire-odds: error: no manifest.json in {tmp_path}; point at a run folder made by this tool\n"


def test_odds_writes_no_progress_into_a_pipe(tmp_path):
    result = cli(*RUN[:3], 20, *RUN[4:], "--workers", 1, "--out", tmp_path)
    assert result.exit_code == 0, result.output
    assert "\r" not in result.output and "deals/s" not in result.output


@pytest.mark.slow
def test_dask_local_cluster_gives_the_files_of_a_local_run(tmp_path, reference, uninterrupted):
    out = tmp_path / "dask"
    result = cli(*RUN[:3], 200, *RUN[4:], "--dask", "local", "--workers", 2, "--out", out)
    assert result.exit_code == 0, result.output
    pd.testing.assert_frame_equal(table(out), uninterrupted[uninterrupted["deal"] < 200])
    assert store.read_manifest(out) == store.read_manifest(reference)
    assert [path.name for *_, path in store.finished_chunks(out)] == \
        [path.name for *_, path in store.finished_chunks(reference)][:10]


def test_a_numba_cache_dir_set_by_the_user_gets_a_folder_per_engine_version(tmp_path):
    """Numba checks only the file defining a kernel: a cache shared across engine versions must
    not serve a kernel compiled against another version of a function it calls."""
    script = "import numba, solitaire_odds.engine as e; print(numba.config.CACHE_DIR, e.ENGINE_DIGEST)"
    out = subprocess.run([sys.executable, "-c", script], env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)},
                         capture_output=True, text=True, check=True).stdout.split()
    assert out[0] == str(tmp_path / out[1])


def worker_state():
    """On a Dask worker: how many players its chunks built, and how often its search kernel
    was loaded from numba's disk cache and compiled afresh."""
    from solitaire_odds.engine.search import solve_root

    stats = solve_root.stats
    return len(runs._PLAYERS), sum(stats.cache_hits.values()), sum(stats.cache_misses.values())


@pytest.mark.slow
def test_dask_scheduler_runs_chunks_on_its_workers_with_cached_kernels(tmp_path, uninterrupted):
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        out = tmp_path / "dask"
        result = cli(*RUN[:3], 200, *RUN[4:], "--dask", cluster.scheduler_address, "--out", out)
        assert result.exit_code == 0, result.output
        with Client(cluster) as client:
            states = client.run(worker_state)
    pd.testing.assert_frame_equal(table(out), uninterrupted[uninterrupted["deal"] < 200])
    # Each worker that solved chunks built one player and loaded the kernel, never compiled it.
    assert sorted(states.values()) == [(1, 1, 0), (1, 1, 0)]


@pytest.mark.slow
def test_unreachable_scheduler_is_a_one_line_error(tmp_path):
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        result = cli(*RUN, "--dask", "tcp://127.0.0.1:9", "--out", tmp_path / "run")
    assert result.exit_code == 1 and result.output.count("\n") == 1
    assert result.output.startswith(
        "solitaire-odds: error: cannot reach the Dask scheduler at tcp://127.0.0.1:9 (")
    assert "start it (dask scheduler) or check the address" in result.output
    assert not tmp_path.joinpath("run").exists()  # a run that fails before its first chunk leaves nothing


def test_table_size_is_part_of_the_run(tmp_path):
    assert slots_for_megabytes(64) == 2**21  # 40 MiB; 2**22 slots would take 80
    assert slots_for_megabytes(64) * SLOT_BYTES <= 64 * 2**20 < 2 * slots_for_megabytes(64) * SLOT_BYTES
    args = ("odds", "westcliff", "--budget", "1e4", "--chunk-size", 10, "--workers", 1, "--deals", 10)
    result = cli(*args, "--table-mb", 1, "--out", tmp_path)
    assert result.exit_code == 0, result.output
    assert store.read_manifest(tmp_path)["player_params"] == {"budgets": [10000], "table_mb": 1, "win_first": True}
    other = cli(*args, "--table-mb", 2, "--out", tmp_path, "--resume")
    assert other.exit_code == 2 and "differing: player_params" in other.output
    assert cli(*args, "--table-mb", 0).output.startswith("solitaire-odds: error: --table-mb must be a whole number >= 1")


@pytest.mark.slow
def test_a_worker_that_dies_ends_the_run_with_one_line(tmp_path, uninterrupted):
    out = tmp_path / "run"
    process = start(out, "--workers", 2)
    wait_for_chunks(process, out, 1)
    workers = workers_of(process)
    workers[0].kill()  # as the kernel's out-of-memory killer would
    stdout, stderr = process.communicate(timeout=30)
    assert process.returncode == 1 and stdout == ""
    assert stderr.splitlines() == ["solitaire-odds: error: a worker process died (killed, or out of memory: "
                                   "--table-mb bounds the solver's table); the finished chunks are kept: "
                                   "rerun with --resume"]
    assert_all_gone(workers)
    assert cli(*RUN, "--workers", 2, "--out", out, "--resume").exit_code == 0
    pd.testing.assert_frame_equal(table(out), uninterrupted)
