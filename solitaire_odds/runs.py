"""Chunked Monte Carlo runs: rules + player (with its budget) + deal range, split into chunks of deal
numbers that are solved in worker processes and written once each (see :mod:`.store`).

A deal's verdict depends only on the rules, the budget and the deal number, never on which
worker or chunk solved it, so any number of workers gives the same table.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from . import __version__, store
from .position import format_move
from .rules import Rules, resolve
from .players import make_player
from .stats import Summary, summarize

DEFAULT_CHUNK = 1000


@dataclass(frozen=True)
class RunSpec:
    rules: Rules
    first: int
    count: int
    player: str = "solver"
    player_params: tuple = (("budgets", (1_000_000,)), ("win_first", True))  # sorted (key, value) pairs
    chunk_size: int = DEFAULT_CHUNK

    @classmethod
    def of(cls, rules: Rules, first: int, count: int, player: str = "solver",
           chunk_size: int = DEFAULT_CHUNK, **params) -> "RunSpec":
        """A spec with the player's parameters given as keywords (lists become tuples)."""
        items = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in params.items()))
        return cls(rules, first, count, player, items, chunk_size)

    @property
    def last(self) -> int:
        return self.first + self.count - 1

    @property
    def params(self) -> dict:
        return dict(self.player_params)

    def manifest(self) -> dict:
        return {
            "game": self.rules.game,
            "switches": self.rules.switch_strings(),
            "rules": {k: _jsonable(v) for k, v in self.rules.values.items()},
            "player": self.player,
            "player_params": {k: list(v) if isinstance(v, tuple) else v for k, v in self.player_params},
            "version": __version__,
            "chunk_size": self.chunk_size,
        }

    def default_dir(self, root: Path) -> Path:
        """results/runs/<game>/<player>-<params>-<hash>: one folder per rules, player and
        parameters, shared by every deal range so that runs over different ranges merge."""
        switches = "-".join(f"{k}={v}" for k, v in sorted(self.rules.switch_strings().items()))
        key = json.dumps([switches, self.player, [[k, _jsonable(v)] for k, v in self.player_params]],
                         sort_keys=True)
        digest = hashlib.sha1(key.encode()).hexdigest()[:8]
        return root / "runs" / self.rules.game / f"{self.player}-{_label(self.params)}-{digest}"


def _label(params: dict) -> str:
    """A short readable tag for a folder name: b100k+1M, k16-b10k, ..."""
    parts = []
    for key in ("samples", "budgets", "budget"):
        if key in params:
            value = params[key]
            values = value if isinstance(value, tuple) else (value,)
            parts.append(("k" if key == "samples" else "b") + "+".join(_short(int(v)) for v in values))
    return "-".join(parts) or "default"


def _jsonable(value):
    return value if isinstance(value, (bool, int, str)) else str(value)


def _short(n: int) -> str:
    for unit, size in (("M", 10**6), ("k", 10**3)):
        if n % size == 0:
            return f"{n // size}{unit}"
    return str(n)


# --- the work of one chunk, in a worker process -----------------------------------------------

_PLAYERS: dict = {}


def _player_for(rules: Rules, player: str, params: tuple):
    key = (rules, player, params)
    if key not in _PLAYERS:
        _PLAYERS.clear()  # one player per worker at a time: keep memory bounded
        _PLAYERS[key] = make_player(player, rules, **dict(params))
    return _PLAYERS[key]


def solve_chunk(game: str, switches: dict, player: str, params: tuple, first: int, last: int) -> pd.DataFrame:
    """Rows for deals first..last: deal, verdict, budget that decided it, nodes (all
    attempts), seconds, moves (line length), line (compact notation)."""
    who = _player_for(resolve(game, **switches), player, params)
    rows = {k: [] for k in ("deal", "verdict", "budget", "nodes", "seconds", "moves", "line")}
    for deal in range(first, last + 1):
        outcome = who.play(deal)
        rows["deal"].append(deal)
        rows["verdict"].append(outcome.verdict)
        rows["budget"].append(outcome.budget)
        rows["nodes"].append(outcome.nodes)
        rows["seconds"].append(outcome.seconds)
        rows["moves"].append(len(outcome.line))
        rows["line"].append(" ".join(format_move(m) for m in outcome.line))
    table = pd.DataFrame(rows)
    return table.astype({"deal": "uint64", "budget": "int64", "nodes": "int64", "moves": "int32"})


# --- running a whole range ----------------------------------------------------------------------

class Progress:
    """One status line on stderr, redrawn at most twice a second; silent when not a terminal."""

    def __init__(self, total: int, enabled: bool | None = None):
        self.total = total
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.start = time.monotonic()
        self.last_draw = 0.0

    def update(self, done: int, won: int, force: bool = False) -> None:
        now = time.monotonic()
        if not self.enabled or (not force and now - self.last_draw < 0.5):
            return
        self.last_draw = now
        rate = done / max(now - self.start, 1e-9)
        eta = (self.total - done) / rate if rate > 0 else float("inf")
        share = won / done if done else 0.0
        bar = "#" * int(30 * done / max(self.total, 1))
        sys.stderr.write(f"\r[{bar:<30}] {done}/{self.total} deals  {rate:,.0f}/s  "
                         f"ETA {eta:,.0f}s  won {share:.2%}   ")
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")


def run(spec: RunSpec, run_dir: Path, workers: int | None = None, resume: bool = False,
        progress: bool | None = None) -> pd.DataFrame:
    """Solve every deal of ``spec`` not yet in ``run_dir`` and return the rows of the range.

    Without ``resume`` a range that already has finished chunks in ``run_dir`` is an error,
    so that a rerun never silently mixes old and new results. A KeyboardInterrupt stops the
    workers; chunks already written stay, and ``resume`` continues from them.
    """
    run_dir = Path(run_dir)
    store.write_manifest(run_dir, spec.manifest())
    todo = store.missing_ranges(run_dir, spec.first, spec.last, spec.chunk_size)
    if not resume and sum(b - a + 1 for a, b in todo) < spec.count:
        raise store.StoreError(f"{run_dir} already holds results for part of deals {spec.first}..{spec.last}; "
                               "add --resume to continue that run, or choose another --out")
    workers = workers or os.cpu_count() or 1
    done_deals = spec.count - sum(b - a + 1 for a, b in todo)
    bar = Progress(spec.count, progress)
    won = 0
    try:
        for a, b, table in _solved_chunks(spec, todo, workers):
            store.write_chunk(run_dir, a, b, table)
            done_deals += len(table)
            won += int((table["verdict"] == "won").sum())
            bar.update(done_deals, won)
    finally:
        bar.update(done_deals, won, force=True)
        bar.close()
    return store.load_rows([run_dir], spec.first, spec.last)


def _solved_chunks(spec: RunSpec, todo: list[tuple[int, int]], workers: int):
    """Yield (first, last, rows) for each chunk of ``todo`` as it is solved: in this process
    with one worker, else in a pool that keeps two chunks per worker under way."""
    args = (spec.rules.game, dict(spec.rules.switches), spec.player, spec.player_params)
    if workers == 1:
        for a, b in todo:
            yield a, b, solve_chunk(*args, a, b)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending = {}
        queue = list(todo)
        while queue or pending:
            while queue and len(pending) < 2 * workers:
                a, b = queue.pop(0)
                pending[pool.submit(solve_chunk, *args, a, b)] = (a, b)
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                a, b = pending.pop(future)
                yield a, b, future.result()


def summary(rows: pd.DataFrame) -> Summary:
    return summarize(rows["verdict"])
