"""The strategy kernel: the legal boxes, the end-of-turn valuation and the keep expectimax.

Each exists once, here, for any box list and number of dice (`rule_arrays`, `tables`); the
solver, the advisor, the CPU players and the playout all call these.

A between-turn state is (mask of filled boxes, upper total capped at the bonus threshold,
armed): `table[mask, up, armed]` is the expected points still to come. Within a turn the
kernel works backwards over the rolls and keeps: the value of a keep is the mean over one more
die's six faces (K(k) = mean_f K(k + f)), and the best keep of a roll is a running maximum over
sub-keeps (M(k) = max(K(k), max_f M(k - f))).

Two tuples travel together through the kernel: `rules`, the rule set's arrays as the kernel
reads them, `(score, joker_score, arms, all_same, config)` (`RuleArrays.kernel_rules`: the
(B, R) box scores and joker scores, whether scoring a roll in the Yahtzee box arms the bonus,
each roll's face when all its dice show one, else 0, and the CFG_* vector); and `futures`,
`(upper_value, lower_value)`, the buffers `prepare_futures` fills once per state.
"""

from __future__ import annotations

from typing import Any

from numba import njit

from fivedice.strategy.compact import compact_index
from fivedice.strategy.rule_arrays import (
    CFG_BOXES,
    CFG_CAP,
    CFG_FILL,
    CFG_JOKER,
    CFG_ROLLS,
    CFG_SERVED,
    CFG_STRIDE,
    CFG_THRESHOLD,
    CFG_TIER2,
    CFG_TIER2_BONUS,
    CFG_TIER3,
    CFG_TIER3_BONUS,
    CFG_UPPER_BONUS,
    CFG_YAHTZEE,
    CFG_YAHTZEE_BONUS,
    FILL_FORCED,
    FILL_UPPER_FIRST,
    UPPER_BOXES,
)
from fivedice.strategy.tables import FloatArray, IntArray

UPPER_BITS = (1 << UPPER_BOXES) - 1


def state_value(table: Any, mask: int, up: int, armed: int) -> float:
    """The value of a between-turn state in a value table: `table[mask, up, armed]`, or, for
    a *factored* table `(base, upper)` (too many boxes for a full array, e.g. Maxi Yatzy's
    2^20 masks), `base[mask] + upper[mask & UPPER_BITS, up]` (no armed axis), or, for a
    *compact* table `(values, slot, layout)` (the exact Maxi Yatzy table: `compact`), the
    state's entry of `values`.

    Compiled code gets the variant of the table's type (`_state_value_overload`).
    """
    if isinstance(table, tuple) and len(table) == 3:
        values, slot, layout = table
        return float(values[compact_index(slot, layout, mask, up, armed)])
    if isinstance(table, tuple):
        return float(table[0][mask] + table[1][mask & UPPER_BITS, up])
    return float(table[mask, up, armed])


def _state_value_overload(table: Any, mask: Any, up: Any, armed: Any) -> Any:
    from numba.core import types

    if isinstance(table, types.BaseTuple) and len(table) == 3:

        def compact(table: Any, mask: Any, up: Any, armed: Any) -> Any:
            return table[0][compact_index(table[1], table[2], mask, up, armed)]

        return compact

    if isinstance(table, types.BaseTuple):

        def factored(table: Any, mask: Any, up: Any, armed: Any) -> Any:
            return table[0][mask] + table[1][mask & UPPER_BITS, up]

        return factored

    def full(table: Any, mask: Any, up: Any, armed: Any) -> Any:
        return table[mask, up, armed]

    return full


try:  # absent when the strategy modules run uncompiled (`interpreted`)
    from numba.extending import overload
except ImportError:  # pragma: no cover
    pass
else:
    overload(state_value, inline="always")(_state_value_overload)


