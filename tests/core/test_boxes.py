"""Boxes as data: every box kind by hand-worked examples, and exhaustively against an
independent scorer (written here from the rule book, by brute force over the dice positions)
over every roll of five and of six dice."""

from __future__ import annotations

import itertools

import pytest

from fivedice.core import Box, BoxKind, Family, RuleSet, find_ruleset, score_box
from fivedice.core.boxes import CLASSIC_BOXES, KNOWN_BOXES
from fivedice.core.dice import all_rolls
from fivedice.core.errors import CardError, RuleSetError
from fivedice.core.scoring import box_score, box_scores, possible_scores

YATZY = find_ruleset("yatzy")
MAXI = find_ruleset("maxi-yatzy")


def scores(rules: RuleSet, dice: tuple[int, ...]) -> dict[str, int]:
    return {box.key: points for box, points in box_scores(rules, dice).items()}


# --- hand-worked examples ------------------------------------------------------------------


@pytest.mark.parametrize(
    "dice, box, points",
    [
        ((2, 2, 5, 5, 6), "one_pair", 10),  # the highest pair
        ((2, 2, 5, 5, 6), "two_pairs", 14),
        ((2, 2, 2, 5, 6), "two_pairs", 0),  # one pair and a third two
        ((4, 4, 4, 4, 6), "two_pairs", 0),  # four of a kind is not two pairs (by default)
        ((3, 3, 3, 5, 5), "three_of_a_kind", 9),  # the matching dice only
        ((3, 3, 3, 3, 5), "four_of_a_kind", 12),
        ((1, 2, 3, 4, 5), "small_straight", 15),
        ((2, 3, 4, 5, 6), "small_straight", 0),  # exactly 1-2-3-4-5
        ((2, 3, 4, 5, 6), "large_straight", 20),
        ((1, 2, 3, 4, 6), "small_straight", 0),
        ((3, 3, 3, 5, 5), "full_house", 19),  # the sum of the dice
        ((5, 5, 5, 5, 5), "full_house", 0),
        ((6, 6, 6, 6, 6), "yatzy", 50),
        ((1, 3, 4, 6, 6), "chance", 20),
        ((1, 3, 4, 6, 6), "sixes", 12),
    ],
)
def test_yatzy_boxes_by_hand(dice, box, points):
    assert scores(YATZY, dice)[box] == points


def test_yatzy_options_by_hand():
    four_as_two = YATZY.with_settings({"four_of_a_kind_is_two_pairs": "on"})
    assert scores(four_as_two, (4, 4, 4, 4, 6))["two_pairs"] == 16
    assert scores(four_as_two, (4, 4, 4, 4, 4))["two_pairs"] == 16
    five_as_house = YATZY.with_settings({"five_of_a_kind_is_full_house": "on"})
    assert scores(five_as_house, (5, 5, 5, 5, 5))["full_house"] == 25
    assert scores(five_as_house, (5, 5, 5, 5, 2))["full_house"] == 0


@pytest.mark.parametrize(
    "dice, box, points",
    [
        ((2, 2, 5, 5, 6, 6), "one_pair", 12),
        ((2, 2, 5, 5, 6, 6), "two_pairs", 22),  # the two highest pairs
        ((2, 2, 5, 5, 6, 6), "three_pairs", 26),
        ((2, 2, 2, 2, 6, 6), "three_pairs", 0),  # three DIFFERENT pairs
        ((2, 2, 2, 6, 6, 6), "three_of_a_kind", 18),  # the highest three
        ((5, 5, 5, 5, 5, 1), "five_of_a_kind", 25),
        ((1, 2, 3, 4, 5, 5), "small_straight", 15),
        ((2, 3, 4, 5, 6, 6), "large_straight", 20),
        ((1, 2, 3, 4, 5, 6), "full_straight", 21),
        ((1, 2, 3, 4, 5, 6), "small_straight", 15),  # 1-2-3-4-5 is among them
        ((2, 2, 2, 6, 6, 6), "full_house", 22),  # three 6s and two 2s: the best 3+2
        ((2, 2, 2, 6, 6, 1), "full_house", 18),
        ((2, 2, 2, 6, 6, 6), "castle", 24),
        ((3, 3, 3, 3, 5, 5), "tower", 22),
        ((3, 3, 3, 3, 3, 3), "tower", 0),
        ((4, 4, 4, 4, 4, 4), "maxi_yatzy", 100),
        ((4, 4, 4, 4, 4, 3), "maxi_yatzy", 0),
        ((1, 1, 2, 3, 6, 6), "chance", 19),
    ],
)
def test_maxi_yatzy_boxes_by_hand(dice, box, points):
    assert scores(MAXI, dice)[box] == points


