"""The advisor's query reads a card's state from what the card caches (`Column.filled_mask`,
`Column.upper_total`) and the rules' armed box (`advisor.armed_rule`): the same state as
`solver.column_state`, for every single-column preset and cards at every stage."""

from __future__ import annotations

import random

import pytest

from fivedice.core.card import Column
from fivedice.core.rules import PRESETS, RuleSet
from fivedice.strategy.advisor import armed_rule
from fivedice.strategy.solver import column_state

SINGLE_COLUMN = [preset.name for preset in PRESETS if preset.rules.columns == 1]


def _query_state(rules: RuleSet, column: Column) -> tuple[int, int, bool]:
    box, when_filled = armed_rule(rules)
    held = column.scores[box] if box >= 0 else None
    armed = held is not None and (when_filled or held > 0)
    return column.filled_mask, column.upper_total, armed


@pytest.mark.parametrize("name", SINGLE_COLUMN)
def test_query_state_is_column_state(name: str) -> None:
    rules = RuleSet.preset(name)
    rng = random.Random(name)
    armed_seen = set()
    for _ in range(60):
        column = Column.empty(rules)
        assert _query_state(rules, column) == column_state(rules, column) == (0, 0, False)
        while not column.is_complete:
            # Often all of one face, so that the bonus box gets filled with and without points.
            face = rng.randint(1, 6)
            dice = (
                tuple([face] * rules.dice)
                if rng.random() < 0.2
                else tuple(rng.randint(1, 6) for _ in range(rules.dice))
            )
            placement = rng.choice(column.placements(rules, dice))
            column = column.fill(rules, placement.category, dice)
            state = column_state(rules, column)
            assert _query_state(rules, column) == state
            assert column.filled_mask == column.filled_mask  # cached: the same on a 2nd read
            armed_seen.add(state[2])
    if rules.yahtzee_bonus and rules.all_same_box is not None:
        assert armed_seen == {False, True}
