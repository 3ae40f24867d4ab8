"""Optimal strategy: the solver and its table cache, the advisor (numpy/numba; core only).

Submodules are imported on demand (`fivedice.strategy.solver`, `.cache`, `.advisor`) so that
importing the package stays cheap.
"""