@njit(cache=True, nogil=True, inline="always")
def upper_bonus_at(total: int, config: IntArray) -> int:
    """The upper bonus an upper total earns: the points of the highest tier reached (one tier
    but Kismet's 35 at 63, 55 at 71, 75 at 78; `RuleSet.upper_bonus_points`)."""
    if total >= config[CFG_TIER3]:
        return int(config[CFG_TIER3_BONUS])
    if total >= config[CFG_TIER2]:
        return int(config[CFG_TIER2_BONUS])
    if total >= config[CFG_THRESHOLD]:
        return int(config[CFG_UPPER_BONUS])
    return 0


@njit(cache=True, nogil=True, inline="always")
def upper_bonus_gain(up: int, points: int, config: IntArray) -> int:
    """The upper bonus earned by adding `points` to the upper total `up` (capped or not)."""
    return upper_bonus_at(up + points, config) - upper_bonus_at(up, config)


@njit(cache=True, nogil=True, inline="always")
def packed_box_rules(rules: IntArray, rolls_left: int, all_same: IntArray) -> Any:
    """The kernel rules (score, joker_score, arms, all_same, config) a roll with `rolls_left`
    rolls left is scored by, from the packed rules (`RuleArrays.packed`): the first roll's
    served scores (`packed_served_rows`) when the rules pay served points and the dice are
    the turn's first roll, else the plain scores."""
    config = rules[0]
    boxes = config[CFG_BOXES]
    start = 1
    if config[CFG_SERVED] == 1 and rolls_left == config[CFG_ROLLS] - 1:
        start = 2 + 3 * boxes
    arms = rules[1 + 2 * boxes]
    return (
        rules[start : start + boxes],
        rules[start + boxes : start + 2 * boxes],
        arms,
        all_same,
        config,
    )


@njit(cache=True, nogil=True)
def upper_value_size(stride: int) -> int:
    """Length of the `upper_value` scratch buffer of `prepare_futures`."""
    return UPPER_BOXES * stride


@njit(cache=True, nogil=True, inline="always")
def open_and_allowed(mask: int, config: IntArray) -> tuple[int, int]:
    """The open boxes, and those the fill order allows now (masks)."""
    open_boxes = ~mask & ((1 << config[CFG_BOXES]) - 1)
    fill = config[CFG_FILL]
    if fill == FILL_UPPER_FIRST and (open_boxes & UPPER_BITS) != 0:
        return open_boxes, open_boxes & UPPER_BITS
    if fill == FILL_FORCED:
        return open_boxes, open_boxes & -open_boxes
    return open_boxes, open_boxes


@njit(cache=True, nogil=True, inline="always")
def joker_boxes(
    face: int, open_boxes: int, allowed: int, armed: int, config: IntArray
) -> tuple[int, bool, int]:
    """For a further all-same roll (Yahtzee box filled): the boxes it may go in (a mask),
    whether it scores as a joker, and the extra-Yahtzee bonus. Mirrors `Column.legal_boxes`."""
    extra = config[CFG_YAHTZEE_BONUS] if armed == 1 else 0
    joker_mode = config[CFG_JOKER]
    face_bit = 1 << (face - 1)
    lower = allowed & ~UPPER_BITS
    if joker_mode == 1:  # forced: the face's upper box, else a lower box, else any upper
        if allowed & face_bit:
            return face_bit, True, extra
        if lower:
            return lower, True, extra
        return allowed, True, extra
    if joker_mode == 2:  # free choice: a joker only once the face's upper box is filled
        return allowed, (open_boxes & face_bit) == 0, extra
    if joker_mode == 3:  # a second all-same box: it scores only while the first holds points
        return allowed, armed == 1, extra
    return allowed, False, extra


