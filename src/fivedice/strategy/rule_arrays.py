"""A rule set as the arrays every strategy kernel reads: the one array encoding of the rules.

Box b of the card (in the rule set's order) is bit b of a *mask* of filled boxes. The boxes
that count towards the upper bonus are bits 0..5 (faces 1..6: true of every family). The
scores come from the core's scoring, never re-implemented here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, cached_property

import numpy as np

from fivedice.core.boxes import BoxKind, all_same, score_box
from fivedice.core.errors import FivediceError
from fivedice.core.rules import BonusCondition, FillOrder, Joker, RuleSet
from fivedice.strategy.tables import DiceTables, IntArray, dice_tables

__all__ = ["RuleArrays", "UnsupportedRulesError", "rule_arrays"]

JOKER_CODE = {Joker.NONE: 0, Joker.FORCED: 1, Joker.FREE_CHOICE: 2}
JOKER_SECOND = 3
"""A further all-same roll goes in any allowed box, scoring as a 'joker' (its `joker_score`)
only while the bonus is armed: a second all-same box (Double Generala) scores then only."""
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
    CFG_SAVED_ROLLS,
    CFG_TIER2,
    CFG_TIER2_BONUS,
    CFG_TIER3,
    CFG_TIER3_BONUS,
    CFG_SERVED,
) = range(18)
CONFIG_SIZE = 18
MAX_KERNEL_TIERS = 3  # the upper bonus tiers the kernels read (Kismet's 63, 71 and 78)

# `RuleArrays.packed`, the advice kernel's single rules argument, row by row: the config (from
# column PACKED_COUNT on: how many rolls score in each box), the box scores (B rows), the
# joker scores (B rows), the arms row, and for each box the rolls that score in it (B rows);
# with served points (`config[CFG_SERVED]`), then the first roll's scores and joker scores
# (B rows each: `packed_served_rows`).
PACKED_COUNT = 24
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
        joker_score: (B, R) scores of a roll of one face placed as a joker (other rolls: plain).
        arms: (R,) 1 if placing the roll in the Yahtzee box arms the bonus.
        config: the CFG_* vector.
        scoring: (B, R) for each box, the rolls that score in it (the first scoring_count[b]).
        scoring_count: (B,) how many rolls score in each box.
        cap: the largest upper total the state distinguishes (threshold, or 0).
        upper_bonus: whether the upper bonus exists.
        yahtzee_bonus: whether the extra-Yahtzee bonus exists (then there is a Yahtzee box).
        armed_states: the size of the table's last axis (2: unarmed, armed).
        packed: the advice kernel's rules (see PACKED_*).
        dice: the dice tables for the rules' number of dice.
        served_score: (2, B, R) box scores and joker scores of the turn's first roll (with
            served points), or None when the rules have none (`config[CFG_SERVED]` 0).
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
    upper_bonus: bool
    yahtzee_bonus: bool
    armed_states: int
    packed: IntArray
    dice: DiceTables
    served_score: IntArray | None = None

    @cached_property
    def first_roll_score(self) -> IntArray:
        """`served_score`, or the plain scores and joker scores (what the solve's kernel
        takes)."""
        if self.served_score is not None:
            return self.served_score
        both = np.stack((self.score, self.joker_score))
        both.setflags(write=False)
        return both

    @property
    def full_mask(self) -> int:
        return (1 << self.boxes) - 1

    @cached_property
    def served_kernel_rules(self) -> tuple[IntArray, IntArray, IntArray, IntArray, IntArray]:
        """`kernel_rules` with the first roll's scores and joker scores (`first_roll_score`):
        what a box earns when the dice are the turn's first roll (`is_served_roll`)."""
        first = self.first_roll_score
        return first[0], first[1], self.arms, self.dice.all_same, self.config

    @cached_property
    def kernel_rules(self) -> tuple[IntArray, IntArray, IntArray, IntArray, IntArray]:
        """The rules as the kernel's functions take them: (score, joker_score, arms, all_same,
        config), `all_same` being each roll's face when all its dice show one, else 0."""
        return self.score, self.joker_score, self.arms, self.dice.all_same, self.config


