"""What a roll scores in each box, under a rule set.

The rule set's own box (`RuleSet.box`) carries the parameters; `boxes.score_box` scores it.

>>> from fivedice.core.rules import CLASSIC, find_ruleset
>>> box_score(CLASSIC, Category.FULL_HOUSE, (3, 3, 3, 5, 5))
25
>>> box_score(CLASSIC, Category.SMALL_STRAIGHT, (1, 2, 3, 4, 4))
30
>>> box_score(CLASSIC, Category.THREE_OF_A_KIND, (2, 5, 5, 5, 6))
23
>>> box_score(find_ruleset("yatzy"), Category.FULL_HOUSE, (3, 3, 3, 5, 5))
19
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from fivedice.core.boxes import all_same, score_box
from fivedice.core.categories import Category
from fivedice.core.dice import Roll, all_rolls, check_roll
from fivedice.core.rules import Joker, RuleSet
from fivedice.core.wild import WILD, wild_roll, wild_rolls


def scoring_roll(rules: RuleSet, dice: Sequence[int]) -> Roll:
    """The dice as the roll that scores: sorted; with the wild die (`wild_die`) the last die
    of the turn is the wild one, coded apart (`fivedice.core.wild`).

    Raises:
        DiceError: not the rules' number of faces 1-6.
    """
    if rules.wild_die:
        return wild_roll(dice, rules.dice)
    return check_roll(dice, rules.dice)


def position_codes(rules: RuleSet, dice: Sequence[int]) -> tuple[int, ...]:
    """The dice in position order, with the wild die (the last, under `wild_die`) coded apart
    as in a roll: the positions a keep of coded values is held at (`hints.hold_positions`)."""
    if rules.wild_die and dice and dice[-1] <= WILD:
        return (*dice[:-1], dice[-1] + WILD)
    return tuple(dice)


def scoring_rolls(rules: RuleSet) -> tuple[Roll, ...]:
    """Every distinct roll the rules score (with the wild die: coded apart)."""
    return wild_rolls(rules.dice) if rules.wild_die else all_rolls(rules.dice)


def is_five_of_a_kind(dice: Sequence[int]) -> bool:
    """Five dice of one face (a classic Yahtzee)."""
    return len(dice) == 5 and all_same(dice)


def is_yahtzee(rules: RuleSet, dice: Sequence[int]) -> bool:
    """Every one of the rule set's dice shows the same face (Yahtzee, Yatzy, Maxi Yatzy); with
    the wild die, its ★ standing for any face."""
    if rules.wild_die and len(dice) == rules.dice:
        dice = wild_roll(dice, rules.dice)
    return len(dice) == rules.dice and all_same(dice)


def box_score(rules: RuleSet, category: Category, dice: Sequence[int], joker: bool = False) -> int:
    """Points the dice score in one box, before any bonus.

    With `joker=True` (a five of a kind placed as a joker) full house and both straights score
    their full fixed values; every other box scores as usual.

    Raises:
        CardError: the rules have no such box.
    """
    return score_box(rules.box(category), dice, joker)


def box_scores(rules: RuleSet, dice: Sequence[int]) -> dict[Category, int]:
    """Every box's plain score for the dice (no joker), in score-card order."""
    roll = scoring_roll(rules, dice)
    return {box: score_box(box, roll) for box in rules.boxes}


@cache
def possible_scores(rules: RuleSet, category: Category) -> frozenset[int]:
    """Every score the box can hold under these rules (a scratch is a roll that scores 0)."""
    box = rules.box(category)
    joker = rules.joker is not Joker.NONE
    scores: set[int] = set()
    for roll in scoring_rolls(rules):
        scores.add(score_box(box, roll))
        scores.add(score_box(box, roll, joker=joker and all_same(roll)))
    return frozenset(scores)
