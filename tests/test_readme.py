"""The Python API page's examples (docs/api.md) run as written, in order, in a fresh folder (a
new user's first session: no results yet)."""

import re
from pathlib import Path

API_PAGE = (Path(__file__).parent.parent / "docs" / "api.md").read_text()


def python_examples() -> list[str]:
    """The ```python blocks of the Python API page."""
    return re.findall(r"```python\n(.*?)```", API_PAGE, re.S)


def test_the_api_pages_python_examples_run_as_written_in_a_fresh_folder(tmp_path, monkeypatch, capsys):
    examples = python_examples()
    assert len(examples) == 3
    monkeypatch.chdir(tmp_path)
    namespace = {}
    for code in examples:
        exec(compile(code, "docs/api.md", "exec"), namespace)
    printed = capsys.readouterr().out
    assert "westcliff run_moves=whole solver 1e5" in " ".join(printed.split())
    assert namespace["estimate"].summary.n == 1000 and namespace["greedy"].record["player"] == "greedy"
    assert namespace["result"].verdict in ("won", "lost", "unknown")
    assert len(namespace["table"]) == 2  # the two runs the first example made
    assert (tmp_path / "shares.png").read_bytes().startswith(b"\x89PNG")
