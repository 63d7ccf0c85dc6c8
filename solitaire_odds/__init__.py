"""solitaire-odds: Monte Carlo win odds of patience games, decided by a sound numba solver.

``solitaire_odds.odds("westcliff", deals=10_000, budget=1e5)`` runs an estimate in one call
(see :mod:`.estimate`), and ``solitaire_odds.sweep("westcliff", {"tableau.piles": range(6, 13)})``
a table of the odds as rules vary (see :mod:`.research.sweep`); the command line is
``solitaire-odds`` or ``python -m solitaire_odds``.
"""

from .version import VERSION as __version__
__all__ = ["odds", "sweep", "__version__"]


def __getattr__(name):
    """``odds`` and ``sweep`` are imported on first use, so that ``import solitaire_odds``
    stays light."""
    if name == "odds":
        from .runs.estimate import odds

        return odds
    if name == "sweep":
        from .research.sweep import sweep

        return sweep
    raise AttributeError(f"module 'solitaire_odds' has no attribute {name!r}")
