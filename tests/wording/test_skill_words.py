"""The words of the loss per decision (review headline, statistics) in every language: each
sentence translated, none left in English, every number in it."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from fivedice.i18n import set_language
from fivedice.strategy.review import (
    GameSkill,
    Proficiency,
    SkillStats,
    SkillTrend,
)
from fivedice.wording import review as words

LANGUAGES = ("nl", "de", "fr", "es", "ja")
ENGLISH = re.compile(r"\b(decisions?|Skill|after two|points lost|optimal play|games played)\b")

EXACT = Proficiency(
    exact=True, decisions=39, optimal=31, loss=16.38, keeps=26, keep_loss=6.5, boxes=13,
    box_loss=9.88, early=18, early_loss=4.0, late=21, late_loss=12.38, longest_run=12,
)  # fmt: skip
ESTIMATE = Proficiency(exact=False, decisions=117, optimal=80, loss=70.2, keeps=78, boxes=39)
WHEN = datetime(2026, 1, 1, tzinfo=UTC)


def skill(proficiency: Proficiency, games: int) -> SkillStats:
    played = tuple(GameSkill(index, WHEN, proficiency) for index in range(games))
    trend = SkillTrend(games // 2, 0.38, 0.47) if games > 1 else None
    return SkillStats("Ann", "classic", proficiency.exact, played, proficiency, trend)


def sentences() -> list[str]:
    return [
        words.proficiency_headline(EXACT),
        words.proficiency_headline(ESTIMATE),
        words.proficiency_headline(Proficiency()),
        words.proficiency_split(EXACT),
        words.proficiency_runs(EXACT),
        words.longest_run_line(EXACT),
        words.phase_note(),
        words.trend_line(None, True),
        words.trend_line(SkillTrend(1, 0.2, 0.1), True),
        words.trend_line(SkillTrend(10, 0.38, 0.47), True),
        words.trend_line(SkillTrend(3, 0.5, 0.5), False),
        words.skill_heading(),
        *words.skill_lines(skill(EXACT, 1)),
        *words.skill_lines(skill(ESTIMATE, 20)),
        *words.skill_chart_labels(),
    ]


def test_the_english_sentences_carry_their_figures():
    headline = words.proficiency_headline(EXACT)
    assert headline == "Loss per decision: 0.42 points (39 decisions, 31 optimal)"
    assert words.proficiency_headline(ESTIMATE).startswith("Loss per decision: ≈0.60 points")
    assert "keeps 0.25" in words.proficiency_split(EXACT)
    assert "box choices 0.76" in words.proficiency_split(EXACT)
    assert words.longest_run_line(EXACT) == "Longest run of optimal decisions: 12"
    assert "(better)" in words.trend_line(SkillTrend(10, 0.38, 0.47), True)
    assert "(worse)" in words.trend_line(SkillTrend(1, 0.2, 0.1), True)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_sentence_is_translated(language):
    english = sentences()
    set_language(language)
    translated = sentences()
    for source, said in zip(english, translated, strict=True):
        assert said != source, (language, source)
        assert not ENGLISH.search(said), (language, said)
    # The figures survive the translation (decimal commas aside).
    headline = translated[0].replace(",", ".")
    assert "0.42" in headline and "39" in headline and "31" in headline