def test_classic_worked_examples_of_the_rule_book():
    classic = RuleSet()
    assert scores(classic, (3, 3, 3, 5, 5)) == {
        **{key: 0 for key in ("ones", "twos", "fours", "sixes", "four_of_a_kind")},
        "threes": 9,
        "fives": 10,
        "three_of_a_kind": 19,
        "full_house": 25,
        "small_straight": 0,
        "large_straight": 0,
        "yahtzee": 0,
        "chance": 19,
    }
    assert scores(classic, (1, 2, 3, 4, 4))["small_straight"] == 30
    assert scores(classic, (1, 2, 4, 5, 6))["small_straight"] == 0
    assert scores(classic, (2, 5, 5, 5, 6))["three_of_a_kind"] == 23


def test_joker_scores_the_pattern_as_made():
    # A five of a kind placed as a joker: fixed points, or the dice the box would use.
    assert score_box(YATZY.box("full_house"), (4,) * 5, joker=True) == 20
    assert score_box(YATZY.box("small_straight"), (4,) * 5, joker=True) == 15
    assert score_box(MAXI.box("three_pairs"), (2,) * 6, joker=True) == 12
    assert score_box(MAXI.box("castle"), (5,) * 6, joker=True) == 30
    assert score_box(RuleSet().box("large_straight"), (1,) * 5, joker=True) == 40


def test_the_card_of_each_family():
    assert [box.key for box in RuleSet().boxes] == [box.key for box in CLASSIC_BOXES]
    assert len(YATZY.boxes) == 15 and YATZY.dice == 5
    assert len(MAXI.boxes) == 20 and MAXI.dice == 6
    assert YATZY.all_same_box == Box("yatzy") and MAXI.all_same_box == Box("maxi_yatzy")
    assert [box.key for box in MAXI.upper_boxes] == [box.key for box in CLASSIC_BOXES[:6]]
    assert (MAXI.upper_bonus_threshold, MAXI.upper_bonus_value) == (84, 100)
    assert (YATZY.upper_bonus_threshold, YATZY.upper_bonus_value) == (63, 50)
    assert not YATZY.yahtzee_bonus and YATZY.joker.value == "none"


def test_box_lookups_and_their_errors():
    assert YATZY.box("one_pair").kind is BoxKind.PAIRS
    assert YATZY.box_index("yatzy") == 14
    with pytest.raises(CardError, match="no Castle box"):
        YATZY.box(Box("castle"))
    with pytest.raises(CardError, match="no box is called"):
        Box.parse("sevens")
    assert Box.parse("One-Pair") == KNOWN_BOXES["one_pair"]
    assert list(Box) == list(CLASSIC_BOXES)  # iterating the class: the classic thirteen


def test_options_that_do_not_fit_the_boxes_are_refused():
    with pytest.raises(RuleSetError, match="sum of the dice"):
        YATZY.with_settings({"full_house": "30"})
    with pytest.raises(RuleSetError, match="two-pairs box"):
        RuleSet().with_settings({"four_of_a_kind_is_two_pairs": "on"})
    with pytest.raises(RuleSetError, match="at most 105"):
        RuleSet().with_settings({"upper_bonus_threshold": "106"})
    assert MAXI.with_settings({"upper_bonus_threshold": "126"}).upper_bonus_threshold == 126
    with pytest.raises(RuleSetError, match="126"):
        MAXI.with_settings({"upper_bonus_threshold": "127"})


def test_settings_round_trip_and_classic_keys_unchanged():
    for rules in (YATZY, MAXI, YATZY.with_settings({"fill_order": "forced"})):
        assert RuleSet().with_settings(rules.settings()) == rules
    assert "family" not in RuleSet().settings()  # the classic settings are what they were
    assert len(RuleSet().settings()) == 17
    assert RuleSet().with_settings({"family": "maxi_yatzy"}).dice == 6


# --- exhaustively, against an independent scorer --------------------------------------------


def _subsets(dice, size):
    return itertools.combinations(range(len(dice)), size)


