"""Every number a lesson quotes is one its page shows: played through under every preset,
each step's words quote only the dice, the card's cells (scores, previews, sums), the
rules' own numbers and the box's own score, and a step that asks for a box quotes the number
the card shows beside that box (the one the "tap the N beside Box" line names)."""

from __future__ import annotations

import re

import pytest

from fivedice.core import PRESETS, find_ruleset
from fivedice.i18n import _
from fivedice.service.tutorial import LESSONS, StepKind, attempt, next_move
from fivedice.service.tutorial import start as start_lesson
from fivedice.service.tutorial.engine import _expected
from fivedice.web.routers.tutorial import _lesson_context, tutorial_texts
from tests.support.tutorial import expected_action

TAUGHT = [lesson for lesson in LESSONS if not lesson.guided]


def numbers(text: str) -> set[int]:
    """The numbers a text quotes (a par's sign dropped)."""
    return {int(found) for found in re.findall(r"\d+", text)}


def shown(view) -> set[int]:
    """Every number on the lesson's page outside its words: dice and card."""
    found = {die["value"] for die in view["dice"]}
    for row in view["rows"]:
        for field in ("score", "preview", "value"):
            if row.get(field) is not None:
                found |= numbers(str(row[field]))
    for _label, value in view["sums"]:
        found |= numbers(value)
    return found


@pytest.mark.parametrize("preset", [p.name for p in PRESETS])
@pytest.mark.parametrize("lesson", TAUGHT, ids=lambda lesson: lesson.key)
def test_every_number_a_lesson_quotes_is_on_its_page(lesson, preset):
    run = start_lesson(lesson, find_ruleset(preset))
    rules = run.rules  # (a lesson's own: one column, three rolls)
    constants = {
        rules.upper_bonus_threshold,
        rules.upper_bonus_value,
        rules.yahtzee_bonus_value,
        rules.rolls_per_turn,
        *range(1, 7),  # faces and counts of dice: "four 6s", "2, 3, 4 and 5"
    }
    while not run.finished:
        view = _lesson_context(run, tutorial_texts(_))
        quoted = numbers(view["say"])
        allowed = shown(view) | constants
        move = next_move(run)
        if run.step.kind is StepKind.SCORE and run.state.dice is not None:
            box = _expected(run.step, run.state.placements())[0]
            allowed.add(box.box_points)  # what the box itself scores ("Sixes gives 24")
            assert move is not None and move.points in quoted, (view["say"], move.points)
            assert str(move.points) in view["how"]
        assert quoted <= allowed, (view["say"], quoted - allowed)
        run = attempt(run, expected_action(run))
