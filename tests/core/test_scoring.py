"""Box scores under every option: worked examples, the known-bug list, and an exhaustive oracle."""

import pytest

from fivedice.core.categories import CATEGORIES, Category
from fivedice.core.dice import ALL_ROLLS
from fivedice.core.rules import CLASSIC, OfAKindScoring, RuleSet, Straights
from fivedice.core.scoring import box_score, box_scores, possible_scores

C = Category
MATCHING = RuleSet(of_a_kind_scores=OfAKindScoring.MATCHING_DICE)
FIXED = RuleSet(straights=Straights.FIXED)
FIVE_FH = RuleSet(five_of_a_kind_is_full_house=True)
CUSTOM = RuleSet(full_house=35, small_straight=20, large_straight=45, yahtzee=75)


def dice(text: str) -> tuple[int, ...]:
    return tuple(int(c) for c in text)


@pytest.mark.parametrize(
    "rules, category, roll, expected",
    [
        # Worked examples of RULES.md
        (CLASSIC, C.FULL_HOUSE, "33355", 25),
        (CLASSIC, C.THREES, "33355", 9),
        (CLASSIC, C.THREE_OF_A_KIND, "33355", 19),
        (CLASSIC, C.CHANCE, "33355", 19),
        (CLASSIC, C.SMALL_STRAIGHT, "12344", 30),
        (CLASSIC, C.SMALL_STRAIGHT, "12456", 0),
        (CLASSIC, C.THREE_OF_A_KIND, "55562", 23),
        # Known bug list
        (CLASSIC, C.SMALL_STRAIGHT, "12334", 30),
        (CLASSIC, C.SMALL_STRAIGHT, "23453", 30),
        (CLASSIC, C.SMALL_STRAIGHT, "34466", 0),
        (CLASSIC, C.SMALL_STRAIGHT, "12445", 0),
        (CLASSIC, C.SMALL_STRAIGHT, "11245", 0),
        (CLASSIC, C.SMALL_STRAIGHT, "12345", 30),
        (CLASSIC, C.SMALL_STRAIGHT, "23456", 30),
        (CLASSIC, C.SMALL_STRAIGHT, "34566", 30),
        (CLASSIC, C.LARGE_STRAIGHT, "12345", 40),
        (CLASSIC, C.LARGE_STRAIGHT, "65432", 40),
        (CLASSIC, C.LARGE_STRAIGHT, "12346", 0),
        (CLASSIC, C.THREE_OF_A_KIND, "44444", 20),
        (CLASSIC, C.FOUR_OF_A_KIND, "44444", 20),
        (CLASSIC, C.FOUR_OF_A_KIND, "44442", 18),
        (CLASSIC, C.FOUR_OF_A_KIND, "44422", 0),
        (CLASSIC, C.FULL_HOUSE, "44444", 0),
        (CLASSIC, C.FULL_HOUSE, "22444", 25),
        (CLASSIC, C.FULL_HOUSE, "22344", 0),
        (CLASSIC, C.YAHTZEE, "44444", 50),
        (CLASSIC, C.YAHTZEE, "44443", 0),
        (CLASSIC, C.CHANCE, "66666", 30),
        (CLASSIC, C.SIXES, "66616", 24),
        (CLASSIC, C.ONES, "23456", 0),
        # Options
        (FIVE_FH, C.FULL_HOUSE, "44444", 25),
        (FIVE_FH, C.FULL_HOUSE, "44443", 0),
        (MATCHING, C.THREE_OF_A_KIND, "55562", 15),
        (MATCHING, C.FOUR_OF_A_KIND, "55556", 20),
        (MATCHING, C.THREE_OF_A_KIND, "66666", 18),
        (MATCHING, C.FOUR_OF_A_KIND, "66666", 24),
        (MATCHING, C.FOUR_OF_A_KIND, "66655", 0),
        (FIXED, C.SMALL_STRAIGHT, "12345", 30),
        (FIXED, C.SMALL_STRAIGHT, "12344", 0),
        (FIXED, C.SMALL_STRAIGHT, "23456", 0),
        (FIXED, C.SMALL_STRAIGHT, "34566", 0),
        (FIXED, C.LARGE_STRAIGHT, "23456", 40),
        (FIXED, C.LARGE_STRAIGHT, "12345", 0),
        (CUSTOM, C.FULL_HOUSE, "22333", 35),
        (CUSTOM, C.SMALL_STRAIGHT, "12346", 20),
        (CUSTOM, C.LARGE_STRAIGHT, "23456", 45),
        (CUSTOM, C.YAHTZEE, "11111", 75),
    ],
)
def test_box_score(rules, category, roll, expected):
    assert box_score(rules, category, dice(roll)) == expected


