"""Learn by playing in the terminal app: the lesson list with progress, and the lesson screen.

The list (`TutorialScreen`) shows each lesson with its state and buttons to play (or replay)
and skip it. A lesson (`LessonScreen`) shows what was said so far in the order it was said
(what to do now in bold), the keys that do it, the dice under their positions (click one, or
press 1-5, to hold or release it), a Roll button, the boxes the dice may go in with their
points, and the card. The footer shows the keys for holding, rolling and scoring. Every
action goes through the service's `tutorial_*` methods; nothing of a lesson is saved as a
game.
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
from fivedice.core.categories import Category
from fivedice.core.errors import N_, FivediceError
from fivedice.core.rules import RuleSet
from fivedice.i18n import _
from fivedice.service.tutorial import (
    LESSONS,
    Lesson,
    NextMove,
    TutorialRun,
    instruction,
    next_move,
)
from fivedice.service.tutorial.progress import lesson_state, lessons_done
from fivedice.tui.session import Backend
from fivedice.tui.wording import localize_bindings
from fivedice.wording.cells import pad_cells
from fivedice.wording.lessons import (
    MoveWords,
    lesson_mark,
    lesson_move_text,
    lesson_state_label,
    lessons_done_text,
)
from fivedice.wording.text import box_name, card_lines, error_text

KEYS_TO_HOLD = N_("Press {keys} to hold them, then r to roll.")
KEYS_TO_RELEASE = N_("Press {keys} to release them.")
KEY_TO_ROLL = N_("Press r to roll.")
KEYS_TO_SCORE = N_("Pick {box} ({points}) in the Score in list with ↑↓ and press Enter.")
LOG_LINES = 12
"""What was said, kept on the lesson screen (the newest last)."""
NOW, ANSWER, REFUSAL = "now", "answer", "refusal"
"""What a line on the lesson screen is: what to do (the newest one in bold, earlier ones
dimmed), the answer to a move that was made, or why a move was not made."""
STYLES = {NOW: "dim", ANSWER: "", REFUSAL: "yellow"}


KEYS = MoveWords(KEYS_TO_HOLD, KEYS_TO_RELEASE, KEYS_TO_SCORE, KEY_TO_ROLL)
"""A lesson's move with this app's keys: the dice by their positions (keys 1-5), r to roll,
the box list and Enter to score."""


def move_keys_text(move: NextMove | None) -> str:
    """The step's move with this app's keys ("" when there is no move to make)."""
    return lesson_move_text(move, KEYS)


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
        Binding("1", "die(1)", "Hold", key_display="1-5"),
        Binding("r", "roll", "Roll"),
        Binding("enter", "score", "Score", key_display="⏎", priority=True),
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
        self.said: list[tuple[str, str]] = []  # (text, kind): what was said, oldest first
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
                with VerticalScroll(id="lesson-talk"):
                    yield Static("", id="lesson-feedback")
                yield Static("", id="lesson-keys")
                with Horizontal(id="lesson-positions"):
                    for position in range(1, 6):
                        yield Static(str(position), classes="position")
                with Horizontal(id="lesson-dice"):
                    for position in range(1, 6):
                        yield Button("·", id=f"die-{position}", compact=True)
                    yield Button(_("Roll"), id="roll", compact=True, variant="primary")
                yield OptionList(id="lesson-boxes")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#lesson-boxes", OptionList).border_title = _("Score in")
        self.show()

    def now_text(self) -> str:
        """What to do now: the step's instruction (the guided game: the coach's suggestion),
        or that the lesson is done."""
        run = self.lesson_run
        if run.finished:
            return (
                _("Lesson done: {title}.").format(title=_(self.lesson.title))
                + " "
                + _("Press Escape for the lessons.")
            )
        said = instruction(run)
        coach = self.backend.lesson_service().tutorial_coach_line(run)
        if coach:
            said = f"{said}\n{coach}" if not run.version else coach
        return said

    def show(self) -> None:
        """Renders the run: what was said, what to do now, dice, boxes and card."""
        run = self.lesson_run
        state = run.state
        now = self.now_text()
        if now and now not in [text for text, kind in self.said if kind == NOW][-1:]:
            self.said.append((now, NOW))
        del self.said[:-LOG_LINES]
        last_now = max((i for i, (_t, kind) in enumerate(self.said) if kind == NOW), default=-1)
        talk = Text()
        for index, (line, kind) in enumerate(self.said):
            style = STYLES[kind] if kind != NOW or index != last_now else "bold"
            talk.append(("\n" if index else "") + line, style=style)
        self.query_one("#lesson-feedback", Static).update(talk)
        scroll = self.query_one("#lesson-talk", VerticalScroll)
        self.call_after_refresh(scroll.scroll_end, animate=False)
        keys = "" if run.finished else move_keys_text(next_move(run))
        self.query_one("#lesson-keys", Static).update(keys)
        dice = state.dice
        for position in range(1, 6):
            button = self.query_one(f"#die-{position}", Button)
            held = bool(dice) and state.turn.held[position - 1]
            button.label = str(dice[position - 1]) if dice else "·"
            button.set_class(held, "held")
            button.disabled = dice is None or run.finished
        self.query_one("#roll", Button).disabled = run.finished
        self.show_boxes()
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

    def show_boxes(self) -> None:
        """The boxes the dice may go in, with their points; the same list keeps its cursor
        (after a refused box the cursor stays where the player left it)."""
        run, state = self.lesson_run, self.lesson_run.state
        boxes = self.query_one("#lesson-boxes", OptionList)
        wanted = []
        if not run.finished and not state.seats[state.current_seat].is_cpu:
            wanted = [
                (p.category.key, f"{pad_cells(box_name(p.category), 16)} {p.points:>4}")
                for p in state.placements()
            ]
        shown = [
            (option.id, str(option.prompt))
            for option in (boxes.get_option_at_index(i) for i in range(boxes.option_count))
        ]
        if shown == wanted:
            return
        highlighted = boxes.highlighted
        kept = shown[highlighted][0] if highlighted is not None and shown else None
        boxes.clear_options()
        boxes.add_options(Option(prompt, id=key) for key, prompt in wanted)
        keys = [key for key, _prompt in wanted]
        if kept in keys:
            boxes.highlighted = keys.index(kept)

    def send(self, action: Action) -> None:
        """Sends one action through the service and shows the answer; what was said stays
        on the screen in the order it was said (a step, the answers, the next step...)."""
        before = self.lesson_run
        try:
            after = self.backend.lesson_service().tutorial_act(before, action)
        except FivediceError as error:
            self.notify(error_text(error), severity="error")
            self.show()
            return
        applied = bool(after.feedback and after.feedback.applied)
        for line in after.feedback.lines if after.feedback else ():
            self.said.append((line, ANSWER if applied else REFUSAL))
        self.lesson_run = after
        self.show()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        button = event.button.id or ""
        if button == "roll":
            self.action_roll()
        elif button.startswith("die-"):
            self.action_die(int(button.removeprefix("die-")))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self.send(Score(Category.parse(event.option.id)))

    def action_score(self) -> None:
        """Enter scores the box under the list's cursor (on a button it presses the button)."""
        if isinstance(self.focused, Button):
            self.focused.press()
            return
        boxes = self.query_one("#lesson-boxes", OptionList)
        if boxes.highlighted is None or self.lesson_run.finished:
            boxes.focus()
            return
        option = boxes.get_option_at_index(boxes.highlighted)
        if option.id:
            self.send(Score(Category.parse(option.id)))

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
        self.said = []
        self.show()

    def action_skip(self) -> None:
        try:
            self.backend.lesson_service().tutorial_skip(self.lesson.key)
        except FivediceError as error:
            self.notify(error_text(error), severity="error")
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)
