"""Practice in the terminal app: one position at a time from the player's own costliest
decisions (and classic teaching positions), answered with a game's keys.

The screen shows where the position comes from, the question, the card (open boxes with what
the dice would score there), the dice under their positions (press 1-5, or click one, to
mark it held) and the boxes the dice may go in. `r` (or Roll) answers "keep the held dice and
roll the others"; Enter on a box answers "score it". The verdict then shows the best move, the
points the answer loses and the options ranked, and when the position comes back; `n` (or
Enter) shows the next one. Every answer goes through the service (`drill_answer`, in the
notation of a game: `hold 1 3`, `roll`, `score chance`); the dice marked held are the
screen's own selection, not a game's state. Nothing here is saved as a game.
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

from fivedice.core.card import ScoreCard
from fivedice.core.errors import FivediceError
from fivedice.i18n import _
from fivedice.service.drills import Drill, DrillResult
from fivedice.tui.session import Backend
from fivedice.tui.wording import binding_texts, localize_bindings
from fivedice.wording.cells import pad_cells
from fivedice.wording.drills import (
    all_mastered_text,
    drill_heading,
    exact_note,
    practice_title,
    progress_text,
    question_text,
    result_lines,
)
from fivedice.wording.text import box_name, card_lines, error_text, refused_text


class PracticeScreen(Screen[None]):
    """Drills: a position, the player's answer with a game's keys, then the verdict (styles:
    app.tcss)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "die(1)", "Hold", key_display="1-5"),
        Binding("r", "roll", "Roll"),
        Binding("enter", "score", "Score", key_display="⏎", priority=True),
        Binding("2", "die(2)", show=False),
        Binding("3", "die(3)", show=False),
        Binding("4", "die(4)", show=False),
        Binding("5", "die(5)", show=False),
        Binding("n", "next", "Next position"),
        Binding("escape,b", "close", "Back"),
    ]

    AUTO_FOCUS = "#practice-boxes"

    def __init__(self, backend: Backend) -> None:
        super().__init__()
        self.backend = backend
        self.drill: Drill | None = None
        self.result: DrillResult | None = None
        self.held: set[int] = set()
        self.refusal = ""
        localize_bindings(self, binding_texts() | {"Next position": _("Next position")})

    def compose(self) -> ComposeResult:
        yield Static(Text(practice_title(), style="bold"), id="status")
        with Horizontal(id="practice-main"):
            with VerticalScroll(id="practice-card"):
                yield Static("", id="practice-card-text")
            with Vertical(id="practice-side"):
                with VerticalScroll(id="practice-talk"):
                    yield Static("", id="practice-text")
                with Horizontal(id="practice-positions"):
                    for position in range(1, 6):
                        yield Static(str(position), classes="position")
                with Horizontal(id="practice-dice"):
                    for position in range(1, 6):
                        yield Button("·", id=f"die-{position}", compact=True)
                    yield Button(_("Roll"), id="roll", compact=True, variant="primary")
                yield OptionList(id="practice-boxes")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#practice-boxes", OptionList).border_title = _("Score in")
        self.next_drill()

    # What is shown ------------------------------------------------------------------------

    def next_drill(self) -> None:
        """Asks the service for the next position (not the one just answered, unless it is
        the only one left) and shows it."""
        after = self.drill.key if self.drill is not None else None
        try:
            self.drill = self.backend.lesson_service().drill_next(after=after)
        except FivediceError as error:
            self.notify(error_text(error), severity="error", timeout=8)
            self.drill = None
        self.result, self.held, self.refusal = None, set(), ""
        self.show()

    def talk(self) -> Text:
        """The words beside the dice: progress, where the position comes from, the question
        (or the verdict), and why an answer was refused."""
        text = Text()
        try:
            progress = self.backend.lesson_service().drill_progress()
        except FivediceError as error:
            text.append(error_text(error) + "\n", style="dim")
        else:
            text.append(progress_text(progress) + "\n", style="dim")
            if not progress.own and self.result is None:  # why none of the player's games
                text.append(exact_note() + "\n", style="dim")
        drill = self.drill
        if drill is None:
            text.append(all_mastered_text() + "\n" + exact_note())
            return text
        text.append(drill_heading(drill) + "\n")
        if self.result is None:
            text.append(question_text(drill.position), style="bold")
            if self.refusal:
                text.append("\n" + self.refusal, style="yellow")
            return text
        lines = result_lines(self.result)
        text.append(lines[0] + "\n", style="bold green" if self.result.right else "bold yellow")
        text.append("\n".join(lines[1:]))
        text.append("\n" + _("Press n for the next position."), style="dim")
        return text

    def show(self) -> None:
        self.query_one("#practice-text", Static).update(self.talk())
        drill = self.drill
        answering = drill is not None and self.result is None
        self.set_class(self.result is not None, "judged")  # the verdict takes the dice's room
        self.refresh_bindings()
        dice = drill.position.dice if drill is not None else None
        for position in range(1, 6):
            button = self.query_one(f"#die-{position}", Button)
            button.label = str(dice[position - 1]) if dice else "·"
            button.set_class(position in self.held, "held")
            button.disabled = not answering or drill is None or drill.position.rolls_left == 0
        self.query_one("#roll", Button).disabled = (
            not answering or drill is None or drill.position.rolls_left == 0
        )
        boxes = self.query_one("#practice-boxes", OptionList)
        boxes.clear_options()
        card_text = ""
        if drill is not None:
            state = drill.position.state()
            placements = state.placements()
            if answering:
                boxes.add_options(
                    Option(f"{pad_cells(box_name(p.category), 16)} {p.points:>4}", p.category.key)
                    for p in placements
                )
                if placements:
                    boxes.highlighted = 0
            previews = {(p.column, p.category): p.points for p in placements}
            card = ScoreCard((drill.position.column,))
            card_text = "\n".join(card_lines(drill.position.rules, card, previews))
        self.query_one("#practice-card-text", Static).update(card_text)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The footer shows only what can be done now: no holding or rolling once the
        answer is judged (Enter then shows the next position)."""
        judged = self.result is not None or self.drill is None
        return not (judged and action in ("die", "roll"))

    # What the player does -----------------------------------------------------------------

    def answer(self, text: str) -> None:
        """Sends an answer (a game's notation) to the service and shows the verdict; a bad
        answer is said, and nothing changes."""
        if self.drill is None or self.result is not None:
            return
        try:
            self.result = self.backend.lesson_service().drill_answer(self.drill.key, text)
        except FivediceError as error:
            self.refusal = refused_text(error_text(error))
        else:
            self.refusal = ""
        self.show()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        button = event.button.id or ""
        if button == "roll":
            self.action_roll()
        elif button.startswith("die-"):
            self.action_die(int(button.removeprefix("die-")))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self.answer(f"score {event.option.id}")

    def action_die(self, position: int) -> None:
        if self.drill is None or self.result is not None or self.drill.position.rolls_left == 0:
            return
        self.held ^= {position}
        self.show()

    def action_roll(self) -> None:
        if self.drill is None or self.result is not None:
            return
        held = sorted(self.held)
        self.answer("hold " + " ".join(map(str, held)) if held else "roll")

    def action_score(self) -> None:
        """Enter: the next position after a verdict; else scores the box under the list's
        cursor (on a button it presses the button)."""
        if self.result is not None:
            self.next_drill()
            return
        if isinstance(self.focused, Button):
            self.focused.press()
            return
        boxes = self.query_one("#practice-boxes", OptionList)
        if boxes.highlighted is None:
            boxes.focus()
            return
        option = boxes.get_option_at_index(boxes.highlighted)
        if option.id:
            self.answer(f"score {option.id}")

    def action_next(self) -> None:
        """The next position (a position not yet answered is left for later)."""
        self.next_drill()

    def action_close(self) -> None:
        if len(self.app.screen_stack) > 2:
            self.dismiss(None)
        else:
            self.app.exit()
