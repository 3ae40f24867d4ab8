"""The tutorial in plain mode (`fivedice tutorial --plain`): one line in, lines out.

A menu lists the lessons with their progress; a lesson says what to do, shows the dice and
the card as text, and answers each action line with what happened or why the lesson wants
something else. Built from the plain game's pieces (`LineReader`, `parse_command`) and the
shared wording of `fivedice.wording.text`; progress goes through the service.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TextIO

from fivedice.core.errors import N_, FivediceError
from fivedice.core.rules import RuleSet
from fivedice.i18n import _
from fivedice.plain.game import (
    MAX_COMMAND,
    MAX_LINE,
    QUIT_WORDS,
    LineReader,
    ask_line,
    clean_line,
    parse_command,
    show_lines,
    too_long_text,
    write_lines,
)
from fivedice.service.errors import StoreError
from fivedice.service.games import GameService
from fivedice.service.tutorial import (
    LESSONS,
    Lesson,
    NextMove,
    TutorialRun,
    instruction,
    next_move,
)
from fivedice.service.tutorial.progress import (
    LessonProgress,
    lesson_state,
    lessons_done,
    next_lesson,
    pick_lesson,
)
from fivedice.wording.errors import refused_text
from fivedice.wording.lessons import (
    MoveWords,
    lesson_mark,
    lesson_move_text,
    lesson_state_label,
    lessons_done_text,
)
from fivedice.wording.plain import dice_summary, turn_summary
from fivedice.wording.text import error_text


def progress_lines(progress: Mapping[str, LessonProgress]) -> list[str]:
    """The lessons, numbered, each with its state, and how many are done."""
    lines = []
    for number, lesson in enumerate(LESSONS, start=1):
        state = lesson_state(progress, lesson)
        lines.append(
            f"{lesson_mark(state)} {number}. {_(lesson.title)} ({lesson_state_label(state)})"
        )
    lines.append(lessons_done_text(lessons_done(progress), len(LESSONS)))
    return lines


TYPE_HOLD = N_("Type hold {positions}, then roll.")
TYPE_RELEASE = N_("Type release {positions}.")
TYPE_ROLL = N_("Type roll.")
TYPE_SCORE = N_("Type score {key} ({box}, {points}).")


COMMANDS = MoveWords(TYPE_HOLD, TYPE_RELEASE, TYPE_SCORE, TYPE_ROLL)
"""A lesson's move as the commands of plain mode: `hold 1 2`, `roll`, `score full_house`."""


def move_command_text(move: NextMove | None) -> str:
    """The step's move as the commands of plain mode ("" when there is no move to make)."""
    return lesson_move_text(move, COMMANDS)


def help_lines() -> list[str]:
    return [
        _("Type what the lesson asks: roll, hold 1 3 5, release 2, score full_house."),
        _(
            "Also: show (the card), hint (what to do), skip (leave the lesson, marked"
            " skipped), restart (play it again), menu (back to the lessons), quit."
        ),
    ]


