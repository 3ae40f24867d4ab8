"""Solved strategy tables shared by the whole test session: each rule set is solved once."""

from __future__ import annotations

from fivedice.core.rules import RuleSet
from fivedice.strategy.solver import StrategyTable, solve

_SOLVED: dict[RuleSet, StrategyTable] = {}


def solved(rules: RuleSet) -> StrategyTable:
    """The table of these rules, solved on first use (no disk cache involved)."""
    if rules not in _SOLVED:
        _SOLVED[rules] = solve(rules)
    return _SOLVED[rules]
