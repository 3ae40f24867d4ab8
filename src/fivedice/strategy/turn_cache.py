"""Advice that keeps each state's turn values: the library's query (`fivedice.advise`).

Every option at a decision point depends on the dice only at the very end: the expectimax of
the turn (what each open box leads to, then the keep values for each number of rolls left) is
the same for every roll on the same card. A game asks up to three times per turn on one card
(2, 1 and 0 rolls left), a review walks a game's turns again, a player compares dice: so the
engine keeps, per state, the turn's *futures* (`kernel.prepare_futures`) and its keep values
for each level of rolls left, in one row of a small cache (`SLOTS` rows in sets of `WAYS`: a
state may take any row of its set, the set of its key modulo `SETS`; a new state overwrites the
least recently used row of its set). Then

* the first question about a state costs one turn of the kernel, written into the row as it
  is computed (no copies), plus the options of the roll;
* any further question on that state, whatever the dice and rolls left, costs only the options
  of the roll: the legal boxes' values from the futures and the roll's distinct keeps' values
  read from the row (at most 32), sorted.

The options come out as `(code, value, loss)` triples in one small array, as
`solver.advice_options` gives them (the same numbers, bit for bit: the same kernel steps in the
same order), and `fivedice.library.Advice` builds an option only when it is read.

The Python around the kernel is kept to a few hundred nanoseconds: a card's state is read with
C-level loops (not the card's cached properties, whose lock costs more than the computation on
a card asked about for the first time), dice are looked up by their order as given (any order
seen before) or sorted once, and the compiled kernel is called through its entry point.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from itertools import compress
from operator import is_not
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from fivedice.core.card import Column
from fivedice.core.categories import CATEGORIES, Category
from fivedice.core.dice import ALL_KEEPS, Roll, check_roll
from fivedice.strategy import kernel
from fivedice.strategy.advisor import Option, armed_rule
from fivedice.strategy.per_table import PerTable
from fivedice.strategy.rule_arrays import CFG_BOXES, CFG_CAP, PACKED_COUNT, UPPER_BOXES
from fivedice.strategy.solver import (
    ADD_FACE,
    FIVE_FACE,
    KEEPS,
    MAX_OPTIONS,
    REMOVE_FACE,
    ROLL_INDEX,
    ROLLS,
    SUB_KEEPS,
    StrategyTable,
)

__all__ = [
    "RESULT_SIZE",
    "SETS",
    "SLOTS",
    "WAYS",
    "CachedEngine",
    "advise",
    "cached_advice",
    "engine",
    "forget",
    "query",
]

SETS = 61
"""Sets of rows (a prime: a state's set is its key modulo SETS, so the states of one game,
whose masks differ by a bit, spread over the sets)."""
WAYS = 4
"""Rows per set: a state takes the least recently used row of its set."""
SLOTS = SETS * WAYS
"""States kept per table (244 rows of 9 kB for classic rules)."""
_HEAD = 3  # row[0]: the key of the state held (-1: none); [1]: its levels; [2]: its last use
_UPPER = UPPER_BOXES * 31  # `prepare_futures`'s upper_value: six boxes, 0-30 points
_LOWER = 33  # its lower_value: up to 32 boxes and the armed Yahtzee future
_KEEPS_AT = _HEAD + _UPPER + _LOWER  # where the keep values of 1 roll left start
_CLOCK = ROLLS + KEEPS  # the scratch row's entry counting the uses
RESULT_SIZE = 3 * MAX_OPTIONS
"""Floats in a query's result: (code, value, loss) per option."""


def cache_shape(rolls_per_turn: int) -> tuple[int, int]:
    """The cache array's shape: a row per slot, each with the futures and the keep values of
    every level (1 to rolls_per_turn - 1 rolls left), and one scratch row at the end."""
    width = _KEEPS_AT + max(rolls_per_turn - 1, 0) * KEEPS
    return SLOTS + 1, max(width, _CLOCK + 1)


