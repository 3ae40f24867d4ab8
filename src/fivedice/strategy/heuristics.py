"""Turn-level policy kernels shared by the CPU players and the simulator.

Every CPU level except the beginner plays the same way: it values each placement as
`multiplier × (points + V(column after) − V(column before))` for a *state value* table `V`
indexed by (filled boxes, upper total, Yahtzee bonus armed), and chooses its keeps by exact
expectimax over the rest of the turn. Only `V` and the slip rate differ between levels:

* expert and strong: the optimal single-column values from the solver (exactly optimal for
  one column; for several columns a sound approximation);
* casual: a hand-made estimate (typical worth of each open box plus a chance of the upper
  bonus), which is what a decent rule-of-thumb player carries in their head;
* strong and casual also *slip* now and then (`pick`): they take a near miss, an option a
  few points worse than the best, as people do.

The beginner does not look ahead: it keeps its most common face (or a straight draw) and
scores wherever the dice earn most right now.

Everything here works on plain numpy arrays so that one numba kernel can serve a single
decision (for a CPU seat) and millions of simulated games alike.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from fivedice.core.categories import CATEGORIES, Category
from fivedice.core.dice import ALL_KEEPS, ALL_ROLLS, Roll, sub_multisets
from fivedice.core.rules import BonusCondition, Joker, RuleSet
from fivedice.core.scoring import box_score, is_five_of_a_kind

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

N_ROLLS = len(ALL_ROLLS)  # 252
N_KEEPS = len(ALL_KEEPS)  # 462
N_BOXES = len(CATEGORIES)  # 13
FULL_KEEP_OFFSET = N_KEEPS - N_ROLLS  # keeps of five dice come last, in roll order
YAHTZEE = Category.YAHTZEE.index
EPSILON = 1e-9  # options closer than this are ties (broken by a fixed order)

# Indices into the rule parameter vector handed to the kernels.
P_ROLLS = 0
P_UPPER_BONUS = 1  # 0/1
P_THRESHOLD = 2
P_UPPER_BONUS_VALUE = 3
P_YAHTZEE_BONUS = 4  # 0/1
P_YAHTZEE_BONUS_VALUE = 5
P_BONUS_IF_FILLED = 6  # 0/1: the bonus is paid when the Yahtzee box holds 0 too
P_JOKER = 7  # 0 none, 1 forced, 2 free choice
P_UPPER_FIRST = 8  # 0/1
P_UPPER_CAP = 9  # size of the upper-total axis of a value table, minus one
N_PARAMS = 10

JOKER_CODES = {Joker.NONE: 0, Joker.FORCED: 1, Joker.FREE_CHOICE: 2}

# What an average decent player expects each box to be worth when it is still open: roughly
# the mean score of each box under optimal play (upper boxes, then the lower boxes).
TYPICAL_BOX_VALUE: tuple[float, ...] = (
    2.1,
    5.3,
    8.6,
    12.2,
    15.7,
    19.2,
    21.7,
    13.1,
    22.6,
    29.5,
    32.7,
    16.9,
    22.0,
)


@dataclass(frozen=True)
class DiceTables:
    """Index arrays over the 252 rolls and 462 keeps (the same for every rule set)."""

    keep_add: IntArray  # (462, 6): the keep with one more die of face f+1, -1 if full
    keep_remove: IntArray  # (462, 5): the distinct keeps with one die fewer, -1 padding
    roll_keeps: IntArray  # (252, 32): the keeps of each roll, largest first, -1 padding
    roll_five: IntArray  # (252,): the face of a five of a kind, else 0
    keep_of_code: IntArray  # (6**6,): keep index of a face-count vector in base 6, else -1
    keep_faces: IntArray  # (462, 6): face counts of each keep
    roll_of: dict[Roll, int]
    keep_of: dict[Roll, int]


@functools.cache
def dice_tables() -> DiceTables:
    """The dice index arrays, built once per process."""
    keep_of = {keep: i for i, keep in enumerate(ALL_KEEPS)}
    roll_of = {roll: i for i, roll in enumerate(ALL_ROLLS)}
    keep_add = np.full((N_KEEPS, 6), -1, dtype=np.int64)
    keep_remove = np.full((N_KEEPS, 5), -1, dtype=np.int64)
    for i, keep in enumerate(ALL_KEEPS):
        if len(keep) < 5:
            for face in range(1, 7):
                keep_add[i, face - 1] = keep_of[tuple(sorted((*keep, face)))]
        for j, face in enumerate(sorted(set(keep))):
            rest = list(keep)
            rest.remove(face)
            keep_remove[i, j] = keep_of[tuple(rest)]
    roll_keeps = np.full((N_ROLLS, 32), -1, dtype=np.int64)
    roll_five = np.zeros(N_ROLLS, dtype=np.int64)
    for r, roll in enumerate(ALL_ROLLS):
        # Largest keeps first, so that among equal options the bot holds more dice (and
        # "keep all five" = score now); then by value, as sub_multisets orders them.
        keeps = sorted(sub_multisets(roll), key=lambda k: (-len(k), k))
        for j, keep in enumerate(keeps):
            roll_keeps[r, j] = keep_of[keep]
        if is_five_of_a_kind(roll):
            roll_five[r] = roll[0]
    keep_of_code = np.full(6**6, -1, dtype=np.int64)
    keep_faces = np.zeros((N_KEEPS, 6), dtype=np.int64)
    for i, keep in enumerate(ALL_KEEPS):
        keep_of_code[sum(6 ** (d - 1) for d in keep)] = i
        for d in keep:
            keep_faces[i, d - 1] += 1
    return DiceTables(
        keep_add,
        keep_remove,
        roll_keeps,
        roll_five,
        keep_of_code,
        keep_faces,
        roll_of,
        keep_of,
    )


@dataclass(frozen=True)
class RuleTables:
    """A rule set as arrays: box scores of every roll and the parameter vector."""

    rules: RuleSet
    scores: IntArray  # (252, 13) plain box scores
    joker_scores: IntArray  # (252, 13) box scores of a five of a kind placed as a joker
    five: IntArray  # (252,): the face of a five of a kind, else 0
    params: IntArray  # (N_PARAMS,)
    multipliers: IntArray  # (columns,)

    @property
    def upper_cap(self) -> int:
        return int(self.params[P_UPPER_CAP])


@functools.lru_cache(maxsize=64)
def rule_tables(rules: RuleSet) -> RuleTables:
    """The score arrays of a rule set, scored by the core so both always agree."""
    scores = np.zeros((N_ROLLS, N_BOXES), dtype=np.int64)
    joker_scores = np.zeros((N_ROLLS, N_BOXES), dtype=np.int64)
    for r, roll in enumerate(ALL_ROLLS):
        for c, category in enumerate(CATEGORIES):
            scores[r, c] = box_score(rules, category, roll)
            if is_five_of_a_kind(roll):
                joker_scores[r, c] = box_score(rules, category, roll, joker=True)
    params = np.zeros(N_PARAMS, dtype=np.int64)
    params[P_ROLLS] = rules.rolls_per_turn
    params[P_UPPER_BONUS] = int(rules.upper_bonus)
    params[P_THRESHOLD] = rules.upper_bonus_threshold
    params[P_UPPER_BONUS_VALUE] = rules.upper_bonus_value
    params[P_YAHTZEE_BONUS] = int(rules.yahtzee_bonus)
    params[P_YAHTZEE_BONUS_VALUE] = rules.yahtzee_bonus_value
    params[P_BONUS_IF_FILLED] = int(rules.yahtzee_bonus_condition is BonusCondition.BOX_FILLED)
    params[P_JOKER] = JOKER_CODES[rules.joker]
    params[P_UPPER_FIRST] = int(rules.upper_first)
    params[P_UPPER_CAP] = rules.upper_bonus_threshold if rules.upper_bonus else 0
    multipliers = np.array(rules.column_multipliers, dtype=np.int64)
    five = dice_tables().roll_five
    return RuleTables(rules, scores, joker_scores, five, params, multipliers)


@functools.lru_cache(maxsize=16)
def heuristic_values(rules: RuleSet) -> FloatArray:
    """A casual player's state values: typical worth of the open boxes plus bonus prospects.

    Returns an array shaped like the solver's (8192 masks, upper cap + 1, 2 armed states).
    The upper-bonus prospect is a logistic guess from how far the upper total is ahead of
    "par" (three of each open face); an armed Yahtzee bonus adds its value times the chance
    of another five of a kind, roughly 4% a remaining turn.
    """
    tables = rule_tables(rules)
    cap = tables.upper_cap
    masks = np.arange(1 << N_BOXES)
    open_bits = ((masks[:, None] >> np.arange(N_BOXES)[None, :]) & 1) == 0
    typical = np.array(TYPICAL_BOX_VALUE) * _fixed_score_scale(rules)
    base = (open_bits * typical[None, :]).sum(axis=1)
    upper_open = open_bits[:, :6]
    par_left = (upper_open * (3 * np.arange(1, 7))[None, :]).sum(axis=1)
    any_upper_open = upper_open.any(axis=1)
    upper = np.arange(cap + 1)
    values = np.zeros((1 << N_BOXES, cap + 1, 2))
    if rules.upper_bonus:
        # Reaching the threshold pays the bonus at once, so values at the cap carry no bonus.
        need = rules.upper_bonus_threshold - upper[None, :]
        margin = par_left[:, None] - need
        chance = 1.0 / (1.0 + np.exp(-(margin + 2.0) / 4.0))
        chance = np.where(any_upper_open[:, None], chance, 0.0)
        chance[:, cap] = 0.0
        values += (rules.upper_bonus_value * chance)[:, :, None]
    turns_left = open_bits.sum(axis=1)
    armed_extra = rules.yahtzee_bonus_value * 0.04 * turns_left if rules.yahtzee_bonus else 0
    values[:, :, 0] += base[:, None]
    values[:, :, 1] += (base + armed_extra)[:, None]
    values.setflags(write=False)  # cached and shared
    return values


def _fixed_score_scale(rules: RuleSet) -> FloatArray:
    # Rules may change the fixed scores; scale those boxes' typical worth along with them.
    scale = np.ones(N_BOXES)
    for category, classic, now in (
        (Category.FULL_HOUSE, 25, rules.full_house),
        (Category.SMALL_STRAIGHT, 30, rules.small_straight),
        (Category.LARGE_STRAIGHT, 40, rules.large_straight),
        (Category.YAHTZEE, 50, rules.yahtzee),
    ):
        scale[category.index] = now / classic
    return scale


def card_arrays(columns: Any) -> tuple[IntArray, IntArray]:
    """A score card's columns as (boxes (columns, 13) with -1 for open, extra Yahtzees)."""
    boxes = np.array(
        [[-1 if s is None else s for s in column.scores] for column in columns], dtype=np.int64
    )
    extras = np.array([column.extra_yahtzees for column in columns], dtype=np.int64)
    return boxes, extras