@dataclass(frozen=True)
class RuleSpec:
    """What the kernels need of a rule set, in plain values (read from a `RuleSet` by
    `spec_of`; tests also build reduced games from it directly).

    Attributes:
        score: (B, R) each box's points for each roll of `dice_tables(dice).rolls`.
        joker_score: (B, R) the points of a roll placed in each box as a joker (a roll of one
            face: the others are never placed as a joker and hold their plain scores).
        dice: the number of dice.
        rolls_per_turn: throws a turn.
        yahtzee: the box of the extra-Yahtzee bonus and the joker rule (-1: none).
        straights: mask of the straight boxes (the beginner CPU draws to them).
        upper_bonus_threshold: the upper total that earns the bonus (0: no upper bonus).
        upper_bonus_value: its points.
        bonus_tiers: further (threshold, points) tiers of the upper bonus, rising (Kismet).
        yahtzee_bonus_value: points of a further all-same roll (0: no such bonus).
        bonus_if_filled: the bonus is paid once the Yahtzee box is filled, even with 0.
        joker: JOKER_CODE of the joker rule.
        fill: FILL_* order of filling the boxes.
        saved_rolls: rolls not used in a turn are saved for later turns (Maxi Yatzy).
        wild_die: the last die is the wild die (the rolls of `dice_tables(dice, True)`).
        served_score: (2, B, R) the scores and joker scores of a turn's first roll, when they
            differ (served points: Generala).
    """

    score: IntArray = field(repr=False)
    joker_score: IntArray = field(repr=False)
    dice: int = 5
    rolls_per_turn: int = 3
    yahtzee: int = -1
    straights: int = 0
    upper_bonus_threshold: int = 0
    upper_bonus_value: int = 0
    bonus_tiers: tuple[tuple[int, int], ...] = ()
    yahtzee_bonus_value: int = 0
    bonus_if_filled: bool = False
    joker: int = 0
    fill: int = FILL_FREE
    saved_rolls: bool = False
    wild_die: bool = False
    served_score: IntArray | None = field(default=None, repr=False)


def spec_of(rules: RuleSet) -> RuleSpec:
    """The kernels' view of a rule set; every score comes from the core's scoring.

    Raises:
        UnsupportedRulesError: the upper boxes are not the first six, ones to sixes (true of
            every family fivedice knows; the kernels rely on it).
    """
    boxes = rules.boxes
    if (
        len(boxes) > MAX_BOXES
        or [b.face for b in boxes if b.is_upper] != list(range(1, UPPER_BOXES + 1))
        or not all(b.is_upper for b in boxes[:UPPER_BOXES])
    ):
        raise UnsupportedRulesError("the strategy engine needs the six upper boxes first")
    if len(rules.bonus_tiers) > MAX_KERNEL_TIERS:
        raise UnsupportedRulesError(
            f"the strategy engine reads at most {MAX_KERNEL_TIERS} upper bonus tiers"
        )
    rolls = dice_tables(rules.dice, rules.wild_die).rolls
    score = np.array([[score_box(box, roll) for roll in rolls] for box in boxes])
    # Only dice of one face are ever placed as a joker (`kernel.joker_boxes`): the other
    # rolls' joker scores are never read, so they are the plain scores, not scored again
    # (this halves the set-up of a one-off `fivedice advise`).
    joker = score.copy()
    for r, roll in enumerate(rolls):
        if all_same(roll):
            joker[:, r] = [score_box(box, roll, joker=True) for box in boxes]
    # The served table is built over the same rolls as `score` (with the wild die: coded apart).
    served = served_joker = None
    if any(box.served for box in boxes):
        served = np.array(
            [[score_box(box, roll, served=True) for roll in rolls] for box in boxes]
        ).astype(np.int64)
        served_joker = served.copy()
        for r, roll in enumerate(rolls):
            if all_same(roll):
                served_joker[:, r] = [score_box(box, roll, True, True) for box in boxes]
    all_same_box = rules.all_same_box
    yahtzee = -1 if all_same_box is None else boxes.index(all_same_box)
    bonus = rules.yahtzee_bonus and yahtzee >= 0
    joker_code = JOKER_CODE[rules.joker]
    second = [b for b, box in enumerate(boxes) if box.second]
    if second:
        # A second all-same box scores only while the first holds points: the armed bit
        # says so (a bonus of 0 points arms), and such a roll scores there as a 'joker'.
        if bonus or rules.joker is not Joker.NONE:
            raise UnsupportedRulesError(
                "a second all-same box with an extra-Yahtzee bonus or a joker is not solved"
            )
        # Under it the other boxes score a further all-same roll as an ordinary one (no joker
        # rule): their 'joker' scores are their plain scores.
        bonus, joker_code = True, JOKER_SECOND
        once = np.array([all_same(roll) for roll in rolls])
        joker = score.copy()
        if served is not None:
            served_joker = served.copy()
        for b in second:
            joker[b] = np.where(once, score[b], 0)
            score[b] = 0
            if served is not None and served_joker is not None:
                served_joker[b] = joker[b]
                served[b] = 0
    if rules.fill_order is FillOrder.FORCED:
        fill = FILL_FORCED
    else:
        fill = FILL_UPPER_FIRST if rules.upper_first else FILL_FREE
    return RuleSpec(
        score=score.astype(np.int64),
        joker_score=joker.astype(np.int64),
        dice=rules.dice,
        rolls_per_turn=rules.rolls_per_turn,
        yahtzee=yahtzee,
        straights=sum(1 << i for i, box in enumerate(boxes) if box.kind is BoxKind.STRAIGHT),
        upper_bonus_threshold=rules.upper_bonus_threshold if rules.upper_bonus else 0,
        upper_bonus_value=rules.upper_bonus_value if rules.upper_bonus else 0,
        bonus_tiers=rules.bonus_tiers[1:],
        yahtzee_bonus_value=(rules.yahtzee_bonus_value if rules.yahtzee_bonus else 0)
        if bonus
        else -1,
        bonus_if_filled=rules.yahtzee_bonus
        and rules.yahtzee_bonus_condition is BonusCondition.BOX_FILLED,
        joker=joker_code,
        fill=fill,
        saved_rolls=rules.saved_rolls,
        wild_die=rules.wild_die,
        served_score=None
        if served is None or served_joker is None
        else np.stack((served, served_joker)),
    )