# Not `nogil`: holding the GIL is what keeps two threads from writing one row at once (a query
# takes microseconds; releasing and taking the GIL back would cost a good part of that).
@njit(cache=True)
def cached_advice(
    mask: int,
    upper_total: int,
    bonus_armed: bool,
    roll: int,
    rolls_left: int,
    table: npt.NDArray[np.float64],
    rules: npt.NDArray[np.integer[Any]],
    cache: npt.NDArray[np.float64],
    out: npt.NDArray[np.float64],
) -> tuple[int, int, float]:  # pragma: no cover - compiled by numba (checked through `query`)
    """Every option at one decision point, best first, as `(code, value, loss)` triples in
    `out`; returns their number, and the best option's code and value (read from the result
    without a slice of `out` in Python). What `solver.advice_options` computes (same arguments, same
    codes and order), with the state's turn values read from or written to its row of `cache`
    (`cache_shape`).

    Equal values list boxes (in card order) before keeps (smallest first).
    """
    config = rules[0]
    boxes = config[CFG_BOXES]
    kernel_rules = (
        rules[1 : 1 + boxes],  # score
        rules[1 + boxes : 1 + 2 * boxes],  # joker_score
        rules[1 + 2 * boxes],  # arms
        FIVE_FACE,
        config,
    )
    cap = config[CFG_CAP]
    up = min(upper_total, cap)
    armed = 1 if bonus_armed else 0
    key = (mask * (cap + 1) + up) * 2 + armed
    scratch = cache[SLOTS]
    scratch[_CLOCK] += 1.0
    first = (key % SETS) * WAYS
    way = first
    for i in range(first, first + WAYS):  # the state's row, else the least recently used
        if cache[i, 0] == key:
            way = i
            break
        if cache[i, 2] < cache[way, 2]:
            way = i
    row = cache[way]
    row[2] = scratch[_CLOCK]
    futures = (row[_HEAD : _HEAD + _UPPER], row[_HEAD + _UPPER : _KEEPS_AT])
    if row[0] == key and row[1] >= rolls_left:
        open_boxes, allowed = kernel.open_and_allowed(mask, config)
    else:  # a state not held (or held with fewer rolls left): one turn of the kernel
        row[0] = -1.0
        open_boxes, allowed = kernel.prepare_futures(mask, up, armed, table, config, futures)
        if rolls_left > 0:
            roll_value = scratch[:ROLLS]
            running_max = scratch[ROLLS : ROLLS + KEEPS]
            kernel.scored_values(
                mask, open_boxes, allowed, armed, kernel_rules,
                rules[2 + 2 * boxes : 2 + 3 * boxes], config[PACKED_COUNT : PACKED_COUNT + boxes],
                futures, roll_value,
            )  # fmt: skip
            for level in range(1, rolls_left + 1):
                keep_value = row[_KEEPS_AT + (level - 1) * KEEPS : _KEEPS_AT + level * KEEPS]
                kernel.mean_keep_values(roll_value, keep_value, ADD_FACE)
                if level < rolls_left:
                    kernel.best_keep_values(keep_value, running_max, roll_value, REMOVE_FACE)
        row[1] = rolls_left
        row[0] = key
    box_rules = kernel.packed_box_rules(rules, rolls_left, FIVE_FACE)  # served on a first roll
    chosen, joker, extra = kernel.boxes_of_roll(roll, mask, open_boxes, allowed, armed, box_rules)
    count = 0
    for b in range(boxes):
        if (chosen >> b) & 1:
            out[3 * count] = b
            out[3 * count + 1] = extra + kernel.box_value(b, roll, joker, box_rules, futures)
            count += 1
    if rolls_left > 0:
        start = _KEEPS_AT + (rolls_left - 1) * KEEPS
        for slot in range(32):
            k = SUB_KEEPS[roll, slot]
            if k < 0:
                break
            out[3 * count] = boxes + k
            out[3 * count + 1] = row[start + k]
            count += 1
    # Insertion sort, best first; stable, so equal values keep the order above.
    for i in range(1, count):
        code = out[3 * i]
        value = out[3 * i + 1]
        j = i - 1
        while j >= 0 and out[3 * j + 1] < value:
            out[3 * j + 3] = out[3 * j]
            out[3 * j + 4] = out[3 * j + 1]
            j -= 1
        out[3 * j + 3] = code
        out[3 * j + 4] = value
    best = out[1]
    for i in range(count):
        out[3 * i + 2] = best - out[3 * i + 1]
    return count, int(out[0]), best


