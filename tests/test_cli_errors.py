"""Every malformed input ends in one line, never a traceback: exit status 2 for usage errors,
1 for runtime failures, 130 for Ctrl-C; files are written whole or not at all, with the
permissions the umask allows."""

import codecs
import errno
import os
import signal
import stat
import sys
import time

import psutil
import pytest
from click.testing import CliRunner
from .processes import start_command

from solitaire_odds.game import deals
from solitaire_odds.runs import runner as runs, store
from solitaire_odds.cli import main

UNWRITABLE = "/sys/solitaire-odds-test"
"""A path no one may create: sysfs refuses new files at its root, to root too."""


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def one_line_error(result, code, phrase):
    assert result.exit_code == code, result.output
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("solitaire-odds: error: "), result.output
    assert phrase in lines[0], lines[0]


INPUTS = [
    (("odds", "westcliff", "--budget", "nan"), 2, "--budget must be a whole number >= 1, not 'nan'"),
    (("odds", "westcliff", "--budget", "inf"), 2, "--budget must be a whole number >= 1, not 'inf'"),
    (("odds", "westcliff", "--budget", "1e30"), 2, "--budget must be at most 1,000,000,000,000, not '1e30'"),
    (("odds", "westcliff", "--budget", "1e5,nan"), 2, "--budget must be a whole number >= 1, not 'nan'"),
    (("odds", "westcliff", "--deals", "inf"), 2, "--deals must be a whole number >= 1, not 'inf'"),
    (("odds", "westcliff", "--deals", "-1e400"), 2, "--deals must be a whole number >= 1"),
    (("odds", "westcliff", "--deals", "1e19"), 2, "make more than 1,000,000 results files; choose a larger --chunk-size"),
    (("odds", "westcliff", "--table-mb", "1e30"), 2, "--table-mb must be at most 1,048,576"),
    (("odds", "westcliff", "--table-mb", "0"), 2, "--table-mb must be a whole number >= 1"),
    (("odds", "westcliff", "--player", "planner", "--table-mb", "64"), 2, "--table-mb applies to --player solver only"),
    (("odds", "westcliff", "--player", "planner", "--samples", "inf"), 2, "--samples must be a whole number >= 1"),
    (("odds", "westcliff", "--workers", "0"), 2, "--workers must lie in 1..256, not 0"),
    (("odds", "westcliff", "--workers", "100000"), 2, "--workers must lie in 1..256, not 100000"),
    (("odds", "westcliff", "--workers", "two"), 2, "Invalid value for '--workers': 'two' is not a valid integer"),
    (("odds", "westcliff", "--chunk-size", "0"), 2, "--chunk-size must be at least 1"),
    (("odds", "westcliff", "--no-such-option"), 2, "No such option"),
    (("odds",), 2, "Missing argument 'GAME'"),
    (("oddz", "westcliff"), 2, "No such command 'oddz'"),
    (("odds", "westcliff", "--seed", "-1", "--player", "random"), 2, "--seed must lie in 0..18446744073709551615"),
    (("odds", "westcliff", "--set", "space_fill=queen"), 2, "switch space_fill takes any | king | none"),
    (("odds", "st-helena", "--set", "redeals=99999999999999999999"), 2, "st-helena: switch redeals takes at most 200"),
    (("solve", "westcliff", "--deal", "18446744073709551616"), 2, "out of range"),
    (("solve", "westcliff", "--file", "/no/such/deal.txt"), 2, "cannot read /no/such/deal.txt"),
    (("summary", "/no/such/run"), 2, "no manifest.json in /no/such/run"),
    (("reproduce", "--budget", "inf"), 2, "--budget must be a whole number >= 1, not 'inf'"),
    (("reproduce", "--players", "psychic"), 2, "unknown player 'psychic'"),
    (("plot", "pie", "--out", "x.png"), 2, "unknown chart 'pie'"),
]


@pytest.mark.parametrize("args,code,message", INPUTS, ids=[" ".join(a) for a, _, _ in INPUTS])
def test_malformed_input_is_one_line(args, code, message):
    one_line_error(cli(*args), code, message)