@dataclass
class PlainTutorial:
    """The tutorial on text streams."""

    service: GameService
    rules: RuleSet
    reader: LineReader
    stdout: TextIO
    seed: int | None = None

    def say(self, *lines: str) -> None:
        write_lines(self.stdout, *lines)

    def ask(self, prompt: str) -> str | None:
        line = ask_line(self.stdout, self.reader, prompt)
        if line is LineReader.TOO_LONG or (line is not None and len(line.strip()) > MAX_COMMAND):
            self.say(too_long_text(MAX_LINE if line is LineReader.TOO_LONG else MAX_COMMAND))
            return ""
        if line is None:
            return None
        text = clean_line(line)
        if text is None:
            self.say(_("That line has characters no command uses."))
            return ""
        return text

    def progress(self) -> dict[str, LessonProgress]:
        try:
            return self.service.tutorial_progress()
        except StoreError as error:
            self.say(_("The progress could not be read: {reason}").format(reason=error_text(error)))
            return {}

    def run(self, first: str | None = None) -> int:
        """The menu, then lessons, until the player quits or the input ends."""
        self.say(_("Learn by playing: short lessons, then a game with the coach."))
        if first is not None:
            lesson = pick_lesson(first)
            if lesson is None:
                self.say(_("There is no lesson {name!r}.").format(name=first))
            elif not self.play(lesson):
                return self.goodbye()
        while True:
            progress = self.progress()
            self.say("", *progress_lines(progress))
            suggested = next_lesson(progress)
            answer = self.ask(
                _("Lesson number (Enter: {number}), or quit: ").format(
                    number=LESSONS.index(suggested) + 1
                )
            )
            if answer is None or answer.casefold() in QUIT_WORDS:
                return self.goodbye()
            lesson = suggested if not answer else pick_lesson(answer)
            if lesson is None:
                self.say(_("There is no lesson {name!r}.").format(name=answer))
                continue
            if not self.play(lesson):
                return self.goodbye()

    def goodbye(self) -> int:
        self.say(_("Goodbye. Your progress is saved."))
        return 0

    def play(self, lesson: Lesson) -> bool:
        """Plays one lesson; False when the player quits or the input ends."""
        run = self.service.tutorial_start(lesson.key, self.rules, seed=self.seed)
        self.say("", f"== {_(lesson.title)} ==", _(lesson.summary), *help_lines())
        show, last_step, turn = True, -1, None
        while not run.finished:
            state = run.state
            now = (state.game_number, state.current_seat, state.turn_number)
            # Terse, as the plain mode's game: the turn and what the dice score; the card on
            # `show`.
            if show and now != turn:
                self.say("", *turn_summary(state))
            elif show:
                self.say(*dice_summary(state))
            turn = now
            said = (
                [instruction(run), move_command_text(next_move(run))]
                if run.step_index != last_step
                else []
            )
            if show:
                said.append(self.service.tutorial_coach_line(run))
            self.say(*(line for line in said if line))
            last_step = run.step_index
            line = self.ask("> ")
            if line is None:
                return False
            command = line.casefold()
            if not command:
                show = False
                continue
            if command in QUIT_WORDS:
                return False
            if command in ("menu", "m"):
                return True
            if command in ("help", "?"):
                self.say(*help_lines())
                show = False
                continue
            if command == "hint":
                coach = self.service.tutorial_coach_line(run)
                self.say(
                    *([coach] if coach else [instruction(run), move_command_text(next_move(run))])
                )
                show = False
                continue
            if command in ("show", "v"):  # the card, as the plain mode's game shows it
                self.say(*show_lines(run.state))
                show = False
                continue
            if command == "skip":
                self.service.tutorial_skip(lesson.key)
                self.say(_("Lesson skipped."))
                return True
            if command == "restart":
                run = self.service.tutorial_start(lesson.key, self.rules, seed=self.seed)
                self.say(_("From the start."))
                show, last_step, turn = True, -1, None
                continue
            run, show = self.act(run, line)
        self.say(_("Lesson done: {title}.").format(title=_(lesson.title)))
        return True

    def act(self, run: TutorialRun, line: str) -> tuple[TutorialRun, bool]:
        """Sends one action; returns the run and whether the position changed."""
        try:
            action = parse_command(line)
            after = self.service.tutorial_act(run, action)
        except FivediceError as error:
            self.say(refused_text(error_text(error)))
            return run, False
        feedback = after.feedback
        if feedback is not None:
            self.say(*(line for line in feedback.lines if line))
        applied = bool(feedback and feedback.applied)
        if not applied:  # what to type instead, with this mode's commands
            self.say(*(line for line in [move_command_text(next_move(after))] if line))
        return after, applied


def run_plain_tutorial(
    service: GameService,
    rules: RuleSet,
    *,
    stdin: TextIO,
    stdout: TextIO,
    lesson: str | None = None,
    seed: int | None = None,
) -> int:
    """Runs the plain tutorial; returns the exit status (0 when the input ends cleanly)."""
    return PlainTutorial(service, rules, LineReader(stdin), stdout, seed).run(lesson)
