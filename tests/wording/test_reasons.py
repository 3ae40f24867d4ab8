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
    NO_EXACT_BREAKDOWN,
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


def test_several_columns_say_there_is_no_exact_breakdown() -> None:
    estimates = [Hint((6, 6), None, 100.0, estimate=True), Hint((6,), None, 90.0, estimate=True)]
    assert why_lines(CLASSIC, estimates) == [NO_EXACT_BREAKDOWN]
    assert why_text(CLASSIC, *estimates) is None
    assert why_short(CLASSIC, estimates) is None


def test_a_box_has_no_chance_line_and_a_single_option_no_reasons() -> None:
    box = Hint(None, Category.parse("chance"), 20.0, parts=BEST.parts)
    assert chance_text(CLASSIC, box) is None
    assert why_lines(CLASSIC, [box]) == []
    assert why_short(CLASSIC, [BEST]) is None
