"""The numba engine: one set of kernels over a flat state for all seven games."""
