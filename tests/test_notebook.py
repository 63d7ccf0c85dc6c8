"""The notebook runs end to end on a tiny run, so it never goes stale."""

import pytest

from solitaire_odds.research import results
from solitaire_odds.runs import catalog

from .notebooks import executed_outputs

pytestmark = pytest.mark.slow  # a Jupyter kernel and a run


def test_compare_variants_notebook_executes_and_draws_its_charts(tmp_path, monkeypatch):
    settings = {"DEALS": "8", "BUDGET": "1e3,1e4", "PLAYERS": "solver,random", "ROOT": str(tmp_path), "WORKERS": "1"}
    outputs = executed_outputs("compare_variants.ipynb", settings, monkeypatch)
    assert sum("image/png" in o.get("data", {}) for o in outputs) == 4
    summary = results.summarize_runs(catalog.find_runs(tmp_path))
    assert len(summary) == 6 and set(summary["deals"]) == {8}
