"""experiments/decide.py: its rows are the same whether one process or several solve the deals."""

import importlib
import sys
from pathlib import Path

EXPERIMENTS = Path(__file__).resolve().parents[1] / "experiments"
sys.path.insert(0, str(EXPERIMENTS))  # decide imports common
decide = importlib.import_module("decide")


def test_a_row_is_the_same_with_one_worker_or_two():
    alone = decide.measure("westcliff-classic", 23, [1000, 10000], workers=1)
    shared = decide.measure("westcliff-classic", 23, [1000, 10000], workers=2)
    assert alone["won"] + alone["lost"] + alone["unknown"] == 23
    assert alone["won"] > 0 and alone["unknown"] > 0, "deals of every kind, or the comparison means little"
    assert {k: v for k, v in alone.items() if k != "cpu_per_deal"} == \
           {k: v for k, v in shared.items() if k != "cpu_per_deal"}
