"""Yacht, Yacht Dice, Generala and Kismet: hand-checked rolls for every preset and every new
rule feature (sums plus a constant, colours of pips, served hands, the 1 standing in for a 2
or a 6, tiered upper bonuses, Double Generala), Kismet against GNOME Tali's scoring rewritten
here from its src/yahtzee.c, and games played through the core."""

from __future__ import annotations

from collections import Counter

import pytest

from fivedice.core import (
    GameSettings,
    RuleSet,
    ScriptedDice,
    Seat,
    apply,
    find_ruleset,
    new_game,
    score_box,
)
from fivedice.core.card import Column
from fivedice.core.dice import all_rolls
from fivedice.core.errors import IllegalActionError, RuleSetError

YACHT = find_ruleset("yacht")
YACHT_DICE = find_ruleset("yacht-dice")
GENERALA = find_ruleset("generala")
KISMET = find_ruleset("kismet")


def points(rules: RuleSet, dice: tuple[int, ...], box: str, served: bool = False) -> int:
    return score_box(rules.box(box), dice, served=served)


def test_the_cards_of_the_four_presets():
    upper = ["ones", "twos", "threes", "fours", "fives", "sixes"]
    assert [b.key for b in YACHT.boxes] == [
        *upper, "full_house", "four_of_a_kind", "little_straight", "big_straight", "choice",
        "yacht",
    ]  # fmt: skip
    assert [b.key for b in YACHT_DICE.boxes] == [
        *upper, "choice", "four_of_a_kind", "full_house", "small_straight", "large_straight",
        "yacht",
    ]  # fmt: skip
    assert [b.key for b in GENERALA.boxes] == [
        *upper, "escalera", "full", "poker", "generala", "double_generala",
    ]  # fmt: skip
    assert [b.key for b in KISMET.boxes] == [
        *upper, "two_pairs_same_colour", "three_of_a_kind", "full_house",
        "full_house_same_colour", "flush", "large_straight", "four_of_a_kind", "kismet", "chance",
    ]  # fmt: skip
    assert (YACHT.turns, YACHT_DICE.turns, GENERALA.turns, KISMET.turns) == (12, 12, 11, 15)
    assert not YACHT.upper_bonus and not GENERALA.upper_bonus
    assert YACHT_DICE.bonus_tiers == ((63, 35),)
    assert KISMET.bonus_tiers == ((63, 35), (71, 55), (78, 75))


YACHT_ROLLS = [
    ((1, 1, 1, 1, 1), "ones", 5),
    ((2, 3, 2, 5, 2), "twos", 6),
    ((3, 3, 3, 3, 3), "threes", 15),
    ((4, 4, 1, 2, 3), "fours", 8),
    ((5, 1, 5, 5, 6), "fives", 15),
    ((6, 6, 6, 6, 6), "sixes", 30),
    ((6, 5, 6, 6, 6), "sixes", 24),
    ((2, 2, 3, 3, 3), "full_house", 13),  # the sum of the dice
    ((6, 6, 6, 5, 5), "full_house", 28),
    ((1, 1, 1, 1, 1), "full_house", 0),  # a Yacht is no full house
    ((4, 4, 4, 4, 4), "full_house", 0),
    ((2, 2, 3, 3, 4), "full_house", 0),
    ((2, 2, 2, 2, 3), "full_house", 0),
    ((3, 3, 3, 3, 5), "four_of_a_kind", 12),  # the sum of the four
    ((6, 6, 6, 6, 6), "four_of_a_kind", 24),  # a Yacht is four of a kind
    ((1, 1, 1, 2, 2), "four_of_a_kind", 0),
    ((5, 5, 5, 5, 1), "four_of_a_kind", 20),
    ((1, 2, 3, 4, 5), "little_straight", 30),
    ((5, 4, 3, 2, 1), "little_straight", 30),
    ((2, 3, 4, 5, 6), "little_straight", 0),  # exactly 1-2-3-4-5
    ((1, 2, 3, 4, 6), "little_straight", 0),
    ((2, 3, 4, 5, 6), "big_straight", 30),
    ((6, 2, 5, 3, 4), "big_straight", 30),
    ((1, 2, 3, 4, 5), "big_straight", 0),  # exactly 2-3-4-5-6
    ((1, 3, 4, 5, 6), "big_straight", 0),
    ((1, 2, 3, 4, 6), "choice", 16),
    ((6, 6, 6, 6, 6), "choice", 30),
    ((1, 1, 1, 1, 2), "choice", 6),
    ((4, 4, 4, 4, 4), "yacht", 50),
    ((4, 4, 4, 4, 3), "yacht", 0),
    ((1, 1, 1, 1, 1), "yacht", 50),
]


