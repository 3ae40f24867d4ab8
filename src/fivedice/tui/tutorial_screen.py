"""Learn by playing in the terminal app: the lesson list with progress, and the lesson screen.

The list (`TutorialScreen`) shows each lesson with its state and buttons to play (or replay)
and skip it. A lesson (`LessonScreen`) shows what to do, the last feedback, the dice (click
one, or press 1-5, to hold or release it), a Roll button, the boxes the dice may go in with
their points, and the card. Every action goes through the service's `tutorial_*` methods;
nothing of a lesson is saved as a game.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, OptionList, Static
from textual.widgets.option_list import Option

from fivedice.core.actions import Action, Hold, Release, Roll, Score
from fivedice.core.errors import FivediceError
from fivedice.core.rules import RuleSet
from fivedice.i18n import _, ngettext
from fivedice.plain_tutorial import lesson_state, state_label
from fivedice.text import box_name, card_lines, error_text
from fivedice.tui.session import open_service
from fivedice.tui.setup_screen import SetupForm
from fivedice.tui.wording import binding_texts
from fivedice.tutorial import LESSONS, Lesson, TutorialRun, instruction

CSS = """
TutorialScreen #lessons { height: auto; }
TutorialScreen .lesson-row { height: 1; margin-bottom: 0; }
TutorialScreen .lesson-title { width: 1fr; }
TutorialScreen .lesson-row Button { margin-left: 1; min-width: 8; }
LessonScreen #lesson-main { height: 1fr; }
LessonScreen #lesson-card { width: 31; height: 100%; scrollbar-size: 1 1; }
LessonScreen #lesson-side { width: 1fr; padding-left: 1; }
LessonScreen #lesson-say { height: auto; max-height: 5; color: $accent; text-style: bold; }
LessonScreen #lesson-feedback { height: auto; max-height: 8; }
LessonScreen #lesson-dice { height: 1; margin: 1 0 0 0; }
LessonScreen #lesson-dice Button { min-width: 5; margin-right: 1; }
LessonScreen #lesson-dice Button.held { text-style: bold reverse; }
LessonScreen #lesson-boxes { height: 1fr; min-height: 3; margin-top: 1; }
"""


def _localize(screen: Screen[None]) -> None:
    # Like `wording.localize_bindings`, with the tutorial's own key descriptions too.
    texts = {**binding_texts(), "Restart": _("Restart"), "Skip": _("Skip")}
    mapping = screen._bindings.key_to_bindings
    for key, bindings in mapping.items():
        mapping[key] = [
            dataclasses.replace(b, description=texts.get(b.description, b.description))
            for b in bindings
        ]


class TutorialScreen(Screen[None]):
    """The lessons, each with its state (done, skipped, not done yet) and Play/Skip."""

    DEFAULT_CSS = CSS
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,b", "close", "Back")]

    def __init__(self, rules: RuleSet, *, seed: int | None = None) -> None:
        super().__init__()
        self.rules = rules
        self.seed = seed
        _localize(self)

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
            progress = open_service().tutorial_progress()
        except FivediceError as error:
            self.notify(error_text(error), severity="error")
            progress = {}
        box = self.query_one("#lessons", Vertical)
        box.remove_children()
        rows = []
        for number, lesson in enumerate(LESSONS, start=1):
            state = lesson_state(progress, lesson)
            mark = {"done": "✓", "skipped": "–"}.get(state, " ")
            play = _("Replay") if state == "done" else _("Play")
            rows.append(
                Horizontal(
                    Static(
                        f"{mark} {number}. {_(lesson.title)} ({state_label(state)})",
                        classes="lesson-title",
                    ),
                    Button(play, id=f"play-{lesson.key}", compact=True, variant="success"),
                    Button(_("Skip"), id=f"skip-{lesson.key}", compact=True),
                    classes="lesson-row",
                )
            )
        box.mount_all(rows)
        done = sum(1 for lesson in LESSONS if lesson_state(progress, lesson) == "done")
        self.query_one("#lessons-done", Static).update(
            ngettext(
                "{done} of {count} lesson done.", "{done} of {count} lessons done.", len(LESSONS)
            ).format(done=done, count=len(LESSONS))
        )

    def on_button_pressed(self, event: Button.Pressed) -> None:
        button = event.button.id or ""
        if button.startswith("play-"):
            self.open_lesson(button.removeprefix("play-"))
        elif button.startswith("skip-"):
            try:
                open_service().tutorial_skip(button.removeprefix("skip-"))
            except FivediceError as error:
                self.notify(error_text(error), severity="error")
            self.refresh_lessons()

    def open_lesson(self, key: str) -> None:
        """Starts (or restarts) a lesson on its own screen."""
        try:
            run = open_service().tutorial_start(key, self.rules, seed=self.seed)
        except FivediceError as error:
            self.notify(error_text(error), severity="error")
            return
        self.app.push_screen(LessonScreen(run, self.rules))

    def action_close(self) -> None:
        if len(self.app.screen_stack) > 2:
            self.dismiss(None)
        else:
            self.app.exit()


class LessonScreen(Screen[None]):
    """One lesson: what to do, what happened, the dice, the boxes and the card."""

    DEFAULT_CSS = CSS
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

    def __init__(self, run: TutorialRun, rules: RuleSet) -> None:
        super().__init__()
        self.lesson_run = run
        self.rules = rules
        _localize(self)

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
            coach = open_service().tutorial_coach_line(run)
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
                Option(f"{box_name(p.category):<16} {p.points:>4}", id=p.category.key)
                for p in state.placements()
            )
        seat = 0 if run.finished else state.current_seat
        previews = {(p.column, p.category): p.points for p in state.placements()}
        lines = card_lines(state.rules, state.cards[seat], previews)
        if len(state.seats) > 1:
            others = [
                f"{seat.name}: {total}"
                for index, (seat, total) in enumerate(zip(state.seats, state.totals, strict=True))
            ]
            lines = [*others, "", *lines]
        self.query_one("#lesson-card-text", Static).update("\n".join(lines))

    def send(self, action: Action) -> None:
        """Sends one action through the service and shows the result."""
        try:
            self.lesson_run = open_service().tutorial_act(self.lesson_run, action)
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
            self.lesson_run = open_service().tutorial_start(
                self.lesson.key, self.rules, seed=self.lesson_run.seed
            )
        except FivediceError as error:
            self.notify(error_text(error), severity="error")
        self.show()

    def action_skip(self) -> None:
        try:
            open_service().tutorial_skip(self.lesson.key)
        except FivediceError as error:
            self.notify(error_text(error), severity="error")
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)


def open_tutorial(app: object, rules: RuleSet, seed: int | None = None) -> None:
    """Opens the lesson list on top of the current screen (Back returns to it)."""
    assert isinstance(app, App)
    app.push_screen(TutorialScreen(rules, seed=seed))


class TutorialApp(App[None]):
    """`fivedice tutorial`: the lesson list as the app's first screen (Back quits)."""

    CSS_PATH = "app.tcss"  # the game app's styles (this module sits beside it)
    TITLE = "fivedice"

    def __init__(
        self, rules: RuleSet, *, lesson: str | None = None, seed: int | None = None
    ) -> None:
        super().__init__()
        self.rules = rules
        self.first_lesson = lesson
        self.seed = seed

    def on_mount(self) -> None:
        screen = TutorialScreen(self.rules, seed=self.seed)
        self.push_screen(screen)
        if self.first_lesson:
            from fivedice.plain_tutorial import pick_lesson

            lesson = pick_lesson(self.first_lesson)
            if lesson is None:
                self.notify(_("There is no lesson {name!r}.").format(name=self.first_lesson))
            else:
                screen.open_lesson(lesson.key)


def open_tutorial_for(screen: Screen[None], form: SetupForm) -> None:
    """The new-game screen's "Learn by playing": the lessons under the form's rules (or the
    reason those rules cannot be played)."""
    try:
        rules = form.rules()
    except FivediceError as error:
        screen.notify(error_text(error), severity="error", timeout=6)
        return
    open_tutorial(screen.app, rules)
