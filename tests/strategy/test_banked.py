"""The saved-rolls player on the no-save table (`strategy.banked`): its turn expectimax with
stopping against a plain recursion on the core's dice, the bank's shape, and whole games."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from fivedice.core.dice import Roll, all_keeps, all_rolls, keep_outcomes, sub_multisets
from fivedice.core.rules import find_ruleset
from fivedice.strategy import heuristics as h
from fivedice.strategy.banked import _banked_tables, bank_values, simulate_banked
from fivedice.strategy.tables import dice_tables

MAXI = find_ruleset("maxi-yatzy")


@cache
def _outcomes(keep: Roll, dice: int) -> tuple[tuple[Roll, float], ...]:
    return tuple((roll, float(p)) for roll, p in keep_outcomes(keep, dice))


def _recursion(ends: dict[Roll, float], bank: list[float], dice: int) -> list[dict[Roll, float]]:
    """R_n(r) = max(E(r) + bank[n], best re-roll keeping a proper part of r), by the book."""
    levels = [{roll: ends[roll] + bank[0] for roll in all_rolls(dice)}]
    for n in range(1, len(bank)):
        previous = levels[-1]
        keep_value = {
            keep: sum(p * previous[roll] for roll, p in _outcomes(keep, dice))
            for keep in all_keeps(dice)
            if len(keep) < dice
        }
        levels.append(
            {
                roll: max(
                    ends[roll] + bank[n],
                    max(keep_value[k] for k in sub_multisets(roll) if len(k) < dice),
                )
                for roll in all_rolls(dice)
            }
        )
    return levels


@pytest.mark.slow
def test_turn_with_stopping_matches_the_recursion() -> None:
    dice = 6
    tables = dice_tables(dice)
    rng = np.random.default_rng(dice)
    ends = rng.uniform(0, 50, len(tables.rolls))
    bank = np.array([0.0, 1.5, 4.0, 4.5])  # stopping with more rolls left is worth more
    levels = len(bank) - 1
    keep_values = np.empty((levels, len(tables.keeps)))
    roll_values = np.empty((levels + 1, len(tables.rolls)))
    best = np.empty(len(tables.keeps))
    _banked_tables(
        ends, levels, bank, tables.add_face, tables.remove_face, keep_values, roll_values, best
    )
    expected = _recursion(dict(zip(tables.rolls, ends.tolist(), strict=True)), bank.tolist(), dice)
    for n in range(levels + 1):
        for r, roll in enumerate(tables.rolls):
            assert roll_values[n, r] == pytest.approx(expected[n][roll], abs=1e-9)


def test_banked_rolls_are_worth_nothing_when_no_turn_is_left() -> None:
    bank = bank_values(2.5, 1.0, MAXI)
    assert bank.shape[1] == len(MAXI.boxes) + 1
    assert (bank[:, 0] == 0).all()  # the last turn uses every roll
    assert bank[4, 2] == 2.5 * 2  # capped at one roll a turn left
    assert bank[1, 2] == 2.5
    assert (np.diff(bank, axis=0) >= 0).all()


@pytest.mark.slow
def test_banking_a_little_beats_never_banking() -> None:
    """Whole games (heuristic values, to keep the test free of the big table): valuing banked
    rolls makes the player stop early now and then and wins points on the same dice."""
    values = h.heuristic_values(MAXI)
    never = simulate_banked(MAXI, values, bank_values(0.0, 1.0, MAXI), 600, seed=5)
    some = simulate_banked(MAXI, values, bank_values(2.0, 2.0, MAXI), 600, seed=5)
    assert some[:, 3].mean() < never[:, 3].mean()  # fewer rolls thrown: some are banked
    assert some[:, 0].mean() > never[:, 0].mean()
