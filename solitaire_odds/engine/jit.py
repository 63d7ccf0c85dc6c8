"""How the search kernels are compiled, in one place.

Cached on disk (``cache=True``), so a run compiles once per machine. Without numba's reference
counting (``_nrt=False``): the kernels never allocate, every array they touch is owned by the
caller for the whole call, and the atomic count updates on each array passed or sliced cost
about a quarter of the search's time. A kernel that allocates must use plain ``njit`` instead.
"""

from numba import njit

kernel = njit(cache=True, _nrt=False)
inline_kernel = njit(cache=True, inline="always", _nrt=False)
