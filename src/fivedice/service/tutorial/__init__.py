"""Learn by playing: short lessons with scripted dice, then a guided game with the coach on.

Lessons are data (`lessons.py`); `engine.py` is a small pure engine that plays them: it
checks each action with the core (`legal_actions`, `apply`) and against what the step
expects, applies the expected action, and explains any other action instead of punishing
it. The service (`GameService.tutorial_*`) drives it and keeps the progress in its own table;
tutorial games are never saved as games, so they never reach statistics or high scores.
"""

from fivedice.service.tutorial.engine import (
    Coach,
    Feedback,
    NextMove,
    TutorialRun,
    attempt,
    instruction,
    lesson_rules,
    next_move,
    start,
)
from fivedice.service.tutorial.lessons import LESSONS, Lesson, Step, StepKind, find_lesson

__all__ = [
    "LESSONS",
    "Coach",
    "Feedback",
    "Lesson",
    "NextMove",
    "Step",
    "StepKind",
    "TutorialRun",
    "attempt",
    "find_lesson",
    "instruction",
    "lesson_rules",
    "next_move",
    "start",
]
