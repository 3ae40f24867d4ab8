"""Columns for the strategy tests: a nearly full card with chosen boxes left open."""

from __future__ import annotations

from fivedice.core.card import Column
from fivedice.core.rules import RuleSet
from fivedice.core.scoring import possible_scores

TYPICAL_SCORES = {
    "ones": 3,
    "twos": 6,
    "threes": 9,
    "fours": 12,
    "fives": 15,
    "sixes": 18,
    "three_of_a_kind": 20,
    "four_of_a_kind": 22,
    "full_house": 25,
    "small_straight": 30,
    "large_straight": 40,
    "yahtzee": 50,
    "chance": 22,
}
TYPICAL_YATZY_SCORES = TYPICAL_SCORES | {
    "one_pair": 10,
    "two_pairs": 14,
    "three_of_a_kind": 12,
    "four_of_a_kind": 16,
    "small_straight": 15,
    "large_straight": 20,
    "full_house": 18,
    "yatzy": 50,
}
"""Scandinavian Yatzy's boxes score the matching dice, its straights 15 and 20."""


def column_with_open_boxes(rules: RuleSet, open_boxes: tuple[str, ...], **scores: int) -> Column:
    """A column of the rules' card with every box filled (typical scores, then overrides)
    except `open_boxes`."""
    typical = (
        TYPICAL_YATZY_SCORES if "yatzy" in {box.key for box in rules.boxes} else (TYPICAL_SCORES)
    )
    filled = {box.key: typical.get(box.key, 0) for box in rules.boxes} | scores
    for key in open_boxes:
        filled.pop(key)
    # Fixed scores follow the rules' values; anything the box cannot hold becomes a scratch.
    for key, score in list(filled.items()):
        if score not in possible_scores(rules, rules.box(key)):
            filled[key] = 0
    return Column.from_scores(rules, filled)
