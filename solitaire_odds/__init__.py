"""solitaire-odds: Monte Carlo win odds of patience games, decided by a sound numba solver."""

__version__ = "0.1.0"
