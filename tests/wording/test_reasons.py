"""The reasons in words: the components that make the difference between two options, their
signs and order, the chances this turn, in every language."""

from __future__ import annotations

import pytest

from fivedice.core.categories import Category
from fivedice.core.rules import find_ruleset
from fivedice.i18n import LANGUAGES, set_language
from fivedice.strategy.hints import Hint
from fivedice.wording.boxes import box_name, card_label
from fivedice.wording.reasons import (
    NO_BREAKDOWN,
    chance_text,
    difference_lines,
    reason_text,
    why_lines,
    why_short,
    why_text,
)

CLASSIC = find_ruleset("classic")
KEYS = (*(box.key for box in CLASSIC.boxes), "upper_bonus", "yahtzee_bonus")


def _hint(keep: tuple[int, ...], value_of: dict[str, float], **extra: object) -> Hint:
    parts = tuple((key, value_of.get(key, 10.0)) for key in KEYS)
    return Hint(keep, None, sum(points for _, points in parts), parts=parts, **extra)  # type: ignore[arg-type]


# keep 2 3 4 against keep 6 6: straights gain, sixes and the upper bonus lose, chance barely.
BEST = _hint(
    (2, 3, 4),
    {
        "small_straight": 16.2,
        "large_straight": 14.1,
        "sixes": 7.0,
        "upper_bonus": 7.9,
        "chance": 10.02,
    },
    chances=(("small_straight", 0.52), ("large_straight", 0.31), ("chance", 0.1), ("ones", 0.02)),
)
OTHER = _hint((6, 6), {"sixes": 10.0, "upper_bonus": 10.0})


def test_reasons_are_the_largest_differences_gains_first_then_losses() -> None:
    assert BEST.reasons(OTHER) == (
        ("small_straight", pytest.approx(6.2)),
        ("large_straight", pytest.approx(4.1)),
        ("sixes", pytest.approx(-3.0)),
        ("upper_bonus", pytest.approx(-2.1)),
    )
    assert BEST.reasons(OTHER, count=2) == (
        ("small_straight", pytest.approx(6.2)),
        ("large_straight", pytest.approx(4.1)),
    )
    assert BEST.reasons(BEST) == ()  # nothing differs: nothing to say
    assert BEST.reasons(Hint((6,), None, 1.0)) == ()  # no breakdown: no reasons


def test_the_reasons_in_english_name_each_component_with_its_sign() -> None:
    text = why_text(CLASSIC, BEST, OTHER)
    assert text == (
        "keep 2 3 4 rather than keep 6 6: +6.2 in Small straight, +4.1 in Large straight;"
        " \u22123.0 in Sixes, \u22122.1 in Upper bonus"
    )
    assert "Chance" not in text  # 0.02 points: too small to be a reason
    assert why_short(CLASSIC, [BEST, OTHER]) == "Why: " + text.split(": ", 1)[1]
    assert difference_lines(CLASSIC, BEST, OTHER)[0] == "  +6.2 Small straight"
    assert chance_text(CLASSIC, BEST) == (
        "Chances this turn: Small straight 52%, Large straight 31%, Chance 10%"
    )
    assert why_lines(CLASSIC, [BEST, OTHER]) == [text, chance_text(CLASSIC, BEST)]


ENGLISH_WORDS = ("rather than", " in Small", "Chances this turn", "Why:", "Upper bonus")


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_reasons_in_every_language_leave_no_english(language: str) -> None:
    set_language(language)
    lines = [
        why_text(CLASSIC, BEST, OTHER),
        why_short(CLASSIC, [BEST, OTHER]),
        chance_text(CLASSIC, BEST),
        reason_text(CLASSIC, BEST.reasons(OTHER)),
    ]
    for line in lines:
        assert line is not None
        for words in ENGLISH_WORDS:
            assert words not in line, (language, line)
    text = lines[0] or ""
    # The largest contributions, by their names in this language, with their figures.
    for key in ("small_straight", "large_straight", "sixes"):
        assert box_name(Category.parse(key)) in text
    assert card_label("upper_bonus") in text
    assert box_name(Category.parse("chance")) not in (lines[3] or "")  # too small a reason
    assert "6" in text and "4" in text and "\u22123" in text


def test_estimates_without_any_breakdown_say_so_only_where_there_is_none() -> None:
    maxi = find_ruleset("maxi")
    estimates = [Hint((6, 6), None, 100.0, estimate=True), Hint((6,), None, 90.0, estimate=True)]
    assert why_lines(maxi, estimates) == [NO_BREAKDOWN]
    assert why_text(maxi, *estimates) is None
    assert why_short(maxi, estimates) is None
    # Several columns of solvable rules: no breakdown asked for (yet), nothing said.
    assert why_lines(TRIPLE, estimates) == []


