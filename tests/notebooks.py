"""Running a notebook of notebooks/ as a test: its settings from the environment, its outputs."""

from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).parent.parent / "notebooks"


def executed_outputs(name: str, settings: dict, monkeypatch) -> list:
    """The code cells' outputs of notebook ``name`` run with ``settings`` (each read by the
    notebook as SOLITAIRE_ODDS_NB_<KEY>); none of them may be an error."""
    for key, value in settings.items():
        monkeypatch.setenv(f"SOLITAIRE_ODDS_NB_{key}", value)
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    NotebookClient(notebook, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    outputs = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    return outputs
