"""Optimal strategy: the solver and its table cache, the advisor (numpy/numba; core only).

Submodules are imported on demand (`fivedice.strategy.solver`, `.cache`, `.advisor`) so that
importing the package stays cheap.
"""

from fivedice.strategy.kernel_cache import use_kernel_cache

use_kernel_cache()  # before any module of the package imports numba (see kernel_cache)
