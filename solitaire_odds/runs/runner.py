"""Chunked Monte Carlo runs: rules + player (with its budget) + deal range, split into chunks of deal
numbers that are solved in worker processes and written once each (see :mod:`.store`).

A deal's verdict depends only on the rules, the player's parameters and the deal number, never
on which worker, machine or chunk solved it, so any number of local workers or a Dask cluster
gives the same files.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
from tqdm import tqdm

from ..version import VERSION
from . import store
from .engine_identity import engine_digest
from ..game.position import format_move
from ..rules import Rules
from ..players import for_rules, make_player, player_label
from ..stats import Summary, summarize

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
        """A spec with the player's parameters given as keywords (lists become tuples; the
        solver's ``budgets="auto"`` becomes the game's ladder)."""
        params = for_rules(player, rules, params)
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
            "changes": self.rules.change_strings(),
            "rules": {k: _jsonable(v) for k, v in self.rules.values.items()},
            "player": self.player,
            "player_params": {k: list(v) if isinstance(v, tuple) else v for k, v in self.player_params},
            "version": VERSION,
            "engine": engine_digest(),
            "chunk_size": self.chunk_size,
        }

    def default_dir(self, root: Path) -> Path:
        """results/runs/<game>/<player>-<params>-<hash>: one folder per rules, player and
        parameters, shared by every deal range so that runs over different ranges merge."""
        switches = "-".join(f"{k}={v}" for k, v in sorted(self.rules.switch_strings().items()))
        key = [switches, self.player, [[k, _jsonable(v)] for k, v in self.player_params]]
        if self.rules.changes:  # a variant's folder; a declared game's folder keeps its name
            key.append(sorted(self.rules.change_strings().items()))
        key = json.dumps(key, sort_keys=True)
        digest = hashlib.sha1(key.encode()).hexdigest()[:8]
        label = player_label(self.player, self.params)
        return root / "runs" / self.rules.game / f"{self.player}-{label}-{digest}"


def _jsonable(value):
    return value if isinstance(value, (bool, int, str)) else str(value)


# --- the work of one chunk, in a worker process -----------------------------------------------

_PLAYERS: dict = {}
_PLAYERS_LOCK = threading.Lock()
_SOLVED = None
"""This process's share of the progress counter (a multiprocessing.Value), when one is kept."""


def _player_for(rules: Rules, player: str, params: tuple):
    """This process's player for these settings, built once and reused by every chunk it
    solves (a pool or Dask worker too), so its numba kernels and its table are set up once."""
    key = (rules, player, params)
    if key not in _PLAYERS:
        _PLAYERS.clear()  # one player per worker at a time: keep memory bounded
        _PLAYERS[key] = make_player(player, rules, **dict(params))
    return _PLAYERS[key]


def play_one(rules: Rules, player: str, params: tuple, deal: int | None, deck: list[int] | None):
    """The outcome of one deal, numbered (``deal``) or given as a ``deck``, for ``solve``."""
    who = _player_for(rules, player, params)
    return who.play(deal) if deck is None else who.play_deck(deck)


def solve_chunk(rules: Rules, player: str, params: tuple, first: int, last: int) -> pd.DataFrame:
    """Rows for deals first..last: deal, verdict, budget that decided it, nodes (all
    attempts), seconds, moves (line length), line (compact notation)."""
    return solve_deals(rules, player, params, range(first, last + 1))


def solve_deals(rules: Rules, player: str, params: tuple, deals) -> pd.DataFrame:
    """:func:`solve_chunk`'s rows for any sequence of deal numbers (a deepened verdict file
    solves only its unknown deals again).

    A worker with several threads (a Dask worker) solves its deals one at a time: the
    player's workspace is not shareable, and one table per process bounds the memory."""
    rows = {k: [] for k in store.ROW_COLUMNS}
    with _PLAYERS_LOCK:
        who = _player_for(rules, player, params)
        for deal in deals:
            deal = int(deal)
            outcome = who.play(deal)
            rows["deal"].append(deal)
            rows["verdict"].append(outcome.verdict)
            rows["budget"].append(outcome.budget)
            rows["nodes"].append(outcome.nodes)
            rows["seconds"].append(outcome.seconds)
            rows["moves"].append(len(outcome.line))
            rows["line"].append(" ".join(map(format_move, outcome.line)))
            if _SOLVED is not None:
                with _SOLVED.get_lock():
                    _SOLVED.value += 1
    table = pd.DataFrame(rows)
    table = table.astype({"deal": "uint64", "budget": "int64", "nodes": "int64", "moves": "int32"})
    table.attrs["engine"] = engine_digest()  # the worker's, which on a cluster may not be ours
    return table