# ---------------------------------------------------------------------------------------
# numba kernels. A card is an int64 array (columns, 13) with -1 for an open box.


@njit(cache=True, nogil=True, inline="always")
def column_key(boxes: IntArray, params: IntArray) -> tuple[int, int, int]:  # pragma: no cover
    """(filled mask, capped upper total, armed) of one column: its value-table index."""
    mask = 0
    upper = 0
    for c in range(N_BOXES):
        if boxes[c] >= 0:
            mask |= 1 << c
            if c < 6:
                upper += boxes[c]
    armed = 0
    filled = params[P_YAHTZEE_BONUS] == 1 and boxes[YAHTZEE] >= 0
    if filled and (boxes[YAHTZEE] > 0 or params[P_BONUS_IF_FILLED] == 1):
        armed = 1
    return mask, min(upper, params[P_UPPER_CAP]), armed


@njit(cache=True, nogil=True, inline="always")
def legal_boxes(  # pragma: no cover
    boxes: IntArray,
    roll: int,
    five: IntArray,
    params: IntArray,
    out_box: IntArray,
    out_joker: IntArray,
) -> int:
    """Writes the legal boxes of one column for a roll (mirrors core Column.legal_boxes)."""
    upper_open = False
    for c in range(6):
        if boxes[c] < 0:
            upper_open = True
    only_upper = params[P_UPPER_FIRST] == 1 and upper_open
    face = five[roll]
    joker_mode = params[P_JOKER]
    n = 0
    if face > 0 and boxes[YAHTZEE] >= 0 and joker_mode != 0:
        face_open = boxes[face - 1] < 0
        if joker_mode == 2:  # free choice: a joker only once the face's upper box is used
            for c in range(N_BOXES):
                if boxes[c] < 0 and (c < 6 or not only_upper):
                    out_box[n] = c
                    out_joker[n] = 0 if face_open else 1
                    n += 1
            return n
        if face_open:  # forced: the face's upper box first
            out_box[0] = face - 1
            out_joker[0] = 1
            return 1
        if not only_upper:
            for c in range(6, N_BOXES):
                if boxes[c] < 0:
                    out_box[n] = c
                    out_joker[n] = 1
                    n += 1
        if n == 0:
            for c in range(6):
                if boxes[c] < 0:
                    out_box[n] = c
                    out_joker[n] = 1
                    n += 1
        return n
    for c in range(N_BOXES):
        if boxes[c] < 0 and (c < 6 or not only_upper):
            out_box[n] = c
            out_joker[n] = 0
            n += 1
    return n