@njit(cache=True, nogil=True, inline="always")
def prepare_futures(
    mask: int,
    up: int,
    armed: int,
    table: Any,
    config: IntArray,
    futures: tuple[FloatArray, FloatArray],
) -> tuple[int, int]:
    """Looks up, once per state, what scoring in each open box leads to; returns the open
    boxes and the boxes the fill order allows (masks).

    The future of a box depends on the roll only through an upper box's points and whether a
    Yahtzee-box score arms the bonus, so `futures` = (upper_value, lower_value) gets:
    upper_value[stride b + p] = p points in upper box b
    (points, upper bonus and future); lower_value[b] = future of lower box b; for the Yahtzee
    box Y, lower_value[Y] unarmed after and lower_value[B] armed after.
    """
    upper_value, lower_value = futures
    cap = config[CFG_CAP]
    boxes = config[CFG_BOXES]
    stride = config[CFG_STRIDE]
    dice = (stride - 1) // 6
    yahtzee = config[CFG_YAHTZEE]
    open_boxes, allowed = open_and_allowed(mask, config)
    for b in range(UPPER_BOXES):
        if (open_boxes >> b) & 1:
            after = mask | (1 << b)
            for n in range(dice + 1):
                points = (b + 1) * n
                total = up + points
                bonus = upper_bonus_gain(up, points, config)
                if total > cap:
                    total = cap
                upper_value[b * stride + points] = (
                    points + bonus + state_value(table, after, total, armed)
                )
    for b in range(UPPER_BOXES, boxes):
        if (open_boxes >> b) & 1:
            if b == yahtzee:
                lower_value[b] = state_value(table, mask | (1 << b), up, 0)
                lower_value[boxes] = state_value(table, mask | (1 << b), up, 1)
            else:
                lower_value[b] = state_value(table, mask | (1 << b), up, armed)
    return open_boxes, allowed


@njit(cache=True, nogil=True, inline="always")
def box_value(
    b: int, r: int, joker: bool, rules: Any, futures: tuple[FloatArray, FloatArray]
) -> float:
    """Points now plus the future of scoring roll r in open box b (see prepare_futures)."""
    score, joker_score, arms, _, config = rules
    upper_value, lower_value = futures
    if b < UPPER_BOXES:
        return float(upper_value[b * config[CFG_STRIDE] + score[b, r]])
    if b == config[CFG_YAHTZEE]:
        after = config[CFG_BOXES] if arms[r] == 1 else b
        return float(score[b, r] + lower_value[after])
    return float((joker_score[b, r] if joker else score[b, r]) + lower_value[b])


@njit(cache=True, nogil=True, inline="always")
def boxes_of_roll(
    r: int, mask: int, open_boxes: int, allowed: int, armed: int, rules: Any
) -> tuple[int, bool, int]:
    """The boxes roll r may go in (a mask), whether it scores as a joker, and the extra-Yahtzee
    bonus: `joker_boxes` for a further all-same roll, else the boxes the fill order allows."""
    all_same, config = rules[3], rules[4]
    yahtzee = config[CFG_YAHTZEE]
    if all_same[r] > 0 and yahtzee >= 0 and (mask >> yahtzee) & 1:
        return joker_boxes(all_same[r], open_boxes, allowed, armed, config)
    return allowed, False, 0


@njit(cache=True, nogil=True, inline="always")
def best_joker_box(
    r: int,
    mask: int,
    open_boxes: int,
    allowed: int,
    armed: int,
    rules: Any,
    futures: tuple[FloatArray, FloatArray],
) -> tuple[float, int]:
    """The best value and box of roll r among the boxes it may go in (`boxes_of_roll`): for a
    further all-same roll, whose boxes the joker rule decides."""
    chosen, joker, extra = boxes_of_roll(r, mask, open_boxes, allowed, armed, rules)
    best = -1.0e300
    best_b = -1
    for b in range(rules[4][CFG_BOXES]):
        if (chosen >> b) & 1:
            value = extra + box_value(b, r, joker, rules, futures)
            if value > best:
                best = value
                best_b = b
    return best, best_b


@njit(cache=True, nogil=True)
def box_options(
    mask: int,
    up: int,
    armed: int,
    r: int,
    table: Any,
    rules: Any,
    futures: tuple[FloatArray, FloatArray],
    out_boxes: IntArray,
    out_values: FloatArray,
) -> int:
    """Every legal box for roll r with its value (points, bonuses, future); returns the count.

    Which boxes a roll may go in is `boxes_of_roll`'s (with `joker_boxes`)."""
    config = rules[4]
    open_boxes, allowed = prepare_futures(mask, up, armed, table, config, futures)
    chosen, joker, extra = boxes_of_roll(r, mask, open_boxes, allowed, armed, rules)
    count = 0
    for b in range(config[CFG_BOXES]):
        if (chosen >> b) & 1:
            out_boxes[count] = b
            out_values[count] = extra + box_value(b, r, joker, rules, futures)
            count += 1
    return count


