"""Score cards: bonuses, totals, joker placement under every mode, upper-first, columns."""

import pytest

from fivedice.core.card import Column, ScoreCard
from fivedice.core.categories import CATEGORIES, LOWER, UPPER, Category
from fivedice.core.errors import CardError, IllegalActionError
from fivedice.core.rules import CLASSIC, BonusCondition, RuleSet, find_ruleset

C = Category
FREE = find_ruleset("free-choice")
NONE = find_ruleset("simple")


def column(rules=CLASSIC, **scores):
    return Column.from_scores(rules, scores)


def options(col, dice, rules=CLASSIC):
    return {p.category.key: p.points for p in col.placements(rules, dice)}


def test_upper_bonus_at_exactly_63():
    col = column(ones=3, twos=6, threes=9, fours=12, fives=15)
    assert col.upper_total == 45 and col.upper_bonus(CLASSIC) == 0
    assert options(col, (6, 6, 6, 1, 2))["sixes"] == 18 + 35  # reaches 63 exactly
    assert options(col, (6, 6, 1, 1, 2))["sixes"] == 12  # 57: no bonus
    filled = col.fill(CLASSIC, C.SIXES, (6, 6, 6, 1, 2))
    assert filled.upper_total == 63 and filled.upper_bonus(CLASSIC) == 35
    assert filled.total(CLASSIC) == 98
    assert filled.upper_par == 0


def test_bonus_counted_once_and_configurable():
    col = column(ones=5, twos=10, threes=15, fours=20, fives=25)  # 75 already
    assert col.upper_bonus(CLASSIC) == 35
    assert options(col, (6, 6, 6, 6, 1))["sixes"] == 24  # already earned: no second bonus
    rules = RuleSet(upper_bonus_threshold=80, upper_bonus_value=50)
    col2 = column(rules, ones=5, twos=10, threes=15, fours=20, fives=25)
    assert col2.upper_bonus(rules) == 0
    assert options(col2, (6, 1, 1, 1, 1), rules)["sixes"] == 6 + 50
    off = RuleSet(upper_bonus=False)
    assert column(off, ones=5, twos=10, threes=15, fours=20, fives=25).upper_bonus(off) == 0


def test_upper_par_running_plus_minus():
    col = column(threes=12, fives=10)
    assert col.upper_par == 3 - 5


def test_extra_yahtzee_bonus_only_when_the_box_holds_50():
    scored = column(yahtzee=50)
    assert options(scored, (2, 2, 2, 2, 2))["twos"] == 10 + 100
    assert scored.fill(CLASSIC, C.TWOS, (2, 2, 2, 2, 2)).extra_yahtzees == 1
    scratched = column(yahtzee=0)
    assert options(scratched, (2, 2, 2, 2, 2))["twos"] == 10
    assert scratched.fill(CLASSIC, C.TWOS, (2, 2, 2, 2, 2)).extra_yahtzees == 0
    filled_rule = RuleSet(yahtzee_bonus_condition=BonusCondition.BOX_FILLED)
    assert options(column(filled_rule, yahtzee=0), (2,) * 5, filled_rule)["twos"] == 110
    assert options(column(NONE, yahtzee=50), (2,) * 5, NONE)["twos"] == 10
    # The first Yahtzee, placed in the Yahtzee box, earns no bonus.
    assert options(Column(), (2,) * 5)["yahtzee"] == 50


def test_bonus_value_setting_and_multiple_bonuses_total():
    rules = RuleSet(yahtzee_bonus_value=50)
    col = column(rules, yahtzee=50)
    col = col.fill(rules, C.TWOS, (2,) * 5).fill(rules, C.THREES, (3,) * 5)
    assert col.extra_yahtzees == 2
    assert col.total(rules) == 50 + 10 + 15 + 2 * 50


class TestForcedJoker:
    def test_face_box_open_must_be_used(self):
        col = column(yahtzee=50)
        assert options(col, (4,) * 5) == {"fours": 120}

    def test_face_box_filled_any_lower_box_at_full_value(self):
        col = column(yahtzee=0, fours=8)
        assert options(col, (4,) * 5) == {
            "three_of_a_kind": 20,
            "four_of_a_kind": 20,
            "full_house": 25,
            "small_straight": 30,
            "large_straight": 40,
            "chance": 20,
        }

    def test_only_upper_boxes_left_takes_a_zero(self):
        lower = {c.key: 0 for c in LOWER}
        lower.update(yahtzee=50, chance=12)
        col = column(fours=8, **lower)
        assert options(col, (4,) * 5) == {
            k: 100 for k in ("ones", "twos", "threes", "fives", "sixes")
        }
        assert col.fill(CLASSIC, C.SIXES, (4,) * 5).score(C.SIXES) == 0

    def test_no_joker_while_the_yahtzee_box_is_open(self):
        col = column(fours=8)
        assert options(col, (4,) * 5)["full_house"] == 0
        assert "chance" in options(col, (4,) * 5)

    def test_refusing_a_box_explains_the_joker(self):
        col = column(yahtzee=50)
        with pytest.raises(IllegalActionError, match="joker rule"):
            col.fill(CLASSIC, C.CHANCE, (4,) * 5)


