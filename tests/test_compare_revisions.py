"""experiments/compare_revisions.py: its verdict bookkeeping, its worker protocol, and a worker
that cannot import its tree reported in one line."""

import importlib.util
import io
import json
from pathlib import Path

import pytest

from solitaire_odds.rules import resolve
from solitaire_odds.solver import Solver

SCRIPT = Path(__file__).resolve().parents[1] / "experiments" / "compare_revisions.py"
spec = importlib.util.spec_from_file_location("compare_revisions", SCRIPT)
compare_revisions = importlib.util.module_from_spec(spec)
spec.loader.exec_module(compare_revisions)


def test_compare_counts_conflicts_and_changes_of_decision():
    deals = [10, 11, 12, 13, 14]
    old = [["won", 100, 1.0], ["won", 100, 1.0], ["unknown", 400, 2.0], ["lost", 200, 1.0], ["lost", 200, 1.0]]
    new = [["won", 50, 0.5], ["lost", 50, 0.5], ["won", 100, 0.5], ["unknown", 200, 0.5], ["lost", 100, 0.5]]
    row = compare_revisions.compare(deals, old, new)
    assert row["conflicts"] == [11]
    assert row["newly_decided"] == 1 and row["newly_unknown"] == 1
    assert row["old"]["won"] == 2 and row["old"]["lost"] == 2 and row["old"]["unknown"] == 1
    assert row["old"]["nodes/s"] == pytest.approx(1000 / 6) and row["new"]["nodes/s"] == pytest.approx(500 / 2.5)
    assert row["new"]["deals/s"] / row["old"]["deals/s"] == pytest.approx(6 / 2.5)


@pytest.mark.parametrize("passes", [
    {"win_first": True, "reductions": True}, {"win_first": False, "reductions": True},
    {"win_first": False, "reductions": False}])
def test_worker_protocol_answers_each_deal_as_the_solver_does(passes):
    """The worker solves as a solver with the passes it is given does."""
    setup = {"game": "westcliff", "settings": {}, "budget": 1000, "warmup": 99, "passes": passes}
    commands = io.StringIO(json.dumps(setup) + "\n" + json.dumps([3, 4]) + "\n" + json.dumps([5]) + "\n")
    replies = io.StringIO()
    compare_revisions.serve(commands, replies)
    ready, first, second = (json.loads(line) for line in replies.getvalue().splitlines())
    assert Path(ready["package"]).name == "__init__.py"
    solver = Solver(resolve("westcliff"), budget=1000, **passes)
    expected = [solver.solve(deal) for deal in (3, 4, 5)]
    assert [[v, n] for v, n, _ in first + second] == [[r.verdict, r.nodes] for r in expected]
    assert all(cpu >= 0 for _, _, cpu in first + second)


def test_worker_that_cannot_import_its_tree_fails_with_its_last_error_line(tmp_path):
    package = tmp_path / "tree" / "solitaire_odds"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("raise ImportError('this tree is broken on purpose')\n")
    setup = {"game": "westcliff", "settings": {}, "budget": 1000, "warmup": 0,
             "passes": {"win_first": True, "reductions": True}}
    with pytest.raises(compare_revisions.WorkerError, match="old worker .* broken on purpose"):
        compare_revisions.Worker("old", tmp_path / "tree", tmp_path / "numba", setup, tmp_path)