@njit(cache=True, nogil=True)
def final_roll_values(
    mask: int,
    up: int,
    armed: int,
    table: Any,
    rules: Any,
    futures: tuple[FloatArray, FloatArray],
    out: FloatArray,
    best_box: IntArray,
) -> None:
    """The end-of-turn valuation: the value of each roll when it must be scored now (0 rolls
    left), and the best box."""
    score, _, arms, all_same, config = rules
    upper_value, lower_value = futures
    open_boxes, allowed = prepare_futures(mask, up, armed, table, config, futures)
    rolls = score.shape[1]
    boxes = config[CFG_BOXES]
    stride = config[CFG_STRIDE]
    yahtzee = config[CFG_YAHTZEE]
    for r in range(rolls):
        out[r] = -1.0e300
    # Box by box over all rolls: the inner loops are uniform and the compiler vectorises them.
    for b in range(boxes):
        if not (allowed >> b) & 1:
            continue
        if b < UPPER_BOXES:
            base = b * stride
            for r in range(rolls):
                value = upper_value[base + score[b, r]]
                if value > out[r]:
                    out[r] = value
                    best_box[r] = b
        elif b == yahtzee:
            unarmed = lower_value[b]
            armed_after = lower_value[boxes]
            for r in range(rolls):
                value = score[b, r] + (armed_after if arms[r] == 1 else unarmed)
                if value > out[r]:
                    out[r] = value
                    best_box[r] = b
        else:
            future = lower_value[b]
            for r in range(rolls):
                value = score[b, r] + future
                if value > out[r]:
                    out[r] = value
                    best_box[r] = b
    if yahtzee >= 0 and (mask >> yahtzee) & 1:
        # A further all-same roll: the joker rule and the extra-Yahtzee bonus decide.
        for r in range(rolls):
            if all_same[r] > 0:
                out[r], best_box[r] = best_joker_box(
                    r, mask, open_boxes, allowed, armed, rules, futures
                )


@njit(cache=True, nogil=True, inline="always")
def mean_keep_values(roll_value: FloatArray, keep_value: FloatArray, add_face: IntArray) -> None:
    """Keep values from the roll values: K(k) = mean over the next die's faces of K(k + face)."""
    keeps = add_face.shape[0]
    first_roll = keeps - roll_value.shape[0]
    for r in range(roll_value.shape[0]):
        keep_value[first_roll + r] = roll_value[r]
    for k in range(first_roll - 1, -1, -1):
        total = 0.0
        for f in range(6):
            total += keep_value[add_face[k, f]]
        keep_value[k] = total / 6.0


@njit(cache=True, nogil=True, inline="always")
def best_keep_values(
    keep_value: FloatArray, running_max: FloatArray, out: FloatArray, remove_face: IntArray
) -> None:
    """The value of each roll with a roll left: its best keep (a running subset maximum)."""
    keeps = remove_face.shape[0]
    for k in range(keeps):
        best = keep_value[k]
        for f in range(6):
            j = remove_face[k, f]
            if j < 0:
                break
            other = running_max[j]
            best = other if other > best else best  # branch-free: the data are unpredictable
        running_max[k] = best
    first_roll = keeps - out.shape[0]
    for r in range(out.shape[0]):
        out[r] = running_max[first_roll + r]


@njit(cache=True, nogil=True)
def best_keep_args(
    keep_value: FloatArray,
    running_max: FloatArray,
    running_arg: IntArray,
    out: FloatArray,
    best_keep: IntArray,
    remove_face: IntArray,
) -> None:
    """`best_keep_values` that also records each roll's best keep (for a policy)."""
    keeps = remove_face.shape[0]
    for k in range(keeps):
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
    first_roll = keeps - out.shape[0]
    for r in range(out.shape[0]):
        out[r] = running_max[first_roll + r]
        best_keep[r] = running_arg[first_roll + r]


