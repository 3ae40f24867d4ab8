"""Where the estimated points to come come from on a card of several columns, column by column.

Under several columns the coach's values are the expert CPU's estimates (`hints.estimated_hints`):
the card is worth Σ_c m_c · V(column c) for the optimal one-column values V and the columns'
multipliers m_c; a placement in column c adds m_c · (points + V(after) − V(before)); a keep is
valued by the CPU's expectimax over the rest of the turn, each final roll going to its best
placement on the card (`policy.end_values`, `Bot.keep_options`).

Every V there is a one-column state value, and the exact one-column breakdown
(`breakdown.BreakdownTable`) splits each into its boxes and bonuses. Replacing each V by its
breakdown vector in the same formulas (and the placed box's points and bonuses by their own
components) splits the estimate itself, component by component — keyed by column and box
("3:yahtzee", "1:upper_bonus", the column 1-based) — and the parts sum to the estimate (to
rounding, ~1e-12). Nothing new is modelled: the same choices, ties broken the same way.

A keep carries, besides its parts, the chance of each (column, box) to be scored for more than
0 points this turn, under the same expectimax.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from fivedice.core.card import ScoreCard
from fivedice.core.dice import Roll, check_roll
from fivedice.core.rules import RuleSet
from fivedice.strategy import heuristics as h
from fivedice.strategy import kernel
from fivedice.strategy import solver as s
from fivedice.strategy.breakdown import BreakdownTable
from fivedice.strategy.rule_arrays import CFG_STRIDE, rule_arrays
from fivedice.strategy.tables import FloatArray, IntArray
from fivedice.strategy.tables import dice_tables as kernel_dice_tables

__all__ = ["CardBreakdown", "card_breakdown", "column_key_name"]


def column_key_name(column: int, key: str) -> str:
    """A component of a several-column breakdown: "3:yahtzee" for Yahtzee of column 3
    (`column` 0-based, the name 1-based, as the game's notation names columns).

    >>> column_key_name(2, "yahtzee")
    '3:yahtzee'
    """
    return f"{column + 1}:{key}"


@dataclass(frozen=True)
class CardBreakdown:
    """The split of every option's estimate at a decision on a several-column card.

    Attributes:
        base: the card's estimate before the decision (Σ_c m_c · V(column c)): the zero of
            the options' values (`estimated_hints`).
        placements: {(column, box index): (parts, value)} for every legal placement of the
            dice: parts {"c:key": points}, summing to `value` (base + the placement's gain).
        keeps: {keep: (parts, chances, value)} for every keep of the dice (with a roll left):
            `chances` {"c:box": chance of scoring that box for more than 0 points this turn}.
    """

    base: float
    placements: dict[tuple[int, int], tuple[dict[str, float], float]]
    keeps: dict[Roll, tuple[dict[str, float], dict[str, float], float]]


def card_breakdown(
    breakdown: BreakdownTable,
    values: h.Values,
    rules: RuleSet,
    card: ScoreCard,
    dice: tuple[int, ...],
    rolls_left: int,
) -> CardBreakdown:
    """The breakdown of every option at a decision of `card` (several columns of `rules`).

    `breakdown` is the one-column breakdown of the rules (`rules` with one column), `values`
    the expert CPU's state values (`Bot.values_for`), which it splits.
    """
    roll = check_roll(dice, rules.dice)
    single = breakdown.rules
    arrays = rule_arrays(single)
    kernel_rules = arrays.kernel_rules
    boxes = arrays.boxes
    width = boxes + 2  # the breakdown kernels' full order: boxes, upper bonus, extra bonus
    columns = len(card.columns)
    multipliers = [float(m) for m in rules.column_multipliers]
    states = []
    for column in card.columns:
        mask, up, armed = s.column_state(single, column)
        states.append((mask, min(up, breakdown.table.upper_cap), int(armed)))
    state_vectors = [breakdown.state_vector(m, u, bool(a)) for m, u, a in states]
    baseline = np.concatenate([m * v for m, v in zip(multipliers, state_vectors, strict=True)])
    base = sum(
        m * kernel.state_value(values, *state) for m, state in zip(multipliers, states, strict=True)
    )

    def placed(col: int, box: int, r: int) -> tuple[FloatArray, int]:
        """The card's vector after scoring roll r in (col, box), and the box's points."""
        mask, up, armed = states[col]
        points, upper, extra, after, total, armed_after = kernel.placement_outcome(
            box, r, mask, up, armed, kernel_rules
        )
        own = breakdown.state_vector(after, total, bool(armed_after))
        own[box] += points
        own[boxes] += upper
        own[boxes + 1] += extra
        vector = baseline.copy()
        vector[col * width : (col + 1) * width] += multipliers[col] * (own - state_vectors[col])
        return vector, int(points)

    names = [column_key_name(c, key) for c in range(columns) for key in breakdown.keys]
    present = np.concatenate([c * width + breakdown._present for c in range(columns)])
    box_names = [column_key_name(c, box.key) for c in range(columns) for box in rules.boxes]

    def named(vector: FloatArray) -> dict[str, float]:
        return dict(zip(names, vector[present].tolist(), strict=True))

    board, _ = h.card_arrays(card.columns)
    cols, box_ids, _jokers, option_values = h.card_placements(
        rules, board, tuple(sorted(roll)), False, values
    )
    roll_index = s.ROLL_INDEX[roll]
    placements = {}
    for i in range(len(cols)):
        vector, _points = placed(int(cols[i]), int(box_ids[i]), roll_index)
        placements[(int(cols[i]), int(box_ids[i]))] = (
            named(vector),
            base + float(option_values[i]),
        )
    keeps: dict[Roll, tuple[dict[str, float], dict[str, float], float]] = {}
    if rolls_left > 0:
        vectors = _keep_breakdowns(
            rules, board, values, roll, rolls_left, states, placed, width * columns, boxes
        )
        keeps = {
            keep: (named(vector), dict(_chances(box_names, chances)), base + value)
            for keep, (vector, chances, value) in vectors.items()
        }
    return CardBreakdown(base, placements, keeps)


def _chances(names: list[str], chances: FloatArray) -> list[tuple[str, float]]:
    return [(name, float(p)) for name, p in zip(names, chances, strict=True) if p > 0.0]


def _keep_breakdowns(
    rules: RuleSet,
    board: IntArray,
    values: h.Values,
    roll: Roll,
    rolls_left: int,
    states: list[tuple[int, int, int]],
    placed: Callable[[int, int, int], tuple[FloatArray, int]],
    size: int,
    boxes: int,
) -> dict[Roll, tuple[FloatArray, FloatArray, float]]:
    """Each keep's vector, chances and gain: `Bot.keep_options`'s expectimax, carrying the
    vector (and the scoring indicator) of each final roll's placement back through the keeps."""
    rt = h.rule_tables(rules)
    dt = h.dice_tables(rt.dice)
    single = rules.replace(column_multipliers=(1,))
    arrays = rule_arrays(single)
    kernel_rules = arrays.kernel_rules
    stride = int(arrays.config[CFG_STRIDE])
    ends = np.empty(dt.rolls)
    h.end_values(board, h.player_args(rules, values), ends)
    # Each roll's placement at the end of the turn, as `policy.end_values` chooses it: the
    # best box of each open column (`kernel.final_roll_values`), the first column on a tie.
    best_value = np.full(dt.rolls, -1e300)
    best_col = np.full(dt.rolls, -1, dtype=np.int64)
    best_box = np.zeros(dt.rolls, dtype=np.int64)
    futures = (np.empty(kernel.upper_value_size(stride)), np.empty(boxes + 1))
    column_value = np.empty(dt.rolls)
    column_box = np.empty(dt.rolls, dtype=np.int64)
    full = (1 << boxes) - 1
    for col, (mask, up, armed) in enumerate(states):
        if mask == full:
            continue
        base = kernel.state_value(values, mask, up, armed)
        kernel.final_roll_values(
            mask, up, armed, values, kernel_rules, futures, column_value, column_box
        )
        weighted = rules.column_multipliers[col] * (column_value - base)
        better = weighted > best_value
        best_value = np.where(better, weighted, best_value)
        best_col = np.where(better, col, best_col)
        best_box = np.where(better, column_box, best_box)
    columns = len(states)
    roll_vectors = np.empty((dt.rolls, size + columns * boxes))
    for r in range(dt.rolls):
        vector, points = placed(int(best_col[r]), int(best_box[r]), r)
        roll_vectors[r, :size] = vector
        roll_vectors[r, size:] = 0.0
        if points > 0:
            roll_vectors[r, size + best_col[r] * boxes + best_box[r]] = 1.0
    keep_values = np.empty((rolls_left, dt.keeps))
    roll_values = np.empty((rolls_left + 1, dt.rolls))
    h.turn_tables(
        ends, rolls_left, dt.keep_add, dt.keep_remove, keep_values, roll_values,
        np.empty(dt.keeps),
    )  # fmt: skip
    first_roll = dt.keeps - dt.rolls
    keep_vectors = np.empty((dt.keeps, roll_vectors.shape[1]))
    running_max = np.empty(dt.keeps)
    running_arg = np.empty(dt.keeps, dtype=np.int64)
    out = np.empty(dt.rolls)
    best_keep = np.empty(dt.rolls, dtype=np.int64)
    for n in range(rolls_left):
        # keep_values[n] = the mean over the next die's faces (`kernel.mean_keep_values`)
        keep_vectors[first_roll:] = roll_vectors
        for k in range(first_roll - 1, -1, -1):
            keep_vectors[k] = keep_vectors[dt.keep_add[k]].sum(axis=0) / 6.0
        if n + 1 < rolls_left:
            # roll_values[n + 1] = each roll's best keep (`kernel.best_keep_values`' ties)
            kernel.best_keep_args(
                keep_values[n], running_max, running_arg, out, best_keep, dt.keep_remove
            )
            roll_vectors = keep_vectors[best_keep].copy()
    keeps_of_roll = kernel_dice_tables(rt.dice).keeps
    result = {}
    for k in dt.roll_keeps[dt.roll_of[roll]]:
        if k < 0:
            continue
        vector = keep_vectors[k]
        result[keeps_of_roll[k]] = (
            vector[:size],
            vector[size:],
            float(keep_values[rolls_left - 1, k]),
        )
    return result
