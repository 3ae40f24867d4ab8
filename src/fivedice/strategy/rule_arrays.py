"""A rule set as the arrays every strategy kernel reads: the one array encoding of the rules.

Box b of the card (in the rule set's order) is bit b of a *mask* of filled boxes. The boxes
that count towards the upper bonus are bits 0..5 (faces 1..6: true of every family). The
scores come from the core's scoring, never re-implemented here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from fivedice.core.categories import CATEGORIES
from fivedice.core.errors import FivediceError
from fivedice.core.rules import BonusCondition, Joker, RuleSet
from fivedice.core.scoring import box_score
from fivedice.strategy.tables import DiceTables, dice_tables

IntArray = npt.NDArray[np.int64]

__all__ = ["RuleArrays", "UnsupportedRulesError", "rule_arrays"]

JOKER_CODE = {Joker.NONE: 0, Joker.FORCED: 1, Joker.FREE_CHOICE: 2}
FILL_FREE, FILL_UPPER_FIRST, FILL_FORCED = 0, 1, 2
NO_THRESHOLD = 1 << 30  # an upper threshold never reached when the upper bonus is off
UPPER_BOXES = 6

# Indices of the integer configuration vector (`RuleArrays.config`) handed to the kernels.
(
    CFG_CAP,
    CFG_THRESHOLD,
    CFG_UPPER_BONUS,
    CFG_YAHTZEE_BONUS,
    CFG_JOKER,
    CFG_FILL,
    CFG_YAHTZEE,
    CFG_BOXES,
    CFG_STRIDE,
    CFG_ROLLS,
    CFG_BONUS_IF_FILLED,
    CFG_STRAIGHTS,
) = range(12)
CONFIG_SIZE = 12

# `RuleArrays.packed`, the advice kernel's single rules argument, row by row: the config (from
# column PACKED_COUNT on: how many rolls score in each box), the box scores (B rows), the
# joker scores (B rows), the arms row, and for each box the rolls that score in it (B rows).
PACKED_COUNT = 16
MAX_BOXES = 32


class UnsupportedRulesError(FivediceError):
    """The strategy engine cannot play these rules exactly (e.g. several score columns)."""


@dataclass(frozen=True, eq=False)
class RuleArrays:
    """Everything the kernels need to know about a rule set, as read-only arrays.

    Attributes:
        boxes: the number of boxes B (mask bits).
        yahtzee: the box whose all-same score arms the extra-Yahtzee bonus and the joker
            (-1: none).
        score: (B, R) plain box scores, box-major for the kernels' inner loops.
        joker_score: (B, R) scores of a roll placed as a joker.
        arms: (R,) 1 if placing the roll in the Yahtzee box arms the bonus.
        config: the CFG_* vector.
        scoring: (B, R) for each box, the rolls that score in it (the first scoring_count[b]).
        scoring_count: (B,) how many rolls score in each box.
        cap: the largest upper total the state distinguishes (threshold, or 0).
        armed_states: the size of the table's last axis (2: unarmed, armed).
        packed: the advice kernel's rules (see PACKED_*).
        dice: the dice tables for the rules' number of dice.
    """

    boxes: int
    yahtzee: int
    score: IntArray
    joker_score: IntArray
    arms: IntArray
    config: IntArray
    scoring: IntArray
    scoring_count: IntArray
    cap: int
    armed_states: int
    packed: IntArray
    dice: DiceTables

    @property
    def full_mask(self) -> int:
        return (1 << self.boxes) - 1


def _box_scores(rules: RuleSet, rolls: tuple[tuple[int, ...], ...]) -> tuple[IntArray, IntArray]:
    score = np.array([[box_score(rules, c, roll) for roll in rolls] for c in CATEGORIES])
    joker = np.array(
        [[box_score(rules, c, roll, joker=True) for roll in rolls] for c in CATEGORIES]
    )
    return score.astype(np.int64), joker.astype(np.int64)


@cache
def rule_arrays(rules: RuleSet) -> RuleArrays:
    """The rules as arrays, the same for each column of a card (cached: a rule set is
    immutable)."""
    dice = dice_tables(5)
    score, joker_score = _box_scores(rules, dice.rolls)
    boxes = score.shape[0]
    yahtzee = next(i for i, c in enumerate(CATEGORIES) if c.key == "yahtzee")
    bonus = rules.yahtzee_bonus and yahtzee >= 0
    arms = np.array(
        [
            int(
                bonus
                and (
                    rules.yahtzee_bonus_condition is BonusCondition.BOX_FILLED
                    or score[yahtzee, r] > 0
                )
            )
            for r in range(len(dice.rolls))
        ],
        dtype=np.int64,
    )
    cap = rules.upper_bonus_threshold if rules.upper_bonus else 0
    fill = FILL_UPPER_FIRST if rules.upper_first else FILL_FREE
    config = np.zeros(CONFIG_SIZE, dtype=np.int64)
    config[CFG_CAP] = cap
    config[CFG_THRESHOLD] = rules.upper_bonus_threshold if rules.upper_bonus else NO_THRESHOLD
    config[CFG_UPPER_BONUS] = rules.upper_bonus_value if rules.upper_bonus else 0
    config[CFG_YAHTZEE_BONUS] = rules.yahtzee_bonus_value if bonus else 0
    config[CFG_JOKER] = JOKER_CODE[rules.joker] if yahtzee >= 0 else 0
    config[CFG_FILL] = fill
    config[CFG_YAHTZEE] = yahtzee
    config[CFG_BOXES] = boxes
    config[CFG_STRIDE] = 6 * dice.dice + 1
    config[CFG_ROLLS] = rules.rolls_per_turn
    config[CFG_BONUS_IF_FILLED] = int(rules.yahtzee_bonus_condition is BonusCondition.BOX_FILLED)
    config[CFG_STRAIGHTS] = sum(
        1 << i for i, c in enumerate(CATEGORIES) if c.key in ("small_straight", "large_straight")
    )
    rolls = len(dice.rolls)
    packed = np.zeros((1 + 3 * boxes + 1, max(rolls, PACKED_COUNT + boxes)), dtype=np.int64)
    packed[0, :CONFIG_SIZE] = config
    packed[1 : 1 + boxes, :rolls] = score
    packed[1 + boxes : 1 + 2 * boxes, :rolls] = joker_score
    packed[1 + 2 * boxes, :rolls] = arms
    for b in range(boxes):
        rolls_scoring = np.flatnonzero(score[b])
        packed[0, PACKED_COUNT + b] = rolls_scoring.size
        packed[2 + 2 * boxes + b, : rolls_scoring.size] = rolls_scoring
    scoring = packed[2 + 2 * boxes : 2 + 3 * boxes, :rolls]
    scoring_count = packed[0, PACKED_COUNT : PACKED_COUNT + boxes]
    for array in (score, joker_score, arms, config, packed):
        array.setflags(write=False)
    return RuleArrays(
        boxes, yahtzee, score, joker_score, arms, config, scoring, scoring_count, cap, 2,
        packed, dice,
    )  # fmt: skip
