"""The game in plain Python: cards, numbered deals, positions, and the reference implementation
of the rules (slow and simple, the oracle the numba engine is tested against)."""
