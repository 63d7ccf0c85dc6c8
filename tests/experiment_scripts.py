"""Running a script of experiments/ as a person runs it, with the checkout's package first on
the path."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_script(name: str, *arguments: str, check: bool = False) -> subprocess.CompletedProcess:
    """``python experiments/<name> ARGUMENTS``, its output captured as text."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, str(ROOT / "experiments" / name), *arguments],
                          check=check, capture_output=True, text=True, env=env)