TRIPLE = find_ruleset("triple")


def _column_hint(keep: tuple[int, ...], value_of: dict[str, float], **extra: object) -> Hint:
    keys = [f"{column}:{key}" for column in (1, 2, 3) for key in KEYS]
    parts = tuple((key, value_of.get(key, 10.0)) for key in keys)
    value = sum(points for _, points in parts)
    return Hint(keep, None, value, estimate=True, parts=parts, **extra)  # type: ignore[arg-type]


COLUMN_BEST = _column_hint(
    (6, 6, 6), {"3:yahtzee": 34.2, "1:sixes": 12.0}, chances=(("3:yahtzee", 0.09),)
)
COLUMN_OTHER = _column_hint((6, 6), {"1:sixes": 14.5})


def test_several_columns_name_the_column_and_say_the_reasons_are_estimated() -> None:
    text = why_text(TRIPLE, COLUMN_BEST, COLUMN_OTHER)
    assert text == (
        "keep 6 6 6 rather than keep 6 6: +24.2 in Yahtzee (column 3);"
        " \u22122.5 in Sixes (column 1) (estimated)"
    )
    assert why_short(TRIPLE, [COLUMN_BEST, COLUMN_OTHER]) == (
        "Why (estimated): +24.2 in Yahtzee (column 3); \u22122.5 in Sixes (column 1)"
    )
    assert chance_text(TRIPLE, COLUMN_BEST) == (
        "Chances this turn: Yahtzee (column 3) 9% (estimated)"
    )
    assert why_lines(TRIPLE, [COLUMN_BEST, COLUMN_OTHER]) == [
        text,
        chance_text(TRIPLE, COLUMN_BEST),
    ]
    assert difference_lines(TRIPLE, COLUMN_BEST, COLUMN_OTHER)[0] == " +24.2 Yahtzee (column 3)"


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_column_reasons_in_every_language_leave_no_english(language: str) -> None:
    set_language(language)
    lines = [
        why_text(TRIPLE, COLUMN_BEST, COLUMN_OTHER),
        why_short(TRIPLE, [COLUMN_BEST, COLUMN_OTHER]),
        chance_text(TRIPLE, COLUMN_BEST),
        why_lines(find_ruleset("maxi"), [Hint((6,), None, 1.0, estimate=True)])[0],
    ]
    for line in lines:
        assert line is not None
        for words in (*ENGLISH_WORDS, "(column ", "estimated", "Why (", "breakdown"):
            assert words not in line, (language, line)
    # The column's number and the box's name in this language.
    assert box_name(Category.parse("yahtzee")) in (lines[0] or "")
    assert "3" in (lines[0] or "") and "24" in (lines[0] or "")


def test_a_box_has_no_chance_line_and_a_single_option_no_reasons() -> None:
    box = Hint(None, Category.parse("chance"), 20.0, parts=BEST.parts)
    assert chance_text(CLASSIC, box) is None
    assert why_lines(CLASSIC, [box]) == []
    assert why_short(CLASSIC, [BEST]) is None


@pytest.mark.parametrize("compact", [True, False])
def test_the_coach_never_says_minus_zero_for_the_best_or_a_tie(compact: bool) -> None:
    from fivedice.wording.coach import coach_lines

    options = [
        Hint((6, 6), None, 250.0),
        Hint((6,), None, 249.97, loss=0.03),  # tied to a tenth
        Hint((), None, 245.0, loss=5.0),
    ]
    lines = coach_lines(options, compact=compact)
    assert lines[0].endswith("(best)") and lines[1].endswith("(tie)")
    assert lines[2].endswith("(\u22125.0)")
    assert not any("\u22120.0" in line for line in lines)


def test_options_apart_by_small_amounts_in_many_boxes_say_the_sum_or_a_tie() -> None:
    # 0.04 more in each of the 13 boxes: no box is a reason, the 0.5 in all is.
    spread = _hint((3, 3), {box.key: 10.04 for box in CLASSIC.boxes})
    text = why_text(CLASSIC, spread, _hint((5, 5), {}))
    assert text == "keep 3 3 rather than keep 5 5: +0.5 in all, spread thinly over many boxes"
    assert "about the same" not in text
    tied = why_text(CLASSIC, _hint((3, 3), {"sixes": 10.01}), _hint((5, 5), {}))
    assert tied == "keep 3 3 or keep 5 5: worth the same, box by box"
