"""The sweeps notebook runs end to end on a tiny depth sweep (reading the committed piles
table), so it never goes stale."""

import pytest

from solitaire_odds.research import results
from solitaire_odds.runs import catalog

from .notebooks import executed_outputs

pytestmark = pytest.mark.slow  # a Jupyter kernel and a run


def test_westcliff_sweeps_notebook_executes_and_draws_its_charts(tmp_path, monkeypatch):
    settings = {"DEALS": "4", "BUDGET": "1e3", "PLAYERS": "solver,greedy", "ROOT": str(tmp_path), "WORKERS": "1"}
    outputs = executed_outputs("westcliff_sweeps.ipynb", settings, monkeypatch)
    assert sum("image/png" in o.get("data", {}) for o in outputs) == 3
    printed = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert "westcliff tableau.piles=12 deal.rows_down=4: refused (" in printed
    summary = results.summarize_runs(catalog.find_runs(tmp_path))
    assert len(summary) == 2 * 14 and set(summary["deals"]) == {4}