@pytest.mark.parametrize("dice, box, expected", YACHT_ROLLS)
def test_yacht_scores(dice, box, expected):
    assert points(YACHT, dice, box) == expected


YACHT_DICE_ROLLS = [
    ((1, 1, 2, 3, 4), "ones", 2),
    ((6, 6, 6, 6, 6), "sixes", 30),
    ((3, 3, 3, 1, 2), "threes", 9),
    ((2, 5, 5, 5, 5), "fives", 20),
    ((4, 4, 4, 4, 4), "twos", 0),
    ((1, 2, 3, 4, 5), "choice", 15),
    ((6, 6, 6, 6, 5), "choice", 29),
    ((1, 3, 5, 6, 2), "choice", 17),
    ((3, 3, 3, 3, 2), "four_of_a_kind", 14),  # the sum of all five dice
    ((6, 6, 6, 6, 6), "four_of_a_kind", 30),
    ((1, 1, 1, 2, 2), "four_of_a_kind", 0),
    ((5, 5, 5, 5, 1), "four_of_a_kind", 21),
    ((2, 2, 3, 3, 3), "full_house", 13),  # the sum of all five dice
    ((6, 6, 6, 5, 5), "full_house", 28),
    ((1, 1, 1, 1, 1), "full_house", 5),  # five of a kind counts
    ((4, 4, 4, 4, 4), "full_house", 20),
    ((2, 2, 3, 3, 4), "full_house", 0),
    ((2, 2, 2, 2, 3), "full_house", 0),
    ((1, 2, 3, 4, 6), "small_straight", 15),  # four in a row
    ((3, 4, 5, 6, 6), "small_straight", 15),
    ((2, 3, 4, 5, 5), "small_straight", 15),
    ((1, 2, 3, 5, 6), "small_straight", 0),
    ((1, 1, 2, 2, 3), "small_straight", 0),
    ((1, 2, 3, 4, 5), "large_straight", 30),
    ((2, 3, 4, 5, 6), "large_straight", 30),
    ((1, 2, 3, 4, 6), "large_straight", 0),
    ((3, 4, 5, 6, 6), "large_straight", 0),
    ((5, 5, 5, 5, 5), "yacht", 50),
    ((5, 5, 5, 5, 4), "yacht", 0),
    ((2, 2, 2, 2, 2), "yacht", 50),
]


@pytest.mark.parametrize("dice, box, expected", YACHT_DICE_ROLLS)
def test_yacht_dice_scores(dice, box, expected):
    assert points(YACHT_DICE, dice, box) == expected


GENERALA_ROLLS = [  # dice, box, served (the turn's first roll), points
    ((1, 1, 3, 4, 5), "ones", False, 2),
    ((2, 2, 2, 6, 6), "sixes", False, 12),
    ((5, 5, 5, 5, 1), "fives", True, 20),  # no served points in an upper box
    ((2, 2, 2, 2, 2), "twos", True, 10),
    ((6, 6, 6, 6, 6), "sixes", True, 30),
    ((1, 2, 3, 4, 5), "escalera", False, 20),
    ((1, 2, 3, 4, 5), "escalera", True, 25),
    ((2, 3, 4, 5, 6), "escalera", False, 20),
    ((2, 3, 4, 5, 6), "escalera", True, 25),
    ((1, 3, 4, 5, 6), "escalera", False, 20),  # the 1 stands for a 2
    ((1, 3, 4, 5, 6), "escalera", True, 25),
    ((1, 1, 3, 4, 5), "escalera", False, 20),  # one 1 is a 1, the other a 2
    ((1, 2, 3, 4, 1), "escalera", False, 0),
    ((1, 2, 3, 4, 6), "escalera", False, 0),
    ((1, 1, 2, 3, 4), "escalera", True, 0),
    ((2, 3, 4, 5, 5), "escalera", False, 0),
    ((1, 2, 4, 5, 6), "escalera", False, 0),
    ((3, 3, 3, 6, 6), "full", False, 30),
    ((3, 3, 3, 6, 6), "full", True, 35),
    ((1, 1, 2, 2, 2), "full", True, 35),
    ((4, 4, 4, 4, 4), "full", False, 0),  # five of a kind is no full
    ((4, 4, 4, 4, 2), "full", True, 0),
    ((6, 6, 6, 6, 2), "poker", False, 40),
    ((6, 6, 6, 6, 2), "poker", True, 45),
    ((3, 3, 3, 3, 3), "poker", False, 40),  # five of a kind holds four
    ((3, 3, 3, 3, 3), "poker", True, 45),
    ((3, 3, 3, 2, 2), "poker", True, 0),
    ((5, 5, 5, 5, 5), "generala", False, 50),
    ((5, 5, 5, 5, 5), "generala", True, 50),  # served: the win, not more points
    ((5, 5, 5, 5, 4), "generala", True, 0),
    ((1, 2, 3, 4, 5), "generala", False, 0),
]


