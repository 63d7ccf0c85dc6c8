"""Numbers as people type them on a command line: ``100000``, ``1e5``, ``100k``, ``1M``.

Each parser returns a whole number within the bounds the program can honour, or raises
:class:`InputError` with one line naming the option and the value expected, so that no input
reaches a kernel (64-bit integers) or an allocation it cannot take.
"""

from __future__ import annotations

import math

from .game.deals import MAX_DEAL

MAX_BUDGET = 10**12
"""Nodes per search: far beyond what finishes in a day, and well inside the kernels' int64."""


class InputError(ValueError):
    """A value typed on the command line that cannot be used; exit status 2 (a usage error)."""

    exit_code = 2


def parse_count(text: str, what: str, most: int | None = None, least: int = 1) -> int:
    """``100000``, ``1e5``, ``100k``, ``1M`` -> int in least..most (plain digits exactly, even
    past 2**53, so a 64-bit deal number survives)."""
    t = str(text).strip().lower().replace("_", "").replace(",", "")
    scale = 1
    if t.endswith("k"):
        scale, t = 1_000, t[:-1]
    elif t.endswith("m"):
        scale, t = 1_000_000, t[:-1]
    try:
        value = int(t) * scale if t.isdigit() else float(t) * scale
    except ValueError:
        raise InputError(f"{what} must be a number such as 100000, 1e5 or 100k, not {text!r}") from None
    if not math.isfinite(value) or value != int(value) or value < least:
        raise InputError(f"{what} must be a whole number >= {least}, not {text!r}")
    if most is not None and value > most:
        raise InputError(f"{what} must be at most {most:,}, not {text!r}")
    return int(value)


def parse_budgets(text: str) -> tuple[int, ...]:
    """A node budget or a growing escalation such as ``1e5,1e6``."""
    budgets = tuple(parse_count(part, "--budget", MAX_BUDGET) for part in str(text).split(","))
    if list(budgets) != sorted(set(budgets)):
        raise InputError(f"--budget escalation must grow: {text!r}")
    return budgets


def parse_seconds(text: str, what: str, least: float = 0.0) -> float:
    """A number of CPU-seconds such as ``2`` or ``0.5``, ``least`` or more (and finite)."""
    try:
        value = float(str(text).strip())
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value >= least):
        raise InputError(f"{what} must be a number of seconds, {least:g} or more, not {text!r}")
    return value


def parse_seed(text: str) -> int:
    """A seed of a player's random draws: any 64-bit deal-like number."""
    try:
        seed = int(text)
    except ValueError:
        raise InputError(f"--seed must be a whole number, not {text!r}") from None
    if not 0 <= seed <= MAX_DEAL:
        raise InputError(f"--seed must lie in 0..{MAX_DEAL}, not {seed}")
    return seed