class CachedEngine:
    """What a query needs of one table, looked up once: its arrays, its cache of turn values,
    what each option code keeps or scores, and the compiled `cached_advice` for exactly these
    argument types (its entry point: calling through numba's dispatcher would type every
    argument on every call). Interpreted (`strategy.interpreted`), the kernel is the plain
    function; for a table the kernel does not read (not five dice, or a compact table), None,
    and `query` asks the advisor's general query.

    Attributes:
        keep_of: per option code, the keep (None for a box).
        box_key_of: per option code, the box's key (None for a keep).
        category_of: per option code, the box (None for a keep).
    """

    __slots__ = (
        "__weakref__",
        "armed_box",
        "armed_when_filled",
        "box_key_of",
        "cache",
        "category_of",
        "full_mask",
        "keep_of",
        "kernel",
        "last",
        "packed",
        "rolls_per_turn",
        "table",
        "values",
    )

    def __init__(self, table: StrategyTable) -> None:
        self.table = weakref.ref(table)  # weak: `_engines` drops it with its table
        rules = table.rules
        self.rolls_per_turn = rules.rolls_per_turn
        # Option codes: a code below the number of boxes B is the box at that place on the
        # card, a code c >= B keeps ALL_KEEPS[c - B] (see `solver.advice_options`).
        boxes: tuple[Category, ...] = tuple(rules.boxes)
        if boxes == CATEGORIES:  # the classic card: its boxes themselves (callers use `is`)
            boxes = CATEGORIES
        self.full_mask = (1 << len(boxes)) - 1
        self.keep_of: tuple[Roll | None, ...] = (None,) * len(boxes) + ALL_KEEPS
        self.box_key_of: tuple[str | None, ...] = (
            *(box.key for box in boxes),
            *(None,) * len(ALL_KEEPS),
        )
        self.category_of: tuple[Category | None, ...] = (*boxes, *(None,) * len(ALL_KEEPS))
        self.armed_box, self.armed_when_filled = armed_rule(rules)
        self.values = table.values
        # The card asked about last and its state, as one tuple: set in one assignment, so
        # that two threads never pair one card with the other's state.
        self.last: tuple[Column | None, tuple[int, int, bool]] = (None, _EMPTY_STATE)
        self.kernel: Any = None
        if rules.dice != 5 or rules.wild_die or getattr(table, "layout", None) is not None:
            return  # the kernel reads five dice and a full values[mask, upper, armed] array
        self.packed = table.packed_rules
        self.cache = np.full(cache_shape(rules.rolls_per_turn), -1.0)
        self.kernel = cached_advice
        out = np.empty(RESULT_SIZE)
        arguments = (0, 0, False, 0, 0, self.values, self.packed, self.cache, out)
        cached_advice(*arguments)  # compiled or loaded now, not on the first query
        self.clear()  # that call's state is not worth keeping
        overloads = getattr(cached_advice, "overloads", None)  # None: interpreted
        if overloads:
            from numba import typeof

            compiled = overloads.get(tuple(map(typeof, arguments)))
            if compiled is not None:
                self.kernel = compiled.entry_point

    def clear(self) -> None:
        """Forgets every state's turn values (the next question on any card is a first one)."""
        if self.kernel is not None:
            self.cache[:, 0] = -1.0
            self.cache[:, 2] = 0.0


_engines = PerTable(CachedEngine)


def engine(table: StrategyTable) -> CachedEngine:
    """The table's engine (made on first use: the kernel compiled or loaded, the cache empty)."""
    return _engines(table)


def forget() -> None:
    """Forgets the turn values of every table's engine, so that the next question about any
    card is a first one (for measurements: the table `fivedice.advise` uses for a RuleSet is
    the one `solve` gave it when first asked, not necessarily the caller's)."""
    for each in _engines.made():
        each.clear()
        each.last = (None, _EMPTY_STATE)


# Five dice in the order given -> the index of the sorted roll in `ALL_ROLLS` (at most 7,776
# orders; a lookup is cheaper than sorting). Only tuples of five plain ints are kept.
_ROLL_OF: dict[tuple[int, ...], int] = {}
_BOX_BITS = tuple(1 << i for i in range(64))
_NONES = (None,) * 64
_EMPTY_STATE = (0, 0, False)