@njit(cache=True, nogil=True)
def reroll(
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
    mean_keep_values(previous, keep_value, add_face)
    best_keep_args(keep_value, running_max, running_arg, out, best_keep, remove_face)


@njit(cache=True, nogil=True)
def turn(
    mask: int,
    up: int,
    armed: int,
    table: Any,
    score: IntArray,
    joker_score: IntArray,
    arms: IntArray,
    all_same: IntArray,
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
    """Solves one turn from a state with the policy; returns the expected points before the
    first roll. roll_values/keep_values/best_keep have one row per rolls left (0 first)."""
    rules = (score, joker_score, arms, all_same, config)
    futures = (upper_value, lower_value)
    final_roll_values(mask, up, armed, table, rules, futures, roll_values[0], best_box)
    levels = roll_values.shape[0]
    for n in range(1, levels):
        reroll(
            roll_values[n - 1], keep_values[n], running_max, running_arg,
            roll_values[n], best_keep[n], add_face, remove_face,
        )  # fmt: skip
    total = 0.0
    last = roll_values[levels - 1]
    for r in range(last.shape[0]):
        total += probability[r] * last[r]
    return total


@njit(cache=True, nogil=True)
def turn_value(
    mask: int,
    up: int,
    armed: int,
    table: Any,
    rules: Any,
    scoring: IntArray,
    scoring_count: IntArray,
    dice: tuple[IntArray, IntArray, FloatArray],
    levels: int,
    roll_value: FloatArray,
    keep_value: FloatArray,
    running_max: FloatArray,
    futures: tuple[FloatArray, FloatArray],
    served_score: IntArray,
) -> float:
    """`turn` without the policy: only the expected points before the first roll (the solve).

    `dice` is (add_face, remove_face, probability) of the dice tables. With served points
    (`config[CFG_SERVED]`: `served_score`, the box scores of the turn's first roll) the first
    roll may also be scored at once with them: its value is the better of that and its best
    keep (a keep of every die keeps the dice, not the served points); `served_score[0]` and
    `served_score[1]` are that roll's scores and joker scores."""
    add_face, remove_face, probability = dice
    config = rules[4]
    open_boxes, allowed = prepare_futures(mask, up, armed, table, config, futures)
    scored_values(
        mask, open_boxes, allowed, armed, rules, scoring, scoring_count, futures, roll_value
    )
    for _ in range(1, levels):
        mean_keep_values(roll_value, keep_value, add_face)
        best_keep_values(keep_value, running_max, roll_value, remove_face)
    if config[CFG_SERVED] == 1:
        served_rules = (served_score[0], served_score[1], rules[2], rules[3], config)
        now = keep_value[: roll_value.shape[0]]  # free again: scratch
        scored_values(
            mask, open_boxes, allowed, armed, served_rules, scoring, scoring_count, futures, now
        )
        for r in range(roll_value.shape[0]):
            roll_value[r] = now[r] if now[r] > roll_value[r] else roll_value[r]
    total = 0.0
    for r in range(roll_value.shape[0]):
        total += probability[r] * roll_value[r]
    return total


@njit(cache=True, nogil=True, inline="always")
def scored_values(
    mask: int,
    open_boxes: int,
    allowed: int,
    armed: int,
    rules: Any,
    scoring: IntArray,
    scoring_count: IntArray,
    futures: tuple[FloatArray, FloatArray],
    out: FloatArray,
) -> None:
    """The end-of-turn valuation without the best box (the solve's and the advice's): the value
    of each roll scored now, after `prepare_futures`.

    Sparse: a box's value for a roll that scores 0 there does not depend on the roll, and a roll
    that scores p ≥ 1 points there is worth at least that much more (p points more now; the
    future is no worse: a higher upper total only helps, an armed bonus only adds): so every
    roll starts from the best zero-score value of the allowed boxes, and each box then visits
    only the rolls that score in it (`scoring[b, :scoring_count[b]]`). The maximum is the same
    as over every (roll, box) pair.
    """
    score, _, arms, all_same, config = rules
    upper_value, lower_value = futures
    rolls = score.shape[1]
    boxes = config[CFG_BOXES]
    stride = config[CFG_STRIDE]
    yahtzee = config[CFG_YAHTZEE]
    zero = -1.0e300
    for b in range(boxes):
        if (allowed >> b) & 1 and b != yahtzee and scoring_count[b] < rolls:
            value = upper_value[b * stride] if b < UPPER_BOXES else lower_value[b]
            zero = value if value > zero else zero
    for r in range(rolls):
        out[r] = zero
    for b in range(boxes):
        if not (allowed >> b) & 1:
            continue
        if b == yahtzee:  # whether a roll arms the bonus matters too: all rolls
            unarmed = lower_value[b]
            armed_after = lower_value[boxes]
            for r in range(rolls):
                value = score[b, r] + (armed_after if arms[r] == 1 else unarmed)
                out[r] = value if value > out[r] else out[r]
            continue
        visit = scoring[b]
        if b < UPPER_BOXES:
            base = b * stride
            for i in range(scoring_count[b]):
                r = visit[i]
                value = upper_value[base + score[b, r]]
                out[r] = value if value > out[r] else out[r]
        else:
            future = lower_value[b]
            for i in range(scoring_count[b]):
                r = visit[i]
                value = score[b, r] + future
                out[r] = value if value > out[r] else out[r]
    if yahtzee >= 0 and (mask >> yahtzee) & 1:
        # A further all-same roll: `best_joker_box`'s value, with `box_value` written out. Calls
        # that take the arrays (even inlined) cost ~50 ns each in reference counts, ~40 calls
        # per state: 0.7-0.9 us of a state's 1.5, against 0.16 us written out.
        joker_score = rules[1]
        for r in range(rolls):
            face = all_same[r]
            if face > 0:
                chosen, joker, extra = joker_boxes(face, open_boxes, allowed, armed, config)
                best = -1.0e300
                for b in range(boxes):
                    if (chosen >> b) & 1:
                        if b < UPPER_BOXES:
                            value = upper_value[b * stride + score[b, r]]
                        elif b == yahtzee:
                            value = score[b, r] + lower_value[boxes if arms[r] == 1 else b]
                        else:
                            value = (joker_score[b, r] if joker else score[b, r]) + lower_value[b]
                        value = extra + value
                        best = value if value > best else best
                out[r] = best


@njit(cache=True, nogil=True)
def placement_outcome(
    b: int, r: int, mask: int, up: int, armed: int, rules: Any
) -> tuple[int, int, int, int, int, int]:
    """What scoring roll r in open box b (the policy's choice, legal) earns and leads to:
    (box points, upper bonus, extra-Yahtzee bonus, next mask, next upper total, next armed).

    The same points and next state as `box_value` and `best_joker_box` value (and so
    `Column.fill`), split into their parts; for any box list (`rules` as the kernel takes them).
    """
    score, joker_score, arms, all_same, config = rules
    yahtzee = config[CFG_YAHTZEE]
    extra = 0
    joker = False
    if all_same[r] > 0 and yahtzee >= 0 and (mask >> yahtzee) & 1:
        open_boxes, allowed = open_and_allowed(mask, config)
        _chosen, joker, extra = joker_boxes(all_same[r], open_boxes, allowed, armed, config)
    after = mask | (1 << b)
    if b < UPPER_BOXES:
        points = score[b, r]
        total = up + points
        bonus = upper_bonus_gain(up, points, config)
        if total > config[CFG_CAP]:
            total = config[CFG_CAP]
        return points, bonus, extra, after, total, armed
    if b == yahtzee:
        return score[b, r], 0, extra, after, up, arms[r]
    return (joker_score[b, r] if joker else score[b, r]), 0, extra, after, up, armed