def prove_deals(rules: Rules, seconds: float, rung: int, deals) -> pd.DataFrame:
    """:func:`solve_deals`'s rows for the prover alone on each of ``deals`` from its start, as
    the solver's prover step runs after the search at ``rung`` left it unknown (the rows
    record that rung; they spend no nodes). A win's line was replayed by the prover."""
    from ..engine import api
    from ..game.deals import deck
    from ..prover import decide

    rows = {k: [] for k in store.ROW_COLUMNS}
    for deal in deals:
        deal = int(deal)
        start = time.perf_counter()
        proof = decide(rules, api.initial_position(rules, deck(deal, rules["ncards"])), seconds)
        for column, value in (("deal", deal), ("verdict", proof.verdict), ("budget", rung), ("nodes", 0),
                              ("seconds", time.perf_counter() - start), ("moves", len(proof.line)),
                              ("line", " ".join(map(format_move, proof.line)))):
            rows[column].append(value)
    table = pd.DataFrame(rows).astype({"deal": "uint64", "budget": "int64", "nodes": "int64", "moves": "int32"})
    table.attrs["engine"] = engine_digest()
    return table


# --- where chunks are solved: this process, a local pool, or a Dask cluster ----------------------

class WorkersError(Exception):
    """The workers (a local pool or a Dask cluster) died, ran out of memory or cannot be
    reached (exit status 1); the message says what to do."""

    exit_code = 1


class WorkerDied(WorkersError):
    """A worker process died (killed, or out of memory); ``kept`` says whether the work it
    was part of keeps what it finished (a run's chunks), so that it resumes, or starts again."""

    def __init__(self, kept: str | None):
        self.kept = kept
        then = f"{kept}: rerun to continue" if kept else "rerun the command"
        super().__init__(f"a worker process died (killed, or out of memory: a smaller solver table needs less); {then}")


class OutOfMemory(WorkersError):
    """The solver ran out of memory; ``kept`` as for :class:`WorkerDied`."""

    def __init__(self, kept: str | None = None):
        self.kept = kept
        then = f"; {kept}: rerun to continue" if kept else ""
        super().__init__(f"out of memory (a smaller solver table, or fewer workers, need less){then}")


class NoDistributed(WorkersError):
    """A Dask cluster was asked for, but the distributed package is not installed."""

    def __init__(self):
        super().__init__("Dask needs the distributed package: pip install 'dask[distributed]'")


CHUNKS_KEPT = "the finished chunks are kept"
"""What a run keeps when it stops early: the ``kept`` of its errors."""


def _pool_worker_start(parent: int, solved) -> None:
    """Ctrl-C reaches the whole process group, but only the parent acts on it (it stops the
    workers); a worker whose parent was killed exits instead of searching or waiting for work
    on its own. ``solved`` is the progress counter each finished deal adds one to."""
    global _SOLVED
    _SOLVED = solved
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent(parent)


PR_SET_PDEATHSIG = 1  # linux/prctl.h


def _die_with_parent(parent: int) -> None:
    """On Linux the kernel kills this process when its parent dies (prctl PR_SET_PDEATHSIG),
    even inside a numba kernel, which holds the GIL for as long as a search lasts (minutes at a
    large budget); elsewhere a thread checks for a new parent between kernels."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
            if os.getppid() != parent:  # the parent died before the request took effect
                os._exit(1)
            return
    except (OSError, AttributeError):  # not Linux
        pass
    threading.Thread(target=_exit_when_orphaned, args=(parent,), daemon=True).start()


def _exit_when_orphaned(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(1)


@contextmanager
def process_pool(workers: int, solved=None, kept: str | None = CHUNKS_KEPT):
    """A local pool of ``workers`` processes, stopped at once (running chunks abandoned) if
    the run ends early, by Ctrl-C or an error, instead of waiting for their chunks. A worker's
    death is a :class:`WorkerDied` with ``kept``, what the work keeps (None: nothing, the
    command starts again). Workers add each finished deal to the progress counter ``solved``
    (if any)."""
    pool = ProcessPoolExecutor(workers, initializer=_pool_worker_start, initargs=(os.getpid(), solved))
    try:
        yield pool, lambda: 2 * workers
    except BaseException as err:
        # the workers first (no public way to stop them before Python 3.14), with SIGKILL, which
        # no inherited signal setting can block; with them gone the pool's own thread finds the
        # pool broken and winds itself down instead of waiting for their results
        processes = list(pool._processes.values())
        for process in processes:
            process.kill()
        for process in processes:
            process.join()
        pool.shutdown(wait=False, cancel_futures=True)
        if isinstance(err, BrokenProcessPool):
            raise WorkerDied(kept) from None
        raise
    pool.shutdown()


def in_own_process(function, *args):
    """``function(*args)`` computed in a child process, so that Ctrl-C stops it at once: a
    numba kernel does not see signals until it returns."""
    try:
        with process_pool(1, kept=None) as (pool, _):
            return pool.submit(function, *args).result()
    except MemoryError:
        raise OutOfMemory() from None


@contextmanager
def _interrupts_ignored():
    """Processes started meanwhile inherit SIGINT ignored (Python keeps an inherited SIG_IGN)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextmanager
