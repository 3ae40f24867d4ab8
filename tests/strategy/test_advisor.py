"""The advisor: Verhoeff's worked decisions and the shape of the option lists."""

from __future__ import annotations

import pytest

from fivedice.core.card import Column
from fivedice.core.categories import Category
from fivedice.core.dice import keep_outcomes, sub_multisets
from fivedice.core.errors import DiceError
from fivedice.strategy.advisor import Option, advise, expected_loss
from fivedice.strategy.solver import StrategyTable

pytestmark = pytest.mark.slow


def _value(options: list[Option], choice: tuple[int, ...] | Category) -> float:
    for option in options:
        if option.category is choice or option.keep == choice:
            return option.value
    raise AssertionError(f"{choice} missing")


def test_verhoeff_decisions(free_choice_table: StrategyTable) -> None:
    # Verhoeff's optimal-strategy pages, first turn of a game under free-choice jokers. The
    # card is empty, so an option's value is also the expected final score.
    empty = Column.empty()
    options = advise(free_choice_table, empty, (1, 1, 6, 6, 6), 2)
    assert options[0].keep == (6, 6, 6)
    assert options[0].value == pytest.approx(265.1155, abs=1e-4)

    options = advise(free_choice_table, empty, (1, 3, 4, 1, 6), 1)
    assert options[0].keep == (3, 4)
    assert _value(options, (3, 4)) == pytest.approx(245.1650, abs=1e-4)
    assert _value(options, (1, 1)) == pytest.approx(245.1426, abs=1e-4)

    options = advise(free_choice_table, empty, (6, 6, 6, 6, 1), 0)
    assert options[0].category is Category.SIXES
    assert options[0].value == pytest.approx(268.2339, abs=1e-4)
    assert _value(options, Category.FOUR_OF_A_KIND) == pytest.approx(260.5409, abs=1e-4)


@pytest.mark.parametrize(
    ("dice", "rolls_left"),
    [((1, 1, 6, 6, 6), 2), ((1, 2, 3, 4, 5), 1), ((4, 4, 4, 4, 4), 1), ((2, 3, 3, 5, 6), 0)],
)
def test_option_lists(classic_table: StrategyTable, dice: tuple[int, ...], rolls_left: int) -> None:
    rules = classic_table.rules
    column = Column.from_scores(rules, {"yahtzee": 50, "fours": 12, "chance": 20})
    options = advise(classic_table, column, dice, rolls_left)
    keeps = [o.keep for o in options if o.keep is not None]
    boxes = [o.category for o in options if o.category is not None]
    assert all((o.keep is None) != (o.category is None) for o in options)
    expected_keeps = set(sub_multisets(tuple(sorted(dice)))) if rolls_left else set()
    assert len(keeps) == len(set(keeps)) and set(keeps) == expected_keeps
    assert {p.category for p in column.placements(rules, dice)} == set(boxes)
    values = [o.value for o in options]
    assert values == sorted(values, reverse=True)
    assert options[0].loss == 0.0
    assert all(o.loss == pytest.approx(values[0] - o.value) for o in options)
    if rolls_left:
        # Keeping all five and re-rolling nothing is worth the best box with one roll fewer.
        later = advise(classic_table, column, dice, rolls_left - 1)
        assert _value(options, tuple(sorted(dice))) == pytest.approx(later[0].value, abs=1e-5)
        # A keep is worth the probability-weighted best option over its outcomes.
        keep = tuple(sorted(dice))[:2]
        weighted = sum(
            float(p) * advise(classic_table, column, roll, rolls_left - 1)[0].value
            for roll, p in keep_outcomes(keep)
        )
        assert sum(float(p) for _, p in keep_outcomes(keep)) == pytest.approx(1.0)
        assert _value(options, keep) == pytest.approx(weighted, abs=1e-5)


def test_expected_loss(free_choice_table: StrategyTable) -> None:
    options = advise(free_choice_table, Column.empty(), (1, 1, 3, 4, 6), 1)
    assert expected_loss(options, (4, 3)) == 0.0
    assert expected_loss(options, [1, 1]) == pytest.approx(245.1650 - 245.1426, abs=2e-4)
    assert expected_loss(options, Category.CHANCE) > 0
    with pytest.raises(ValueError, match="not a legal option"):
        expected_loss(options, (5,))
    assert options[0].label == "keep 3 4"
    assert any(o.label == "keep nothing" for o in options)
    assert any(o.label == "score chance" for o in options)


def test_bad_decisions_are_refused(classic_table: StrategyTable) -> None:
    with pytest.raises(DiceError):
        advise(classic_table, Column.empty(), (1, 2, 3, 4), 1)
    with pytest.raises(DiceError):
        advise(classic_table, Column.empty(), (1, 2, 3, 4, 7), 1)
    for rolls_left in (-1, 3, 10**6, 2**63 - 1, 10**20):
        with pytest.raises(ValueError, match="from 0 to 2"):
            advise(classic_table, Column.empty(), (1, 2, 3, 4, 5), rolls_left)
    with pytest.raises(ValueError, match="complete"):
        advise(classic_table, Column(tuple([0] * 13)), (1, 2, 3, 4, 5), 0)