@pytest.mark.parametrize("category", [C.FULL_HOUSE, C.SMALL_STRAIGHT, C.LARGE_STRAIGHT])
def test_joker_gives_fixed_scores_in_full(category):
    assert (
        box_score(CUSTOM, category, dice("22222"), joker=True)
        == {
            C.FULL_HOUSE: 35,
            C.SMALL_STRAIGHT: 20,
            C.LARGE_STRAIGHT: 45,
        }[category]
    )
    assert box_score(CUSTOM, C.CHANCE, dice("22222"), joker=True) == 10


def _oracle(rules: RuleSet, category: Category, roll: tuple[int, ...]) -> int:
    """An independent, deliberately plain reading of RULES.md."""
    counts = [roll.count(face) for face in range(1, 7)]
    total = sum(roll)
    if category.is_upper:
        face = CATEGORIES.index(category) + 1
        return face * counts[face - 1]
    if category in (C.THREE_OF_A_KIND, C.FOUR_OF_A_KIND):
        need = 3 if category is C.THREE_OF_A_KIND else 4
        for face in range(1, 7):
            if counts[face - 1] >= need:
                return (
                    need * face if rules.of_a_kind_scores is OfAKindScoring.MATCHING_DICE else total
                )
        return 0
    if category is C.FULL_HOUSE:
        shape = sorted(c for c in counts if c)
        ok = shape == [2, 3] or (rules.five_of_a_kind_is_full_house and shape == [5])
        return rules.full_house if ok else 0
    present = "".join("1" if c else "0" for c in counts)
    if category is C.SMALL_STRAIGHT:
        ok = present == "111110" if rules.straights is Straights.FIXED else "1111" in present
        return rules.small_straight if ok else 0
    if category is C.LARGE_STRAIGHT:
        if rules.straights is Straights.FIXED:
            ok = present == "011111"
        else:
            ok = present in ("111110", "011111")
        return rules.large_straight if ok else 0
    if category is C.YAHTZEE:
        return rules.yahtzee if 5 in counts else 0
    return total


@pytest.mark.parametrize("rules", [CLASSIC, MATCHING, FIXED, FIVE_FH, CUSTOM])
def test_every_box_of_every_roll_agrees_with_an_independent_oracle(rules):
    for roll in ALL_ROLLS:
        scores = box_scores(rules, roll)
        for category in CATEGORIES:
            assert scores[category] == _oracle(rules, category, roll), (category, roll)


def test_roll_counts_per_box_match_known_frequencies():
    # Among the 7776 ordered rolls: 120 + 120 large straights, 300 full houses, 6 Yahtzees.
    from fivedice.core.dice import roll_probability

    def share(category):
        return sum(roll_probability(r) for r in ALL_ROLLS if box_score(CLASSIC, category, r)) * 7776

    assert share(C.LARGE_STRAIGHT) == 240
    assert share(C.FULL_HOUSE) == 300
    assert share(C.YAHTZEE) == 6
    assert share(C.SMALL_STRAIGHT) == 1200


def test_possible_scores():
    assert possible_scores(CLASSIC, C.THREES) == {0, 3, 6, 9, 12, 15}
    assert possible_scores(CLASSIC, C.FULL_HOUSE) == {0, 25}
    assert possible_scores(CLASSIC, C.CHANCE) == set(range(5, 31))  # chance is never 0
