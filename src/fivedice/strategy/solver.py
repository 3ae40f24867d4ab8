"""The optimal solitaire strategy for any single-column rule set (maximum expected final score).

A *between-turn state* is the set of filled boxes (a 13-bit mask, bit i = `Category.index` i),
the upper total capped at the bonus threshold (only the reachable (upper boxes, total) pairs are
solved) and whether a further five of a kind would earn the extra-Yahtzee bonus ("armed").
The table holds, for every state, the expected points still to come under optimal play.

Within a turn the solver works backwards over the 252 rolls and 462 keeps: the value of a keep
is the mean over one more die's six faces (K(k) = mean_f K(k + f)), and the best keep of a roll
is a running maximum over sub-keeps (M(k) = max(K(k), max_f M(k - f))). States are solved in
layers of equal filled count, from a full card back to the empty one, in parallel with numba.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, cached_property
from itertools import compress
from operator import is_not

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from fivedice.core.card import Column
from fivedice.core.categories import CATEGORIES, Category
from fivedice.core.dice import ALL_KEEPS, ALL_ROLLS, Roll, multiset_probability, sub_multisets
from fivedice.core.errors import FivediceError
from fivedice.core.rules import BonusCondition, Joker, RuleSet
from fivedice.core.scoring import box_score, is_five_of_a_kind

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

FloatArray = npt.NDArray[np.floating]
IntArray = npt.NDArray[np.integer]

FULL_MASK = (1 << 13) - 1
UPPER_MASK = (1 << 6) - 1
YAHTZEE_BIT = Category.YAHTZEE.index
ROLLS = len(ALL_ROLLS)  # 252
KEEPS = len(ALL_KEEPS)  # 462
FIRST_ROLL_KEEP = KEEPS - ROLLS  # the five-dice keeps (= rolls) come last, in roll order

ROLL_INDEX: dict[Roll, int] = {roll: i for i, roll in enumerate(ALL_ROLLS)}
"""Position of each sorted five-dice roll in `ALL_ROLLS`."""
KEEP_INDEX: dict[Roll, int] = {keep: i for i, keep in enumerate(ALL_KEEPS)}
"""Position of each sorted keep in `ALL_KEEPS`."""

_JOKER_CODE = {Joker.NONE: 0, Joker.FORCED: 1, Joker.FREE_CHOICE: 2}
_NO_THRESHOLD = 1 << 30  # an upper threshold never reached when the upper bonus is off

# Indices of the integer configuration vector handed to the kernels.
_CFG_CAP, _CFG_THRESHOLD, _CFG_UPPER_BONUS, _CFG_YAHTZEE_BONUS, _CFG_JOKER, _CFG_UPPER_FIRST = (
    range(6)
)


# Rows of `_RuleArrays.packed`: box scores, joker scores, arms, the config (then, from column
# _PACKED_COUNT, the number of rolls scoring in each box), and the rolls scoring in each box.
_PACKED_SCORE, _PACKED_JOKER, _PACKED_ARMS, _PACKED_CONFIG, _PACKED_SCORING = 0, 13, 26, 27, 28
_PACKED_ROWS = _PACKED_SCORING + 13
_PACKED_COUNT = 16


class UnsupportedRulesError(FivediceError):
    """The solver handles a single score column only."""


def _dice_tables() -> tuple[IntArray, IntArray, FloatArray]:
    add_face = np.full((KEEPS, 6), -1, dtype=np.int64)
    remove_face = np.full((KEEPS, 6), -1, dtype=np.int64)  # compacted: distinct faces first
    for k, keep in enumerate(ALL_KEEPS):
        for face in range(1, 7):
            if len(keep) < 5:
                add_face[k, face - 1] = KEEP_INDEX[tuple(sorted((*keep, face)))]
        for slot, face in enumerate(sorted(set(keep))):
            rest = list(keep)
            rest.remove(face)
            remove_face[k, slot] = KEEP_INDEX[tuple(rest)]
    probability = np.array([float(multiset_probability(r)) for r in ALL_ROLLS], dtype=np.float64)
    return add_face, remove_face, probability


ADD_FACE, REMOVE_FACE, ROLL_PROBABILITY = _dice_tables()
_FIVE_OF_A_KIND_ROLL = np.array(
    [0, *(ALL_ROLLS.index((face,) * 5) for face in range(1, 7))], dtype=np.int64
)
FIVE_FACE = np.array([r[0] if is_five_of_a_kind(r) else 0 for r in ALL_ROLLS], dtype=np.int64)
MAX_SUB_KEEPS = 32  # five different faces: 2^5 keeps


def _sub_keep_table() -> IntArray:
    sub = np.full((ROLLS, MAX_SUB_KEEPS), -1, dtype=np.int64)
    for r, roll in enumerate(ALL_ROLLS):
        for slot, keep in enumerate(sub_multisets(roll)):
            sub[r, slot] = KEEP_INDEX[keep]
    return sub


SUB_KEEPS = _sub_keep_table()
"""SUB_KEEPS[r]: indices into `ALL_KEEPS` of the distinct keeps of roll r (ascending, which is
the order of `sub_multisets`), padded with -1."""
SUB_KEEPS.setflags(write=False)


@dataclass(frozen=True)
class _RuleArrays:
    """Everything the kernels need to know about a rule set, as arrays."""

    score: IntArray  # (13, 252) plain box scores, box-major for the kernels' inner loops
    joker_score: IntArray  # (13, 252) scores of a roll placed as a joker
    arms: IntArray  # (252,) 1 if placing this roll in the Yahtzee box arms the bonus
    config: IntArray  # see _CFG_*
    cap: int
    packed: IntArray  # (41, 252) the advice kernel's single rules argument: see _PACKED_*


@cache
def _rule_arrays(rules: RuleSet) -> _RuleArrays:
    score = np.array(
        [[box_score(rules, c, roll) for roll in ALL_ROLLS] for c in CATEGORIES], dtype=np.int64
    )
    joker_score = np.array(
        [[box_score(rules, c, roll, joker=True) for roll in ALL_ROLLS] for c in CATEGORIES],
        dtype=np.int64,
    )
    arms = np.array(
        [
            int(
                rules.yahtzee_bonus
                and (
                    rules.yahtzee_bonus_condition is BonusCondition.BOX_FILLED
                    or score[YAHTZEE_BIT, r] > 0
                )
            )
            for r in range(ROLLS)
        ],
        dtype=np.int64,
    )
    cap = rules.upper_bonus_threshold if rules.upper_bonus else 0
    config = np.array(
        [
            cap,
            rules.upper_bonus_threshold if rules.upper_bonus else _NO_THRESHOLD,
            rules.upper_bonus_value if rules.upper_bonus else 0,
            rules.yahtzee_bonus_value if rules.yahtzee_bonus else 0,
            _JOKER_CODE[rules.joker],
            int(rules.upper_first),
        ],
        dtype=np.int64,
    )
    packed = np.zeros((_PACKED_ROWS, ROLLS), dtype=np.int64)
    packed[_PACKED_SCORE : _PACKED_SCORE + 13] = score
    packed[_PACKED_JOKER : _PACKED_JOKER + 13] = joker_score
    packed[_PACKED_ARMS] = arms
    packed[_PACKED_CONFIG, : config.size] = config
    for b in range(13):
        scoring = np.flatnonzero(score[b])
        packed[_PACKED_CONFIG, _PACKED_COUNT + b] = scoring.size
        packed[_PACKED_SCORING + b, : scoring.size] = scoring
    for array in (score, joker_score, arms, config, packed):
        array.setflags(write=False)
    return _RuleArrays(score, joker_score, arms, config, cap, packed)


def _check_rules(rules: RuleSet) -> None:
    if rules.columns != 1:
        raise UnsupportedRulesError(
            f"the solver handles one score column; these rules have {rules.columns}"
        )


# ---------------------------------------------------------------------------------------------
# Kernels


@njit(cache=True, nogil=True)
def _joker_boxes(
    face: int, open_boxes: int, allowed: int, armed: int, config: IntArray
) -> tuple[int, bool, int]:
    """For a further five of a kind (Yahtzee box filled): the boxes it may go in (a mask),
    whether it scores as a joker, and the extra-Yahtzee bonus. Mirrors `Column.legal_boxes`."""
    extra = config[3] if armed == 1 else 0
    joker_mode = config[4]
    face_bit = 1 << (face - 1)
    if joker_mode == 1:  # forced: the face's upper box, else a lower box, else any upper
        if open_boxes & face_bit:
            return face_bit, True, extra
        if allowed & 0x1FC0:
            return allowed & 0x1FC0, True, extra
        return allowed, True, extra
    if joker_mode == 2:  # free choice: a joker only once the face's upper box is filled
        return allowed, (open_boxes & face_bit) == 0, extra
    return allowed, False, extra


@njit(cache=True, nogil=True)
def _box_value(
    b: int,
    r: int,
    joker: bool,
    score: IntArray,
    joker_score: IntArray,
    arms: IntArray,
    upper_value: FloatArray,
    lower_value: FloatArray,
) -> float:
    """Points now plus the future of scoring roll r in open box b (see _prepare_futures)."""
    if b < 6:
        return float(upper_value[b * 31 + score[b, r]])
    if b == 11:
        return float(score[11, r] + lower_value[11 + 2 * arms[r]])
    return float((joker_score[b, r] if joker else score[b, r]) + lower_value[b])


@njit(cache=True, nogil=True)
def _prepare_futures(
    mask: int,
    up: int,
    armed: int,
    table: FloatArray,
    config: IntArray,
    upper_value: FloatArray,
    lower_value: FloatArray,
) -> tuple[int, int]:
    """Looks up, once per state, what scoring in each open box leads to; returns the open
    boxes and the boxes the upper-first rule allows (masks).

    The future of a box depends on the roll only through the upper box's points and whether a
    Yahtzee-box score arms the bonus, so: upper_value[31b + p] = p points in upper box b (points,
    upper bonus and future); lower_value[b] = future of lower box b; lower_value[11] and [13]
    = future of the Yahtzee box unarmed and armed.
    """
    cap = config[0]
    threshold = config[1]
    upper_bonus = config[2]
    open_boxes = ~mask & 0x1FFF
    allowed = open_boxes
    if config[5] != 0 and (open_boxes & 0x3F) != 0:  # upper first
        allowed = open_boxes & 0x3F
    for b in range(6):
        if (open_boxes >> b) & 1:
            for n in range(6):
                points = (b + 1) * n
                total = up + points
                bonus = upper_bonus if (up < threshold and total >= threshold) else 0
                if total > cap:
                    total = cap
                upper_value[b * 31 + points] = points + bonus + table[mask | (1 << b), total, armed]
    for b in range(6, 13):
        if (open_boxes >> b) & 1:
            if b == 11:
                lower_value[11] = table[mask | (1 << 11), up, 0]
                lower_value[13] = table[mask | (1 << 11), up, 1]
            else:
                lower_value[b] = table[mask | (1 << b), up, armed]
    return open_boxes, allowed


@njit(cache=True, nogil=True)
def _box_options(
    mask: int,
    up: int,
    armed: int,
    r: int,
    table: FloatArray,
    score: IntArray,
    joker_score: IntArray,
    arms: IntArray,
    five_face: IntArray,
    config: IntArray,
    out_boxes: IntArray,
    out_values: FloatArray,
) -> int:
    """Every legal box for roll r with its value (points, bonuses, future); returns the count."""
    upper_value = np.empty(186)
    lower_value = np.empty(16)
    open_boxes, allowed = _prepare_futures(mask, up, armed, table, config, upper_value, lower_value)
    chosen, joker, extra = allowed, False, 0
    if five_face[r] > 0 and (mask >> 11) & 1:
        chosen, joker, extra = _joker_boxes(five_face[r], open_boxes, allowed, armed, config)
    count = 0
    for b in range(13):
        if (chosen >> b) & 1:
            out_boxes[count] = b
            out_values[count] = extra + _box_value(
                b, r, joker, score, joker_score, arms, upper_value, lower_value
            )
            count += 1
    return count


@njit(cache=True, nogil=True)
def _final_roll_values(
    mask: int,
    up: int,
    armed: int,
    table: FloatArray,
    score: IntArray,
    joker_score: IntArray,
    arms: IntArray,
    five_face: IntArray,
    config: IntArray,
    out: FloatArray,
    best_box: IntArray,
    upper_value: FloatArray,
    lower_value: FloatArray,
) -> None:
    """Value of each roll when it must be scored now (0 rolls left), and the best box."""
    open_boxes, allowed = _prepare_futures(mask, up, armed, table, config, upper_value, lower_value)
    for r in range(252):
        out[r] = -1.0e300
    # Box by box over all rolls: the inner loops are uniform and the compiler vectorises them.
    for b in range(13):
        if not (allowed >> b) & 1:
            continue
        if b < 6:
            base = b * 31
            for r in range(252):
                value = upper_value[base + score[b, r]]
                if value > out[r]:
                    out[r] = value
                    best_box[r] = b
        elif b == 11:
            for r in range(252):
                value = score[11, r] + lower_value[11 + 2 * arms[r]]
                if value > out[r]:
                    out[r] = value
                    best_box[r] = b
        else:
            future = lower_value[b]
            for r in range(252):
                value = score[b, r] + future
                if value > out[r]:
                    out[r] = value
                    best_box[r] = b
    if (mask >> 11) & 1:
        # A further five of a kind: the joker rule and the extra-Yahtzee bonus decide.
        for face in range(1, 7):
            r = _FIVE_OF_A_KIND_ROLL[face]
            chosen, joker, extra = _joker_boxes(face, open_boxes, allowed, armed, config)
            best = -1.0e300
            best_b = -1
            for b in range(13):
                if (chosen >> b) & 1:
                    value = extra + _box_value(
                        b, r, joker, score, joker_score, arms, upper_value, lower_value
                    )
                    if value > best:
                        best = value
                        best_b = b
            out[r] = best
            best_box[r] = best_b


@njit(cache=True, nogil=True)
def _reroll(
    previous: FloatArray,
    keep_value: FloatArray,
    running_max: FloatArray,
    running_arg: IntArray,
    out: FloatArray,
    best_keep: IntArray,
    add_face: IntArray,
    remove_face: IntArray,
) -> None:
    """From the roll values with n-1 rolls left, the keep and roll values with n rolls left."""
    for r in range(252):
        keep_value[210 + r] = previous[r]
    for k in range(209, -1, -1):
        total = 0.0
        for f in range(6):
            total += keep_value[add_face[k, f]]
        keep_value[k] = total / 6.0
    for k in range(462):
        best = keep_value[k]
        arg = k
        for f in range(6):
            j = remove_face[k, f]
            if j < 0:
                break
            if running_max[j] > best:
                best = running_max[j]
                arg = running_arg[j]
        running_max[k] = best
        running_arg[k] = arg
    for r in range(252):
        out[r] = running_max[210 + r]
        best_keep[r] = running_arg[210 + r]


@njit(cache=True, nogil=True)
def _turn(
    mask: int,
    up: int,
    armed: int,
    table: FloatArray,
    score: IntArray,
    joker_score: IntArray,
    arms: IntArray,
    five_face: IntArray,
    config: IntArray,
    add_face: IntArray,
    remove_face: IntArray,
    probability: FloatArray,
    roll_values: FloatArray,
    keep_values: FloatArray,
    best_keep: IntArray,
    best_box: IntArray,
    running_max: FloatArray,
    running_arg: IntArray,
    upper_value: FloatArray,
    lower_value: FloatArray,
) -> float:
    """Solves one turn from a state; returns the expected points before the first roll."""
    _final_roll_values(
        mask, up, armed, table, score, joker_score, arms, five_face, config,
        roll_values[0], best_box, upper_value, lower_value,
    )  # fmt: skip
    levels = roll_values.shape[0]
    for n in range(1, levels):
        _reroll(
            roll_values[n - 1], keep_values[n], running_max, running_arg,
            roll_values[n], best_keep[n], add_face, remove_face,
        )  # fmt: skip
    total = 0.0
    last = roll_values[levels - 1]
    for r in range(252):
        total += probability[r] * last[r]
    return total


@njit(cache=True, parallel=True)
def _solve_batch(
    masks: IntArray,
    ups: IntArray,
    armeds: IntArray,
    table: FloatArray,
    score: IntArray,
    joker_score: IntArray,
    arms: IntArray,
    five_face: IntArray,
    config: IntArray,
    add_face: IntArray,
    remove_face: IntArray,
    probability: FloatArray,
    levels: int,
) -> None:
    """Solves a batch of independent states (same filled count) and writes their values."""
    n = masks.shape[0]
    chunks = min(n, 64)
    for c in prange(chunks):
        roll_values = np.empty((levels, 252))
        keep_values = np.empty((levels, 462))
        best_keep = np.empty((levels, 252), dtype=np.int64)
        best_box = np.empty(252, dtype=np.int64)
        running_max = np.empty(462)
        running_arg = np.empty(462, dtype=np.int64)
        upper_value = np.empty(186)
        lower_value = np.empty(16)
        for i in range(c * n // chunks, (c + 1) * n // chunks):
            table[masks[i], ups[i], armeds[i]] = _turn(
                masks[i], ups[i], armeds[i], table, score, joker_score, arms, five_face,
                config, add_face, remove_face, probability, roll_values, keep_values,
                best_keep, best_box, running_max, running_arg, upper_value, lower_value,
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

    @cached_property
    def _arrays(self) -> _RuleArrays:
        return _rule_arrays(self.rules)

    @property
    def packed_rules(self) -> IntArray:
        """The rules as the one int64 array `advice_options` takes."""
        return self._arrays.packed

    @property
    def upper_cap(self) -> int:
        """The largest upper total the table distinguishes (the threshold, or 0)."""
        return int(self.values.shape[1]) - 1

    def value(self, filled_mask: int, upper_total: int, bonus_armed: bool) -> float:
        """Expected points still to come at the start of a turn in this state.

        Args:
            filled_mask: filled boxes, bit `Category.index` set for each filled box.
            upper_total: the upper boxes' total so far (capped here).
            bonus_armed: whether a further five of a kind would earn the extra-Yahtzee bonus.

        Raises:
            ValueError: the mask or total is out of range, or the state cannot occur.
        """
        if not 0 <= filled_mask <= FULL_MASK or upper_total < 0:
            raise ValueError(f"no such state: mask {filled_mask}, upper total {upper_total}")
        result = float(self.values[filled_mask, min(upper_total, self.upper_cap), int(bonus_armed)])
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
    held = scores[YAHTZEE_BIT]  # armed: as `Column.pays_yahtzee_bonus`
    armed = (
        held is not None
        and rules.yahtzee_bonus
        and (rules.yahtzee_bonus_condition is BonusCondition.BOX_FILLED or held > 0)
    )
    return mask, sum(filter(None, scores[:6])), armed


_BOX_BITS = tuple(1 << i for i in range(len(CATEGORIES)))
_NONES = (None,) * len(CATEGORIES)


def _reachable_upper(cap: int) -> npt.NDArray[np.bool_]:
    """reach[upper_mask, total]: whether the filled upper boxes can total `total` (capped)."""
    reach = np.zeros((64, cap + 1), dtype=np.bool_)
    reach[0, 0] = True
    for upper_mask in range(1, 64):
        low = upper_mask & -upper_mask
        face = low.bit_length()
        previous = reach[upper_mask ^ low]
        for total in np.flatnonzero(previous):
            for n in range(6):
                reach[upper_mask, min(cap, int(total) + face * n)] = True
    return reach


def _layer_states(
    rules: RuleSet, filled: int, reach: npt.NDArray[np.bool_]
) -> tuple[IntArray, IntArray, IntArray, IntArray, IntArray, IntArray]:
    """The states with `filled` boxes filled to solve, and the (mask, total) copies to make.

    An upper total from which the bonus can no longer be reached plays exactly like any other
    such total (the total only matters for the bonus), so one of them is solved per mask and
    copied to the others: this skips about a third of the states.
    """
    masks: list[IntArray] = []
    ups: list[IntArray] = []
    armeds: list[IntArray] = []
    copy_masks: list[IntArray] = []
    copy_to: list[IntArray] = []
    copy_from: list[IntArray] = []
    for mask in range(FULL_MASK):
        if mask.bit_count() != filled:
            continue
        totals = np.flatnonzero(reach[mask & UPPER_MASK])
        if rules.upper_bonus:
            still_possible = sum(5 * (b + 1) for b in range(6) if not (mask >> b) & 1)
            dead = totals[totals < rules.upper_bonus_threshold - still_possible]
            if dead.size > 1:
                totals = np.concatenate((dead[:1], totals[dead.size :]))
                copy_masks.append(np.full(dead.size - 1, mask, dtype=np.int64))
                copy_to.append(dead[1:].astype(np.int64))
                copy_from.append(np.full(dead.size - 1, dead[0], dtype=np.int64))
        armed_options = (0, 1) if rules.yahtzee_bonus and (mask >> YAHTZEE_BIT) & 1 else (0,)
        for armed in armed_options:
            masks.append(np.full(totals.size, mask, dtype=np.int64))
            ups.append(totals.astype(np.int64))
            armeds.append(np.full(totals.size, armed, dtype=np.int64))
    empty = [np.empty(0, dtype=np.int64)]
    return (
        np.concatenate(masks),
        np.concatenate(ups),
        np.concatenate(armeds),
        np.concatenate(copy_masks or empty),
        np.concatenate(copy_to or empty),
        np.concatenate(copy_from or empty),
    )


def solve(rules: RuleSet, progress: Callable[[int, int], None] | None = None) -> StrategyTable:
    """Solves the rules: the expected final score and every state's value under optimal play.

    Args:
        rules: a single-column rule set (any options).
        progress: called as `progress(states_done, states_total)` as the solve advances.

    Raises:
        UnsupportedRulesError: the rules have more than one column.
    """
    _check_rules(rules)
    arrays = _rule_arrays(rules)
    reach = _reachable_upper(arrays.cap)
    layers = [_layer_states(rules, filled, reach) for filled in range(12, -1, -1)]
    total_states = sum(int(layer[0].size) for layer in layers)
    table = np.full((FULL_MASK + 1, arrays.cap + 1, 2), np.nan, dtype=np.float64)
    table[FULL_MASK] = 0.0
    done = 0
    if progress is not None:
        progress(0, total_states)
    batch = max(4096, total_states // 100)
    for masks, ups, armeds, copy_masks, copy_to, copy_from in layers:
        for start in range(0, masks.size, batch):
            stop = min(start + batch, masks.size)
            _solve_batch(
                masks[start:stop], ups[start:stop], armeds[start:stop], table,
                arrays.score, arrays.joker_score, arrays.arms, FIVE_FACE, arrays.config,
                ADD_FACE, REMOVE_FACE, ROLL_PROBABILITY, rules.rolls_per_turn,
            )  # fmt: skip
            done += stop - start
            if progress is not None:
                progress(done, total_states)
        table[copy_masks, copy_to, :] = table[copy_masks, copy_from, :]
        # States where the bonus flag cannot matter read the unarmed value either way.
        unarmed_only = np.unique(masks[armeds == 0])
        if not rules.yahtzee_bonus:
            table[unarmed_only, :, 1] = table[unarmed_only, :, 0]
        else:
            plain = unarmed_only[(unarmed_only >> YAHTZEE_BIT) & 1 == 0]
            table[plain, :, 1] = table[plain, :, 0]
    expected = float(table[0, 0, 0])
    return StrategyTable(rules, table, expected, total_states)


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
        """The best box to score sorted dice in now."""
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
    roll_values = np.empty((levels, ROLLS))
    keep_values = np.full((levels, KEEPS), np.nan)
    best_keep = np.full((levels, ROLLS), -1, dtype=np.int64)
    best_box = np.empty(ROLLS, dtype=np.int64)
    start = _turn(
        mask, up, armed, table.values, arrays.score, arrays.joker_score, arrays.arms,
        FIVE_FACE, arrays.config, ADD_FACE, REMOVE_FACE, ROLL_PROBABILITY, roll_values,
        keep_values, best_keep, best_box, np.empty(KEEPS), np.empty(KEEPS, dtype=np.int64),
        np.empty(186), np.empty(16),
    )  # fmt: skip
    return TurnValues(roll_values, keep_values, best_keep, best_box, float(start))


@njit(cache=True, nogil=True)
def _decision(
    mask: int,
    up: int,
    armed: int,
    r: int,
    rolls_left: int,
    table: FloatArray,
    score: IntArray,
    joker_score: IntArray,
    arms: IntArray,
    five_face: IntArray,
    config: IntArray,
    add_face: IntArray,
    remove_face: IntArray,
    probability: FloatArray,
) -> tuple[FloatArray, IntArray, FloatArray]:
    """One decision point in one call: the keep values with `rolls_left` rolls left (empty
    when none is left) and every legal box for roll r with its value."""
    keep_row = np.empty(0)
    if rolls_left > 0:
        levels = rolls_left + 1
        roll_values = np.empty((levels, 252))
        keep_values = np.empty((levels, 462))
        _turn(
            mask, up, armed, table, score, joker_score, arms, five_face, config, add_face,
            remove_face, probability, roll_values, keep_values,
            np.empty((levels, 252), dtype=np.int64), np.empty(252, dtype=np.int64),
            np.empty(462), np.empty(462, dtype=np.int64), np.empty(186), np.empty(16),
        )  # fmt: skip
        keep_row = keep_values[rolls_left]
    boxes = np.empty(13, dtype=np.int64)
    values = np.empty(13)
    count = _box_options(
        mask, up, armed, r, table, score, joker_score, arms, five_face, config, boxes, values
    )
    return keep_row, boxes[:count], values[:count]


def decision_values(
    table: StrategyTable, column: Column, dice: Roll, rolls_left: int
) -> tuple[FloatArray, list[tuple[Category, float]]]:
    """Values at one decision point, unsorted (`advice_options`, the advisor's engine, gives
    the same values sorted, faster).

    Args:
        table: the solved rules.
        column: the card, with an open box.
        dice: five sorted dice.
        rolls_left: rolls still allowed this turn (≥ 0).

    Returns:
        The value of every keep of `ALL_KEEPS` (empty when no roll is left), and every legal box
        with its value: points now (box, upper bonus, extra-Yahtzee bonus) plus the future.
        The legal boxes follow the same rules as `Column.placements` (the tests check this).
    """
    mask, upper_total, armed = column_state(table.rules, column)
    arrays = table._arrays
    keep_row, boxes, values = _decision(
        mask, min(upper_total, table.upper_cap), int(armed), ROLL_INDEX[dice], rolls_left,
        table.values, arrays.score, arrays.joker_score, arrays.arms, FIVE_FACE, arrays.config,
        ADD_FACE, REMOVE_FACE, ROLL_PROBABILITY,
    )  # fmt: skip
    return keep_row, list(
        zip([CATEGORIES[b] for b in boxes.tolist()], values.tolist(), strict=True)
    )


# ---------------------------------------------------------------------------------------------
# Advice: one decision point, every option sorted, in one kernel call

OPTION_BOXES = 13
"""Option codes below this are boxes (`Category.index`); code c ≥ it is keep c - 13 of
`ALL_KEEPS`."""
MAX_OPTIONS = OPTION_BOXES + MAX_SUB_KEEPS


@njit(cache=True, nogil=True)
def _scored_values(
    mask: int,
    open_boxes: int,
    allowed: int,
    armed: int,
    rules: IntArray,
    upper_value: FloatArray,
    lower_value: FloatArray,
    out: FloatArray,
) -> None:
    """`_final_roll_values` without the best box, and sparse: the value of each roll scored now.

    A box's value for a roll that scores 0 there does not depend on the roll, and a roll that
    scores p ≥ 1 points there is worth at least that much more (p points more now; the future
    is no worse: a higher upper total only helps, an armed bonus only adds): so every roll
    starts from the best zero-score value of the open boxes, and each box then visits only the
    rolls that score in it. The maximum is the same as over every (roll, box) pair.
    """
    score = rules[_PACKED_SCORE : _PACKED_SCORE + 13]
    joker_score = rules[_PACKED_JOKER : _PACKED_JOKER + 13]
    arms = rules[_PACKED_ARMS]
    config = rules[_PACKED_CONFIG]
    zero = -1.0e300
    for b in range(13):
        if (allowed >> b) & 1 and b != 11 and config[_PACKED_COUNT + b] < 252:
            value = upper_value[b * 31] if b < 6 else lower_value[b]
            zero = value if value > zero else zero
    for r in range(252):
        out[r] = zero
    for b in range(13):
        if not (allowed >> b) & 1:
            continue
        if b == 11:  # the Yahtzee box: whether a roll arms the bonus matters too; all rolls
            for r in range(252):
                value = score[11, r] + lower_value[11 + 2 * arms[r]]
                out[r] = value if value > out[r] else out[r]
            continue
        rolls = rules[_PACKED_SCORING + b]
        if b < 6:
            base = b * 31
            for i in range(config[_PACKED_COUNT + b]):
                r = rolls[i]
                value = upper_value[base + score[b, r]]
                out[r] = value if value > out[r] else out[r]
        else:
            future = lower_value[b]
            for i in range(config[_PACKED_COUNT + b]):
                r = rolls[i]
                value = score[b, r] + future
                out[r] = value if value > out[r] else out[r]
    if (mask >> 11) & 1:
        for face in range(1, 7):
            r = _FIVE_OF_A_KIND_ROLL[face]
            chosen, joker, extra = _joker_boxes(face, open_boxes, allowed, armed, config)
            best = -1.0e300
            for b in range(13):
                if (chosen >> b) & 1:
                    value = extra + _box_value(
                        b, r, joker, score, joker_score, arms, upper_value, lower_value
                    )
                    if value > best:
                        best = value
            out[r] = best


@njit(cache=True, nogil=True)
def _mean_keep_values(roll_value: FloatArray, keep_value: FloatArray) -> None:
    """Keep values (K(k) = mean over faces of K(k + face)) from the values of the rolls."""
    for r in range(252):
        keep_value[210 + r] = roll_value[r]
    for k in range(209, -1, -1):
        total = 0.0
        for f in range(6):
            total += keep_value[ADD_FACE[k, f]]
        keep_value[k] = total / 6.0


@njit(cache=True, nogil=True)
def _best_keep_values(keep_value: FloatArray, running_max: FloatArray, out: FloatArray) -> None:
    """The value of each roll with a roll left: its best keep (subset maximum)."""
    for k in range(462):
        best = keep_value[k]
        for f in range(6):
            j = REMOVE_FACE[k, f]
            if j < 0:
                break
            other = running_max[j]
            best = other if other > best else best  # branch-free: the data are unpredictable
        running_max[k] = best
    for r in range(252):
        out[r] = running_max[210 + r]


ADVICE_WORK = 3 * MAX_OPTIONS + 186 + 16 + 252 + 462 + 462
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
        The number n of options. codes[:n] are the options best first: a code below
        `OPTION_BOXES` is a box's `Category.index`, a code c ≥ `OPTION_BOXES` keeps
        `ALL_KEEPS[c - OPTION_BOXES]`; work[:2n] are their values and losses, interleaved
        (one slice for the caller to copy out). Equal values list boxes (in
        card order) before keeps (smallest first). The keeps are the distinct keeps of the roll
        when a roll is left; the boxes are the legal ones, as in `decision_values`.
    """
    score = rules[_PACKED_SCORE : _PACKED_SCORE + 13]
    joker_score = rules[_PACKED_JOKER : _PACKED_JOKER + 13]
    arms = rules[_PACKED_ARMS]
    config = rules[_PACKED_CONFIG]
    up = min(upper_total, config[_CFG_CAP])
    armed = 1 if bonus_armed else 0
    values = work[2 * MAX_OPTIONS : 3 * MAX_OPTIONS]
    scratch = work[3 * MAX_OPTIONS :]
    upper_value = scratch[:186]
    lower_value = scratch[186:202]
    roll_value = scratch[202:454]
    keep_value = scratch[454:916]
    running_max = scratch[916:1378]
    open_boxes, allowed = _prepare_futures(mask, up, armed, table, config, upper_value, lower_value)
    chosen, joker, extra = allowed, False, 0
    if FIVE_FACE[roll] > 0 and (mask >> 11) & 1:
        chosen, joker, extra = _joker_boxes(FIVE_FACE[roll], open_boxes, allowed, armed, config)
    count = 0
    for b in range(13):
        if (chosen >> b) & 1:
            codes[count] = b
            values[count] = extra + _box_value(
                b, roll, joker, score, joker_score, arms, upper_value, lower_value
            )
            count += 1
    if rolls_left > 0:
        _scored_values(
            mask, open_boxes, allowed, armed, rules, upper_value, lower_value, roll_value
        )
        for _ in range(1, rolls_left):
            _mean_keep_values(roll_value, keep_value)
            _best_keep_values(keep_value, running_max, roll_value)
        _mean_keep_values(roll_value, keep_value)
        for slot in range(MAX_SUB_KEEPS):
            k = SUB_KEEPS[roll, slot]
            if k < 0:
                break
            codes[count] = OPTION_BOXES + k
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
