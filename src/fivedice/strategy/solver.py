"""The optimal solitaire strategy for any single-column rule set (maximum expected final score).

A *between-turn state* is the set of filled boxes (a mask, bit i = box i of the rule set's card),
the upper total capped at the bonus threshold (only the reachable (upper boxes, total) pairs are
solved) and whether a further five of a kind would earn the extra-Yahtzee bonus ("armed").
The table holds, for every state, the expected points still to come under optimal play.

Each state is one turn of the strategy kernel (`kernel.turn_value`: end-of-turn valuation, then
the keep expectimax). States are solved in layers of equal filled count, from a full card back
to the empty one, in parallel with numba. The advice kernel (`advice_options`) lives here too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from itertools import compress
from operator import is_not
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from fivedice.core.card import Column
from fivedice.core.categories import CATEGORIES, Category
from fivedice.core.dice import ALL_KEEPS, ALL_ROLLS, Roll
from fivedice.core.rules import BonusCondition, Family, RuleSet
from fivedice.strategy import kernel
from fivedice.strategy.compact import (
    CompactLayout,
    compact_index,
    compact_layout,
    reachable_upper,
)
from fivedice.strategy.rule_arrays import (
    CFG_BOXES,
    CFG_CAP,
    CFG_FILL,
    CFG_ROLLS,
    CFG_STRIDE,
    CFG_THRESHOLD,
    FILL_FORCED,
    MAX_BOXES,
    PACKED_COUNT,
    RuleArrays,
    UnsupportedRulesError,
    is_served_roll,
    rule_arrays,
)
from fivedice.strategy.tables import DiceTables, FloatArray, IntArray, dice_tables

__all__ = [
    "ADVICE_WORK",
    "KEEP_INDEX",
    "MAX_OPTIONS",
    "OPTION_BOXES",
    "ROLL_INDEX",
    "StrategyTable",
    "TurnValues",
    "UnsupportedRulesError",
    "advice_options",
    "column_state",
    "solve",
    "turn_values",
]


_DICE = dice_tables(5)
FULL_MASK = (1 << 13) - 1
"""The full mask of the classic thirteen-box card (a rule set's own: `StrategyTable.full_mask`)."""
UPPER_MASK = (1 << 6) - 1
YAHTZEE_BIT = Category.YAHTZEE.index
ROLLS = len(ALL_ROLLS)  # 252
KEEPS = len(ALL_KEEPS)  # 462
FIRST_ROLL_KEEP = KEEPS - ROLLS  # the five-dice keeps (= rolls) come last, in roll order
assert _DICE.rolls == ALL_ROLLS and _DICE.keeps == ALL_KEEPS

ROLL_INDEX: dict[Roll, int] = {roll: i for i, roll in enumerate(ALL_ROLLS)}
"""Position of each sorted five-dice roll in `ALL_ROLLS`."""
KEEP_INDEX: dict[Roll, int] = {keep: i for i, keep in enumerate(ALL_KEEPS)}
"""Position of each sorted keep in `ALL_KEEPS`."""

ADD_FACE, REMOVE_FACE, ROLL_PROBABILITY = _DICE.add_face, _DICE.remove_face, _DICE.probability
FIVE_FACE = _DICE.all_same
MAX_SUB_KEEPS = 32  # five different faces: 2^5 keeps
SUB_KEEPS = _DICE.sub_keeps
"""SUB_KEEPS[r]: indices into `ALL_KEEPS` of the distinct keeps of roll r (ascending, which is
the order of `sub_multisets`), padded with -1."""

# The kernels' names as the rest of the package has known them.
_RuleArrays = RuleArrays
_rule_arrays = rule_arrays
_joker_boxes = kernel.joker_boxes
_reroll = kernel.reroll
_turn = kernel.turn


def check_rules(rules: RuleSet) -> None:
    """Refuses what the exact solver cannot solve.

    The extra turn on a Yahtzee is accepted: it changes who plays next, not what a column's
    turns are (each still fills one box, until the card is complete), so a single column's
    optimal play and expected score are those without it.
    """
    if rules.columns != 1:
        raise UnsupportedRulesError(
            f"the solver handles one score column; these rules have {rules.columns}"
        )
    if rules.saved_rolls:
        raise UnsupportedRulesError(
            "the exact solver does not handle saved rolls (Maxi Yatzy): see the README"
        )
    if rules.dice not in (5, 6):
        raise UnsupportedRulesError(f"the exact solver plays five or six dice, not {rules.dice}")


@njit(cache=True, parallel=True)
def _solve_batch(
    masks: IntArray,
    ups: IntArray,
    armeds: IntArray,
    table: FloatArray,
    rules: Any,
    scoring: IntArray,
    scoring_count: IntArray,
    dice: tuple[IntArray, IntArray, FloatArray],
    levels: int,
    served_score: IntArray,
) -> None:
    """Solves a batch of independent states (same filled count) and writes their values
    (`rules`, `dice` and `served_score` as `kernel.turn_value` takes them)."""
    n = masks.shape[0]
    chunks = min(n, 64)
    rolls = rules[0].shape[1]
    keeps = dice[0].shape[0]
    for c in prange(chunks):
        roll_value = np.empty(rolls)
        keep_value = np.empty(keeps)
        running_max = np.empty(keeps)
        futures = _scratch(rules[4])
        for i in range(c * n // chunks, (c + 1) * n // chunks):
            table[masks[i], ups[i], armeds[i]] = kernel.turn_value(
                masks[i], ups[i], armeds[i], table, rules, scoring, scoring_count, dice, levels,
                roll_value, keep_value, running_max, futures, served_score,
            )  # fmt: skip


@njit(cache=True, parallel=True)
def _solve_compact_masks(
    masks: IntArray,
    values: FloatArray,
    slot: IntArray,
    layout: IntArray,
    solved_totals: IntArray,
    solved_count: IntArray,
    rules: Any,
    scoring: IntArray,
    scoring_count: IntArray,
    dice: tuple[IntArray, IntArray, FloatArray],
    levels: int,
    served_score: IntArray,
) -> None:
    """Solves every state of a batch of masks (same filled count) of a compact table: each
    mask's solved upper totals (`CompactLayout.solved_totals`) and, when its all-same box is
    filled and a further one pays a bonus, their armed copies. One mask's states are solved
    together, by one thread: they read the same neighbouring blocks."""
    n = masks.shape[0]
    chunks = min(n, 256)
    rolls = rules[0].shape[1]
    keeps = dice[0].shape[0]
    armed_bit = layout[2]
    for c in prange(chunks):
        table = (values, slot, layout)
        roll_value = np.empty(rolls)
        keep_value = np.empty(keeps)
        running_max = np.empty(keeps)
        futures = _scratch(rules[4])
        for i in range(c * n // chunks, (c + 1) * n // chunks):
            mask = masks[i]
            upper = mask & UPPER_MASK
            armed_states = 1
            if armed_bit >= 0 and (mask >> (armed_bit + 6)) & 1:
                armed_states = 2
            for armed in range(armed_states):
                for j in range(solved_count[upper]):
                    up = solved_totals[upper, j]
                    values[compact_index(slot, layout, mask, up, armed)] = kernel.turn_value(
                        mask, up, armed, table, rules, scoring, scoring_count, dice, levels,
                        roll_value, keep_value, running_max, futures, served_score,
                    )  # fmt: skip


# ---------------------------------------------------------------------------------------------
# The table


@dataclass(frozen=True, eq=False)
class StrategyTable:
    """Expected points to come under optimal play, for every reachable between-turn state.

    `values[mask, upper, armed]` (float64, so advice is exact to about 1e-12, not float32's
    1e-5) with `upper` the upper total capped at the bonus threshold (0 when the upper bonus
    is off); unreachable entries are NaN.
    """

    rules: RuleSet
    values: npt.NDArray[np.float64] = field(repr=False)
    expected_score: float
    states: int
    layout: CompactLayout | None = field(default=None, repr=False)
    """None for a full `values[mask, upper, armed]` array; for a card of more than
    COMPACT_BOXES boxes (Maxi Yatzy), where each state of the flat `values` lives."""

    @cached_property
    def _arrays(self) -> _RuleArrays:
        return _rule_arrays(self.rules)

    @property
    def packed_rules(self) -> IntArray:
        """The rules as the one int64 array `advice_options` takes."""
        return self._arrays.packed

    @property
    def full_mask(self) -> int:
        """The mask of a complete card."""
        return self._arrays.full_mask

    @property
    def upper_cap(self) -> int:
        """The largest upper total the table distinguishes (the threshold, or 0)."""
        return self._arrays.cap

    @property
    def kernel_values(self) -> Any:
        """The values as the kernels read them (`kernel.state_value`): the full array, or a
        compact table's `(values, slot, layout)`."""
        if self.layout is None:
            return self.values
        return self.layout.kernel_table(self.values)

    def value(self, filled_mask: int, upper_total: int, bonus_armed: bool) -> float:
        """Expected points still to come at the start of a turn in this state.

        Args:
            filled_mask: filled boxes, bit `Category.index` set for each filled box.
            upper_total: the upper boxes' total so far (capped here).
            bonus_armed: whether a further five of a kind would earn the extra-Yahtzee bonus.

        Raises:
            ValueError: the mask or total is out of range, or the state cannot occur.
        """
        if not 0 <= filled_mask <= self.full_mask or upper_total < 0:
            raise ValueError(f"no such state: mask {filled_mask}, upper total {upper_total}")
        up = min(upper_total, self.upper_cap)
        if self.layout is not None:
            slot, layout = self.layout.slot, self.layout.layout
            result = float("nan")
            if slot[filled_mask & UPPER_MASK, up] >= 0:
                bit = int(layout[2]) + 6  # the armed box's bit (5: none)
                armed = int(bonus_armed) if bit >= 6 and (filled_mask >> bit) & 1 else 0
                result = float(self.values[compact_index(slot, layout, filled_mask, up, armed)])
        else:
            result = float(self.values[filled_mask, up, int(bonus_armed)])
        if result != result:  # NaN marks a state no game reaches
            raise ValueError(
                f"upper total {upper_total} cannot occur with filled mask {filled_mask:#06x}"
            )
        return result

    def column_value(self, column: Column) -> float:
        """Expected points still to come at the start of a turn for this column."""
        return self.value(*column_state(self.rules, column))


def column_state(rules: RuleSet, column: Column) -> tuple[int, int, bool]:
    """The between-turn state of a column: (filled mask, upper total, bonus armed)."""
    scores = column.scores
    # = sum of 1 << i over the filled boxes; and `Column.upper_total` (C-level loops: the
    # advisor calls this once per query).
    mask = sum(compress(_BOX_BITS, map(is_not, scores, _NONES)))
    armed = False
    if rules.yahtzee_bonus or rules.arms_second_box:  # armed: as `Column.pays_yahtzee_bonus`
        if rules.family is Family.YAHTZEE:
            held = scores[YAHTZEE_BIT]
        else:
            box = rules.all_same_box
            held = None if box is None else scores[rules.box_index(box)]
        armed = held is not None and (
            (rules.yahtzee_bonus and rules.yahtzee_bonus_condition is BonusCondition.BOX_FILLED)
            or held > 0
        )
    return mask, sum(filter(None, scores[:6])), armed


_BOX_BITS = tuple(1 << i for i in range(32))
_NONES = (None,) * 32


def layer_to_solve(
    arrays: RuleArrays, filled: int, reach: npt.NDArray[np.bool_]
) -> tuple[IntArray, IntArray, IntArray, IntArray, IntArray, IntArray]:
    """The states with `filled` boxes filled to solve, and the (mask, total) copies to make:
    the layers every table computed over the solver's states walks (the moments, breakdowns
    and thresholds as well as the values), a full card back to the empty one.

    An upper total from which the bonus can no longer be reached plays exactly like any other
    such total (the total only matters for the bonus), so one of them is solved per mask and
    copied to the others: this skips about a third of the states. Everything that depends on
    the upper boxes is worked out once per set of filled upper boxes (64), then spread over the
    masks of the layer.
    """
    dice = arrays.dice.dice
    full = arrays.full_mask
    if arrays.config[CFG_FILL] == FILL_FORCED:  # boxes top to bottom: one mask a layer
        layer = np.array([(1 << filled) - 1], dtype=np.int64) if filled < arrays.boxes else None
    else:
        every = np.arange(full + 1, dtype=np.int64)
        counts = np.zeros(full + 1, dtype=np.int64)
        for b in range(arrays.boxes):
            counts += (every >> b) & 1
        layer = every[counts == filled] if filled < arrays.boxes else None
    empty = np.empty(0, dtype=np.int64)
    if layer is None or layer.size == 0:
        return empty, empty, empty, empty, empty, empty
    # Per filled-upper subset: the totals to solve, and the dead totals to copy from the first.
    solve_of: list[IntArray] = []
    dead_of: list[IntArray] = []
    for upper in range(64):
        totals = np.flatnonzero(reach[upper]).astype(np.int64)
        dead = empty
        if arrays.upper_bonus:
            still_possible = sum(dice * (b + 1) for b in range(6) if not (upper >> b) & 1)
            # Totals that can reach no tier of the bonus are worth the same: solved once.
            dead = totals[totals < arrays.config[CFG_THRESHOLD] - still_possible]
            if dead.size > 1:
                totals = np.concatenate((dead[:1], totals[dead.size :]))
            else:
                dead = empty
        solve_of.append(totals)
        dead_of.append(dead)
    uppers = layer & UPPER_MASK
    sizes = np.array([t.size for t in solve_of], dtype=np.int64)[uppers]
    masks = np.repeat(layer, sizes)
    ups = np.concatenate([solve_of[u] for u in uppers.tolist()])
    dead_sizes = np.array([max(d.size - 1, 0) for d in dead_of], dtype=np.int64)[uppers]
    copy_masks = np.repeat(layer, dead_sizes)
    copy_to = np.concatenate([dead_of[u][1:] for u in uppers.tolist()] or [empty])
    copy_from = np.concatenate(
        [np.full(max(dead_of[u].size - 1, 0), dead_of[u][0] if dead_of[u].size else 0)
         for u in uppers.tolist()] or [empty]
    ).astype(np.int64)  # fmt: skip
    armeds = np.zeros(masks.size, dtype=np.int64)
    if arrays.yahtzee_bonus:
        twice = (masks >> arrays.yahtzee) & 1 == 1
        masks = np.concatenate((masks, masks[twice]))
        ups = np.concatenate((ups, ups[twice]))
        armeds = np.concatenate((armeds, np.ones(int(twice.sum()), dtype=np.int64)))
    return masks, ups, armeds, copy_masks, copy_to, copy_from


def solve(rules: RuleSet, progress: Callable[[int, int], None] | None = None) -> StrategyTable:
    """Solves the rules: the expected final score and every state's value under optimal play.

    Args:
        rules: a single-column rule set (any options).
        progress: called as `progress(states_done, states_total)` as the solve advances.

    Raises:
        UnsupportedRulesError: the rules have more than one column, or options the exact
            solver does not handle.
    """
    check_rules(rules)
    arrays = rule_arrays(rules)
    if arrays.boxes > COMPACT_BOXES:
        values, layout, total_states = solve_compact(arrays, progress)
        return StrategyTable(rules, values, float(values[0]), total_states, layout)
    table, total_states = solve_arrays(arrays, progress)
    return StrategyTable(rules, table, float(table[0, 0, 0]), total_states)


COMPACT_BOXES = 16
"""Cards of more boxes (Maxi Yatzy's 20) are solved into a compact table (`compact`)."""


def layout_for(rules: RuleSet) -> CompactLayout | None:
    """The compact layout of these rules' table, or None when it is a full array."""
    arrays = rule_arrays(rules)
    if arrays.boxes <= COMPACT_BOXES:
        return None
    armed_box = arrays.yahtzee if arrays.yahtzee_bonus else -1
    return compact_layout(
        arrays.cap, arrays.dice.dice, arrays.boxes, armed_box, _first_tier(arrays)
    )


def _first_tier(arrays: RuleArrays) -> int:
    """The lowest threshold of the upper bonus (0 without one)."""
    return int(arrays.config[CFG_THRESHOLD]) if arrays.upper_bonus else 0


def solve_compact(
    arrays: RuleArrays,
    progress: Callable[[int, int], None] | None = None,
    *,
    within: int = 0,
) -> tuple[npt.NDArray[np.float64], CompactLayout, int]:
    """`solve` into a compact table: its flat values (the empty card's first), its layout and
    the number of states solved.

    The layers of equal filled count go from a full card back to the empty one; each layer's
    masks are solved in batches, in parallel (`_solve_compact_masks`).

    Args:
        arrays: the rules' arrays (any number of boxes).
        progress: called as `progress(states_done, states_total)`.
        within: solve only the masks that include these filled boxes: the sub-game from a
            card with them filled (the tests check such small games against brute force;
            the other states stay 0, so such a table is for that sub-game only).
    """
    dice = arrays.dice
    armed_box = arrays.yahtzee if arrays.yahtzee_bonus else -1
    layout = compact_layout(arrays.cap, dice.dice, arrays.boxes, armed_box, _first_tier(arrays))
    values = np.zeros(layout.states)  # a full card's states stay 0
    every = np.arange(arrays.full_mask + 1, dtype=np.int64)
    if arrays.config[CFG_FILL] == FILL_FORCED:  # boxes top to bottom: one mask a layer
        layers = [np.array([(1 << filled) - 1], dtype=np.int64) for filled in range(arrays.boxes)]
    else:
        counts = np.zeros(every.size, dtype=np.int8)
        for b in range(arrays.boxes):
            counts += ((every >> b) & 1).astype(np.int8)
        layers = [every[counts == filled] for filled in range(arrays.boxes)]
    layers = [layer[layer & within == within] for layer in reversed(layers)]
    per_mask = [layout.solved_count[layer & UPPER_MASK] for layer in layers]
    if armed_box >= 0:
        per_mask = [
            n * (1 + ((layer >> armed_box) & 1)) for n, layer in zip(per_mask, layers, strict=True)
        ]
    total_states = sum(int(n.sum()) for n in per_mask)
    done = 0
    if progress is not None:
        progress(0, total_states)
    batch = max(256, (arrays.full_mask + 1) // 128)
    for layer, sizes in zip(layers, per_mask, strict=True):
        for start in range(0, layer.size, batch):
            stop = min(start + batch, layer.size)
            _solve_compact_masks(
                layer[start:stop], values, layout.slot, layout.layout, layout.solved_totals,
                layout.solved_count, arrays.kernel_rules, arrays.scoring, arrays.scoring_count,
                (dice.add_face, dice.remove_face, dice.probability), int(arrays.config[CFG_ROLLS]),
                arrays.first_roll_score,
            )  # fmt: skip
            done += int(sizes[start:stop].sum())
            if progress is not None:
                progress(done, total_states)
    return values, layout, total_states


def solve_arrays(
    arrays: RuleArrays, progress: Callable[[int, int], None] | None = None
) -> tuple[npt.NDArray[np.float64], int]:
    """`solve` on a rule set's arrays: the table of values and the number of states solved."""
    dice = arrays.dice
    full = arrays.full_mask
    reach = reachable_upper(arrays.cap, dice.dice)
    layers = [layer_to_solve(arrays, filled, reach) for filled in range(arrays.boxes - 1, -1, -1)]
    total_states = sum(int(layer[0].size) for layer in layers)
    table = np.full((full + 1, arrays.cap + 1, arrays.armed_states), np.nan, dtype=np.float64)
    table[full] = 0.0
    done = 0
    if progress is not None:
        progress(0, total_states)
    batch = max(4096, total_states // 100)
    for masks, ups, armeds, copy_masks, copy_to, copy_from in layers:
        for start in range(0, masks.size, batch):
            stop = min(start + batch, masks.size)
            _solve_batch(
                masks[start:stop], ups[start:stop], armeds[start:stop], table,
                arrays.kernel_rules, arrays.scoring, arrays.scoring_count,
                (dice.add_face, dice.remove_face, dice.probability), int(arrays.config[CFG_ROLLS]),
                arrays.first_roll_score,
            )  # fmt: skip
            done += stop - start
            if progress is not None:
                progress(done, total_states)
        yahtzee = arrays.yahtzee if arrays.yahtzee_bonus else None
        fill_copied_states(table, masks, armeds, copy_masks, copy_to, copy_from, yahtzee)
    return table, total_states


def fill_copied_states(
    table: npt.NDArray[Any],
    masks: IntArray,
    armeds: IntArray,
    copy_masks: IntArray,
    copy_to: IntArray,
    copy_from: IntArray,
    yahtzee: int | None,
) -> None:
    """After a layer of `layer_to_solve` is solved, fills the states it did not solve: each
    copied upper total from the one solved for its mask, and the armed entry of a state whose
    bonus flag cannot matter from its unarmed one.

    Args:
        table: indexed [mask, upper total, armed, ...] (values, moments, or rows of a
            threshold table).
        yahtzee: the Yahtzee box's bit when the extra-Yahtzee bonus exists, else None (then
            the flag never matters).
    """
    table[copy_masks, copy_to] = table[copy_masks, copy_from]
    unarmed_only = np.unique(masks[armeds == 0])
    if yahtzee is not None:
        unarmed_only = unarmed_only[(unarmed_only >> yahtzee) & 1 == 0]
    table[unarmed_only, :, 1] = table[unarmed_only, :, 0]


# ---------------------------------------------------------------------------------------------
# In-turn evaluation


@dataclass(frozen=True, eq=False)
class TurnValues:
    """Optimal in-turn values for one card, for every roll and number of rolls left.

    Values are expected points still to come (box, bonuses and later turns), excluding the
    points already on the card. Row n of each array is for n rolls left (0 = must score).

    Attributes:
        roll_values: (n+1, 252) value of holding each roll of `ALL_ROLLS`.
        keep_values: (n+1, 462) value of keeping each keep of `ALL_KEEPS` and re-rolling the
            rest (row 0 is unused, NaN).
        best_keep: (n+1, 252) index into `ALL_KEEPS` of the best keep (row 0 is -1).
        best_box: (252,) `Category.index` of the best box to score each roll in now.
        start_value: expected points before the first roll of the turn.
    """

    roll_values: npt.NDArray[np.float64]
    keep_values: npt.NDArray[np.float64]
    best_keep: npt.NDArray[np.int64]
    best_box: npt.NDArray[np.int64]
    start_value: float

    def best_keep_for(self, dice: Roll, rolls_left: int) -> Roll:
        """The best keep for sorted dice with rolls left (≥ 1)."""
        return ALL_KEEPS[int(self.best_keep[rolls_left, ROLL_INDEX[dice]])]

    def best_box_for(self, dice: Roll) -> Category:
        """The best box to score sorted dice in now (on the classic card; else the index in
        `best_box` is the position in the rule set's `boxes`)."""
        return CATEGORIES[int(self.best_box[ROLL_INDEX[dice]])]


def turn_values(table: StrategyTable, column: Column, rolls_left: int | None = None) -> TurnValues:
    """Solves the current turn of a column against a solved table (fast, numba).

    Args:
        table: the solved rules.
        column: the card; must have an open box.
        rolls_left: the largest number of rolls left to evaluate (default: rolls per turn - 1).

    Raises:
        ValueError: the column is complete or rolls_left is negative.
    """
    if column.is_complete:
        raise ValueError("the card is complete: there is no turn left to play")
    levels = (table.rules.rolls_per_turn - 1 if rolls_left is None else rolls_left) + 1
    if levels < 1:
        raise ValueError(f"rolls left cannot be negative, not {rolls_left}")
    mask, upper_total, armed = column_state(table.rules, column)
    return _turn_values(table, mask, min(upper_total, table.upper_cap), int(armed), levels)


def _turn_values(table: StrategyTable, mask: int, up: int, armed: int, levels: int) -> TurnValues:
    arrays = table._arrays
    dice = arrays.dice
    rolls, keeps = len(dice.rolls), len(dice.keeps)
    roll_values = np.empty((levels, rolls))
    keep_values = np.full((levels, keeps), np.nan)
    best_keep = np.full((levels, rolls), -1, dtype=np.int64)
    best_box = np.empty(rolls, dtype=np.int64)
    start = _turn(
        mask, up, armed, table.kernel_values, arrays.score, arrays.joker_score, arrays.arms,
        dice.all_same, arrays.config, dice.add_face, dice.remove_face, dice.probability,
        roll_values, keep_values, best_keep, best_box, np.empty(keeps),
        np.empty(keeps, dtype=np.int64), *_scratch(arrays.config),
    )  # fmt: skip
    return TurnValues(roll_values, keep_values, best_keep, best_box, float(start))


@njit(cache=True, nogil=True)
def _scratch(config: IntArray) -> tuple[FloatArray, FloatArray]:
    """The `upper_value` and `lower_value` buffers of `kernel.prepare_futures`."""
    return np.empty(kernel.upper_value_size(config[CFG_STRIDE])), np.empty(config[CFG_BOXES] + 1)


@njit(cache=True, nogil=True)
def _decision(
    mask: int,
    up: int,
    armed: int,
    r: int,
    rolls_left: int,
    table: FloatArray,
    rules: Any,
    box_rules: Any,
    dice: tuple[IntArray, IntArray, FloatArray],
) -> tuple[FloatArray, IntArray, FloatArray]:
    """One decision point in one call: the keep values with `rolls_left` rolls left (empty
    when none is left) and every legal box for roll r with its value (scored by `box_rules`:
    the rules' kernel rules, or their served ones on a turn's first roll)."""
    score, joker_score, arms, all_same, config = rules
    add_face, remove_face, probability = dice
    keep_row = np.empty(0)
    rolls = score.shape[1]
    keeps = add_face.shape[0]
    futures = _scratch(config)
    if rolls_left > 0:
        levels = rolls_left + 1
        roll_values = np.empty((levels, rolls))
        keep_values = np.empty((levels, keeps))
        _turn(
            mask, up, armed, table, score, joker_score, arms, all_same, config, add_face,
            remove_face, probability, roll_values, keep_values,
            np.empty((levels, rolls), dtype=np.int64), np.empty(rolls, dtype=np.int64),
            np.empty(keeps), np.empty(keeps, dtype=np.int64), futures[0], futures[1],
        )  # fmt: skip
        keep_row = keep_values[rolls_left]
    boxes = np.empty(config[CFG_BOXES], dtype=np.int64)
    values = np.empty(config[CFG_BOXES])
    count = kernel.box_options(mask, up, armed, r, table, box_rules, futures, boxes, values)
    return keep_row, boxes[:count], values[:count]


def decision_values(
    table: StrategyTable, column: Column, dice: Roll, rolls_left: int
) -> tuple[FloatArray, list[tuple[Category, float]]]:
    """Values at one decision point, unsorted (`advice_options`, the advisor's engine, gives
    the same values sorted, faster).

    Args:
        table: the solved rules.
        column: the card, with an open box.
        dice: the rules' number of sorted dice.
        rolls_left: rolls still allowed this turn (≥ 0).

    Returns:
        The value of every keep of the dice tables' `keeps` (`ALL_KEEPS` for five dice;
        empty when no roll is left), and every legal box
        with its value: points now (box, upper bonus, extra-Yahtzee bonus) plus the future.
        The legal boxes follow the same rules as `Column.placements` (the tests check this).
    """
    mask, upper_total, armed = column_state(table.rules, column)
    arrays = table._arrays
    tables = arrays.dice
    keep_row, boxes, values = _decision(
        mask, min(upper_total, table.upper_cap), int(armed), _roll_index(tables, dice),
        rolls_left, table.kernel_values, arrays.kernel_rules, _box_rules(table, rolls_left),
        (tables.add_face, tables.remove_face, tables.probability),
    )  # fmt: skip
    return keep_row, list(
        zip([table.rules.boxes[b] for b in boxes.tolist()], values.tolist(), strict=True)
    )


def any_dice_options(
    table: StrategyTable, mask: int, upper_total: int, armed: bool, roll: int, rolls_left: int
) -> tuple[list[int], list[float]]:
    """`advice_options` for any number of dice (Maxi Yatzy's six), slower (a plain sort
    after one `_decision` call): the option codes best first and their values.

    Codes below the number of boxes B are boxes, code c ≥ B keeps keep c - B of the rules'
    dice tables; equal values list boxes (in card order) before keeps (smallest first), as
    `advice_options` does. `roll` indexes the tables' rolls.
    """
    arrays = table._arrays
    tables = arrays.dice
    keep_row, boxes, values = _decision(
        mask, min(upper_total, table.upper_cap), int(armed), roll, rolls_left,
        table.kernel_values, arrays.kernel_rules, _box_rules(table, rolls_left),
        (tables.add_face, tables.remove_face, tables.probability),
    )  # fmt: skip
    options = list(zip(boxes.tolist(), values.tolist(), strict=True))
    if rolls_left > 0:
        keeps = [k for k in tables.sub_keeps[roll].tolist() if k >= 0]
        options += [(arrays.boxes + k, float(keep_row[k])) for k in keeps]
    options.sort(key=lambda option: -option[1])  # stable: the order above among equals
    return [code for code, _ in options], [value for _, value in options]


def _box_rules(table: StrategyTable, rolls_left: int) -> Any:
    """The kernel rules a roll with `rolls_left` rolls left is scored by: the served ones on
    the turn's first roll of rules with served points (`is_served_roll`), else the plain."""
    arrays = table._arrays
    if is_served_roll(table.rules, rolls_left):
        return arrays.served_kernel_rules
    return arrays.kernel_rules


def _roll_index(tables: DiceTables, dice: Roll) -> int:
    """The position of sorted dice among the tables' rolls."""
    if tables.dice == 5 and not tables.wild:
        return ROLL_INDEX[dice]
    return tables.roll_index[dice]


# ---------------------------------------------------------------------------------------------
# Advice: one decision point, every option sorted, in one kernel call

OPTION_BOXES = 13
"""Option codes below the rules' number of boxes B are boxes (`Category.index` on the classic
card: B = 13 = OPTION_BOXES); code c ≥ B is keep c - B of `ALL_KEEPS`."""
MAX_OPTIONS = MAX_BOXES + MAX_SUB_KEEPS


ADVICE_WORK = 3 * MAX_OPTIONS + 6 * 31 + 33 + 252 + 462 + 462
"""Length of the float64 work buffer of `advice_options`: each option's value and loss in turn,
then scratch."""


@njit(cache=True, nogil=True)
def advice_options(
    mask: int,
    upper_total: int,
    bonus_armed: bool,
    roll: int,
    rolls_left: int,
    table: FloatArray,
    rules: IntArray,
    codes: IntArray,
    work: FloatArray,
) -> int:
    """Every option at one decision point with its value, best first (the advisor's engine).

    Five dice (the tables of `ALL_ROLLS` and `ALL_KEEPS`), any box list.

    Args:
        mask, upper_total, bonus_armed: the column's `column_state` (the total uncapped).
        roll: the dice's index in `ALL_ROLLS`.
        rolls_left: rolls still allowed this turn (≥ 0).
        table: `StrategyTable.values`.
        rules: the rules' packed arrays (`StrategyTable.packed_rules`).
        codes: int64 buffer of at least `MAX_OPTIONS`, for the option codes.
        work: float64 buffer of at least `ADVICE_WORK`; gets each option's value and loss (the
            best value minus its value) in turn at its start.

    Returns:
        The number n of options. codes[:n] are the options best first: a code below the
        number of boxes B is a box's index on the card, a code c ≥ B keeps
        `ALL_KEEPS[c - B]`; work[:2n] are their values and losses, interleaved
        (one slice for the caller to copy out). Equal values list boxes (in
        card order) before keeps (smallest first). The keeps are the distinct keeps of the roll
        when a roll is left; the boxes are the legal ones, as in `decision_values`.
    """
    config = rules[0]
    boxes = config[CFG_BOXES]
    score = rules[1 : 1 + boxes]
    joker_score = rules[1 + boxes : 1 + 2 * boxes]
    arms = rules[1 + 2 * boxes]
    scoring = rules[2 + 2 * boxes : 2 + 3 * boxes]
    scoring_count = config[PACKED_COUNT : PACKED_COUNT + boxes]
    up = min(upper_total, config[CFG_CAP])
    armed = 1 if bonus_armed else 0
    values = work[2 * MAX_OPTIONS : 3 * MAX_OPTIONS]
    scratch = work[3 * MAX_OPTIONS :]
    futures = (scratch[:186], scratch[186:219])
    roll_value = scratch[219:471]
    keep_value = scratch[471:933]
    running_max = scratch[933:1395]
    kernel_rules = (score, joker_score, arms, FIVE_FACE, config)
    box_rules = kernel.packed_box_rules(rules, rolls_left, FIVE_FACE)  # served on a first roll
    open_boxes, allowed = kernel.prepare_futures(mask, up, armed, table, config, futures)
    chosen, joker, extra = kernel.boxes_of_roll(roll, mask, open_boxes, allowed, armed, box_rules)
    count = 0
    for b in range(boxes):
        if (chosen >> b) & 1:
            codes[count] = b
            values[count] = extra + kernel.box_value(b, roll, joker, box_rules, futures)
            count += 1
    if rolls_left > 0:
        kernel.scored_values(
            mask, open_boxes, allowed, armed, kernel_rules, scoring, scoring_count, futures,
            roll_value,
        )  # fmt: skip
        for _ in range(1, rolls_left):
            kernel.mean_keep_values(roll_value, keep_value, ADD_FACE)
            kernel.best_keep_values(keep_value, running_max, roll_value, REMOVE_FACE)
        kernel.mean_keep_values(roll_value, keep_value, ADD_FACE)
        for slot in range(32):
            k = SUB_KEEPS[roll, slot]
            if k < 0:
                break
            codes[count] = boxes + k
            values[count] = keep_value[k]
            count += 1
    # Insertion sort, best first; stable, so equal values keep the order above.
    for i in range(1, count):
        code = codes[i]
        value = values[i]
        j = i - 1
        while j >= 0 and values[j] < value:
            codes[j + 1] = codes[j]
            values[j + 1] = values[j]
            j -= 1
        codes[j + 1] = code
        values[j + 1] = value
    for i in range(count):
        work[2 * i] = values[i]
        work[2 * i + 1] = values[0] - values[i]
    return count
