"""Solver speed and verdicts of this checkout against another git revision, on the same deals.

Per game: nodes/s and deals/CPU-s of this checkout ("new") and the revision ("old") and their
ratio, and whether every deal the old engine decided gets the same verdict from the new one.

    python experiments/compare_revisions.py --against main~3
    python experiments/compare_revisions.py --against HEAD --games westcliff,duchess --deals 100

Each revision runs in its own worker process, started once per game and warmed up by one solve
(compilation excluded); CPU seconds are timed inside the worker around each solve. The deals go
out in slices of 10, alternately old-then-new and new-then-old, so a busy spell on the shared
machine slows both revisions alike instead of whichever happened to be running. Huge pages are
off in both workers: numpy asks for them for the transposition table, and how much of it gets
them varies from process to process, which moved nodes/s of identical code by up to 20%.
Exit status 1 if any deal is decided won by one revision and lost by the other.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import io
import json
import math
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[1]
PACKAGE = "solitaire_odds"
DEFAULT_DEALS = {"westcliff": 5_000}
OTHER_GAMES_DEALS = 300
SLICE = 10
SHOWN_CONFLICTS = 5


class UsageError(Exception):
    """Bad command-line input: exit status 2."""


class WorkerError(Exception):
    """A worker failed or imported the wrong tree: exit status 1."""


# --- worker: runs under either revision, so it uses only the API both keep -------------------

def serve(commands, replies) -> None:
    """Answer the worker protocol: the first line sets up the game, each later line is a JSON
    list of deal numbers answered by one line of [verdict, nodes, cpu seconds] per deal."""
    import solitaire_odds
    from solitaire_odds.rules import resolve
    from solitaire_odds.solver import Solver

    setup = json.loads(commands.readline())
    solver = Solver(resolve(setup["game"], **setup["settings"]), budget=setup["budget"], **setup["passes"])
    if hasattr(solver, "warm_up"):
        solver.warm_up()
    elif getattr(solver, "_finder", None) is not None:  # before Solver.warm_up: the one-deck finder
        solver._finder.find(solver._ws.root, 20_000)
    # Solves of deals outside the measured ones until one ran the search: a revision's warm_up
    # (or none) may leave it to compile inside the first timed deal where a root relaxation
    # decided the warm-up deal (Box Kite's deal 0).
    for deal in range(setup["warmup"], setup["warmup"] + 20):
        result = solver.solve(deal)
        if result.verdict == "unknown" or getattr(result, "decided_by", "search") not in ("relaxation", "win finder"):
            break
    replies.write(json.dumps({"package": solitaire_odds.__file__}) + "\n")
    replies.flush()
    for line in commands:
        answers = []
        for deal in json.loads(line):
            cpu = time.process_time()
            result = solver.solve(deal)
            answers.append([result.verdict, int(result.nodes), time.process_time() - cpu])
        replies.write(json.dumps(answers) + "\n")
        replies.flush()


# --- driver ----------------------------------------------------------------------------------

class Worker:
    """One revision's worker process for one game."""

    def __init__(self, name: str, tree: Path, cache: Path, setup: dict, log_dir: Path):
        self.name, self.tree = name, tree
        self.stderr_path = log_dir / f"{name}-{setup['game']}.stderr"
        env = {**os.environ, "PYTHONPATH": str(tree), "NUMBA_CACHE_DIR": str(cache),
               "NUMPY_MADVISE_HUGEPAGE": "0"}
        with open(self.stderr_path, "w") as stderr:
            self.process = subprocess.Popen([sys.executable, __file__, "--worker"], env=env, text=True,
                                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr)
        package = Path(self._ask(setup)["package"]).resolve()
        if not package.is_relative_to(tree.resolve()):
            self.close()
            raise WorkerError(f"the {name} worker imported {package}, not the tree {tree}; "
                              f"unset anything that puts another {PACKAGE} ahead of PYTHONPATH")

    def _ask(self, message):
        try:
            self.process.stdin.write(json.dumps(message) + "\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            pass
        line = self.process.stdout.readline()
        if not line:
            self.process.wait()
            lines = self.stderr_path.read_text().strip().splitlines() or ["(no message)"]
            raise WorkerError(f"the {self.name} worker ({self.tree}) failed: {lines[-1]}")
        return json.loads(line)

    def solve(self, deals: list[int]) -> list[list]:
        return self._ask(deals)

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait()


def commit_of(revision: str) -> str:
    found = subprocess.run(["git", "-C", str(CHECKOUT), "rev-parse", "--verify", "--quiet",
                            f"{revision}^{{commit}}"], capture_output=True, text=True)
    if found.returncode:
        raise UsageError(f"--against {revision!r} is not a git revision of {CHECKOUT}; "
                         "give a branch, tag, hash or e.g. main~3")
    return found.stdout.strip()


def extract(commit: str, into: Path) -> Path:
    """The package as of ``commit``, unpacked under ``into`` (git archive: no worktree to prune)."""
    archive = subprocess.run(["git", "-C", str(CHECKOUT), "archive", "--format=tar", commit, PACKAGE],
                             capture_output=True)
    if archive.returncode:
        raise UsageError(f"revision {commit[:12]} has no {PACKAGE}/ folder: "
                         f"{archive.stderr.decode().strip()}")
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    return into


def checkout_cache() -> Path:
    """Numba cache for this checkout, named after a digest of all its package sources: numba
    checks only each kernel's own file, so a cache shared across edits could load stale code."""
    digest = hashlib.sha1()
    for source in sorted((CHECKOUT / PACKAGE).rglob("*.py")):
        digest.update(str(source.relative_to(CHECKOUT)).encode() + b"\0" + source.read_bytes())
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "solitaire-odds-bench" / digest.hexdigest()[:16]


def describe_checkout() -> str:
    head = subprocess.run(["git", "-C", str(CHECKOUT), "rev-parse", "--short=12", "HEAD"],
                          capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", str(CHECKOUT), "status", "--porcelain", "--", PACKAGE],
                           capture_output=True, text=True).stdout.strip()
    return f"{head} plus uncommitted changes to {PACKAGE}/" if dirty else head


def run_game(game: str, deals: list[int], setup: dict, trees: dict, caches: dict, log_dir: Path) -> dict:
    """Per revision, the [verdict, nodes, cpu] of each deal, fed in alternating slices."""
    workers = {}
    results = {"old": [], "new": []}
    try:
        for name in results:
            workers[name] = Worker(name, trees[name], caches[name], {**setup, "game": game}, log_dir)
        for number, start in enumerate(range(0, len(deals), SLICE)):
            batch = deals[start:start + SLICE]
            for name in ("old", "new") if number % 2 == 0 else ("new", "old"):
                results[name] += workers[name].solve(batch)
    finally:
        for worker in workers.values():
            worker.close()
    return results


def compare(deals: list[int], old: list[list], new: list[list]) -> dict:
    """Counts, speeds and verdict changes of one game (rows as the workers return them)."""
    row = {}
    for name, rows in (("old", old), ("new", new)):
        cpu = sum(r[2] for r in rows)
        row[name] = {v: sum(r[0] == v for r in rows) for v in ("won", "lost", "unknown")}
        row[name]["nodes/s"] = sum(r[1] for r in rows) / cpu
        row[name]["deals/s"] = len(rows) / cpu
    decided = ("won", "lost")
    pairs = [(deal, o[0], n[0]) for deal, o, n in zip(deals, old, new)]
    row["conflicts"] = [d for d, o, n in pairs if o in decided and n in decided and o != n]
    row["newly_decided"] = sum(o == "unknown" and n in decided for _, o, n in pairs)
    row["newly_unknown"] = sum(o in decided and n == "unknown" for _, o, n in pairs)
    return row


def format_row(game: str, n: int, row: dict) -> str:
    old, new = row["old"], row["new"]
    counts = {name: f"{r['won']}/{r['lost']}/{r['unknown']}" for name, r in (("old", old), ("new", new))}
    conflicts = str(len(row["conflicts"]))
    if row["conflicts"]:
        conflicts += " (deals " + ", ".join(map(str, row["conflicts"][:SHOWN_CONFLICTS])) + ")"
    return (f"{game:18} {n:>6,} {counts['old']:>17} {counts['new']:>17} "
            f"{old['nodes/s']:>11,.0f} {new['nodes/s']:>11,.0f} {new['nodes/s'] / old['nodes/s']:>6.2f} "
            f"{old['deals/s']:>8,.1f} {new['deals/s']:>8,.1f} {new['deals/s'] / old['deals/s']:>6.2f} "
            f"{row['newly_decided']:>7} {row['newly_unknown']:>7}  {conflicts}")


HEADER = (f"{'game':18} {'deals':>6} {'old won/lost/unk':>17} {'new won/lost/unk':>17} "
          f"{'old nodes/s':>11} {'new nodes/s':>11} {'ratio':>6} "
          f"{'old d/s':>8} {'new d/s':>8} {'ratio':>6} {'?->dec':>7} {'dec->?':>7}  conflicts")


def write_csv(path: Path, rows: list[list]) -> None:
    """All per-deal rows so far, replaced whole so the file is never half-written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    with open(partial, "w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["game", "deal", "old_verdict", "old_nodes", "old_cpu_s",
                         "new_verdict", "new_nodes", "new_cpu_s"])
        writer.writerows(rows)
    os.replace(partial, path)


def geometric_mean(values: list[float]) -> float:
    return math.exp(sum(map(math.log, values)) / len(values))


def parse_arguments() -> argparse.Namespace:
    from solitaire_odds.cli import CliError, parse_count
    from solitaire_odds.rules import GAMES, RulesError, parse_settings, resolve

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, metavar="REV", help="git revision to compare with")
    parser.add_argument("--games", default="all", help="comma-separated game names, or 'all'")
    defaults = ", ".join(f"{n:,} for {game}" for game, n in DEFAULT_DEALS.items())
    parser.add_argument("--deals", help=f"deals per game (default {defaults}, {OTHER_GAMES_DEALS} for the others)")
    parser.add_argument("--first", type=int, default=0, help="first deal number (default 0)")
    parser.add_argument("--budget", default="1e5", help="solver node budget (default 1e5)")
    parser.add_argument("--set", dest="settings", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--csv", type=Path, help="write the per-deal rows to this CSV file")
    parser.add_argument("--search-only", action="store_true",
                        help="both revisions without their heuristic passes (win_first=False): the "
                             "sound search alone, so nodes/s compares the same kind of node")
    parser.add_argument("--plain", action="store_true",
                        help="both revisions' plain search (no heuristic passes, no reductions): the "
                             "engine's own speed, without the per-node work each reduction adds")
    args = parser.parse_args()
    try:
        args.games = list(GAMES) if args.games == "all" else args.games.split(",")
        args.deals = parse_count(args.deals, "--deals") if args.deals else None
        args.budget = parse_count(args.budget, "--budget")
        args.settings = parse_settings(args.settings)
        for game in args.games:
            resolve(game, **args.settings)
    except (CliError, RulesError) as err:
        raise UsageError(str(err)) from None
    if args.first < 0:
        raise UsageError(f"--first must be a deal number >= 0, not {args.first}")
    return args


def main() -> int:
    args = parse_arguments()
    commit = commit_of(args.against)
    print(f"old: {args.against} = {commit[:12]};  new: {CHECKOUT} at {describe_checkout()}")
    print(f"budget {args.budget:,}, settings {args.settings or 'default'}, "
          f"{'plain search, ' if args.plain else 'sound search only, ' if args.search_only else ''}CPU seconds per "
          f"worker; ratio = new / old; ?->dec: old unknown, new decided; dec->?: the reverse")
    print(HEADER, flush=True)
    passes = {"win_first": not (args.search_only or args.plain), "reductions": not args.plain}
    speedups = {"nodes/s": [], "deals/s": []}
    csv_rows, conflicts = [], 0
    with tempfile.TemporaryDirectory(prefix="compare-revisions-") as scratch:
        scratch = Path(scratch)
        trees = {"old": extract(commit, scratch / "old"), "new": CHECKOUT}
        caches = {"old": scratch / "numba", "new": checkout_cache()}
        for game in args.games:
            n = args.deals or DEFAULT_DEALS.get(game, OTHER_GAMES_DEALS)
            deals = list(range(args.first, args.first + n))
            setup = {"settings": args.settings, "budget": args.budget, "warmup": args.first + n,
                     "passes": passes}
            results = run_game(game, deals, setup, trees, caches, scratch)
            row = compare(deals, results["old"], results["new"])
            print(format_row(game, n, row), flush=True)
            conflicts += len(row["conflicts"])
            for key in speedups:
                speedups[key].append(row["new"][key] / row["old"][key])
            if args.csv:
                csv_rows += [[game, d, *o, *w] for d, o, w in zip(deals, results["old"], results["new"])]
                write_csv(args.csv, csv_rows)
    print(f"geometric mean over {len(args.games)} games: nodes/s x{geometric_mean(speedups['nodes/s']):.2f}, "
          f"deals/CPU-s x{geometric_mean(speedups['deals/s']):.2f}; lowest nodes/s ratio "
          f"{min(speedups['nodes/s']):.2f}; verdict conflicts {conflicts}")
    if args.csv:
        print(f"wrote {args.csv}")
    return 1 if conflicts else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--worker"]:
        replies, sys.stdout = sys.stdout, sys.stderr  # stray prints must not break the protocol
        serve(sys.stdin, replies)
        sys.exit(0)
    try:
        sys.exit(main())
    except UsageError as err:
        print(f"error: {err}", file=sys.stderr)
        sys.exit(2)
    except WorkerError as err:
        print(f"error: {err}", file=sys.stderr)
        sys.exit(1)