class TestFreeChoiceJoker:
    def test_face_box_filled_any_open_box_with_full_values(self):
        col = column(FREE, yahtzee=50, fours=12)
        opts = options(col, (4,) * 5, FREE)
        assert opts["large_straight"] == 140
        assert opts["ones"] == 100  # a 0 in an upper box is allowed too
        assert "fours" not in opts

    def test_face_box_open_scores_as_a_normal_roll_anywhere(self):
        col = column(FREE, yahtzee=50)
        opts = options(col, (4,) * 5, FREE)
        assert opts["fours"] == 120
        assert opts["full_house"] == 100  # normal roll: no full house, but the bonus stands
        assert opts["chance"] == 120


class TestNoJoker:
    def test_five_of_a_kind_is_a_normal_roll(self):
        col = column(NONE, yahtzee=50, fours=12)
        opts = options(col, (4,) * 5, NONE)
        assert opts["full_house"] == 0 and opts["large_straight"] == 0 and opts["ones"] == 0

    def test_five_of_a_kind_full_house_option(self):
        rules = NONE.replace(five_of_a_kind_is_full_house=True)
        assert options(column(rules, yahtzee=50), (4,) * 5, rules)["full_house"] == 25


class TestUpperFirst:
    rules = RuleSet(upper_first=True)

    def test_lower_boxes_unavailable_until_upper_filled(self):
        col = column(self.rules, ones=3)
        assert set(options(col, (3, 3, 3, 5, 5), self.rules)) == {
            "twos",
            "threes",
            "fours",
            "fives",
            "sixes",
        }
        with pytest.raises(IllegalActionError, match="upper-first"):
            col.fill(self.rules, C.FULL_HOUSE, (3, 3, 3, 5, 5))
        full = column(self.rules, ones=3, twos=6, threes=9, fours=12, fives=15, sixes=18)
        assert set(options(full, (3, 3, 3, 5, 5), self.rules)) == {c.key for c in LOWER}

    def test_forced_joker_with_upper_first_falls_back_to_an_upper_zero(self):
        col = column(self.rules, yahtzee=50, fours=8)
        assert set(options(col, (4,) * 5, self.rules)) == {
            "ones",
            "twos",
            "threes",
            "fives",
            "sixes",
        }


def test_filled_box_refused_and_card_unchanged():
    col = column(chance=20)
    with pytest.raises(IllegalActionError, match="already filled"):
        col.fill(CLASSIC, C.CHANCE, (1, 2, 3, 4, 5))
    assert col.score(C.CHANCE) == 20


@pytest.mark.parametrize(
    "scores, message",
    [
        ({"threes": 10}, "cannot hold"),
        ({"full_house": 20}, "cannot hold"),
        ({"sevens": 7}, "no box"),
        ({"chance": "x"}, "integer"),
        ({"yahtzee": 40}, "cannot hold"),
    ],
)
def test_impossible_cards_are_refused(scores, message):
    with pytest.raises(CardError, match=message):
        Column.from_scores(CLASSIC, scores)


def test_multi_column_totals_apply_multipliers():
    rules = find_ruleset("triple")
    card = ScoreCard.empty(rules)
    card = card.fill(rules, 0, C.CHANCE, (6, 6, 6, 6, 5))
    card = card.fill(rules, 2, C.CHANCE, (1, 1, 1, 1, 2))
    assert card.column_totals(rules) == (29, 0, 18)
    assert card.total(rules) == 29 + 3 * 6
    assert len(card.placements(rules, (1, 2, 3, 4, 5))) == 13 * 3 - 2
    with pytest.raises(IllegalActionError, match="no column 4"):
        card.fill(rules, 3, C.ONES, (1, 1, 1, 1, 1))


def test_each_column_has_its_own_yahtzee_state():
    rules = find_ruleset("triple")
    card = ScoreCard.empty(rules).fill(rules, 0, C.YAHTZEE, (5,) * 5)
    by_column = {}
    for p in card.placements(rules, (5,) * 5):
        by_column.setdefault(p.column, {})[p.category.key] = p.points
    assert by_column[0] == {"fives": 125}  # forced joker and bonus in column 1
    assert by_column[1]["yahtzee"] == 50 and by_column[1]["chance"] == 25  # no joker in column 2


def test_complete_column_total_is_sum_of_parts():
    col = Column()
    rolls = [(1,) * 5, (2,) * 5, (3,) * 5, (4,) * 5, (5,) * 5, (6,) * 5]
    for category, roll in zip(UPPER, rolls, strict=True):
        col = col.fill(CLASSIC, category, roll)
    for category in LOWER:
        col = col.fill(CLASSIC, category, (1, 2, 3, 4, 5))
    assert col.is_complete
    assert col.total(CLASSIC) == 105 + 35 + (0 + 0 + 0 + 30 + 40 + 0 + 15)
    assert col.open_boxes == () and len(CATEGORIES) == 13
