"""The CPU players' decision kernels on a whole score card (one column or several).

Every CPU level except the beginner values each placement as `multiplier × (points + V(column
after) − V(column before))` for a *state value* table `V` indexed like the solver's (filled
boxes, upper total, armed), and chooses its keeps by the kernel's exact expectimax over the
rest of the turn. The legal boxes, the end-of-turn valuation and the keep expectimax are the
strategy kernel's (`kernel`); this module only spreads them over the columns of a card.

A card is an int64 array (columns, B) with -1 for an open box. Two tuples travel together
through these kernels: `arrays`, the rules as they read them, `(scores, joker_scores, five,
params)` (`heuristics.RuleTables.arrays`: the (B, R) box scores and joker scores, each roll's
face when all its dice show one, else 0, and the config vector `rule_arrays.RuleArrays.config`);
and `player`, a CPU player on a card, `(multipliers, arrays, values, typical)`
(`heuristics.player_args`: the columns' multipliers, the state values and each box's typical
worth).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from fivedice.strategy import kernel
from fivedice.strategy.rule_arrays import (
    CFG_BONUS_IF_FILLED,
    CFG_BOXES,
    CFG_CAP,
    CFG_STRAIGHTS,
    CFG_STRIDE,
    CFG_YAHTZEE,
    CFG_YAHTZEE_BONUS,
    UPPER_BOXES,
)
from fivedice.strategy.tables import FloatArray, IntArray

EPSILON = 1e-9  # options closer than this are ties (broken by a fixed order)


@njit(cache=True, nogil=True)
def column_key(boxes: IntArray, params: IntArray) -> tuple[int, int, int]:
    """(filled mask, capped upper total, armed) of one column: its value-table index."""
    mask = 0
    upper = 0
    for c in range(params[CFG_BOXES]):
        if boxes[c] >= 0:
            mask |= 1 << c
            if c < UPPER_BOXES:
                upper += boxes[c]
    armed = 0
    yahtzee = params[CFG_YAHTZEE]
    filled = yahtzee >= 0 and params[CFG_YAHTZEE_BONUS] > 0 and boxes[yahtzee] >= 0
    if filled and (boxes[yahtzee] > 0 or params[CFG_BONUS_IF_FILLED] == 1):
        armed = 1
    return mask, min(upper, params[CFG_CAP]), armed


@njit(cache=True, nogil=True)
def legal_boxes(
    boxes: IntArray, roll: int, arrays: Any, out_box: IntArray, out_joker: IntArray
) -> int:
    """Writes the legal boxes of one column for a roll (the kernel's rules: `joker_boxes`)."""
    _, _, five, params = arrays
    mask, _, armed = column_key(boxes, params)
    open_boxes, allowed = kernel.open_and_allowed(mask, params)
    chosen, joker = allowed, False
    yahtzee = params[CFG_YAHTZEE]
    if five[roll] > 0 and yahtzee >= 0 and boxes[yahtzee] >= 0:
        chosen, joker, _ = kernel.joker_boxes(five[roll], open_boxes, allowed, armed, params)
    n = 0
    for c in range(params[CFG_BOXES]):
        if (chosen >> c) & 1:
            out_box[n] = c
            out_joker[n] = 1 if joker else 0
            n += 1
    return n


@njit(cache=True, nogil=True)
def placement(
    boxes: IntArray, box: int, joker: int, roll: int, up: int, arrays: Any
) -> tuple[int, int, int]:
    """(box points, points now with bonuses, 1 if an extra Yahtzee is earned).

    `up` is the column's upper total capped at the threshold (enough to see it reached).
    """
    scores, joker_scores, five, params = arrays
    points = joker_scores[box, roll] if joker == 1 else scores[box, roll]
    total = points
    if box < UPPER_BOXES:
        total += kernel.upper_bonus_gain(up, points, params)
    extra = 0
    yahtzee = params[CFG_YAHTZEE]
    further = yahtzee >= 0 and params[CFG_YAHTZEE_BONUS] > 0 and boxes[yahtzee] >= 0
    if further and five[roll] > 0 and (boxes[yahtzee] > 0 or params[CFG_BONUS_IF_FILLED] == 1):
        total += params[CFG_YAHTZEE_BONUS]
        extra = 1
    return points, total, extra


@njit(cache=True, nogil=True)
def placement_gain(
    boxes: IntArray, box: int, joker: int, roll: int, key: Any, arrays: Any, values: Any
) -> float:
    """Points now plus the change of the column's state value (before the multiplier);
    `key` is the column's (mask, up, armed) (`column_key`)."""
    mask, up, armed = key
    params = arrays[3]
    points, total, _ = placement(boxes, box, joker, roll, up, arrays)
    new_up = min(up + points, params[CFG_CAP]) if box < UPPER_BOXES else up
    new_armed = armed
    arms = points > 0 or params[CFG_BONUS_IF_FILLED] == 1
    if box == params[CFG_YAHTZEE] and params[CFG_YAHTZEE_BONUS] > 0 and arms:
        new_armed = 1
    after = kernel.state_value(values, mask | (1 << box), new_up, new_armed)
    gain: float = total + after - kernel.state_value(values, mask, up, armed)
    return gain


@njit(cache=True, nogil=True)
def end_values(card: IntArray, player: Any, out: FloatArray) -> None:
    """The value of scoring each roll now, in the best place on the card (relative to the
    card's state value): the kernel's end-of-turn valuation, column by column."""
    multipliers, arrays, values, _ = player
    scores, joker_scores, five, params = arrays
    rolls = scores.shape[1]
    boxes = params[CFG_BOXES]
    full = (1 << boxes) - 1
    arms = np.zeros(rolls, dtype=np.int64)
    yahtzee = params[CFG_YAHTZEE]
    if yahtzee >= 0 and params[CFG_YAHTZEE_BONUS] > 0:
        for r in range(rolls):
            if scores[yahtzee, r] > 0 or params[CFG_BONUS_IF_FILLED] == 1:
                arms[r] = 1
    column_value = np.empty(rolls)
    best_box = np.empty(rolls, dtype=np.int64)
    rules = (scores, joker_scores, arms, five, params)
    futures = (np.empty(kernel.upper_value_size(params[CFG_STRIDE])), np.empty(boxes + 1))
    for r in range(rolls):
        out[r] = -1e300
    for col in range(card.shape[0]):
        mask, up, armed = column_key(card[col], params)
        if mask == full:
            continue
        weight = multipliers[col]
        base = kernel.state_value(values, mask, up, armed)
        kernel.final_roll_values(mask, up, armed, values, rules, futures, column_value, best_box)
        for r in range(rolls):
            v = weight * (column_value[r] - base)
            if v > out[r]:
                out[r] = v


@njit(cache=True, nogil=True)
def turn_tables(
    ends: FloatArray,
    levels: int,
    keep_add: IntArray,
    keep_remove: IntArray,
    out_keep: FloatArray,
    out_roll: FloatArray,
    best: FloatArray,
) -> None:
    """The kernel's keep expectimax over a turn from the end values.

    Fills out_roll[n, r], the value of roll r with n rolls left (n <= levels), and
    out_keep[n, k], the value of holding keep k when n + 1 rolls are left (n < levels).
    """
    out_roll[0, :] = ends
    for n in range(levels):
        kernel.mean_keep_values(out_roll[n], out_keep[n], keep_add)
        kernel.best_keep_values(out_keep[n], best, out_roll[n + 1], keep_remove)


@njit(cache=True, nogil=True)
def pick(option_values: FloatArray, n: int, draw: float, slip: float, max_loss: float) -> int:
    """The chosen option: the first best one; or, with probability `slip`, a human slip.

    A slip takes the best of the clearly worse options if it loses at most `max_loss`
    points (a plausible near miss, never nonsense). `draw` is a uniform number in [0, 1).
    """
    top = -1e300
    for i in range(n):
        if option_values[i] > top:
            top = option_values[i]
    chosen = 0
    for i in range(n):
        if option_values[i] >= top - EPSILON:
            chosen = i
            break
    if draw < slip:
        second = -1
        for i in range(n):
            v = option_values[i]
            near_miss = v < top - EPSILON and top - v <= max_loss
            if near_miss and (second < 0 or v > option_values[second] + EPSILON):
                second = i
        if second >= 0:
            chosen = second
    return chosen


@njit(cache=True, nogil=True)
def straight_open(card: IntArray, params: IntArray) -> bool:
    """Whether a straight box is open in some column (the beginner then draws to one)."""
    straights = params[CFG_STRAIGHTS]
    for col in range(card.shape[0]):
        for c in range(params[CFG_BOXES]):
            if (straights >> c) & 1 and card[col, c] < 0:
                return True
    return False


@njit(cache=True, nogil=True)
def beginner_keep(counts: IntArray, straight_open: bool, out: IntArray) -> None:
    """The beginner's hold as face counts: a straight (draw) while a straight box is open,
    else every die of its most common face (the higher face on a tie)."""
    out[:] = 0
    if straight_open:
        for size in (6, 5, 4):
            for start in (1, 0, 2):  # 2-3-4-5 first: it can still grow at both ends
                if start + size > 6:
                    continue
                ok = True
                for f in range(start, start + size):
                    if counts[f] == 0:
                        ok = False
                if ok:
                    for f in range(start, start + size):
                        out[f] = 1
                    return
    face = 5
    for f in range(5, -1, -1):
        if counts[f] > counts[face]:
            face = f
    out[face] = counts[face]


@njit(cache=True, nogil=True)
def placement_options(card: IntArray, roll: int, greedy: bool, player: Any, out: Any) -> int:
    """Every legal placement of a roll on the card, in card order, with its value.

    `out` is (column, box, joker flag, value) arrays, one entry per placement, written from
    the start. Greedy values are the points now (times the multiplier), less a hair for
    scratching a box that is usually worth much, so that a greedy player scratches the ones
    first.
    """
    multipliers, arrays, values, typical = player
    params = arrays[3]
    out_col, out_box, out_joker, out_value = out
    boxes_tmp = np.empty(params[CFG_BOXES], dtype=np.int64)
    joker_tmp = np.empty(params[CFG_BOXES], dtype=np.int64)
    n = 0
    for col in range(card.shape[0]):
        boxes = card[col]
        key = column_key(boxes, params)
        m = legal_boxes(boxes, roll, arrays, boxes_tmp, joker_tmp)
        for i in range(m):
            box = boxes_tmp[i]
            if greedy:
                _, total, _ = placement(boxes, box, joker_tmp[i], roll, key[1], arrays)
                value = multipliers[col] * (total - 1e-3 * typical[box])
            else:
                value = multipliers[col] * placement_gain(
                    boxes, box, joker_tmp[i], roll, key, arrays, values
                )
            out_col[n] = col
            out_box[n] = box
            out_joker[n] = joker_tmp[i]
            out_value[n] = value
            n += 1
    return n
