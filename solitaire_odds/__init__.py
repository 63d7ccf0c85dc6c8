"""solitaire-odds: Monte Carlo win odds of patience games, decided by a sound numba solver.

``solitaire_odds.odds("westcliff", deals=10_000, budget=1e5)`` runs an estimate in one call
(see :mod:`.estimate`); the command line is ``solitaire-odds`` or ``python -m solitaire_odds``.
"""

from .version import VERSION as __version__
__all__ = ["odds", "__version__"]


def __getattr__(name):
    """``odds`` is imported on first use, so that ``import solitaire_odds`` stays light."""
    if name == "odds":
        from .runs.estimate import odds

        return odds
    raise AttributeError(f"module 'solitaire_odds' has no attribute {name!r}")
