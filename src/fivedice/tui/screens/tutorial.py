"""Learn by playing in the terminal app: the lesson list with progress, and the lesson screen.

The list (`TutorialScreen`) shows each lesson with its state and buttons to play (or replay)
and skip it. A lesson (`LessonScreen`) shows what to do, the last feedback, the dice (click
one, or press 1-5, to hold or release it), a Roll button, the boxes the dice may go in with
their points, and the card. Every action goes through the service's `tutorial_*` methods;
nothing of a lesson is saved as a game.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, OptionList, Static
from textual.widgets.option_list import Option

from fivedice.core.actions import Action, Hold, Release, Roll, Score
from fivedice.core.errors import FivediceError
from fivedice.core.rules import RuleSet
from fivedice.i18n import _
from fivedice.service.tutorial import LESSONS, Lesson, TutorialRun, instruction
from fivedice.service.tutorial.progress import lesson_state, lessons_done
from fivedice.tui.session import Backend
from fivedice.tui.wording import localize_bindings
from fivedice.wording.cells import pad_cells
from fivedice.wording.lessons import lesson_mark, lesson_state_label, lessons_done_text
from fivedice.wording.text import box_name, card_lines, error_text


class TutorialScreen(Screen[None]):
    """The lessons, each with its state (done, skipped, not done yet) and Play/Skip."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,b", "close", "Back")]

    def __init__(self, rules: RuleSet, backend: Backend, *, seed: int | None = None) -> None:
        super().__init__()
        self.rules = rules
        self.backend = backend
        self.seed = seed
        localize_bindings(self)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="page"):
            yield Static(Text(_("Learn by playing"), style="bold"), classes="title")
            yield Static(_("Short lessons with set dice, then a game with the coach."))
            yield Vertical(id="lessons")
            yield Static("", id="lessons-done")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_lessons()

    def on_screen_resume(self) -> None:
        self.refresh_lessons()

    def refresh_lessons(self) -> None:
        """Reads the progress again and rebuilds the list."""
        try:
            progress = self.backend.lesson_service().tutorial_progress()
        except FivediceError as error:
            self.notify(error_text(error), severity="error")
            progress = {}
        box = self.query_one("#lessons", Vertical)
        box.remove_children()
        rows = []
        for number, lesson in enumerate(LESSONS, start=1):
            state = lesson_state(progress, lesson)
            mark = lesson_mark(state)
            play = _("Replay") if state == "done" else _("Play")
            rows.append(
                Horizontal(
                    Static(
                        f"{mark} {number}. "
                        + _("{title} ({state})").format(
                            title=_(lesson.title), state=lesson_state_label(state)
                        ),
                        classes="lesson-title",
                    ),
                    Button(play, id=f"play-{lesson.key}", compact=True, variant="success"),
                    Button(_("Skip"), id=f"skip-{lesson.key}", compact=True),
                    classes="lesson-row",
                )
            )
        box.mount_all(rows)
        self.query_one("#lessons-done", Static).update(
            lessons_done_text(lessons_done(progress), len(LESSONS))
        )

    def on_button_pressed(self, event: Button.Pressed) -> None:
        button = event.button.id or ""
        if button.startswith("play-"):
            self.open_lesson(button.removeprefix("play-"))
        elif button.startswith("skip-"):
            try:
                self.backend.lesson_service().tutorial_skip(button.removeprefix("skip-"))
            except FivediceError as error:
                self.notify(error_text(error), severity="error")
            self.refresh_lessons()

    def open_lesson(self, key: str) -> None:
        """Starts (or restarts) a lesson on its own screen."""
        try:
            run = self.backend.lesson_service().tutorial_start(key, self.rules, seed=self.seed)
        except FivediceError as error:
            self.notify(error_text(error), severity="error")
            return
        self.app.push_screen(LessonScreen(run, self.rules, self.backend))

    def action_close(self) -> None:
        if len(self.app.screen_stack) > 2:
            self.dismiss(None)
        else:
            self.app.exit()


