"""The tutorial as the front ends use it: lessons started and played, progress kept.

Nothing of a lesson is saved as a game. The methods take the `owner` of the progress: ""
(the default) for the local user of the command line and terminal app, a browser session's
key for a web visitor.
"""

from __future__ import annotations

import random

from fivedice.core.actions import Action, parse_action
from fivedice.core.errors import N_
from fivedice.core.game import GameState
from fivedice.core.rules import RuleSet
from fivedice.service.cpu import cpu_next_action
from fivedice.service.errors import LessonNotFoundError
from fivedice.service.saved import SavedGames
from fivedice.service.tutorial import LESSONS, Lesson, TutorialRun, find_lesson
from fivedice.service.tutorial import engine as tutorial_engine
from fivedice.store.tutorial_progress import DONE, LOCAL, SKIPPED, LessonProgress, TutorialStore
from fivedice.strategy.hints import Hint, hints_for
from fivedice.strategy.limits import SolveNotAllowedError, SolverBusyError, waiting_at_most


def _lesson(key: str) -> Lesson:
    """The lesson with this key.

    Raises:
        LessonNotFoundError: no lesson has that key.
    """
    found = find_lesson(key)
    if found is None:
        raise LessonNotFoundError(
            N_("there is no lesson {lesson!r}; the lessons are {lessons}"),
            lesson=key,
            lessons=", ".join(item.key for item in LESSONS),
        )
    return found


class Tutorials(SavedGames):
    """The tutorial's lessons and their progress (part of `GameService`)."""

    def tutorial_progress(self, owner: str = LOCAL) -> dict[str, LessonProgress]:
        """Every lesson the owner did or skipped, by key (its own table, apart from games
        and stats)."""
        return TutorialStore(self.store).tutorial_progress(owner)

    def tutorial_start(
        self,
        lesson: str,
        rules: RuleSet | None = None,
        *,
        seed: int | None = None,
        player: str | None = None,
    ) -> TutorialRun:
        """A lesson at its first step (again, for a replay) under the rules in force.

        Raises:
            LessonNotFoundError: no lesson has that key.
        """
        found = _lesson(lesson)
        seed = random.SystemRandom().getrandbits(62) if seed is None else seed
        return tutorial_engine.start(found, rules or RuleSet(), seed=seed, player=player)

    def tutorial_act(
        self, run: TutorialRun, action: Action | str, owner: str | None = LOCAL
    ) -> TutorialRun:
        """The run after the player's action (see `fivedice.service.tutorial.attempt`); a lesson
        finished by it is recorded as done for the owner (not at all when it is None: a
        web visitor without a session).

        Raises:
            MalformedActionError: the text is not an action. StoreUnavailableError: the
            action would finish the lesson but its progress could not be saved; the caller
            keeps the run it had, so the same action can be tried again.
        """
        if isinstance(action, str):
            action = parse_action(action)
        cpu = None
        if run.lesson.guided:
            level = tutorial_engine.GUIDED_CPU_LEVEL
            player = self._cpu(
                (-1, run.seed), lambda: self.cpu_factory(level, run.seed + 1, run.rules)
            )

            def cpu(state: GameState) -> Action:
                return cpu_next_action(state, player)

        after = tutorial_engine.attempt(run, action, coach=self.tutorial_coach, cpu=cpu)
        if after.finished and not run.finished:
            if owner is not None:
                self.tutorial_mark_done(after.lesson.key, owner)
            self._drop_cpu((-1, run.seed))  # the guided game's CPU is done too
        return after

    def tutorial_mark_done(self, lesson: str, owner: str = LOCAL) -> LessonProgress:
        """Records a lesson as done for the owner."""
        return TutorialStore(self.store).mark_lesson(owner, lesson, DONE)

    def tutorial_skip(self, lesson: str, owner: str = LOCAL) -> LessonProgress:
        """Records a lesson as skipped for the owner (a lesson done stays done).

        Raises:
            LessonNotFoundError: no lesson has that key.
        """
        found = _lesson(lesson)
        return TutorialStore(self.store).mark_lesson(owner, found.key, SKIPPED)

    def tutorial_reset(self, owner: str = LOCAL) -> None:
        """Forgets the owner's tutorial progress (other owners' progress, the games and the
        statistics stay as they are)."""
        TutorialStore(self.store).reset_tutorial(owner)

    def tutorial_coach(self, state: GameState) -> list[Hint]:
        """The coach's options for the seat to move, best first (empty when it cannot say:
        no dice yet, or no strategy layer)."""
        if state.dice is None or state.is_match_over:
            return []
        table = self._coach_tables.get(state.rules) if state.rules.columns == 1 else None
        try:
            if table is None and state.rules.columns == 1:
                from fivedice.strategy.cache import load_or_solve

                # Bounded like a hint; where no table may be had (allow-list, busy) the lesson
                # goes on with the coach silent rather than failing the player's action.
                with waiting_at_most(self.solve_wait):
                    table = load_or_solve(state.rules)
                self._coach_tables[state.rules] = table
            return hints_for(state, table)
        except (ImportError, SolveNotAllowedError, SolverBusyError):
            return []

    def tutorial_coach_line(self, run: TutorialRun) -> str:
        """The coach's suggestion for the decision now in the guided game ("" otherwise)."""
        if not run.lesson.guided:
            return ""
        return tutorial_engine.coach_line(run, self.tutorial_coach)
