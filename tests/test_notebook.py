"""The notebook runs end to end on a tiny run, so it never goes stale."""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from solitaire_odds.research import results
from solitaire_odds.runs import catalog

pytestmark = pytest.mark.slow  # a Jupyter kernel and a run

NOTEBOOK = Path(__file__).parent.parent / "notebooks" / "compare_variants.ipynb"


def test_compare_variants_notebook_executes_and_draws_its_charts(tmp_path, monkeypatch):
    for key, value in {"DEALS": "8", "BUDGET": "1e3,1e4", "PLAYERS": "solver,random",
                       "ROOT": str(tmp_path), "WORKERS": "1"}.items():
        monkeypatch.setenv(f"SOLITAIRE_ODDS_NB_{key}", value)
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(notebook, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    outputs = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert sum("image/png" in o.get("data", {}) for o in outputs) == 4
    summary = results.summarize_runs(catalog.find_runs(tmp_path))
    assert len(summary) == 6 and set(summary["deals"]) == {8}
