"""Every option at a decision point with its optimal value, best first.

A decision point is a column, five dice and the rolls left. The options are each distinct keep
(when a roll is left; from keeping nothing to keeping all five) and each legal box
(`Column.placements`). An option's value is the expected points still to come from this
decision on under optimal play: the box's points and bonuses included, the points already on
the card excluded.

A query is one numba call (`solver.advice_options`) that values and sorts every option; the
Python side only checks the input and turns option codes into `Option` tuples.
"""

from __future__ import annotations

import functools
import itertools
import threading
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from fivedice.core.card import Column
from fivedice.core.categories import CATEGORIES, Category
from fivedice.core.dice import ALL_KEEPS, Roll, check_roll
from fivedice.core.rules import RuleSet
from fivedice.strategy.solver import (
    ADVICE_WORK,
    FULL_MASK,
    KEEPS,
    MAX_OPTIONS,
    OPTION_BOXES,
    ROLL_INDEX,
    StrategyTable,
    advice_options,
    column_state,
)

__all__ = ["Option", "advise", "expected_loss"]


class Option(NamedTuple):
    """One choice: re-roll after keeping `keep`, or score in `category` (exactly one is set).

    An immutable named tuple: cheap to build, as a query returns up to 45 of them.

    Attributes:
        keep: the dice held (sorted) before re-rolling the others, or None.
        category: the box to score in now, or None.
        value: expected points still to come after this choice, under optimal play.
        loss: the best option's value minus this one's (0 for the best).
    """

    keep: Roll | None
    category: Category | None
    value: float
    loss: float = 0.0

    @property
    def label(self) -> str:
        """The option in words, e.g. "keep 6 6 6", "keep nothing" or "score sixes"."""
        if self.category is not None:
            return f"score {self.category.key}"
        return "keep " + (" ".join(map(str, self.keep)) if self.keep else "nothing")


# Option code (see `solver.OPTION_BOXES`) -> the option's keep and box.
_KEEP_OF: tuple[Roll | None, ...] = (None,) * OPTION_BOXES + ALL_KEEPS
_CATEGORY_OF: tuple[Category | None, ...] = (*CATEGORIES, *(None,) * KEEPS)
_new = tuple.__new__  # Option from (keep, category, value, loss), skipping Option.__new__
_INT_ONLY = {int}
# Every five dice in any order -> the index of the sorted roll in `ALL_ROLLS` (7,776 entries:
# cheaper than sorting each query's dice).
_ROLL_OF: dict[tuple[int, ...], int] = {
    dice: ROLL_INDEX[tuple(sorted(dice))] for dice in itertools.product(range(1, 7), repeat=5)
}
# The engine's output buffers and memoryviews of them (slicing these costs less), per thread
# (the kernel releases the GIL); reused, as their contents are copied out at once: cheaper
# than allocating, or than numba returning arrays.
_buffers = threading.local()


def advise(
    table: StrategyTable, column: Column, dice: Sequence[int], rolls_left: int
) -> list[Option]:
    """Every legal option at a decision point with its value, best first.

    Equal values list boxes (in card order) before keeps (smallest first).

    Args:
        table: the solved rules.
        column: the card (one column) before this decision.
        dice: the five dice showing.
        rolls_left: rolls still allowed this turn (0: the dice must be scored).

    Raises:
        DiceError: not five dice 1-6.
        ValueError: rolls left outside 0 to rolls_per_turn - 1, or a complete card.
    """
    # This runs once per coach hint and per bot decision: kept lean on purpose.
    try:
        roll = _ROLL_OF.get(dice if type(dice) is tuple else tuple(dice))
    except TypeError:  # unhashable values
        roll = None
    if roll is None or not _INT_ONLY.issuperset(map(type, dice)):
        # Not five plain ints 1-6: check_roll raises, or accepts (e.g. an int subclass).
        roll = ROLL_INDEX[check_roll(dice)]
    if not 0 <= rolls_left < table.rules.rolls_per_turn:
        raise ValueError(
            f"rolls left must be from 0 to {table.rules.rolls_per_turn - 1}, not {rolls_left}"
        )
    mask, upper_total, armed = column_state(table.rules, column)
    if mask == table.full_mask:
        raise ValueError("the card is complete: there is nothing to decide")
    try:
        codes_buffer, work, codes_view, work_view = _buffers.all
    except AttributeError:  # this thread's first query
        codes_buffer = np.empty(MAX_OPTIONS, dtype=np.int64)
        work = np.empty(ADVICE_WORK)
        codes_view, work_view = codes_buffer.data, work.data
        _buffers.all = (codes_buffer, work, codes_view, work_view)
    count = advice_options(
        mask, upper_total, armed, roll, rolls_left, table.values, table.packed_rules,
        codes_buffer, work,
    )  # fmt: skip
    codes: list[int] = codes_view[:count].tolist()
    values_and_losses = iter(work_view[: 2 * count].tolist())
    keep_of, category_of = (
        (_KEEP_OF, _CATEGORY_OF) if mask <= FULL_MASK and table.full_mask == FULL_MASK
        else _option_maps(table.rules)
    )  # fmt: skip
    return [
        _new(Option, (keep_of[code], category_of[code], value, loss))
        for code, value, loss in zip(codes, values_and_losses, values_and_losses, strict=True)
    ]


@functools.lru_cache(maxsize=8)
def _option_maps(
    rules: RuleSet,
) -> tuple[tuple[Roll | None, ...], tuple[Category | None, ...]]:
    """The keep and the box of each option code for a card of other boxes than the classic
    thirteen (codes below the number of boxes are boxes: `solver.advice_options`)."""
    boxes = rules.boxes
    return (None,) * len(boxes) + ALL_KEEPS, (*boxes, *(None,) * KEEPS)


def expected_loss(options: Sequence[Option], chosen: Sequence[int] | Category) -> float:
    """The expected points lost by a choice against the best option.

    Args:
        options: the result of `advise`.
        chosen: a keep (dice held, any order) or a box.

    Raises:
        ValueError: the choice is not among the options.
    """
    for option in options:
        if isinstance(chosen, Category):
            if option.category == chosen:
                return option.loss
        elif option.keep is not None and option.keep == tuple(sorted(chosen)):
            return option.loss
    raise ValueError(f"{chosen!r} is not a legal option here")


def roll_index(dice: Sequence[int]) -> int:
    """Position of five dice in `ALL_ROLLS` (for reading `TurnValues` arrays)."""
    return ROLL_INDEX[check_roll(dice)]
