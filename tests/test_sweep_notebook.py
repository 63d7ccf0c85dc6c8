"""The sweeps notebook runs end to end on a tiny depth sweep (reading the committed piles
table), so it never goes stale."""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from solitaire_odds.research import results
from solitaire_odds.runs import catalog

pytestmark = pytest.mark.slow  # a Jupyter kernel and a run

NOTEBOOK = Path(__file__).parent.parent / "notebooks" / "westcliff_sweeps.ipynb"


def test_westcliff_sweeps_notebook_executes_and_draws_its_charts(tmp_path, monkeypatch):
    for key, value in {"DEALS": "4", "BUDGET": "1e3", "PLAYERS": "solver,greedy", "ROOT": str(tmp_path),
                       "WORKERS": "1"}.items():
        monkeypatch.setenv(f"SOLITAIRE_ODDS_NB_{key}", value)
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(notebook, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    outputs = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert sum("image/png" in o.get("data", {}) for o in outputs) == 3
    printed = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert "westcliff tableau.piles=12 deal.rows_down=4: refused (" in printed
    summary = results.summarize_runs(catalog.find_runs(tmp_path))
    assert len(summary) == 2 * 14 and set(summary["deals"]) == {4}
