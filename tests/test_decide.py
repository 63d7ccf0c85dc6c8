"""experiments/decide.py: its rows are the same whether one process or several solve the deals."""

from pathlib import Path

import pandas as pd

from solitaire_odds.engine import api
from solitaire_odds.game import deals, reference
from solitaire_odds.rules import resolve
from solitaire_odds.solver import Solver

from .experiment_scripts import run_script


def decide(csv: Path, workers: int) -> pd.Series:
    """The script's one row for 23 deals of Classic Westcliff on the ladder 1e3, 1e4, run as a
    person runs it."""
    run_script("decide.py", "--rules", "westcliff-classic", "--deals", "23", "--budgets", "1000,10000",
               "--escalate", "--workers", str(workers), "--csv", str(csv), check=True)
    [row] = pd.read_csv(csv).to_dict("records")
    return pd.Series(row)


def test_a_row_is_the_same_with_one_worker_or_two(tmp_path):
    alone = decide(tmp_path / "alone.csv", 1)
    shared = decide(tmp_path / "shared.csv", 2)
    assert alone["won"] + alone["lost"] + alone["unknown"] == 23
    assert alone["won"] > 0 and alone["unknown"] > 0, "deals of every kind, or the comparison means little"
    pd.testing.assert_series_equal(alone.drop("cpu_per_deal"), shared.drop("cpu_per_deal"))


def test_the_prover_step_is_a_row_of_its_own(tmp_path):
    """With --prover-seconds the row records it, keeps the row without it, and the table says so;
    --unknowns lists the deals left unknown; a negative budget is a usage error."""
    csv = tmp_path / "deciding.csv"
    for seconds in ("0", "1"):
        run_script("decide.py", "--rules", "westcliff-classic", "--deals", "20", "--budgets", "1000",
                   "--prover-seconds", seconds, "--csv", str(csv), "--unknowns", str(tmp_path / f"unknown{seconds}.csv"),
                   check=True)
    table = pd.read_csv(csv)
    assert sorted(table["prover_seconds"]) == [0.0, 1.0]
    assert table["unknown"].min() > 0, "deals left unknown, or the listing is not checked"
    for seconds, row in zip(table["prover_seconds"], table.itertuples()):
        left = pd.read_csv(tmp_path / f"unknown{seconds:g}.csv")
        assert len(left) == row.unknown and set(left["deal"]) <= set(range(20))
        assert (left["nodes_by_step"].str.contains("search")).all()
    shown = run_script("decide.py", "--markdown", "--csv", str(csv), check=True).stdout
    assert "1e3 + prover 1 s" in shown and "| 1e3 |" in shown
    refused = run_script("decide.py", "--prover-seconds", "-1")
    assert refused.returncode == 2 and "--prover-seconds" in refused.stderr


def test_the_unknowns_say_how_far_the_finders_line_got(tmp_path):
    """--unknowns on St. Helena at 1e4: each deal left unknown gets the cards on the foundations
    and the redeals made at the end of the deepest line the finders met, as the reference counts
    them when that line (read from a solver solving the deal alike) is replayed."""
    listing = tmp_path / "unknowns.csv"
    run_script("decide.py", "--rules", "st-helena", "--deals", "3", "--budgets", "10000",
               "--csv", str(tmp_path / "deciding.csv"), "--unknowns", str(listing), check=True)
    left = pd.read_csv(listing)
    assert len(left) > 0, "a deal left unknown, or nothing is checked"
    rules = resolve("st-helena")
    solver = Solver(rules, budget=10_000)
    for row in left.itertuples():
        assert solver.solve(deal=row.deal).verdict == "unknown"
        finder = max((f for f in (solver._finder, solver._rounds) if f is not None), key=lambda f: f.most_cards)
        line, _ = finder.deepest_line(api.first_state(finder.pa, deals.deck(row.deal, 104)))
        end = reference.replay(rules, deals.deck(row.deal, 104), [api.move_tuple(r, finder.pa) for r in line])
        assert (row.deepest_cards, row.deepest_redeals, row.redeals) == (sum(end.found), end.redeals_used, 2)
        assert "search" in row.nodes_by_step
