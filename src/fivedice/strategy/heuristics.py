"""The CPU levels' state values, and the tables the CPU kernels (`policy`, `playout`) read.

Every CPU level except the beginner plays the same way (`policy`): it values each placement
as `multiplier × (points + V(column after) − V(column before))` for a *state value* table `V`
indexed by (filled boxes, upper total, Yahtzee bonus armed), and chooses its keeps by exact
expectimax over the rest of the turn. Only `V` and the slip rate differ between levels:

* expert and strong: the optimal single-column values from the solver (exactly optimal for
  one column; for several columns a sound approximation);
* casual: a hand-made estimate (`heuristic_values`: typical worth of each open box plus a
  chance of the upper bonus), which is what a decent rule-of-thumb player carries in their head;
* strong and casual also *slip* now and then (`policy.pick`): they take a near miss, an option
  a few points worse than the best, as people do.

The beginner does not look ahead: it keeps its most common face (or a straight draw) and
scores wherever the dice earn most right now.

The kernels are re-exported here under the names the rest of the package has used.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np

from fivedice.core.categories import CATEGORIES, Category
from fivedice.core.dice import ALL_KEEPS, ALL_ROLLS, Roll
from fivedice.core.rules import RuleSet
from fivedice.strategy import kernel
from fivedice.strategy.kernel import state_value
from fivedice.strategy.playout import count_code as _count_code
from fivedice.strategy.playout import play_game, play_games
from fivedice.strategy.policy import (
    EPSILON,
    beginner_keep,
    column_key,
    end_values,
    legal_boxes,
    pick,
    placement,
    placement_gain,
    placement_options,
    turn_tables,
)
from fivedice.strategy.rule_arrays import CFG_CAP, UPPER_BOXES, rule_arrays
from fivedice.strategy.tables import FloatArray, IntArray
from fivedice.strategy.tables import dice_tables as _kernel_dice_tables

__all__ = [
    "EPSILON",
    "DiceTables",
    "FloatArray",
    "IntArray",
    "RuleTables",
    "_count_code",
    "beginner_keep",
    "card_arrays",
    "card_placements",
    "column_key",
    "dice_tables",
    "end_values",
    "heuristic_values",
    "legal_boxes",
    "pick",
    "placement",
    "placement_gain",
    "placement_options",
    "play_game",
    "play_games",
    "player_args",
    "rule_tables",
    "state_value",
    "turn_tables",
    "typical_box_values",
]

Values = FloatArray | tuple[FloatArray, FloatArray] | tuple[FloatArray, IntArray, IntArray]
"""State values as the kernels read them (`kernel.state_value`): a full (masks, upper cap + 1,
2) array, or, for cards of more than FACTORED_BOXES boxes, factored as (base per mask, upper
term per (filled upper boxes, upper total)), or a solved compact table (`compact`: Maxi Yatzy
without saved rolls)."""

FACTORED_BOXES = 16

N_ROLLS = len(ALL_ROLLS)  # 252 (five dice)
N_KEEPS = len(ALL_KEEPS)  # 462
N_BOXES = len(CATEGORIES)  # 13 (the classic card)
FULL_KEEP_OFFSET = N_KEEPS - N_ROLLS  # keeps of five dice come last, in roll order
YAHTZEE = Category.YAHTZEE.index

# What an average decent player expects each box of the classic card to be worth when it is
# still open: roughly the mean score of each box under optimal play.
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
_CLASSIC_TYPICAL = {c.key: v for c, v in zip(CATEGORIES, TYPICAL_BOX_VALUE, strict=True)}
_CLASSIC_FIXED = {"full_house": 25, "small_straight": 30, "large_straight": 40, "yahtzee": 50}


@dataclass(frozen=True, eq=False)
class DiceTables:
    """Index arrays over the rolls and keeps of n dice (the same for every rule set)."""

    keep_add: IntArray  # (K, 6): the keep with one more die of face f+1, -1 if full
    keep_remove: IntArray  # (K, 6): the distinct keeps with one die fewer, -1 padding
    roll_keeps: IntArray  # (R, 2^n): the keeps of each roll, largest first, -1 padding
    roll_five: IntArray  # (R,): the face of a roll whose dice all show it, else 0
    keep_of_code: IntArray  # ((n+1)**6,): keep index of a face-count vector in base n+1
    keep_faces: IntArray  # (K, 6): face counts of each keep
    roll_of: dict[Roll, int]
    keep_of: dict[Roll, int]

    @property
    def rolls(self) -> int:
        return int(self.roll_five.shape[0])

    @property
    def keeps(self) -> int:
        return int(self.keep_add.shape[0])

    @property
    def arrays(self) -> tuple[IntArray, IntArray, IntArray, IntArray, IntArray]:
        """The tables as the playout reads them: (keep_add, keep_remove, roll_keeps,
        keep_of_code, keep_faces)."""
        return self.keep_add, self.keep_remove, self.roll_keeps, self.keep_of_code, self.keep_faces


@functools.cache
def dice_tables(dice: int = 5) -> DiceTables:
    """The dice index arrays for this many dice, built once per process."""
    base = _kernel_dice_tables(dice)
    keep_of = {keep: i for i, keep in enumerate(base.keeps)}
    roll_of = {roll: i for i, roll in enumerate(base.rolls)}
    roll_keeps = np.full((len(base.rolls), 1 << dice), -1, dtype=np.int64)
    for r in range(len(base.rolls)):
        # Largest keeps first, so that among equal options the bot holds more dice (and
        # "keep all" = score now); then by value, as the ascending sub-keeps order them.
        keeps = [base.keeps[k] for k in base.sub_keeps[r] if k >= 0]
        for j, keep in enumerate(sorted(keeps, key=lambda k: (-len(k), k))):
            roll_keeps[r, j] = keep_of[keep]
    keep_of_code = np.full((dice + 1) ** 6, -1, dtype=np.int64)
    keep_faces = np.zeros((len(base.keeps), 6), dtype=np.int64)
    for i, keep in enumerate(base.keeps):
        keep_of_code[sum((dice + 1) ** (d - 1) for d in keep)] = i
        for d in keep:
            keep_faces[i, d - 1] += 1
    return DiceTables(
        base.add_face,
        base.remove_face,
        roll_keeps,
        base.all_same,
        keep_of_code,
        keep_faces,
        roll_of,
        keep_of,
    )


@dataclass(frozen=True, eq=False)
class RuleTables:
    """A rule set as the CPU kernels' arrays: `rule_arrays` plus the column multipliers."""

    rules: RuleSet
    scores: IntArray  # (B, R) plain box scores
    joker_scores: IntArray  # (B, R) box scores of an all-same roll placed as a joker
    five: IntArray  # (R,): the face of an all-same roll, else 0
    params: IntArray  # the rules' config vector (`rule_arrays.CFG_*`)
    multipliers: IntArray  # (columns,)
    dice: int
    boxes: int

    @property
    def upper_cap(self) -> int:
        return int(self.params[CFG_CAP])

    @property
    def arrays(self) -> tuple[IntArray, IntArray, IntArray, IntArray]:
        """The rules as the CPU kernels read them: (scores, joker_scores, five, params)."""
        return self.scores, self.joker_scores, self.five, self.params


