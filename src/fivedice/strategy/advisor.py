"""Every option at a decision point with its optimal value, best first.

A decision point is a column, five dice and the rolls left. The options are each distinct keep
(when a roll is left; from keeping nothing to keeping all five) and each legal box
(`Column.placements`). An option's value is the expected points still to come from this
decision on under optimal play: the box's points and bonuses included, the points already on
the card excluded.

A query is one numba call (`query`, around `solver.advice_options`) that values and sorts every
option into a small array of its own; `advise` turns that into `Option` tuples, and the public
API (`fivedice.advise`) wraps it in a lazy `fivedice.library.Advice` that builds an option only when
it is read.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from fivedice.core.card import Column
from fivedice.core.categories import CATEGORIES, Category
from fivedice.core.dice import ALL_KEEPS, Roll, check_roll
from fivedice.core.rules import BonusCondition, RuleSet
from fivedice.core.scoring import scoring_roll
from fivedice.core.wild import die_token
from fivedice.strategy.per_table import PerTable
from fivedice.strategy.solver import (
    ADVICE_WORK,
    MAX_OPTIONS,
    ROLL_INDEX,
    StrategyTable,
    advice_options,
    any_dice_options,
    column_state,
)
from fivedice.strategy.tables import dice_tables

__all__ = ["RESULT_SIZE", "Option", "advise", "expected_loss", "query"]


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
        return "keep " + (" ".join(map(die_token, self.keep)) if self.keep else "nothing")


RESULT_SIZE = 3 * MAX_OPTIONS
"""Floats in a query's result: (code, value, loss) per option."""
_new = tuple.__new__  # Option from (keep, category, value, loss), skipping Option.__new__
_INT_ONLY = {int}
# Five dice in any order -> the index of the sorted roll in `ALL_ROLLS`: each order seen is
# remembered (at most 7,776; a lookup is cheaper than sorting each query's dice), filled as
# queries come rather than all at once on import (which would cost a one-off query ~5 ms).
_ROLL_OF: dict[tuple[int, ...], int] = {}
_EMPTY_STATE = (0, 0, False)


@njit(cache=True, nogil=True)
def _advice_into(
    mask: int,
    upper_total: int,
    bonus_armed: bool,
    roll: int,
    rolls_left: int,
    table: npt.NDArray[np.float64],
    rules: npt.NDArray[np.integer[Any]],
    out: npt.NDArray[np.float64],
) -> int:  # pragma: no cover - compiled by numba (checked through `query`)
    """`advice_options` with its result copied into `out` as (code, value, loss) triples, so
    that each query's result is one small array of its own (its scratch is allocated here,
    which costs less than handing buffers across the call)."""
    codes = np.empty(MAX_OPTIONS, dtype=np.int64)
    work = np.empty(ADVICE_WORK)
    count = advice_options(
        mask, upper_total, bonus_armed, roll, rolls_left, table, rules, codes, work
    )
    for i in range(count):
        out[3 * i] = codes[i]
        out[3 * i + 1] = work[2 * i]
        out[3 * i + 2] = work[2 * i + 1]
    return count


class Engine:
    """What a query needs of one table, looked up once: its arrays, its rules, and the compiled
    `_advice_into` for exactly these argument types.

    Calling a numba function through its dispatcher first types every argument to pick the
    compiled version; for a table's own arrays that choice never changes, so it is made once
    here (the dispatcher compiles or loads it, for the arrays' actual types) and the compiled
    entry point is called directly, which saves the typing (about 0.2 µs of a 5 µs query). Its
    arguments must then keep those types: the same arrays, ints and a bool (`query` checks
    `rolls_left` and computes the rest itself). Interpreted (`strategy.interpreted`), the
    kernel is the plain function.
    """

    __slots__ = (
        "armed_box",
        "armed_when_filled",
        "box_key_of",
        "category_of",
        "dice",
        "full_mask",
        "keep_of",
        "kernel",
        "packed",
        "rolls_per_turn",
        "rules",
        "table",
        "tables",
        "values",
    )

    def __init__(self, table: StrategyTable) -> None:
        self.table = weakref.ref(table)  # weak: `_engine` drops it with its table
        self.rules = table.rules
        self.rolls_per_turn = table.rules.rolls_per_turn
        # Option codes: a code below the number of boxes B is the box at that place on the
        # card, a code c >= B keeps ALL_KEEPS[c - B] (see `solver.advice_options`).
        boxes: tuple[Category, ...] = tuple(table.rules.boxes)
        if boxes == CATEGORIES:  # the classic card: its boxes themselves (callers use `is`)
            boxes = CATEGORIES
        self.full_mask = (1 << len(boxes)) - 1
        # Six dice (Maxi Yatzy) or the wild die: their own keeps, and
        # `solver.any_dice_options` (no kernel).
        self.dice = table.rules.dice
        self.tables = dice_tables(self.dice, table.rules.wild_die)
        keeps = ALL_KEEPS if self.tables.keeps == ALL_KEEPS else self.tables.keeps
        self.keep_of: tuple[Roll | None, ...] = (None,) * len(boxes) + keeps
        self.box_key_of: tuple[str | None, ...] = (
            *(box.key for box in boxes),
            *(None,) * len(keeps),
        )
        self.category_of: tuple[Category | None, ...] = (*boxes, *(None,) * len(keeps))
        # The bonus is armed when this box (-1: none) holds a score (> 0 unless
        # `armed_when_filled`): as `solver.column_state`, from the column's cached mask and total.
        self.armed_box, self.armed_when_filled = armed_rule(table.rules)
        self.values = table.values
        self.packed = table.packed_rules
        self.kernel: Any = _advice_into
        if self.dice != 5 or self.tables.wild:
            self.kernel = None
            return
        out = np.empty(RESULT_SIZE)
        _advice_into(0, 0, False, 0, 0, self.values, self.packed, out)  # compiled or loaded
        overloads = getattr(_advice_into, "overloads", None)  # None: interpreted
        if overloads:
            from numba import typeof

            arguments = (0, 0, False, 0, 0, self.values, self.packed, out)
            signature = tuple(map(typeof, arguments))
            compiled = overloads.get(signature)
            if compiled is not None:
                self.kernel = compiled.entry_point