@njit(cache=True, nogil=True, inline="always")
def placement(  # pragma: no cover
    boxes: IntArray,
    box: int,
    joker: int,
    roll: int,
    up: int,
    scores: IntArray,
    joker_scores: IntArray,
    five: IntArray,
    params: IntArray,
) -> tuple[int, int, int]:
    """(box points, points now with bonuses, 1 if an extra Yahtzee is earned).

    `up` is the column's upper total capped at the threshold (enough to see it reached).
    """
    points = joker_scores[roll, box] if joker == 1 else scores[roll, box]
    total = points
    if box < 6 and params[P_UPPER_BONUS] == 1 and up < params[P_THRESHOLD] <= up + points:
        total += params[P_UPPER_BONUS_VALUE]
    extra = 0
    further = params[P_YAHTZEE_BONUS] == 1 and boxes[YAHTZEE] >= 0 and five[roll] > 0
    if further and (boxes[YAHTZEE] > 0 or params[P_BONUS_IF_FILLED] == 1):
        total += params[P_YAHTZEE_BONUS_VALUE]
        extra = 1
    return points, total, extra


@njit(cache=True, nogil=True, inline="always")
def placement_gain(  # pragma: no cover
    boxes: IntArray,
    box: int,
    joker: int,
    roll: int,
    mask: int,
    up: int,
    armed: int,
    scores: IntArray,
    joker_scores: IntArray,
    five: IntArray,
    params: IntArray,
    values: FloatArray,
) -> float:
    """Points now plus the change of the column's state value (before the multiplier)."""
    points, total, _ = placement(boxes, box, joker, roll, up, scores, joker_scores, five, params)
    new_up = min(up + points, params[P_UPPER_CAP]) if box < 6 else up
    new_armed = armed
    arms = points > 0 or params[P_BONUS_IF_FILLED] == 1
    if box == YAHTZEE and params[P_YAHTZEE_BONUS] == 1 and arms:
        new_armed = 1
    gain: float = total + values[mask | (1 << box), new_up, new_armed] - values[mask, up, armed]
    return gain