def _groups(dice, shape, distinct):
    """Every way to pick disjoint groups of positions of the sizes in `shape`, each group of
    one face; `distinct`: the groups' faces all differ. Yields the dice used."""

    def place(rest, sizes, faces):
        if not sizes:
            yield ()
            return
        for group in itertools.combinations(rest, sizes[0]):
            values = {dice[i] for i in group}
            if len(values) != 1:
                continue
            face = values.pop()
            if distinct and face in faces:
                continue
            left = tuple(i for i in rest if i not in group)
            for more in place(left, sizes[1:], (*faces, face)):
                yield (*(dice[i] for i in group), *more)

    yield from place(tuple(range(len(dice))), tuple(shape), ())


def independent_score(rules: RuleSet, key: str, dice: tuple[int, ...]) -> int:
    """What the rule book says the box scores, computed the slow, obvious way."""
    faces = set(dice)
    uppers = ("ones", "twos", "threes", "fours", "fives", "sixes")
    if key in uppers:
        face = uppers.index(key) + 1
        return sum(d for d in dice if d == face)
    if key == "chance":
        return sum(dice)
    if key in ("yahtzee", "yatzy", "maxi_yatzy"):
        return rules.yahtzee if len(faces) == 1 else 0
    matching = rules.of_a_kind_scores.value == "matching_dice"
    kinds = {"three_of_a_kind": 3, "four_of_a_kind": 4, "five_of_a_kind": 5}
    if key in kinds:
        n = kinds[key]
        found = [dice[s[0]] for s in _subsets(dice, n) if len({dice[i] for i in s}) == 1]
        if not found:
            return 0
        return n * max(found) if matching else sum(dice)
    pairs = {"one_pair": 1, "two_pairs": 2, "three_pairs": 3}
    if key in pairs:
        loose = rules.four_of_a_kind_is_two_pairs
        options = [sum(used) for used in _groups(dice, (2,) * pairs[key], distinct=not loose)]
        return max(options, default=0)
    fixed = rules.straights.value == "fixed"
    if key == "small_straight":
        if fixed:
            made = {1, 2, 3, 4, 5} <= faces
        else:
            made = any(run <= faces for run in ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}))
        return rules.small_straight if made else 0
    if key == "large_straight":
        if fixed:
            made = {2, 3, 4, 5, 6} <= faces
        else:
            made = {1, 2, 3, 4, 5} <= faces or {2, 3, 4, 5, 6} <= faces
        return rules.large_straight if made else 0
    if key == "full_straight":
        return 21 if faces == {1, 2, 3, 4, 5, 6} else 0
    shapes = {"full_house": (3, 2), "castle": (3, 3), "tower": (4, 2)}
    shape = shapes[key]
    loose = rules.five_of_a_kind_is_full_house
    used = [sum(u) for u in _groups(dice, shape, distinct=True)]
    if loose:
        used += [sum(u) for u in _groups(dice, (sum(shape),), distinct=True)]
    if not used:
        return 0
    if rules.family is Family.YAHTZEE:
        return rules.full_house
    return max(used)


RULE_SETS = {
    "classic": RuleSet(),
    "classic-five": find_ruleset("classic-five"),
    "classic-variants": RuleSet().with_settings(
        {
            "of_a_kind_scores": "matching_dice",
            "five_of_a_kind_is_full_house": "on",
            "full_house": "30",
            "small_straight": "31",
            "large_straight": "41",
            "yahtzee": "55",
        }
    ),
    "yatzy": YATZY,
    "yatzy-options": YATZY.with_settings(
        {
            "four_of_a_kind_is_two_pairs": "on",
            "five_of_a_kind_is_full_house": "on",
            "of_a_kind_scores": "all_dice",
            "straights": "runs",
        }
    ),
    "maxi-yatzy": MAXI,
    "maxi-options": MAXI.with_settings(
        {"four_of_a_kind_is_two_pairs": "on", "five_of_a_kind_is_full_house": "on"}
    ),
}


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_every_box_against_the_independent_scorer_over_every_roll(name):
    rules = RULE_SETS[name]
    rolls = all_rolls(rules.dice)
    assert len(rolls) == (252 if rules.dice == 5 else 462)
    for roll in rolls:
        for box in rules.boxes:
            expected = independent_score(rules, box.key, roll)
            assert box_score(rules, box, roll) == expected, (name, box.key, roll)


def test_possible_scores_of_the_new_boxes():
    assert possible_scores(YATZY, Box("one_pair")) == frozenset({0, 2, 4, 6, 8, 10, 12})
    assert possible_scores(YATZY, Box("small_straight")) == frozenset({0, 15})
    assert possible_scores(MAXI, Box("maxi_yatzy")) == frozenset({0, 100})
    assert max(possible_scores(MAXI, Box("tower"))) == 4 * 6 + 2 * 5
