"""Fixtures of the strategy tests."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from fivedice.core.rules import RuleSet
from tests.strategy.brute import BruteForce


@pytest.fixture(scope="module")
def brute_force() -> Callable[[RuleSet], BruteForce]:
    """One brute force per rule set for a module's cases: its memo of positions is shared, so
    a case whose game passes through another case's column (a longer game in a forced fill
    order runs into the shorter one) computes that part once. Per module, so the memory
    goes with it."""
    brutes: dict[RuleSet, BruteForce] = {}

    def of(rules: RuleSet) -> BruteForce:
        if rules not in brutes:
            brutes[rules] = BruteForce(rules)
        return brutes[rules]

    return of