def _dask_pool(address: str, workers: int):
    """The chunks go to Dask: ``local`` starts a LocalCluster of ``workers`` processes of one
    thread each; any other ``address`` names a running scheduler (tcp://host:port)."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise NoDistributed() from None
    cluster = None
    try:
        if address == "local":
            with _interrupts_ignored():  # by the workers: Ctrl-C is for this process to act on
                cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=logging.ERROR)
        client = Client(cluster or address)
    except (OSError, ValueError, TypeError) as err:
        if cluster is not None:
            cluster.close()
        reason = " ".join(str(err).split()) or type(err).__name__
        raise WorkersError(f"cannot reach the Dask scheduler at {address} ({reason}); start it "
                           "(dask scheduler) or check the address") from None
    try:
        # two chunks under way per worker thread, however many workers join or leave
        yield client.get_executor(pure=False), lambda: 2 * max(1, sum(client.nthreads().values()))
    finally:
        client.close()  # releases (cancels) any chunk still under way
        if cluster is not None:
            cluster.close()


def _chunk_solvers(workers: int, dask: str | None, solved):
    """(pool, slots) for :func:`_solved_chunks`: no pool for one local worker. Local
    workers add each finished deal to the counter ``solved``."""
    if dask is not None:
        return _dask_pool(dask, workers)
    if workers == 1:
        return nullcontext((None, None))
    return process_pool(workers, solved)


def _solved_chunks(spec: RunSpec, todo: list[tuple[int, int]], pool, slots, solved=None):
    """Yield (first, last, rows) for each chunk of ``todo`` as it is solved: in this process
    without a pool (counting deals on ``solved``), else in the pool (any
    concurrent.futures executor) with ``slots()`` chunks under way."""
    global _SOLVED
    args = (spec.rules, spec.player, spec.player_params)
    if pool is None:
        _SOLVED = solved
        try:
            for a, b in todo:
                yield a, b, solve_chunk(*args, a, b)
        finally:
            _SOLVED = None
        return
    for (a, b), rows in in_pool(pool, slots, lambda job: (solve_chunk, *args, *job), todo):
        yield a, b, rows


def in_pool(pool, slots, call, jobs):
    """Yield (job, result) for each of ``jobs`` as a worker of ``pool`` (any
    concurrent.futures executor) finishes it, with ``slots()`` jobs under way; ``call(job)``
    gives the function and arguments that compute a job."""
    pending = {}
    queue = deque(jobs)
    while queue or pending:
        room = slots()
        while queue and len(pending) < room:
            job = queue.popleft()
            function, *arguments = call(job)
            pending[pool.submit(function, *arguments)] = job
        finished, _ = wait(pending, return_when=FIRST_COMPLETED)
        for future in finished:
            yield pending.pop(future), future.result()


# --- running a whole range ----------------------------------------------------------------------

class Progress:
    """A tqdm bar on stderr while a run is under way: deals done of the range (a resumed run's
    earlier chunks included), deals per second and the time left, both measured on this
    session's deals from the first solved one (numba's compile time excluded), and the shares
    won and unknown among this session's finished chunks.

    Local workers count each deal as they finish it (``solved``, a shared counter polled twice
    a second), so the bar moves within seconds even with chunks of 1,000 slow deals; with Dask
    it moves a chunk at a time. Silent unless stderr is a terminal (or ``enabled``)."""

    def __init__(self, total: int, done: int = 0, enabled: bool | None = None):
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        if self.enabled and not engine_compiled():
            sys.stderr.write("compiling the engine (first run only, about a minute)...\n")
        self.solved = multiprocessing.Value("q", 0)  # deals finished by any local worker
        self.start_done = done
        self.new = self.won = self.unknown = self.chunk_deals = 0
        self.bar = tqdm(total=total, initial=done, unit=" deals", disable=not self.enabled, file=sys.stderr,
                        smoothing=0, mininterval=0.5, dynamic_ncols=True)
        self.started = False
        self.stop = threading.Event()
        self.poller = threading.Thread(target=self._poll, daemon=True)
        if self.enabled:
            self.poller.start()

    def _poll(self) -> None:
        while not self.stop.wait(0.5):
            self._show()

    def _show(self) -> None:
        """Move the bar to the deals done, never backwards."""
        # read without the counter's lock: a worker stopped by Ctrl-C while holding it would
        # leave this process waiting for it forever
        done = self.start_done + max(self.solved.get_obj().value, self.chunk_deals)
        if done > self.bar.n and not self.started:
            # the rate is measured from the first deals seen: compiling is not solving
            self.started = True
            self.bar.n = self.bar.last_print_n = self.bar.initial = done
            self.bar.unpause()
            self.bar.refresh()
        elif done > self.bar.n:
            self.bar.update(done - self.bar.n)
        else:
            self.bar.refresh()

    def add(self, verdicts: pd.Series) -> None:
        """Count a finished chunk's verdicts."""
        self.chunk_deals += len(verdicts)
        self.won += int((verdicts == "won").sum())
        self.unknown += int((verdicts == "unknown").sum())
        self.bar.set_postfix_str(f"won {self.won / self.chunk_deals:.2%}  "
                                 f"unknown {self.unknown / self.chunk_deals:.2%}", refresh=False)
        self._show()

    def close(self) -> None:
        """The final count, then end the line."""
        self.stop.set()
        if self.poller.is_alive():
            self.poller.join()
        self._show()
        self.bar.close()