@functools.lru_cache(maxsize=64)
def rule_tables(rules: RuleSet) -> RuleTables:
    """The rules' arrays for the CPU kernels (the one encoding: `rule_arrays`)."""
    arrays = rule_arrays(rules)
    multipliers = np.array(rules.column_multipliers, dtype=np.int64)
    return RuleTables(
        rules,
        arrays.score,
        arrays.joker_score,
        arrays.dice.all_same,
        arrays.config,
        multipliers,
        arrays.dice.dice,
        arrays.boxes,
    )


def _aimed_turn_value(rules: RuleSet, box: int) -> float:
    """The expected score of one box when a whole turn aims at it alone."""
    arrays = rule_arrays(rules)
    dice = arrays.dice
    roll_value = arrays.score[box].astype(np.float64)
    keep_value = np.empty(len(dice.keeps))
    running = np.empty(len(dice.keeps))
    for _ in range(1, rules.rolls_per_turn):
        kernel.mean_keep_values(roll_value, keep_value, dice.add_face)
        kernel.best_keep_values(keep_value, running, roll_value, dice.remove_face)
    return float(dice.probability @ roll_value)


@functools.lru_cache(maxsize=16)
def typical_box_values(rules: RuleSet) -> FloatArray:
    """What a decent player expects each open box to be worth, in card order.

    The classic boxes use the classic figures (`TYPICAL_BOX_VALUE`, fixed scores scaled to
    the rules'); any other box the expected score of a turn aimed at it alone.
    """
    values = []
    for b, category in enumerate(rules.boxes):
        value = _CLASSIC_TYPICAL.get(category.key)
        if value is None:
            value = _aimed_turn_value(rules, b)
        elif category.key in _CLASSIC_FIXED:
            made = int(rule_arrays(rules).score[b].max())
            value *= made / _CLASSIC_FIXED[category.key] if made else 0.0
        values.append(value)
    result = np.array(values, dtype=np.float64)
    result.setflags(write=False)
    return result