def packed_served_rows(boxes: int) -> int:
    """The first row of the served scores in `RuleArrays.packed` (then the served joker
    scores, B rows further), when `config[CFG_SERVED]` is 1."""
    return 2 + 3 * boxes


def is_served_roll(rules: RuleSet, rolls_left: int) -> bool:
    """Whether dice with `rolls_left` rolls left are the turn's first roll and the rules pay
    served points for it (`Box.served`): what the kernels' `is_served` reads from the config."""
    return rolls_left == rules.rolls_per_turn - 1 and any(box.served for box in rules.boxes)


@cache
def rule_arrays(rules: RuleSet) -> RuleArrays:
    """The rules as arrays, the same for each column of a card (cached: a rule set is
    immutable)."""
    return build_rule_arrays(spec_of(rules))


def build_rule_arrays(spec: RuleSpec) -> RuleArrays:
    """The kernels' arrays of a rule spec."""
    dice = dice_tables(spec.dice, spec.wild_die)
    score = np.ascontiguousarray(spec.score, dtype=np.int64)
    joker_score = np.ascontiguousarray(spec.joker_score, dtype=np.int64)
    boxes = score.shape[0]
    yahtzee = spec.yahtzee
    # A bonus of 0 points still arms (the rules say "bonus on"): -1 means no bonus at all.
    bonus = spec.yahtzee_bonus_value >= 0 and yahtzee >= 0
    arms = np.array(
        [
            int(bonus and (spec.bonus_if_filled or score[yahtzee, r] > 0))
            for r in range(len(dice.rolls))
        ],
        dtype=np.int64,
    )
    upper_bonus = spec.upper_bonus_threshold > 0
    tiers = spec.bonus_tiers if upper_bonus else ()
    # The state tells upper totals apart up to the top tier's threshold.
    cap = (tiers[-1][0] if tiers else spec.upper_bonus_threshold) if upper_bonus else 0
    config = np.zeros(CONFIG_SIZE, dtype=np.int64)
    config[CFG_CAP] = cap
    config[CFG_THRESHOLD] = spec.upper_bonus_threshold if upper_bonus else NO_THRESHOLD
    config[CFG_UPPER_BONUS] = spec.upper_bonus_value if upper_bonus else 0
    config[CFG_YAHTZEE_BONUS] = spec.yahtzee_bonus_value if bonus else 0
    config[CFG_JOKER] = spec.joker if yahtzee >= 0 else 0
    config[CFG_FILL] = spec.fill
    config[CFG_YAHTZEE] = yahtzee
    config[CFG_BOXES] = boxes
    config[CFG_STRIDE] = 6 * dice.dice + 1
    config[CFG_ROLLS] = spec.rolls_per_turn
    config[CFG_BONUS_IF_FILLED] = int(spec.bonus_if_filled)
    config[CFG_STRAIGHTS] = spec.straights
    config[CFG_SAVED_ROLLS] = int(spec.saved_rolls)
    config[CFG_SERVED] = int(spec.served_score is not None)
    padded = (*tiers, (NO_THRESHOLD, 0), (NO_THRESHOLD, 0))
    for slot, (threshold, points) in zip((CFG_TIER2, CFG_TIER3), padded[:2], strict=True):
        config[slot], config[slot + 1] = threshold, points
    rolls = len(dice.rolls)
    served_rows = 0 if spec.served_score is None else 2 * boxes
    packed = np.zeros(
        (1 + 3 * boxes + 1 + served_rows, max(rolls, PACKED_COUNT + boxes)), dtype=np.int64
    )
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
    served = None
    if spec.served_score is not None:
        served = np.ascontiguousarray(spec.served_score, dtype=np.int64)
        served.setflags(write=False)
        start = packed_served_rows(boxes)
        packed[start : start + boxes, :rolls] = served[0]
        packed[start + boxes : start + 2 * boxes, :rolls] = served[1]
    for array in (score, joker_score, arms, config, packed):
        array.setflags(write=False)
    return RuleArrays(
        boxes, yahtzee, score, joker_score, arms, config, scoring, scoring_count, cap,
        upper_bonus, bonus, 2, packed, dice, served,
    )  # fmt: skip