def test_a_file_where_a_folder_should_be(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = cli("odds", "westcliff", "--deals", 1, "--budget", 100, "--workers", 1, "--out", blocker / "run")
    one_line_error(result, 1, f"cannot write {blocker / 'run' / 'manifest.json'}")
    result = cli("solve", "westcliff", "--deal", 1, "--budget", 100, "--write", blocker / "deal.txt")
    one_line_error(result, 1, f"cannot write {blocker / 'deal.txt'}")
    assert blocker.read_text() == "not a folder"


def test_write_into_a_missing_folder_creates_it_and_an_unwritable_one_is_refused(tmp_path):
    path = tmp_path / "new" / "folder" / "deal.txt"
    result = cli("solve", "westcliff", "--deal", 3, "--budget", 100, "--write", path)
    assert result.exit_code == 0, result.output
    assert deals.read_deck(path, 52) == deals.deck(3)
    result = cli("solve", "westcliff", "--deal", 3, "--budget", 100, "--write", f"{UNWRITABLE}.txt")
    one_line_error(result, 1, f"cannot write {UNWRITABLE}.txt: Permission denied; choose another --write")


def test_plot_into_an_unwritable_place(tmp_path):
    run = tmp_path / "run"
    assert cli("odds", "westcliff", "--deals", 2, "--budget", 100, "--workers", 1, "--out", run).exit_code == 0
    one_line_error(cli("plot", "shares", run, "--out", f"{UNWRITABLE}.png"), 1,
                   f"cannot write {UNWRITABLE}.png: Permission denied; choose another --out")
    (tmp_path / "file").write_text("")
    one_line_error(cli("plot", "shares", run, "--out", tmp_path / "file" / "chart.png"), 1, "choose another --out")


def test_an_odds_run_that_fails_before_its_first_chunk_leaves_no_folder(tmp_path, monkeypatch):
    def full_disk(table, file, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(store.pq, "write_table", full_disk)
    out = tmp_path / "a" / "b" / "run"
    result = cli("odds", "westcliff", "--deals", 1, "--budget", 100, "--workers", 1, "--out", out)
    one_line_error(result, 1, "No space left on device; free some disk space or choose another --out")
    assert list(tmp_path.iterdir()) == []


def test_out_of_memory_is_one_line(tmp_path, monkeypatch):
    def no_memory(*args):
        raise MemoryError

    monkeypatch.setattr(runs, "solve_chunk", no_memory)
    result = cli("odds", "westcliff", "--deals", 1, "--workers", 1, "--out", tmp_path / "run")
    one_line_error(result, 1, "out of memory (a smaller --table-mb, or fewer --workers, need less)")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("content", [bytes(range(256)), b"\x00" * 10, b"\xff\xfe\x00"])
def test_a_binary_deal_file_is_refused(tmp_path, content):
    path = tmp_path / "deal.bin"
    path.write_bytes(content)
    result = cli("solve", "westcliff", "--file", path)
    assert result.exit_code == 2, result.output
    assert result.output.count("\n") == 1 and str(path) in result.output


def test_a_utf16_deal_file_with_its_byte_order_mark_is_read(tmp_path):
    path = tmp_path / "deal.txt"
    path.write_bytes(codecs.BOM_UTF16_LE + deals.format_deck(deals.deck(3)).encode("utf-16-le"))
    result = cli("solve", "westcliff", "--file", path, "--budget", "1e5")
    assert result.exit_code == 0, result.output
    assert "verdict: won" in result.output


def test_a_deal_file_too_large_to_be_one(tmp_path):
    path = tmp_path / "deal.txt"
    path.write_bytes(b"AS " * (deals.MAX_DEAL_FILE_BYTES // 3 + 1))
    one_line_error(cli("solve", "westcliff", "--file", path), 2, "not a deal file of card names")


@pytest.mark.parametrize("umask,mode", [(0o022, 0o644), (0o027, 0o640), (0o077, 0o600)])
def test_files_honour_the_umask(tmp_path, umask, mode):
    previous = os.umask(umask)
    try:
        result = cli("odds", "westcliff", "--deals", 2, "--budget", 100, "--workers", 1, "--out", tmp_path / "run")
        deal_file = cli("solve", "westcliff", "--deal", 1, "--budget", 100, "--write", tmp_path / "deal.txt")
    finally:
        os.umask(previous)
    assert result.exit_code == 0 and deal_file.exit_code == 0, result.output + deal_file.output
    (*_, chunk), = store.finished_chunks(tmp_path / "run")
    for path in (tmp_path / "run" / "manifest.json", chunk, tmp_path / "deal.txt"):
        assert stat.S_IMODE(path.stat().st_mode) == mode, path


def solve_searching_for_minutes():
    """A ``solve`` whose child process has been searching for a second (of minutes), and that child."""
    command = [sys.executable, "-m", "solitaire_odds.cli", "solve", "westcliff", "--set", "space_fill=none",
               "--deal", "7", "--budget", "1e9", "--table-mb", "16"]
    process = start_command(command)
    deadline = time.monotonic() + 120
    while not (children := psutil.Process(process.pid).children()) or children[0].cpu_times().user < 1.0:
        assert time.monotonic() < deadline and process.poll() is None, process.communicate()
        time.sleep(0.05)
    return process, children


@pytest.mark.slow
def test_ctrl_c_stops_solve_inside_a_search(tmp_path):
    """A numba search does not see signals; solve runs it in a child process it can stop."""
    process, children = solve_searching_for_minutes()
    os.killpg(process.pid, signal.SIGINT)  # Ctrl-C in a terminal reaches the whole group
    stopped = time.monotonic()
    stdout, stderr = process.communicate(timeout=30)
    assert time.monotonic() - stopped < 5.0
    assert process.returncode == 130 and stdout == ""
    assert stderr.splitlines() == ["solitaire-odds: interrupted; no verdict (a smaller --budget decides "
                                   "sooner, or leaves the deal unknown)"]
    _, alive = psutil.wait_procs(children, timeout=10)
    assert alive == []


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel's parent-death signal is Linux's")
def test_a_search_dies_with_its_killed_parent():
    """The child holds the GIL inside the search, so no thread of its own could notice that its
    parent is gone: the kernel kills it (prctl PR_SET_PDEATHSIG)."""
    process, children = solve_searching_for_minutes()
    process.kill()  # the parent alone: no clean-up
    process.communicate(timeout=30)
    _, alive = psutil.wait_procs(children, timeout=10)
    for child in alive:  # not to leave a search running after a failure
        child.kill()
    assert alive == []