@njit(cache=True, nogil=True)
def end_values(  # pragma: no cover
    card: IntArray,
    multipliers: IntArray,
    scores: IntArray,
    joker_scores: IntArray,
    five: IntArray,
    params: IntArray,
    values: FloatArray,
    out: FloatArray,
) -> None:
    """The value of scoring each of the 252 rolls now, in the best place on the card."""
    out_box = np.empty(N_BOXES, dtype=np.int64)
    out_joker = np.empty(N_BOXES, dtype=np.int64)
    plain = np.empty(N_BOXES, dtype=np.int64)
    upper_gain = np.empty((6, 6))  # [box, dice showing its face]
    lower_gain = np.empty(N_BOXES + 1)  # the Yahtzee box: [11] unarmed after, [13] armed
    cap = params[P_UPPER_CAP]
    out[:] = -1e300
    for col in range(card.shape[0]):
        boxes = card[col]
        mask, up, armed = column_key(boxes, params)
        if mask == (1 << N_BOXES) - 1:
            continue
        weight = multipliers[col]
        base = values[mask, up, armed]
        # A placement's future depends on the roll only through the points it scores, so
        # look the next states up once per column rather than once per roll.
        n_plain = 0
        upper_open = False
        for c in range(6):
            if boxes[c] < 0:
                upper_open = True
        for c in range(N_BOXES):
            if boxes[c] < 0 and (c < 6 or not (params[P_UPPER_FIRST] == 1 and upper_open)):
                plain[n_plain] = c
                n_plain += 1
                if c < 6:
                    for k in range(6):
                        points = (c + 1) * k
                        bonus = 0
                        if params[P_UPPER_BONUS] == 1 and up < params[P_THRESHOLD] <= up + points:
                            bonus = params[P_UPPER_BONUS_VALUE]
                        upper_gain[c, k] = (
                            points
                            + bonus
                            + values[mask | (1 << c), min(up + points, cap), armed]
                            - base
                        )
                elif c == YAHTZEE:
                    lower_gain[YAHTZEE] = values[mask | (1 << c), up, 0] - base
                    lower_gain[N_BOXES] = values[mask | (1 << c), up, 1] - base
                else:
                    lower_gain[c] = values[mask | (1 << c), up, armed] - base
        # Placing a zero in the Yahtzee box arms the bonus only under the box-filled rule.
        zero_arms = params[P_YAHTZEE_BONUS] == 1 and params[P_BONUS_IF_FILLED] == 1
        for r in range(N_ROLLS):
            best = -1e300
            if five[r] > 0 and boxes[YAHTZEE] >= 0:
                # A further five of a kind: joker rules and the extra-Yahtzee bonus.
                n = legal_boxes(boxes, r, five, params, out_box, out_joker)
                for i in range(n):
                    v = placement_gain(
                        boxes,
                        out_box[i],
                        out_joker[i],
                        r,
                        mask,
                        up,
                        armed,
                        scores,
                        joker_scores,
                        five,
                        params,
                        values,
                    )
                    if v > best:
                        best = v
            else:
                for i in range(n_plain):
                    c = plain[i]
                    if c < 6:
                        v = upper_gain[c, scores[r, c] // (c + 1)]
                    elif c == YAHTZEE:
                        points = scores[r, c]
                        arms = params[P_YAHTZEE_BONUS] == 1 and points > 0
                        v = points + lower_gain[N_BOXES if arms or zero_arms else YAHTZEE]
                    else:
                        v = scores[r, c] + lower_gain[c]
                    if v > best:
                        best = v
            if weight * best > out[r]:
                out[r] = weight * best


@njit(cache=True, nogil=True)
def turn_tables(  # pragma: no cover
    ends: FloatArray,
    levels: int,
    keep_add: IntArray,
    keep_remove: IntArray,
    out_keep: FloatArray,
    out_roll: FloatArray,
    best: FloatArray,
) -> None:
    """Expectimax over a turn from the end values.

    Fills out_roll[n, r], the value of roll r with n rolls left (n <= levels), and
    out_keep[n, k], the value of holding keep k when n + 1 rolls are left (n < levels).
    """
    out_roll[0, :] = ends
    for n in range(levels):
        keep = out_keep[n]
        for r in range(N_ROLLS):
            keep[FULL_KEEP_OFFSET + r] = out_roll[n, r]
        # A keep of k dice is worth the mean, over the next die's face, of the keep of k+1.
        for k in range(FULL_KEEP_OFFSET - 1, -1, -1):
            total = 0.0
            for f in range(6):
                total += keep[keep_add[k, f]]
            keep[k] = total / 6.0
        # The best keep within each keep: drop one die at a time (keeps ascend by size).
        for k in range(N_KEEPS):
            b = keep[k]
            for j in range(5):
                sub = keep_remove[k, j]
                if sub < 0:
                    break
                if best[sub] > b:
                    b = best[sub]
            best[k] = b
        for r in range(N_ROLLS):
            out_roll[n + 1, r] = best[FULL_KEEP_OFFSET + r]


@njit(cache=True, nogil=True, inline="always")
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
def beginner_keep(counts: IntArray, straight_open: bool, out: IntArray) -> None:  # pragma: no cover
    """The beginner's hold as face counts: a straight (draw) while a straight box is open,
    else every die of its most common face (the higher face on a tie)."""
    out[:] = 0
    if straight_open:
        for size in (5, 4):
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
def placement_options(  # pragma: no cover
    card: IntArray,
    multipliers: IntArray,
    roll: int,
    greedy: bool,
    scores: IntArray,
    joker_scores: IntArray,
    five: IntArray,
    params: IntArray,
    values: FloatArray,
    typical: FloatArray,
    out_col: IntArray,
    out_box: IntArray,
    out_joker: IntArray,
    out_value: FloatArray,
) -> int:
    """Every legal placement of a roll on the card, in card order, with its value.

    Greedy values are the points now (times the multiplier), less a hair for scratching a
    box that is usually worth much, so that a greedy player scratches the ones first.
    """
    boxes_tmp = np.empty(N_BOXES, dtype=np.int64)
    joker_tmp = np.empty(N_BOXES, dtype=np.int64)
    n = 0
    for col in range(card.shape[0]):
        boxes = card[col]
        mask, up, armed = column_key(boxes, params)
        m = legal_boxes(boxes, roll, five, params, boxes_tmp, joker_tmp)
        for i in range(m):
            box = boxes_tmp[i]
            if greedy:
                _, total, _ = placement(
                    boxes, box, joker_tmp[i], roll, up, scores, joker_scores, five, params
                )
                value = multipliers[col] * (total - 1e-3 * typical[box])
            else:
                value = multipliers[col] * placement_gain(
                    boxes,
                    box,
                    joker_tmp[i],
                    roll,
                    mask,
                    up,
                    armed,
                    scores,
                    joker_scores,
                    five,
                    params,
                    values,
                )
            out_col[n] = col
            out_box[n] = box
            out_joker[n] = joker_tmp[i]
            out_value[n] = value
            n += 1
    return n


@njit(cache=True, nogil=True, inline="always")
def _next_random(state: npt.NDArray[np.uint64]) -> float:  # pragma: no cover
    # splitmix64: tiny, fast, and good enough for dice; one state per game and stream makes
    # every game reproducible whatever thread plays it.
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return float(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, nogil=True, inline="always")
def _count_code(counts: IntArray) -> int:  # pragma: no cover
    code = 0
    scale = 1
    for f in range(6):
        code += counts[f] * scale
        scale *= 6
    return code


@njit(cache=True, nogil=True)
def play_game(  # pragma: no cover
    greedy: bool,
    slip: float,
    max_loss: float,
    dice_seed: int,
    slip_seed: int,
    multipliers: IntArray,
    scores: IntArray,
    joker_scores: IntArray,
    five: IntArray,
    params: IntArray,
    values: FloatArray,
    typical: FloatArray,
    keep_add: IntArray,
    keep_remove: IntArray,
    roll_keeps: IntArray,
    keep_of_code: IntArray,
    keep_faces: IntArray,
    first_keep: FloatArray,
    out: IntArray,
) -> None:
    """Plays one solitaire game; writes (score, upper bonuses, Yahtzee scored, extras) to out.

    `first_keep` holds the keep values of the first turn (the same in every game).
    """
    columns = multipliers.shape[0]
    rolls = params[P_ROLLS]
    levels = rolls - 1
    card = np.full((columns, N_BOXES), -1, dtype=np.int64)
    extras = np.zeros(columns, dtype=np.int64)
    ends = np.empty(N_ROLLS)
    keep_values = np.empty((max(levels, 1), N_KEEPS))
    roll_values = np.empty((levels + 1, N_ROLLS))
    best = np.empty(N_KEEPS)
    counts = np.zeros(6, dtype=np.int64)
    held = np.zeros(6, dtype=np.int64)
    option_values = np.empty(32)
    p_col = np.empty(columns * N_BOXES, dtype=np.int64)
    p_box = np.empty(columns * N_BOXES, dtype=np.int64)
    p_joker = np.empty(columns * N_BOXES, dtype=np.int64)
    p_value = np.empty(columns * N_BOXES)
    dice_state = np.zeros(1, dtype=np.uint64)
    dice_state[0] = np.uint64(dice_seed)
    slip_state = np.zeros(1, dtype=np.uint64)
    slip_state[0] = np.uint64(slip_seed)
    for turn in range(columns * N_BOXES):
        if not greedy and levels > 0:
            if turn == 0:
                keep_values[:, :] = first_keep
            else:
                end_values(card, multipliers, scores, joker_scores, five, params, values, ends)
                turn_tables(ends, levels, keep_add, keep_remove, keep_values, roll_values, best)
        counts[:] = 0
        for _ in range(5):
            counts[int(_next_random(dice_state) * 6.0)] += 1
        for rolls_left in range(levels, 0, -1):
            roll = keep_of_code[_count_code(counts)] - FULL_KEEP_OFFSET
            if greedy:
                straight_open = False
                for col in range(columns):
                    if card[col, 9] < 0 or card[col, 10] < 0:
                        straight_open = True
                beginner_keep(counts, straight_open, held)
            else:
                n = 0
                for j in range(32):
                    k = roll_keeps[roll, j]
                    if k < 0:
                        break
                    option_values[j] = keep_values[rolls_left - 1, k]
                    n += 1
                draw = _next_random(slip_state) if slip > 0.0 else 1.0
                chosen = roll_keeps[roll, pick(option_values, n, draw, slip, max_loss)]
                held[:] = keep_faces[chosen]
            size = 0
            for f in range(6):
                size += held[f]
            if size == 5:
                break  # keeping everything: score now
            counts[:] = held
            for _ in range(5 - size):
                counts[int(_next_random(dice_state) * 6.0)] += 1
        roll = keep_of_code[_count_code(counts)] - FULL_KEEP_OFFSET
        n = placement_options(
            card,
            multipliers,
            roll,
            greedy,
            scores,
            joker_scores,
            five,
            params,
            values,
            typical,
            p_col,
            p_box,
            p_joker,
            p_value,
        )
        draw = _next_random(slip_state) if slip > 0.0 else 1.0
        i = pick(p_value, n, draw, slip, max_loss)
        col = p_col[i]
        _, up, _ = column_key(card[col], params)
        points, _, extra = placement(
            card[col], p_box[i], p_joker[i], roll, up, scores, joker_scores, five, params
        )
        card[col, p_box[i]] = points
        extras[col] += extra
    score = 0
    bonuses = 0
    yahtzees = 0
    for col in range(columns):
        upper = 0
        total = 0
        for c in range(N_BOXES):
            total += card[col, c]
            if c < 6:
                upper += card[col, c]
        if params[P_UPPER_BONUS] == 1 and upper >= params[P_THRESHOLD]:
            total += params[P_UPPER_BONUS_VALUE]
            bonuses += 1
        total += extras[col] * params[P_YAHTZEE_BONUS_VALUE]
        if card[col, YAHTZEE] > 0:
            yahtzees += 1
        score += multipliers[col] * total
    out[0] = score
    out[1] = bonuses
    out[2] = yahtzees
    out[3] = extras.sum()


@njit(cache=True, parallel=True)
def play_games(  # pragma: no cover
    greedy: bool,
    slip: float,
    max_loss: float,
    seeds: npt.NDArray[np.uint64],
    multipliers: IntArray,
    scores: IntArray,
    joker_scores: IntArray,
    five: IntArray,
    params: IntArray,
    values: FloatArray,
    typical: FloatArray,
    keep_add: IntArray,
    keep_remove: IntArray,
    roll_keeps: IntArray,
    keep_of_code: IntArray,
    keep_faces: IntArray,
    first_keep: FloatArray,
    out: IntArray,
) -> None:
    for g in prange(seeds.shape[0]):
        play_game(
            greedy,
            slip,
            max_loss,
            seeds[g, 0],
            seeds[g, 1],
            multipliers,
            scores,
            joker_scores,
            five,
            params,
            values,
            typical,
            keep_add,
            keep_remove,
            roll_keeps,
            keep_of_code,
            keep_faces,
            first_keep,
            out[g],
        )
