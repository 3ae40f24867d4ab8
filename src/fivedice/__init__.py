"""fivedice: a Yahtzee-compatible dice game and exact strategy engine."""

__version__ = "0.1.0"
