"""Solved strategy tables shared by the whole test session: each rule set is solved once, and
the tables computed from a solved one (moments, breakdowns) are computed once too."""

from __future__ import annotations

from fivedice.core.rules import RuleSet
from fivedice.strategy.breakdown import BreakdownTable, compute_breakdown
from fivedice.strategy.moments import MomentTable, compute_moments
from fivedice.strategy.solver import StrategyTable, solve

_SOLVED: dict[RuleSet, StrategyTable] = {}
_MOMENTS: dict[RuleSet, MomentTable] = {}
_BREAKDOWNS: dict[RuleSet, BreakdownTable] = {}


def solved(rules: RuleSet) -> StrategyTable:
    """The table of these rules, solved on first use (no disk cache involved)."""
    if rules not in _SOLVED:
        _SOLVED[rules] = solve(rules)
    return _SOLVED[rules]


def moments(table: StrategyTable) -> MomentTable:
    """The moment table of a solved table, computed on first use (seconds of CPU each)."""
    if table.rules not in _MOMENTS:
        _MOMENTS[table.rules] = compute_moments(table)
    return _MOMENTS[table.rules]


def breakdown(table: StrategyTable) -> BreakdownTable:
    """The breakdown table of a solved table, computed on first use (seconds of CPU each)."""
    if table.rules not in _BREAKDOWNS:
        _BREAKDOWNS[table.rules] = compute_breakdown(table)
    return _BREAKDOWNS[table.rules]