@pytest.mark.parametrize("dice, box, served, expected", GENERALA_ROLLS)
def test_generala_scores(dice, box, served, expected):
    assert points(GENERALA, dice, box, served) == expected


SERVED_HANDS = [  # box, dice, points later in the turn, served (Generala: +5 on the hands)
    ("escalera", (1, 2, 3, 4, 5), 20, 25),
    ("escalera", (6, 5, 4, 3, 2), 20, 25),
    ("escalera", (1, 6, 5, 4, 3), 20, 25),
    ("escalera", (1, 1, 5, 4, 3), 20, 25),
    ("escalera", (1, 2, 3, 3, 5), 0, 0),  # nothing made: no served points either
    ("escalera", (2, 2, 2, 2, 2), 0, 0),
    ("full", (2, 2, 2, 3, 3), 30, 35),
    ("full", (6, 6, 1, 1, 1), 30, 35),
    ("full", (5, 4, 5, 4, 5), 30, 35),
    ("full", (5, 4, 5, 4, 6), 0, 0),
    ("full", (5, 5, 5, 5, 5), 0, 0),
    ("poker", (1, 1, 1, 1, 6), 40, 45),
    ("poker", (2, 4, 4, 4, 4), 40, 45),
    ("poker", (6, 6, 6, 6, 6), 40, 45),
    ("poker", (6, 6, 6, 5, 5), 0, 0),
    ("generala", (2, 2, 2, 2, 2), 50, 50),
    ("generala", (2, 2, 2, 2, 1), 0, 0),
    ("ones", (1, 1, 1, 1, 1), 5, 5),
    ("fours", (4, 4, 4, 1, 2), 12, 12),
    ("sixes", (6, 6, 2, 3, 4), 12, 12),
    ("twos", (1, 3, 4, 5, 6), 0, 0),
    ("escalera", (3, 4, 5, 6, 2), 20, 25),
    ("full", (3, 3, 6, 6, 6), 30, 35),
    ("poker", (5, 5, 5, 1, 5), 40, 45),
    ("escalera", (4, 1, 3, 5, 6), 20, 25),
    ("full", (4, 4, 4, 1, 1), 30, 35),
    ("poker", (3, 3, 3, 3, 1), 40, 45),
    ("fives", (5, 5, 5, 5, 5), 25, 25),
    ("threes", (3, 3, 3, 3, 3), 15, 15),
    ("escalera", (1, 1, 1, 4, 5), 0, 0),
]


@pytest.mark.parametrize("box, dice, later, served", SERVED_HANDS)
def test_served_hands_earn_their_served_points(box, dice, later, served):
    assert points(GENERALA, dice, box) == later
    assert points(GENERALA, dice, box, served=True) == served


