"""The tutorial's expected actions, worked out from each step's data."""

from __future__ import annotations

from collections import Counter

from fivedice.core import Hold, Roll, Score
from fivedice.service.tutorial import StepKind, TutorialRun
from fivedice.service.tutorial.engine import _expected


def expected_action(run: TutorialRun):
    """The action the current step asks for, worked out from the step's data."""
    step = run.step
    state = run.state
    if step.kind is StepKind.ROLL:
        return Roll()
    if step.kind is StepKind.KEEP:
        wanted = Counter(step.keep) - Counter(state.turn.kept_values)
        for position, (value, held) in enumerate(
            zip(state.dice, state.turn.held, strict=True), start=1
        ):
            if not held and wanted[value] > 0:
                return Hold((position,))
        return Roll()
    return Score(_expected(step, state.placements())[0].category)
