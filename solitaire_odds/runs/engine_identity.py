"""Which engine a verdict came from: a digest of the sources that decide verdicts.

A run's verdicts depend on its rules, its player's parameters, its deal numbers, and the code
that searches: the engine has changed verdicts many times while the package's version stayed
the same. So every manifest, chunk and verdict file records :func:`engine_digest`, and a resume
or a merge of work of two engines is refused unless asked for (``--allow-other-engine``), the
mix then shown by ``summary`` and ``table``.

The digest is a hash of source text rather than a version number bumped by hand: a hand-kept
number is only as good as the memory of whoever changes a kernel, and one forgotten bump lets
two engines' verdicts merge without a word, while a hash can only err the safe way (a change
that cannot alter a verdict, a comment, still counts as another engine: the cost is a flag).
It covers :data:`SOURCES`, every module a player's verdict goes through (the search and its
reductions, the solver and its escalation, the players, the rules and their compilation, the
deal numbering); tests/test_engine_identity.py checks that their imports within the package
stay inside that set. To be the same on every machine and checkout, it reads the files as
bytes, with line endings made ``\\n``, in the order of their paths relative to the package
(written with ``/``), each path hashed with its text.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent
SOURCES = ("engine/*.py", "solver.py", "steps.py", "outcome.py", "players/*.py", "prover/*.py", "rules/*.py",
           "game/deals.py", "game/cards.py", "game/position.py")
"""The package's files (globs relative to it) whose code can change a verdict."""
UNRECORDED = "unrecorded"
"""The engine of work recorded before engines were: chunks and verdict files without a digest."""
FLAG = "--allow-other-engine"


def source_files(package: Path = PACKAGE) -> list[Path]:
    """The files :func:`engine_digest` reads, in the order it reads them."""
    found = {path for pattern in SOURCES for path in package.glob(pattern) if path.is_file()}
    return sorted(found, key=lambda path: path.relative_to(package).as_posix())


def digest_of(package: Path = PACKAGE) -> str:
    """The engine digest of the package at ``package`` (12 hex digits)."""
    hasher = hashlib.sha256()
    for path in source_files(package):
        text = path.read_bytes().replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        hasher.update(path.relative_to(package).as_posix().encode("utf-8") + b"\0")
        hasher.update(hashlib.sha256(text).digest())
    return hasher.hexdigest()[:12]


@lru_cache(maxsize=1)
def engine_digest() -> str:
    """This process's engine: the digest of the sources it imported (read once)."""
    return digest_of()


def mixed_text(engines) -> str:
    """The engines of a result for a table: one digest, or ``mixed: a, b``."""
    engines = sorted(set(engines))
    if not engines:
        return "-"
    return engines[0] if len(engines) == 1 else "mixed: " + ", ".join(engines)
