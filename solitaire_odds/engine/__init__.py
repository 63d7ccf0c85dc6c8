"""The numba engine: one set of kernels over a flat state for all seven games.

Numba's on-disk cache checks only the file that defines each function, so a kernel calling a
changed function of another file would be loaded stale (and a stale kernel may write past an
array whose size changed). The cache therefore lives in a folder named after a digest of all
engine sources, under ``NUMBA_CACHE_DIR`` when the user sets one (a cluster's shared cache), else
under the user's cache folder: any change to any engine source starts a fresh cache.
"""

import hashlib
import os
from pathlib import Path

import numba

_SOURCES = sorted(Path(__file__).parent.glob("*.py"))
ENGINE_DIGEST = hashlib.sha1(b"".join(p.read_bytes() for p in _SOURCES)).hexdigest()[:16]

if os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = str(Path(os.environ["NUMBA_CACHE_DIR"]) / ENGINE_DIGEST)
else:
    _base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    numba.config.CACHE_DIR = str(_base / "solitaire-odds" / "numba" / ENGINE_DIGEST)
