"""Feedback on long work: a compile notice, a bar at 0, per-deal updates, an ETA that leaves
the compile time out, and silence into a pipe or with --quiet."""

import os
import subprocess
import sys

import pandas as pd
import pytest
import tqdm.std

from solitaire_odds.runs import runner as runs
from solitaire_odds.runs.runner import Progress


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


@pytest.fixture
def clock(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(tqdm.std, "time", clock)
    return clock


def last_line(text: str) -> str:
    return text.replace("\r", "\n").rstrip().splitlines()[-1]


def test_bar_starts_at_the_deals_already_done_and_says_when_it_compiles(monkeypatch, capsys, clock):
    monkeypatch.setattr(runs, "engine_compiled", lambda: False)
    bar = Progress(total=1000, done=400, enabled=True)  # a resumed run: 400 deals done before
    err = capsys.readouterr().err
    assert err.startswith("compiling the engine (first run only")
    assert "400/1000" in last_line(err)
    bar.close()


def test_eta_counts_this_sessions_deals_from_the_first_one_solved(monkeypatch, capsys, clock):
    monkeypatch.setattr(runs, "engine_compiled", lambda: True)
    bar = Progress(total=1000, done=400, enabled=True)
    assert "compiling" not in capsys.readouterr().err
    clock.now += 60.0                 # a minute of compiling, no deal yet
    bar.solved.value = 1
    bar._show()
    clock.now += 10.0                 # then 100 more deals in 10 s: 10 deals/s, 499 deals to go
    bar.solved.value = 101
    bar._show()
    line = last_line(capsys.readouterr().err)
    assert "501/1000" in line and "10.00 deals/s" in line and "00:49" in line, line
    bar.add(pd.Series(["won"] * 90 + ["unknown"] * 5 + ["lost"] * 5))
    assert "won 90.00%  unknown 5.00%" in last_line(capsys.readouterr().err)
    bar.close()


def test_bar_follows_finished_chunks_when_no_worker_counts_deals(monkeypatch, capsys, clock):
    """Dask workers share no counter: the bar moves a chunk at a time."""
    monkeypatch.setattr(runs, "engine_compiled", lambda: True)
    bar = Progress(total=300, enabled=True)
    clock.now += 1.0
    bar.add(pd.Series(["won"] * 100))
    assert "100/300" in last_line(capsys.readouterr().err)
    bar.close()


def test_progress_is_silent_when_not_on_a_terminal(capsys):
    bar = Progress(total=10)
    bar.add(pd.Series(["won"] * 10))
    bar.close()
    assert capsys.readouterr().err == ""


def test_workers_default_to_the_cpus_this_process_may_use():
    assert runs.usable_cpus() == len(os.sched_getaffinity(0))
    if len(os.sched_getaffinity(0)) > 1:
        code = "import os; os.sched_setaffinity(0, {0}); from solitaire_odds.runs.runner import usable_cpus; print(usable_cpus())"
        assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              check=True).stdout.strip() == "1"


def test_odds_on_a_terminal_shows_the_bar_and_quiet_silences_it(tmp_path):
    """A real terminal (a pseudo-terminal) for stderr, as a person running `odds` sees it."""
    import fcntl
    import pty
    import struct
    import termios

    args = [sys.executable, "-m", "solitaire_odds", "odds", "westcliff", "--deals", "20", "--budget", "1e3",
            "--workers", "1", "--chunk-size", "10"]
    outputs = []
    for extra in ([], ["--quiet"]):
        leader, follower = pty.openpty()
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))  # 40 rows, 120 columns
        result = subprocess.run(args + ["--out", str(tmp_path / f"run{len(extra)}")] + extra,
                                stderr=follower, stdout=subprocess.PIPE, text=True, timeout=300)
        os.close(follower)
        err = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                break
            if not chunk:
                break
            err += chunk
        os.close(leader)
        assert result.returncode == 0
        assert "deals 20: won" in result.stdout
        outputs.append(err.decode())
    assert "20/20" in outputs[0] and "deals/s" in outputs[0]
    assert outputs[1] == ""