def query(
    table: StrategyTable, column: Column | None, dice: Sequence[int], rolls_left: int
) -> tuple[npt.NDArray[np.float64], tuple[int, int, float], CachedEngine]:
    """Every legal option at a decision point, best first, as a flat array.

    Returns:
        (result, (n, best code, best value), engine): result[3i:3i+3] is option i's code,
        value and loss, for i below n; `engine.keep_of[code]` is the code's keep (None for a
        box), `engine.box_key_of[code]` and `engine.category_of[code]` its box's key and box
        (None for a keep).

    Raises:
        DiceError: not five dice 1-6.
        ValueError: rolls left not a whole number from 0 to rolls_per_turn - 1, or a complete
            card.
    """
    # Every line here runs on every query: kept to the checks that must be made.
    found = _engines.last
    if found is None or found.table() is not table:
        found = engine(table)
    if found.kernel is None:  # not five dice on a full table: the advisor's general query
        from fivedice.strategy.advisor import query as general_query

        out, count, general = general_query(table, column, dice, rolls_left)
        return out, (count, int(out[0]), float(out[1])), general  # type: ignore[return-value]
    try:
        roll = _ROLL_OF.get(dice) if type(dice) is tuple else None
    except TypeError:  # unhashable values
        roll = None
    # (True, 2, 3, 4, 5) equals (1, 2, 3, 4, 5): a hit counts only for plain ints
    if roll is None or not (
        type(dice[0]) is int
        and type(dice[1]) is int
        and type(dice[2]) is int
        and type(dice[3]) is int
        and type(dice[4]) is int
    ):
        roll = _roll_index(dice)
    if type(rolls_left) is not int or not 0 <= rolls_left < found.rolls_per_turn:
        rolls_left = _checked_rolls_left(rolls_left, found.rolls_per_turn)
    if column is None:
        mask, upper_total, armed = _EMPTY_STATE
    elif column is (last := found.last)[0]:  # a turn asks up to three times on one card
        mask, upper_total, armed = last[1]
    else:  # `solver.column_state` with C-level loops (the card's cached properties take a lock)
        scores = column.scores
        mask = sum(compress(_BOX_BITS, map(is_not, scores, _NONES)))
        if mask == found.full_mask:
            raise ValueError("the card is complete: there is nothing to decide")
        upper_total = sum(filter(None, scores[:UPPER_BOXES]))  # the upper boxes come first
        armed = False
        if found.armed_box >= 0:
            held = scores[found.armed_box]
            armed = held is not None and (found.armed_when_filled or held > 0)
        found.last = (column, (mask, upper_total, armed))
    out = np.empty(RESULT_SIZE)
    head = found.kernel(
        mask, upper_total, armed, roll, rolls_left, found.values, found.packed, found.cache, out
    )
    return out, head, found


_new = tuple.__new__  # an Option from (keep, category, value, loss), without Option.__new__


def advise(
    table: StrategyTable, column: Column | None, dice: Sequence[int], rolls_left: int
) -> list[Option]:
    """Every legal option at a decision point with its value, best first: `advisor.advise`'s
    list (the same options and numbers: the same kernel steps), from this engine, so that a
    further question on the same card reads the turn's kept values. The coach, the review
    and the optimal CPU levels ask here.

    Raises:
        DiceError: not five dice 1-6.
        ValueError: rolls left outside 0 to rolls_per_turn - 1, or a complete card.
    """
    out, (count, _, _), found = query(table, column, dice, rolls_left)
    flat = iter(out[: 3 * count].tolist())
    keep_of = found.keep_of
    category_of = found.category_of
    return [
        _new(Option, (keep_of[code], category_of[code], value, loss))
        for code, value, loss in zip(map(int, flat), flat, flat, strict=True)
    ]


def _roll_index(dice: Sequence[int]) -> int:
    """The index in `ALL_ROLLS` of five dice not looked up before (remembered when they are
    five plain ints; anything else is checked by `check_roll`, which raises or accepts)."""
    try:
        key = tuple(dice)
    except TypeError:
        key = ()
    if len(key) == 5 and _INT_ONLY.issuperset(map(type, key)):
        roll = ROLL_INDEX.get(tuple(sorted(key)))  # None: a value outside 1-6
        if roll is not None:
            _ROLL_OF[key] = roll
            return roll
    # Not five plain ints 1-6: check_roll raises, or accepts (e.g. an int subclass: not
    # remembered, as its hash may equal another value's).
    return ROLL_INDEX[check_roll(dice)]


_INT_ONLY = {int}


def _checked_rolls_left(rolls_left: object, rolls_per_turn: int) -> int:
    """Rolls left as a plain int in range, or ValueError."""
    if isinstance(rolls_left, int) and not isinstance(rolls_left, bool):
        rolls_left = int(rolls_left)  # an int subclass (numpy's are not): as that int
    if type(rolls_left) is not int or not 0 <= rolls_left < rolls_per_turn:
        raise ValueError(
            f"rolls left must be a whole number from 0 to {rolls_per_turn - 1}, not {rolls_left!r}"
        )
    return rolls_left
