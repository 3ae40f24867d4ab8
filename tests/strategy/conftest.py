"""Shared solved tables: every rule set is solved at most once per test session."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from fivedice.core.rules import RuleSet, find_ruleset
from fivedice.strategy.solver import StrategyTable, solve

_SOLVED: dict[RuleSet, StrategyTable] = {}


def solved(rules: RuleSet) -> StrategyTable:
    """The table of these rules, solved on first use (no disk cache involved)."""
    if rules not in _SOLVED:
        _SOLVED[rules] = solve(rules)
    return _SOLVED[rules]


@pytest.fixture(scope="session")
def solved_table() -> Callable[[RuleSet], StrategyTable]:
    return solved


@pytest.fixture(scope="session")
def classic_table() -> StrategyTable:
    return solved(find_ruleset("classic"))


@pytest.fixture(scope="session")
def free_choice_table() -> StrategyTable:
    return solved(find_ruleset("free-choice"))