STAND_INS = [  # dice, Escalera with a 1 standing for a 2 or a 6, without (ones_in_straights=off)
    ((1, 2, 3, 4, 5), 20, 20),
    ((2, 3, 4, 5, 6), 20, 20),
    ((1, 3, 4, 5, 6), 20, 0),
    ((6, 5, 4, 3, 1), 20, 0),
    ((1, 1, 3, 4, 5), 20, 0),
    ((5, 4, 3, 1, 1), 20, 0),
    ((3, 1, 5, 4, 6), 20, 0),
    ((4, 6, 1, 5, 3), 20, 0),
    ((1, 4, 5, 6, 3), 20, 0),
    ((1, 5, 4, 3, 1), 20, 0),
    ((3, 4, 5, 1, 1), 20, 0),
    ((1, 3, 4, 5, 2), 20, 20),
    ((2, 3, 4, 5, 1), 20, 20),
    ((1, 1, 2, 3, 4), 0, 0),
    ((1, 2, 3, 4, 6), 0, 0),
    ((1, 2, 4, 5, 6), 0, 0),
    ((1, 1, 1, 3, 4), 0, 0),
    ((1, 3, 4, 5, 5), 0, 0),
    ((1, 3, 4, 6, 6), 0, 0),
    ((1, 1, 3, 5, 6), 0, 0),
    ((1, 1, 4, 5, 6), 0, 0),
    ((1, 1, 1, 1, 1), 0, 0),
    ((1, 2, 3, 5, 6), 0, 0),
    ((1, 1, 3, 4, 6), 0, 0),
    ((1, 2, 2, 3, 4), 0, 0),
    ((6, 6, 3, 4, 5), 0, 0),
    ((2, 2, 3, 4, 5), 0, 0),
    ((1, 3, 3, 4, 5), 0, 0),
    ((2, 3, 4, 1, 6), 0, 0),
    ((1, 1, 1, 5, 6), 0, 0),
]


@pytest.mark.parametrize("dice, with_ones, without", STAND_INS)
def test_a_one_may_stand_for_a_two_or_a_six_in_the_escalera(dice, with_ones, without):
    plain = GENERALA.with_settings({"ones_in_straights": "off"})
    assert points(GENERALA, dice, "escalera") == with_ones
    assert points(plain, dice, "escalera") == without


def test_the_one_standing_in_works_on_the_classic_straights_too():
    rules = find_ruleset("classic", {"ones_in_straights": "on"})
    assert points(rules, (1, 3, 4, 5, 5), "small_straight") == 30  # 2-3-4-5
    assert points(rules, (1, 3, 4, 5, 6), "large_straight") == 40  # 2-3-4-5-6
    assert points(rules, (1, 2, 3, 5, 6), "small_straight") == 0


def test_double_generala_needs_fifty_in_the_generala_box():
    five = (4, 4, 4, 4, 4)

    def double(column: Column) -> int:
        found = {p.category.key: p.box_points for p in column.placements(GENERALA, five)}
        return found["double_generala"]

    empty = Column.empty(GENERALA)
    assert double(empty) == 0  # the Generala box is still open
    assert double(empty.fill(GENERALA, GENERALA.box("generala"), five)) == 100
    crossed = empty.fill(GENERALA, GENERALA.box("generala"), (1, 2, 3, 4, 6))
    assert crossed.score(GENERALA.box("generala")) == 0
    assert double(crossed) == 0
    held = empty.fill(GENERALA, GENERALA.box("generala"), five)
    found = {p.category.key: p.box_points for p in held.placements(GENERALA, (4, 4, 4, 4, 3))}
    assert found["double_generala"] == 0


TIERS = [  # Kismet's upper total, its bonus (35 at 63, 55 at 71, 75 at 78)
    (0, 0), (10, 0), (35, 0), (50, 0), (61, 0), (62, 0), (63, 35), (64, 35), (65, 35),
    (66, 35), (67, 35), (68, 35), (69, 35), (70, 35), (71, 55), (72, 55), (73, 55), (74, 55),
    (75, 55), (76, 55), (77, 55), (78, 75), (79, 75), (80, 75), (84, 75), (90, 75), (99, 75),
    (100, 75), (104, 75), (105, 75),
]  # fmt: skip


@pytest.mark.parametrize("total, bonus", TIERS)
def test_kismet_upper_bonus_tiers(total, bonus):
    assert KISMET.upper_bonus_points(total) == bonus
    assert YACHT_DICE.upper_bonus_points(total) == (35 if total >= 63 else 0)