class LessonScreen(Screen[None]):
    """One lesson: what to do, what happened, the dice, the boxes and the card."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "roll", "Roll"),
        Binding("1", "die(1)", show=False),
        Binding("2", "die(2)", show=False),
        Binding("3", "die(3)", show=False),
        Binding("4", "die(4)", show=False),
        Binding("5", "die(5)", show=False),
        Binding("ctrl+r", "restart", "Restart"),
        Binding("k", "skip", "Skip"),
        Binding("escape,b", "close", "Back"),
    ]

    AUTO_FOCUS = "#lesson-boxes"

    def __init__(self, run: TutorialRun, rules: RuleSet, backend: Backend) -> None:
        super().__init__()
        self.lesson_run = run
        self.rules = rules
        self.backend = backend
        localize_bindings(self)

    @property
    def lesson(self) -> Lesson:
        return self.lesson_run.lesson

    def compose(self) -> ComposeResult:
        yield Static(Text(_(self.lesson.title), style="bold"), id="status")
        with Horizontal(id="lesson-main"):
            with VerticalScroll(id="lesson-card"):
                yield Static("", id="lesson-card-text")
            with Vertical(id="lesson-side"):
                yield Static("", id="lesson-say")
                yield Static("", id="lesson-feedback")
                with Horizontal(id="lesson-dice"):
                    for position in range(1, 6):
                        yield Button("·", id=f"die-{position}", compact=True)
                    yield Button(_("Roll"), id="roll", compact=True, variant="primary")
                yield OptionList(id="lesson-boxes")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#lesson-boxes", OptionList).border_title = _("Score in")
        self.show()

    def show(self) -> None:
        """Renders the run: instruction, feedback, dice, boxes and card."""
        run = self.lesson_run
        state = run.state
        if run.finished:
            said = _("Lesson done: {title}.").format(title=_(self.lesson.title))
            said += " " + _("Press Escape for the lessons.")
        else:
            said = instruction(run)
            coach = self.backend.lesson_service().tutorial_coach_line(run)
            if coach:
                said = f"{said}\n{coach}" if not run.version else coach
        self.query_one("#lesson-say", Static).update(said)
        said_lines = run.feedback.lines if run.feedback else ()
        self.query_one("#lesson-feedback", Static).update("\n".join(said_lines))
        dice = state.dice
        for position in range(1, 6):
            button = self.query_one(f"#die-{position}", Button)
            held = bool(dice) and state.turn.held[position - 1]
            button.label = str(dice[position - 1]) if dice else "·"
            button.set_class(held, "held")
            button.disabled = dice is None or run.finished
        self.query_one("#roll", Button).disabled = run.finished
        boxes = self.query_one("#lesson-boxes", OptionList)
        boxes.clear_options()
        if not run.finished and not state.seats[state.current_seat].is_cpu:
            boxes.add_options(
                Option(f"{pad_cells(box_name(p.category), 16)} {p.points:>4}", id=p.category.key)
                for p in state.placements()
            )
        seat = 0 if run.finished else state.current_seat
        previews = {(p.column, p.category): p.points for p in state.placements()}
        lines = card_lines(state.rules, state.cards[seat], previews)
        if len(state.seats) > 1:
            others = [
                _("{name}: {total}").format(name=seat.name, total=total)
                for index, (seat, total) in enumerate(zip(state.seats, state.totals, strict=True))
            ]
            lines = [*others, "", *lines]
        self.query_one("#lesson-card-text", Static).update("\n".join(lines))

    def send(self, action: Action) -> None:
        """Sends one action through the service and shows the result."""
        try:
            self.lesson_run = self.backend.lesson_service().tutorial_act(self.lesson_run, action)
        except FivediceError as error:
            self.notify(error_text(error), severity="error")
        self.show()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        button = event.button.id or ""
        if button == "roll":
            self.action_roll()
        elif button.startswith("die-"):
            self.action_die(int(button.removeprefix("die-")))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        from fivedice.core.categories import Category

        if event.option.id:
            self.send(Score(Category.parse(event.option.id)))

    def action_roll(self) -> None:
        if not self.lesson_run.finished:
            self.send(Roll())

    def action_die(self, position: int) -> None:
        state = self.lesson_run.state
        if self.lesson_run.finished or state.dice is None:
            return
        held = state.turn.held[position - 1]
        self.send(Release((position,)) if held else Hold((position,)))

    def action_restart(self) -> None:
        try:
            self.lesson_run = self.backend.lesson_service().tutorial_start(
                self.lesson.key, self.rules, seed=self.lesson_run.seed
            )
        except FivediceError as error:
            self.notify(error_text(error), severity="error")
        self.show()

    def action_skip(self) -> None:
        try:
            self.backend.lesson_service().tutorial_skip(self.lesson.key)
        except FivediceError as error:
            self.notify(error_text(error), severity="error")
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)
