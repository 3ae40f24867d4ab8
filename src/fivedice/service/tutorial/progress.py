"""Where a player stands in the lessons: each lesson's state, how many are done, which one
comes next, and the lesson a player named. Shared by every front end's lesson list.
"""

from __future__ import annotations

from collections.abc import Mapping

from fivedice.service.tutorial.lessons import LESSONS, Lesson, find_lesson
from fivedice.store.tutorial_progress import LessonProgress as LessonProgress

NEW = "new"
"""The state of a lesson neither done nor skipped (the store keeps `done` and `skipped`)."""


def lesson_state(progress: Mapping[str, LessonProgress], lesson: Lesson) -> str:
    """A lesson's state: `done`, `skipped` or `new` (stable words, not translated)."""
    found = progress.get(lesson.key)
    return found.status if found is not None else NEW


def lessons_done(progress: Mapping[str, LessonProgress]) -> int:
    """How many of the lessons are done."""
    return sum(1 for lesson in LESSONS if lesson_state(progress, lesson) == "done")


def next_lesson(progress: Mapping[str, LessonProgress]) -> Lesson:
    """The first lesson neither done nor skipped (the first lesson once none is left)."""
    return next((lesson for lesson in LESSONS if lesson.key not in progress), LESSONS[0])


def pick_lesson(text: str) -> Lesson | None:
    """The lesson a player named: its number in the list (from 1), or its key."""
    if text.isascii() and text.isdigit() and 1 <= int(text) <= len(LESSONS):
        return LESSONS[int(text) - 1]
    return find_lesson(text)