def test_a_placement_earns_the_bonus_tiers_it_crosses():
    column = Column.from_scores(KISMET, {"sixes": 30, "fives": 25})  # upper total 55
    by_box = {p.category.key: p for p in column.placements(KISMET, (4, 4, 4, 4, 4))}
    assert by_box["fours"].upper_bonus == 55  # 55 + 20 = 75: the tier of 71
    assert column.total(KISMET) == 55
    column = Column.from_scores(KISMET, {"sixes": 30, "fives": 25, "fours": 12})  # 67: 35 held
    by_box = {p.category.key: p for p in column.placements(KISMET, (3, 3, 3, 3, 1))}
    assert by_box["threes"].upper_bonus == 40  # 67 + 12 = 79: 75 in all, 40 more
    filled = column.fill(KISMET, KISMET.box("threes"), (3, 3, 3, 3, 1))
    assert filled.total(KISMET) == 79 + 75


def test_the_card_total_counts_the_highest_tier_reached():
    for upper, bonus in ((62, 0), (63, 35), (71, 55), (78, 75)):
        scores = _upper_scores(upper)
        column = Column.from_scores(KISMET, scores)
        assert column.upper_total == upper
        assert column.total(KISMET) == upper + bonus


def _upper_scores(total: int) -> dict[str, int]:
    """Upper scores reaching exactly `total` (for the totals of the tests)."""
    made = {"sixes": 30, "fives": 25, "fours": 0, "threes": 0, "twos": 0, "ones": 0}
    rest = total - 55
    for key, face in (("fours", 4), ("threes", 3), ("twos", 2), ("ones", 1)):
        count = min(5, rest // face)
        made[key] = count * face
        rest -= count * face
    assert rest == 0
    return made


SAME_COLOUR = [  # dice, box, points (1 and 6 black, 2 and 5 red, 3 and 4 green)
    ((1, 1, 6, 6, 3), "two_pairs_same_colour", 17),
    ((2, 2, 5, 5, 4), "two_pairs_same_colour", 18),
    ((3, 3, 4, 4, 1), "two_pairs_same_colour", 15),
    ((1, 1, 2, 2, 3), "two_pairs_same_colour", 0),
    ((3, 3, 5, 5, 6), "two_pairs_same_colour", 0),
    ((4, 4, 4, 4, 2), "two_pairs_same_colour", 18),  # four of a kind
    ((6, 6, 6, 6, 6), "two_pairs_same_colour", 30),
    ((2, 2, 2, 5, 5), "two_pairs_same_colour", 16),
    ((3, 3, 3, 5, 5), "two_pairs_same_colour", 0),
    ((1, 6, 2, 5, 3), "two_pairs_same_colour", 0),
    ((4, 3, 4, 3, 3), "two_pairs_same_colour", 17),
    ((2, 5, 2, 5, 5), "two_pairs_same_colour", 19),
    ((1, 1, 6, 6, 1), "two_pairs_same_colour", 15),
    ((1, 1, 6, 6, 6), "full_house_same_colour", 40),  # the sum + 20
    ((2, 2, 2, 5, 5), "full_house_same_colour", 36),
    ((3, 3, 4, 4, 4), "full_house_same_colour", 38),
    ((5, 5, 5, 5, 5), "full_house_same_colour", 45),  # five of a kind
    ((1, 6, 1, 6, 1), "full_house_same_colour", 35),
    ((3, 3, 3, 5, 5), "full_house_same_colour", 0),
    ((1, 1, 1, 6, 2), "full_house_same_colour", 0),
    ((4, 4, 4, 4, 3), "full_house_same_colour", 0),
    ((3, 3, 4, 4, 1), "full_house_same_colour", 0),
    ((1, 1, 6, 6, 3), "full_house_same_colour", 0),
    ((1, 1, 6, 6, 6), "flush", 35),
    ((1, 6, 6, 6, 6), "flush", 35),
    ((2, 2, 2, 2, 2), "flush", 35),
    ((2, 5, 5, 2, 5), "flush", 35),
    ((3, 4, 4, 4, 3), "flush", 35),
    ((3, 4, 4, 4, 2), "flush", 0),
    ((1, 2, 3, 4, 5), "flush", 0),
    ((6, 6, 6, 6, 5), "flush", 0),
]


@pytest.mark.parametrize("dice, box, expected", SAME_COLOUR)
def test_same_colour_hands(dice, box, expected):
    assert points(KISMET, dice, box) == expected


KISMET_ROLLS = [
    ((1, 1, 2, 3, 4), "ones", 2),
    ((6, 6, 6, 1, 2), "sixes", 18),
    ((3, 3, 3, 3, 3), "threes", 15),
    ((4, 4, 4, 6, 6), "three_of_a_kind", 24),
    ((2, 2, 2, 2, 5), "three_of_a_kind", 13),
    ((1, 2, 3, 4, 5), "three_of_a_kind", 0),
    ((2, 2, 3, 3, 3), "full_house", 28),  # the sum + 15
    ((5, 5, 5, 5, 5), "full_house", 40),  # five of a kind counts
    ((2, 2, 2, 2, 3), "full_house", 0),
    ((6, 6, 6, 1, 1), "full_house", 35),
    ((1, 1, 6, 6, 6), "full_house", 35),
    ((2, 2, 5, 5, 5), "full_house", 34),
    ((5, 5, 2, 2, 1), "full_house", 0),
    ((1, 1, 1, 1, 1), "kismet", 55),  # the sum + 50
    ((6, 6, 6, 6, 6), "kismet", 80),
    ((6, 6, 6, 6, 5), "kismet", 0),
    ((4, 4, 4, 4, 1), "four_of_a_kind", 42),  # the sum + 25
    ((6, 6, 6, 6, 6), "four_of_a_kind", 55),
    ((3, 3, 3, 1, 1), "four_of_a_kind", 0),
    ((1, 2, 3, 4, 5), "large_straight", 40),
    ((2, 3, 4, 5, 6), "large_straight", 40),
    ((1, 2, 3, 4, 6), "large_straight", 0),
    ((1, 3, 4, 5, 6), "large_straight", 0),  # no 1 standing in for a 2 here
    ((1, 2, 3, 4, 6), "chance", 16),
    ((6, 6, 6, 6, 6), "chance", 30),
    ((1, 1, 6, 6, 3), "two_pairs_same_colour", 17),
    ((5, 5, 2, 2, 1), "two_pairs_same_colour", 15),
    ((1, 1, 6, 6, 6), "full_house_same_colour", 40),
    ((1, 1, 6, 6, 6), "flush", 35),
    ((3, 4, 3, 4, 3), "flush", 35),
    ((3, 4, 3, 4, 2), "flush", 0),
]


@pytest.mark.parametrize("dice, box, expected", KISMET_ROLLS)
def test_kismet_scores(dice, box, expected):
    assert points(KISMET, dice, box) == expected


# --- GNOME Tali's Kismet, rewritten from its scoring functions (src/yahtzee.c) --------------


def _tali(dice: tuple[int, ...]) -> dict[str, int]:
    count = Counter(dice)
    total = sum(dice)

    def n_of_a_kind(n: int, but_not: int) -> int:
        # find_n_of_a_kind: the first die (in dice order) whose face shows n times or more.
        return next((d for d in dice if d != but_not and count[d] >= n), 0)

    def straight(run: int) -> bool:
        return any(all(count[i + j] for j in range(run)) for i in range(1, 7))

    three = n_of_a_kind(3, 0)
    four = n_of_a_kind(4, 0)
    five = n_of_a_kind(5, 0)
    pair = n_of_a_kind(2, 0)
    house = bool(three and (n_of_a_kind(2, three) or five))
    result = {key: face * count[face] for face, key in enumerate(
        ("ones", "twos", "threes", "fours", "fives", "sixes"), start=1)}  # fmt: skip
    result["two_pairs_same_colour"] = (
        total if pair and (n_of_a_kind(2, pair) + pair == 7 or four) else 0
    )
    result["three_of_a_kind"] = total if three else 0
    result["full_house"] = 15 + total if house else 0
    result["full_house_same_colour"] = (
        20 + total if three and (n_of_a_kind(2, three) + three == 7 or five) else 0
    )
    flush = (
        (three and three + n_of_a_kind(2, three) == 7)
        or (four and four + n_of_a_kind(1, four) == 7)
        or five
    )
    result["flush"] = 35 if flush else 0
    result["large_straight"] = 40 if straight(5) else 0
    result["four_of_a_kind"] = 25 + total if four else 0
    result["kismet"] = 50 + total if five else 0
    result["chance"] = total
    return result


def test_kismet_scores_every_roll_as_gnome_tali():
    for roll in all_rolls(5):
        for order in {roll, roll[::-1], roll[1:] + roll[:1]}:  # Tali reads the dice in order
            expected = _tali(order)
            got = {box.key: score_box(box, order) for box in KISMET.boxes}
            assert got == expected, order


def test_kismet_upper_bonus_as_gnome_tali():
    # total_score: >= 78 adds 75, else >= 71 adds 55, else >= 63 adds 35.
    for total in range(0, 106):
        tali = 75 if total >= 78 else 55 if total >= 71 else 35 if total >= 63 else 0
        assert KISMET.upper_bonus_points(total) == tali


# --- options ---------------------------------------------------------------------------------


def test_tiers_are_read_and_checked():
    rules = find_ruleset("classic", {"upper_bonus_tiers": "70,50"})
    assert rules.bonus_tiers == ((63, 35), (70, 50))
    assert rules.settings()["upper_bonus_tiers"] == [70, 50]
    assert "upper_bonus_tiers" not in find_ruleset("classic").settings()
    for bad in ("70", "60,50", "63,10", "200,5", "70,50,65,60"):
        with pytest.raises(RuleSetError):
            find_ruleset("classic", {"upper_bonus_tiers": bad})


def test_old_rule_sets_keep_their_settings():
    # The new options are listed only when changed: saves and cache keys stay the same.
    for name in ("classic", "yatzy", "maxi-yatzy", "triple"):
        settings = find_ruleset(name).settings()
        assert not {"upper_bonus_tiers", "served_bonus", "ones_in_straights"} & set(settings)


# --- games -----------------------------------------------------------------------------------


def test_a_served_hand_earns_more_than_the_same_hand_rolled_again():
    state = new_game(GameSettings(seats=(Seat("Ann"),), rules=GENERALA))
    state = apply(state, "roll", ScriptedDice([1, 3, 4, 5, 6]))
    assert state.served
    state = apply(state, "score escalera")
    assert state.cards[0].columns[0].score(GENERALA.box("escalera")) == 25
    state = apply(state, "roll", ScriptedDice([3, 3, 3, 2, 2]))
    state = apply(state, "roll", ScriptedDice([3, 3, 3, 2, 2]))
    assert not state.served
    state = apply(state, "score full")
    assert state.cards[0].columns[0].score(GENERALA.box("full")) == 30


@pytest.mark.parametrize("rules", [YACHT, YACHT_DICE, GENERALA, KISMET])
def test_a_whole_game_plays_and_replays(rules):
    # Alone with Generala: among several players its served Generala wins at once
    # (tests/core/test_instant_win.py); alone it is worth its points.
    wins = any(box.served_wins for box in rules.boxes)
    seats = (Seat("Ann"),) if wins else (Seat("Ann"), Seat("Bob"))
    state = new_game(GameSettings(seats=seats, rules=rules))
    faces = [6, 6, 6, 6, 6]
    while not state.is_game_over:
        state = apply(state, "roll", ScriptedDice(faces))
        box = next(b for b in rules.boxes if not state.cards[state.current_seat].columns[0]
                   .is_filled(b))  # fmt: skip
        state = apply(state, f"score {box.key}")
    assert all(card.is_complete for card in state.cards)
    expected = sum(score_box(box, (6,) * 5, served=True) for box in rules.boxes)
    # All sixes on the first roll every turn, boxes in card order: every box made and served
    # (Double Generala comes after Generala, which holds its 50 by then).
    assert state.totals == (expected + rules.upper_bonus_points(30),) * len(seats)


def test_the_table_keeper_takes_served_points():
    """At the table the players enter the points: a served Full's 35 is accepted, as is 30."""
    column = Column.empty(GENERALA)
    assert column.fill_points(GENERALA, GENERALA.box("full"), 35).score(GENERALA.box("full")) == 35
    assert column.fill_points(GENERALA, GENERALA.box("full"), 30).score(GENERALA.box("full")) == 30
    with pytest.raises(IllegalActionError):
        column.fill_points(GENERALA, GENERALA.box("full"), 33)
    with pytest.raises(IllegalActionError):  # Double Generala before Generala holds 50
        column.fill_points(GENERALA, GENERALA.box("double_generala"), 100)
    held = column.fill_points(GENERALA, GENERALA.box("generala"), 50)
    assert held.fill_points(GENERALA, GENERALA.box("double_generala"), 100).total(GENERALA) == 150