def armed_rule(rules: RuleSet) -> tuple[int, bool]:
    """The box whose score arms the extra-Yahtzee bonus (-1: the rules pay none) and whether
    any score there arms it (else only a score above 0): what `solver.column_state` reads."""
    same = rules.all_same_box if rules.yahtzee_bonus or rules.arms_second_box else None
    box = -1 if same is None else rules.box_index(same)
    return box, rules.yahtzee_bonus and rules.yahtzee_bonus_condition is BonusCondition.BOX_FILLED


_engine = PerTable(Engine)
"""Each table's engine (`_engine.last`: the last one asked for, checked by identity first)."""


def query(
    table: StrategyTable, column: Column | None, dice: Sequence[int], rolls_left: int
) -> tuple[npt.NDArray[np.float64], int, Engine]:
    """Every legal option at a decision point, best first, as a flat array.

    Returns:
        (result, n, engine): result[3i:3i+3] is option i's code, value and loss, for i below
        n; `engine.keep_of[code]` is the code's keep (None for a box), `engine.box_key_of[code]`
        and `engine.category_of[code]` its box's key and box (None for a keep).

    Raises:
        DiceError: not five dice 1-6.
        ValueError: rolls left not a whole number from 0 to rolls_per_turn - 1, or a complete
            card.
    """
    # This runs once per coach hint, per bot decision and per library query: kept lean.
    engine = _engine.last
    if engine is None or engine.table() is not table:
        engine = _engine(table)
    if engine.kernel is None:
        return _query_any_dice(engine, table, column, dice, rolls_left)
    key: tuple[int, ...] | None
    try:
        key = dice if type(dice) is tuple else tuple(dice)
        roll = _ROLL_OF.get(key)
    except TypeError:  # unhashable values
        key = roll = None
    if roll is None or not _INT_ONLY.issuperset(map(type, dice)):
        # Not seen yet, or not five plain ints 1-6: check_roll raises, or accepts (e.g. an
        # int subclass: not remembered, as its hash may equal another value's).
        roll = ROLL_INDEX[check_roll(dice)]
        if key is not None and _INT_ONLY.issuperset(map(type, key)):
            _ROLL_OF[key] = roll
    if type(rolls_left) is not int or not 0 <= rolls_left < engine.rolls_per_turn:
        if isinstance(rolls_left, int) and not isinstance(rolls_left, bool):
            rolls_left = int(rolls_left)  # an int subclass (numpy's are not): as that int
        if type(rolls_left) is not int or not 0 <= rolls_left < engine.rolls_per_turn:
            raise ValueError(
                f"rolls left must be a whole number from 0 to {engine.rolls_per_turn - 1},"
                f" not {rolls_left!r}"
            )
    if column is None:
        mask, upper_total, armed = _EMPTY_STATE
    else:  # `column_state`, from what the column computed once (a turn asks up to 3 times)
        mask = column.filled_mask
        upper_total = column.upper_total
        armed = False
        if engine.armed_box >= 0:
            held = column.scores[engine.armed_box]
            armed = held is not None and (engine.armed_when_filled or held > 0)
    if mask == engine.full_mask:
        raise ValueError("the card is complete: there is nothing to decide")
    out = np.empty(RESULT_SIZE)
    count = engine.kernel(
        mask, upper_total, armed, roll, rolls_left, engine.values, engine.packed, out
    )
    return out, count, engine


def _query_any_dice(
    engine: Engine,
    table: StrategyTable,
    column: Column | None,
    dice: Sequence[int],
    rolls_left: int,
) -> tuple[npt.NDArray[np.float64], int, Engine]:
    """`query` for a table of six dice or the wild die (`solver.any_dice_options`)."""
    roll = scoring_roll(engine.rules, dice)
    if isinstance(rolls_left, bool) or not isinstance(rolls_left, int):
        raise ValueError(f"rolls left must be a whole number, not {rolls_left!r}")
    if not 0 <= rolls_left < engine.rolls_per_turn:
        raise ValueError(
            f"rolls left must be a whole number from 0 to {engine.rolls_per_turn - 1},"
            f" not {rolls_left!r}"
        )
    mask, upper_total, armed = _EMPTY_STATE if column is None else column_state(table.rules, column)
    if mask == engine.full_mask:
        raise ValueError("the card is complete: there is nothing to decide")
    index = engine.tables.rolls.index(roll)
    codes, values = any_dice_options(table, mask, upper_total, armed, index, int(rolls_left))
    out = np.empty(3 * len(codes))
    out[0::3] = codes
    out[1::3] = values
    out[2::3] = values[0] - np.array(values)
    return out, len(codes), engine


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
    out, count, engine = query(table, column, dice, rolls_left)
    flat = iter(out[: 3 * count].tolist())
    keep_of = engine.keep_of
    category_of = engine.category_of
    return [
        _new(Option, (keep_of[code], category_of[code], value, loss))
        for code, value, loss in zip(map(int, flat), flat, flat, strict=True)
    ]


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
