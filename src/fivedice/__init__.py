"""fivedice: a Yahtzee-compatible dice game and exact strategy engine.

The library API (documented with examples in the README, "Python API"):

    from fivedice import RuleSet, Card, score, solve, advise, simulate

Importing the package loads only the pure core; numpy and numba load on the first call that
needs the strategy layer (`solve`, `advise`, `simulate`).
"""

from fivedice.library import Advice, AdviceOption, Card, RuleSet, advise, score, simulate, solve

__all__ = [
    "Advice",
    "AdviceOption",
    "Card",
    "RuleSet",
    "__version__",
    "advise",
    "score",
    "simulate",
    "solve",
]

__version__ = "0.1.0"
