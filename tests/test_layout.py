"""The package's sub-packages import each other in one direction: no import circle, even through
imports inside functions (``experiments/package_imports.py`` prints the layout)."""

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).parent.parent / "experiments" / "package_imports.py"


def test_no_import_circle():
    done = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout.split("## import circles", 1)[-1]
    assert "runs.runner: " in done.stdout and "\nnone" in done.stdout
