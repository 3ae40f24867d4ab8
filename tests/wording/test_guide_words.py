"""The strategy guide in words: every rule reads in every language, with no English left."""

from __future__ import annotations

import re

import pytest

from fivedice.core.categories import CATEGORIES
from fivedice.i18n import LANGUAGES, use_language
from fivedice.service.guide import guide_data
from fivedice.wording.boxes import box_name
from fivedice.wording.guide import (
    ACTION_PHRASES,
    FEATURE_LIMITS,
    GuideText,
    condition_phrase,
    guide_text,
    rule_sentence,
)
from tests.support.language import english_sentences

WORD = re.compile(r"[A-Za-z]+")


def lines_of(text: GuideText) -> list[str]:
    rules = [line.text for line in (*text.box_lines, *text.keep_lines)]
    rules += [item for line in text.box_lines for item in line.items]
    worths = [line.worth_text() for line in (*text.box_lines, *text.keep_lines)]
    heads = [text.title, text.summary, text.worth_note, text.box_heading, text.keep_heading]
    return [*heads, text.keep_intro, *rules, *[w for w in worths if w]]


def shingles(text: str, names: tuple[str, ...] = ()) -> set[tuple[str, ...]]:
    """Every run of three words (letters only, any case) of a text, box names left out (a
    box may keep its English name in a language: "Full House" in German)."""
    for name in names:
        text = text.replace(name, " · ")
    words = [w.lower() for w in WORD.findall(text)]
    return {tuple(words[i : i + 3]) for i in range(len(words) - 2)}


def every_phrase() -> list[str]:
    """Every test a rule can make and every keep, as sentences, whatever the guide holds."""
    sentences = []
    for feature, (low, high) in FEATURE_LIMITS.items():
        for lo, hi in {(low + 1, high), (low, high - 1), (low + 1, high - 1), (low + 1, low + 1)}:
            sentences.append(condition_phrase(feature, lo, hi))
    for feature in ("face_upper_open", "yahtzee_scored", "full_house_open"):
        sentences += [condition_phrase(feature, 1, 1), condition_phrase(feature, 0, 0)]
    for action in ACTION_PHRASES:
        sentences.append(rule_sentence({"action": action, "when": [["turn", 13, 13]]}))
    return sentences


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_every_rule_of_the_guide_is_translated(language):
    data = guide_data("classic")
    english = lines_of(guide_text(data, 254.59))
    english_phrases = every_phrase()
    with use_language(language):
        translated = lines_of(guide_text(data, 254.59))
        phrases = every_phrase()
        names = tuple(box_name(category) for category in CATEGORIES)
    assert len(translated) == len(english)
    left = set().union(*(shingles(line) for line in english + english_phrases))
    for line in translated + phrases:
        assert not shingles(line, names) & left, (language, line)
    for ours, theirs in zip(translated + phrases, english + english_phrases, strict=True):
        assert ours != theirs
    if language == "ja":
        assert english_sentences("\n".join(translated + phrases)) == []


def test_the_english_guide_names_its_numbers():
    data = guide_data("classic")
    text = guide_text(data, 254.59)
    assert f"{data['mean']:.1f}" in text.summary and "254.6" in text.summary
    first = data["keep"][0]
    assert text.keep_lines[0].text == rule_sentence(first)
    assert text.keep_lines[-1].text.startswith("Otherwise: keep the dice of your most common face")
    # Two rules for the boxes, the pars under the first (not numbered as rules), then the
    # keep rules: numbered 1..n as shown.
    assert text.rule_count == 2 + len(data["keep"]) + 1
    assert len(text.box_lines[0].items) == 13 and text.box_lines[0].items[0].startswith("Ones: par")
    numbers = [line.number for line in (*text.box_lines, *text.keep_lines)]
    assert numbers == list(range(1, text.rule_count + 1))
    assert "\n      Ones: par" in text.as_text() and " 2. In the upper section" in text.as_text()


def test_ranges_say_only_the_end_that_limits():
    assert condition_phrase("of_a_kind", 3, 5) == "you have 3 or more of a kind"
    assert condition_phrase("turn", 1, 6) == "it is turn 6 or earlier"
    assert condition_phrase("turn", 4, 9) == "it is turn 4 to 9"
    assert condition_phrase("upper_margin", -15, -3) == (
        "your upper section stands at −3 or worse against par"
    )
    assert condition_phrase("rolls_left", 1, 1) == "it is your last reroll"
    assert condition_phrase("large_straight_open", 0, 0) == "Large straight is filled"