@functools.lru_cache(maxsize=16)
def heuristic_values(rules: RuleSet) -> Values:
    """A casual player's state values: typical worth of the open boxes plus bonus prospects.

    Returns an array shaped like the solver's (2^boxes masks, upper cap + 1, 2 armed states),
    or, for more than FACTORED_BOXES boxes (Maxi Yatzy: 2^20 masks), the same values factored
    as (base, upper) (`Values`), without the armed axis.
    The upper-bonus prospect is a logistic guess from how far the upper total is ahead of
    "par" (three of each open face); an armed Yahtzee bonus adds its value times the chance
    of another five of a kind, roughly 4% a remaining turn.
    """
    tables = rule_tables(rules)
    boxes = tables.boxes
    cap = tables.upper_cap
    typical = typical_box_values(rules)
    upper_term = _upper_prospects(rules, cap)
    if boxes > FACTORED_BOXES:
        masks = np.arange(1 << boxes)
        base = np.zeros(1 << boxes)
        for b in range(boxes):
            base += np.where((masks >> b) & 1 == 0, typical[b], 0.0)
        base.setflags(write=False)
        upper_term.setflags(write=False)
        return base, upper_term
    masks = np.arange(1 << boxes)
    open_bits = ((masks[:, None] >> np.arange(boxes)[None, :]) & 1) == 0
    base = (open_bits * typical[None, :]).sum(axis=1)
    values = np.zeros((1 << boxes, cap + 1, 2))
    values += upper_term[masks & ((1 << UPPER_BOXES) - 1)][:, :, None]
    turns_left = open_bits.sum(axis=1)
    armed_extra = rules.yahtzee_bonus_value * 0.04 * turns_left if rules.yahtzee_bonus else 0
    values[:, :, 0] += base[:, None]
    values[:, :, 1] += (base + armed_extra)[:, None]
    values.setflags(write=False)  # cached and shared
    return values


def _upper_prospects(rules: RuleSet, cap: int) -> FloatArray:
    """The upper-bonus prospect of each (filled upper boxes, upper total): (64, cap + 1)."""
    uppers = np.arange(1 << UPPER_BOXES)
    upper_open = ((uppers[:, None] >> np.arange(UPPER_BOXES)[None, :]) & 1) == 0
    par_left = (upper_open * (3 * np.arange(1, 7))[None, :]).sum(axis=1)
    prospects = np.zeros((1 << UPPER_BOXES, cap + 1))
    if rules.upper_bonus:
        # Reaching the threshold pays the bonus at once, so values at the cap carry no bonus.
        need = rules.upper_bonus_threshold - np.arange(cap + 1)[None, :]
        margin = par_left[:, None] - need
        chance = 1.0 / (1.0 + np.exp(-(margin + 2.0) / 4.0))
        chance = np.where(upper_open.any(axis=1)[:, None], chance, 0.0)
        chance[:, cap] = 0.0
        prospects = rules.upper_bonus_value * chance
    return prospects


def greedy_values(rules: RuleSet) -> Values:
    """The beginner's (unused) state values: zeros of the right number of masks."""
    boxes = rule_arrays(rules).boxes
    if boxes > FACTORED_BOXES:
        return np.zeros(1 << boxes), np.zeros((1 << UPPER_BOXES, 1))
    return np.zeros((1 << boxes, 1, 2))


def card_arrays(columns: Any) -> tuple[IntArray, IntArray]:
    """A score card's columns as (boxes (columns, B) with -1 for open, extra Yahtzees)."""
    boxes = np.array(
        [[-1 if s is None else s for s in column.scores] for column in columns], dtype=np.int64
    )
    extras = np.array([column.extra_yahtzees for column in columns], dtype=np.int64)
    return boxes, extras


def card_placements(
    rules: RuleSet, boxes: IntArray, roll: tuple[int, ...], greedy: bool, values: Values
) -> tuple[IntArray, IntArray, IntArray, FloatArray]:
    """Every legal placement of sorted dice on a card (`boxes` from `card_arrays`), in card
    order: `placement_options` with its buffers, cut to the placements found.

    Returns:
        Each placement's column, box index, joker flag (1: scored as a joker) and value.
    """
    rt = rule_tables(rules)
    size = rules.columns * rt.boxes
    cols = np.empty(size, dtype=np.int64)
    box_ids = np.empty(size, dtype=np.int64)
    jokers = np.empty(size, dtype=np.int64)
    option_values = np.empty(size)
    count = placement_options(
        boxes,
        dice_tables(rt.dice).roll_of[roll],
        greedy,
        player_args(rules, values),
        (cols, box_ids, jokers, option_values),
    )
    return cols[:count], box_ids[:count], jokers[:count], option_values[:count]


def player_args(
    rules: RuleSet, values: Values
) -> tuple[IntArray, tuple[IntArray, IntArray, IntArray, IntArray], Values, FloatArray]:
    """A CPU player with these state values on a card of these rules, as the kernels take it
    (`policy`): (multipliers, the rules' arrays, values, each box's typical worth)."""
    rt = rule_tables(rules)
    return rt.multipliers, rt.arrays, values, typical_box_values(rules)