def engine_compiled() -> bool:
    """Whether numba's disk cache already holds the engine's kernels."""
    import numba

    from .. import engine  # noqa: F401  (sets numba's cache folder)

    return any(Path(numba.config.CACHE_DIR).glob("**/*.nbi"))


def usable_cpus() -> int:
    """The cores this process may run on (its CPU affinity, as a batch system sets it)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # no affinity on this platform
        return os.cpu_count() or 1


def run(spec: RunSpec, run_dir: Path, workers: int | None = None, resume: bool = False,
        progress: bool | None = None, dask: str | None = None,
        columns: list[str] | None = None, allow_other_engine: bool = False) -> pd.DataFrame:
    """Solve every deal of ``spec`` not yet in ``run_dir`` and return the rows of the range
    (only ``columns``, besides deal and verdict, if given).

    ``workers`` local processes (default: :func:`usable_cpus`), or with ``dask`` (``local`` or a
    scheduler's address) the workers of a Dask cluster; the chunks they return are written
    here, so the files do not depend on where they were solved. Without ``resume`` a range
    that already has finished chunks in ``run_dir`` is an error, so that a rerun never
    silently mixes old and new results. A KeyboardInterrupt stops the workers at once;
    chunks already written stay, and ``resume`` continues from them. A run that stops before
    its first chunk removes the folders and manifest it created. Work left to do in a folder
    holding chunks of another engine is refused (:class:`store.OtherEngine`) unless
    ``allow_other_engine``; then the folder mixes engines, and says so.
    """
    run_dir = Path(run_dir)
    created = store.not_yet_there(run_dir)
    try:
        store.write_manifest(run_dir, spec.manifest())
        store.remove_stale_temp_files(run_dir)
        store.load_rows([run_dir], spec.first, spec.last, columns=[])  # refuses damaged chunks before work
        todo = store.missing_ranges(run_dir, spec.first, spec.last, spec.chunk_size)
        remaining = sum(b - a + 1 for a, b in todo)
        if not resume and remaining < spec.count:
            raise store.PartlyDone(run_dir, spec.first, spec.last)
        others = store.other_engines(store.folder_engines(run_dir), engine_digest())
        if todo and others and not allow_other_engine:
            raise store.OtherEngine(str(run_dir), others, engine_digest())
        bar = Progress(spec.count, spec.count - remaining, progress)
        with _chunk_solvers(workers or usable_cpus(), dask, bar.solved) as (pool, slots):
            try:
                for a, b, table in _solved_chunks(spec, todo, pool, slots, bar.solved):
                    store.write_chunk(run_dir, a, b, table, table.attrs.get("engine"))
                    bar.add(table["verdict"])
            finally:
                bar.close()
    except BaseException as err:
        store.discard_if_unused(run_dir, created)
        if isinstance(err, MemoryError):
            raise OutOfMemory(CHUNKS_KEPT if store.finished_chunks(run_dir) else None) from None
        raise
    return store.load_rows([run_dir], spec.first, spec.last, columns)


def summary(rows: pd.DataFrame) -> Summary:
    return summarize(rows["verdict"])
