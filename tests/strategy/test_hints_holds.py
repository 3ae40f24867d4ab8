"""The positions a hint holds for each keep, found once per roll (`holds_finder`), are the ones
`hold_positions` finds keep by keep: held dice first, then from the left."""

from __future__ import annotations

import itertools
import random

import pytest

from fivedice.core.dice import ALL_ROLLS
from fivedice.strategy.hints import hold_positions, holds_finder


def _keeps(dice: tuple[int, ...]) -> set[tuple[int, ...]]:
    return {
        tuple(sorted(dice[i] for i in chosen))
        for size in range(len(dice) + 1)
        for chosen in itertools.combinations(range(len(dice)), size)
    }


def test_every_keep_of_every_roll_in_every_order_and_holding_is_held_alike() -> None:
    """Each of the 252 rolls in a random order of its dice, with a random set held, and each
    of its distinct keeps (2,000 dice and holdings in all, up to 32 keeps each)."""
    rng = random.Random(4)
    checked = 0
    for roll in ALL_ROLLS * 8:
        dice = tuple(rng.sample(roll, len(roll)))
        held = tuple(rng.random() < 0.4 for _ in dice)
        holds = holds_finder(dice, held)
        for keep in _keeps(dice):
            assert holds(keep) == tuple(sorted(hold_positions(dice, held, keep)))
            checked += 1
    assert checked > 20_000


@pytest.mark.parametrize("keep", [(4,), (2, 2), (1, 2, 3, 4, 5, 6)])
def test_a_keep_not_among_the_dice_is_refused(keep: tuple[int, ...]) -> None:
    holds = holds_finder((2, 3, 5, 6, 1), (False,) * 5)
    with pytest.raises(ValueError, match="cannot keep"):
        holds(keep)
    with pytest.raises(ValueError, match="cannot keep"):
        hold_positions((2, 3, 5, 6, 1), (False,) * 5, keep)
