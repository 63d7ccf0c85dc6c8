"""experiments/prove.py --verdicts: the prover starts from a verdict file's unknown deals, under
the rules the file records, and compares its verdicts with the file's."""

import pandas as pd

from solitaire_odds.rules import resolve
from solitaire_odds.runs import verdicts
from solitaire_odds.runs.runner import RunSpec

from .experiment_scripts import run_script


def test_the_prover_takes_a_verdict_files_unknowns_and_checks_its_losses(tmp_path):
    """Deals 3 and 25 of American Westcliff without spaces are lost (the schedule model is
    infeasible within a second); the file leaves them unknown and says deal 99 is lost."""
    rules = resolve("westcliff", space_fill="none")
    manifest = RunSpec.of(rules, 0, 3, player="solver", budgets=[1000]).manifest()
    rows = pd.DataFrame({"deal": [3, 25, 99], "verdict": ["unknown", "unknown", "lost"],
                         "budget": [1000] * 3, "nodes": [1000, 1000, 20]})
    file = verdicts.write(tmp_path / "none.parquet", manifest, rows)
    table = tmp_path / "tried.csv"
    done = run_script("prove.py", "--verdicts", str(file), "--seconds", "5", "--check", "1", "--csv", str(table))
    assert done.returncode == 0, done.stderr
    assert "westcliff space_fill=none" in done.stdout
    assert "1 decided by both, 0 disagreements" in done.stdout
    tried = pd.read_csv(table)
    assert tried["deal"].tolist() == [3, 25, 99]
    assert tried["search"].tolist() == ["unknown", "unknown", "lost"]
    assert tried["prover"].tolist() == ["lost", "lost", "lost"]


def test_the_prover_may_start_where_a_rung_of_the_files_ladder_stopped(tmp_path):
    """Deal 25 was decided (lost) only at the file's second rung, deal 3 not at all: from rung
    1,000 the prover tries both, and its loss on 25 is checked against the file's."""
    rules = resolve("westcliff", space_fill="none")
    manifest = RunSpec.of(rules, 0, 3, player="solver", budgets=[1000, 10_000]).manifest()
    rows = pd.DataFrame({"deal": [3, 25, 99], "verdict": ["unknown", "lost", "lost"],
                         "budget": [10_000, 10_000, 1000], "nodes": [11_000, 6_000, 20]})
    file = verdicts.write(tmp_path / "none.parquet", manifest, rows)
    done = run_script("prove.py", "--verdicts", str(file), "--seconds", "5", "--left-at", "1000")
    assert done.returncode == 0, done.stderr
    assert "on 2 unknown deals: won 0, lost 2, still unknown 0" in done.stdout
    assert "0 disagreements" in done.stdout and "DISAGREEMENT" not in done.stdout
    assert "later rungs leave 1 of them unknown, the prover decides 1 of those: 0.00% unknown" in done.stdout
    refused = run_script("prove.py", "--verdicts", str(file), "--left-at", "5000")
    assert refused.returncode == 2 and "--left-at must be a rung of the file's ladder" in refused.stderr


def test_a_missing_verdict_file_is_a_usage_error(tmp_path):
    done = run_script("prove.py", "--verdicts", str(tmp_path / "none.parquet"))
    assert done.returncode == 2 and "no verdict file" in done.stderr and done.stderr.count("\n") == 1
