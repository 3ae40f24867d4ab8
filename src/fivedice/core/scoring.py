"""What a roll scores in each box, under a rule set.

>>> from fivedice.core.rules import CLASSIC
>>> box_score(CLASSIC, Category.FULL_HOUSE, (3, 3, 3, 5, 5))
25
>>> box_score(CLASSIC, Category.SMALL_STRAIGHT, (1, 2, 3, 4, 4))
30
>>> box_score(CLASSIC, Category.THREE_OF_A_KIND, (2, 5, 5, 5, 6))
23
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache

from fivedice.core.categories import CATEGORIES, Category
from fivedice.core.dice import ALL_ROLLS, check_roll
from fivedice.core.rules import OfAKindScoring, RuleSet, Straights

_SMALL_RUNS = ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6})
_LARGE_RUNS = ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6})


def is_five_of_a_kind(dice: Sequence[int]) -> bool:
    return len(dice) == 5 and len(set(dice)) == 1


def is_small_straight(rules: RuleSet, dice: Sequence[int]) -> bool:
    faces = set(dice)
    if rules.straights is Straights.FIXED:
        return faces == {1, 2, 3, 4, 5}
    return any(run <= faces for run in _SMALL_RUNS)


def is_large_straight(rules: RuleSet, dice: Sequence[int]) -> bool:
    faces = set(dice)
    if rules.straights is Straights.FIXED:
        return faces == {2, 3, 4, 5, 6}
    return any(run == faces for run in _LARGE_RUNS)


def is_full_house(rules: RuleSet, dice: Sequence[int]) -> bool:
    counts = sorted(Counter(dice).values())
    if counts == [2, 3]:
        return True
    return rules.five_of_a_kind_is_full_house and counts == [5]


def _of_a_kind(rules: RuleSet, dice: Sequence[int], size: int) -> int:
    face, count = Counter(dice).most_common(1)[0]
    if count < size:
        return 0
    if rules.of_a_kind_scores is OfAKindScoring.MATCHING_DICE:
        return size * face
    return sum(dice)


def box_score(rules: RuleSet, category: Category, dice: Sequence[int], joker: bool = False) -> int:
    """Points the dice score in one box, before any bonus.

    With `joker=True` (a five of a kind placed as a joker) full house and both straights score
    their full fixed values; every other box scores as usual.
    """
    face = category.face
    if face is not None:
        return face * sum(1 for d in dice if d == face)
    if category is Category.THREE_OF_A_KIND:
        return _of_a_kind(rules, dice, 3)
    if category is Category.FOUR_OF_A_KIND:
        return _of_a_kind(rules, dice, 4)
    if category is Category.FULL_HOUSE:
        return rules.full_house if joker or is_full_house(rules, dice) else 0
    if category is Category.SMALL_STRAIGHT:
        return rules.small_straight if joker or is_small_straight(rules, dice) else 0
    if category is Category.LARGE_STRAIGHT:
        return rules.large_straight if joker or is_large_straight(rules, dice) else 0
    if category is Category.YAHTZEE:
        return rules.yahtzee if is_five_of_a_kind(dice) else 0
    return sum(dice)  # chance


def box_scores(rules: RuleSet, dice: Sequence[int]) -> dict[Category, int]:
    """Every box's plain score for the dice (no joker), in score-card order."""
    roll = check_roll(dice)
    return {category: box_score(rules, category, roll) for category in CATEGORIES}


@cache
def possible_scores(rules: RuleSet, category: Category) -> frozenset[int]:
    """Every score the box can hold under these rules (a scratch is a roll that scores 0)."""
    scores: set[int] = set()
    for roll in ALL_ROLLS:
        scores.add(box_score(rules, category, roll))
        scores.add(box_score(rules, category, roll, joker=is_five_of_a_kind(roll)))
    return frozenset(scores)
