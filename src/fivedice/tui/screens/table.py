"""The score keeper's screen: real dice are typed in, the app keeps every player's card.

Digits type the dice the player to move rolled (the fifth sends them); the list beside the
card then shows every box they may go in with its points, and arrows and Enter pick one (a
box the dice give 0 is asked about first). `p` enters points without dice, `u` takes back
the last entry (and says what it took back), `r` and `h` ask the coach about the dice typed
with so many rolls left (back to 0 for each new player). After each box a line says what was
scored. Every entry goes to the service as action notation (`dice 3 3 3 5 5`,
`score full_house`, `score chance 22`, `undo`); the screen keeps no game state of its own.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Footer, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from fivedice.core.errors import FivediceError
from fivedice.core.game import GameState
from fivedice.i18n import _
from fivedice.service.errors import StoreError
from fivedice.service.settings import zero_score_to_confirm
from fivedice.service.table import entry_between
from fivedice.tui.screens.dialogs import ConfirmScreen
from fivedice.tui.session import TableGame
from fivedice.tui.widgets.wrapped import Row, list_separators, wrapped_rows
from fivedice.tui.wording import localize_bindings
from fivedice.wording.cells import pad_cells
from fivedice.wording.errors import not_saved_lines, refused_text, undo_refused_text
from fivedice.wording.table import scored_text, taken_back_text, zero_question
from fivedice.wording.text import (
    box_name,
    coach_lines,
    error_text,
    placement_notes,
    ranking_lines,
    total_label,
    upper_bonus_label,
    upper_total_label,
    why_short,
    yahtzee_bonus_label,
)

DICE = 5
"""The classic number of dice typed in (a rule set says its own: `RuleSet.dice`)."""


COACH_OPTIONS, COACH_OPTIONS_SHORT, TALL = 5, 3, 24
"""The coach's options shown in a window of TALL rows or more, and in a shorter one."""
SIDE_WIDTH = (28, 42)
"""The narrowest and widest the entry and the list of boxes are drawn (columns)."""


class PointsScreen(ModalScreen[str | None]):
    """Asks for a box and its points, e.g. ``full_house 25`` (Escape: cancel)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self) -> None:
        super().__init__()
        localize_bindings(self)

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(_("Points without dice: the box and the points, e.g. full_house 25"))
            yield Input(placeholder="full_house 25", id="points-input")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class TableScreen(Screen[None]):
    """Keeps the score of one game at the table until it is over (or the players quit)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(face), f"type_die({face})", "Dice", show=False) for face in range(1, 7)),
        Binding("backspace", "erase", "Clear", show=False),
        Binding("escape", "clear", "Clear", show=False),
        Binding("p", "points", "Points"),
        Binding("u", "undo", "Undo"),
        Binding("r", "rolls_left", "Rolls left"),
        Binding("h", "hint", "Hint"),
        Binding("question_mark,f1", "help", "Help"),
        Binding("q", "quit_table", "Quit"),
    ]

    def __init__(self, game: TableGame) -> None:
        """Args:
        game: the game at the table, through the service."""
        super().__init__()
        localize_bindings(self)
        self.game = game
        self.typed: list[int] = []
        self.rolls_left = 0
        self.message = ""
        self._helping = False  # the keys' help is shown in the coach's place

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Once the game is over only help and quit are offered (nothing can be entered)."""
        if self.state.is_match_over:
            return action in ("help", "quit_table")
        return True

    @property
    def state(self) -> GameState:
        return self.game.state

    @property
    def _dice(self) -> int:
        """How many dice a turn types in under the rules of this game."""
        return self.state.rules.dice

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            yield DataTable(id="card", cursor_type="none", zebra_stripes=True)
            with Vertical(id="side"):
                yield Static(id="entry")
                yield OptionList(id="boxes")
                yield Static(id="message")
                yield Static(id="coach")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self._show_coach("")
        self.refresh_view()

    def on_resize(self) -> None:
        self._fit_side()

    def _fit_side(self) -> None:
        """Gives the card the room its columns need and the entry and boxes the rest, between
        SIDE_WIDTH bounds: at 60 columns three cards still show their scores; with many
        players the card scrolls sideways and the entry stays in sight."""
        table = self.query_one("#card", DataTable)
        needed = 1 + sum(column.get_render_width(table) for column in table.columns.values())
        low, high = SIDE_WIDTH
        self.query_one("#side").styles.width = max(low, min(high, self.app.size.width - needed))

    # Rendering ---------------------------------------------------------------------------

    def refresh_view(self) -> None:
        """Renders the service's state: status line, every card, the entry, the boxes."""
        state = self.state
        self._show_status(state)
        self._show_card(state)
        self.call_after_refresh(self._fit_side)  # once the card has measured its columns
        self._show_entry(state)
        boxes = self.query_one("#boxes", OptionList)
        boxes.clear_options()
        best = 0
        if not state.is_match_over:
            multi = state.rules.columns > 1
            placements = state.placements()
            # The highlight starts on the box worth most, so that Enter never writes the
            # dice in the first box of the list for 0 by accident.
            best = max(range(len(placements)), key=lambda i: placements[i].points, default=0)
            for p in placements:
                key = f"{p.column + 1}:{p.category.key}" if multi else p.category.key
                name = box_name(p.category) + (f" ({p.column + 1})" if multi else "")
                notes = placement_notes(p)
                label = f"{pad_cells(name, 16)} {p.points:>4}" + (
                    f"  {', '.join(notes)}" if notes else ""
                )
                boxes.add_option(Option(label, id=key))
        boxes.display = boxes.option_count > 0
        if boxes.option_count:
            boxes.highlighted = best
            boxes.focus()
        self.query_one("#message", Static).update(self.message)

    def _show_status(self, state: GameState) -> None:
        scores = "  ".join(
            f"{seat.name} {total}" for seat, total in zip(state.seats, state.totals, strict=True)
        )
        if state.is_match_over:
            head = _("At the table · game over")
        else:
            head = _("At the table · {name}'s turn {turn} of {turns}").format(
                name=state.seats[state.current_seat].name,
                turn=state.turn_number,
                turns=state.rules.turns,
            )
        self.query_one("#status", Static).update(Text(f"{head} · {scores}"))

    def _show_card(self, state: GameState) -> None:
        table = self.query_one("#card", DataTable)
        table.clear(columns=True)
        table.add_column("", key="box")
        multi = state.rules.columns > 1
        for seat_index, seat in enumerate(state.seats):
            for column in range(state.rules.columns):
                label = seat.name[:10] + (f" {column + 1}" if multi else "")
                style = "bold reverse" if seat_index == state.current_seat else "bold"
                if state.is_match_over:
                    style = "bold"
                table.add_column(Text(label, style=style), key=f"{seat_index}.{column}")
        columns = [column for card in state.cards for column in card.columns]
        boxes = columns[0].boxes
        last_upper = [box for box in boxes if box.is_upper][-1]
        for category in boxes:
            cells = [
                "·" if column.score(category) is None else str(column.score(category))
                for column in columns
            ]
            table.add_row(box_name(category), *cells)
            if category == last_upper:
                table.add_row(upper_total_label(), *(str(c.upper_total) for c in columns))
                table.add_row(
                    upper_bonus_label(), *(str(c.upper_bonus(state.rules)) for c in columns)
                )
        table.add_row(
            yahtzee_bonus_label(), *(str(c.yahtzee_bonus_total(state.rules)) for c in columns)
        )
        totals = [str(total) for card in state.cards for total in card.column_totals(state.rules)]
        table.add_row(Text(total_label(), style="bold"), *totals)

    def _show_entry(self, state: GameState) -> None:
        entry = self.query_one("#entry", Static)
        if state.is_match_over:
            entry.update("\n".join([_("Game over."), *ranking_lines(state)]))
            return
        name = state.seats[state.current_seat].name
        if self.typed:
            dice = " ".join(map(str, self.typed)) + " _" * (self._dice - len(self.typed))
        elif state.dice is not None:
            dice = " ".join(map(str, state.dice))
        else:
            dice = "_ _ _ _ _"
        if state.dice is not None and not self.typed:  # the dice are in: a box is asked
            heading = _("{name}, pick a box").format(name=name)
        else:
            heading = _("{name}, type the dice you rolled:").format(name=name)
        lines = [
            heading,
            Text(f"  {dice}", style="bold").plain,
            _("Rolls left for the coach: {count}").format(count=self.rolls_left),
        ]
        entry.update("\n".join(lines))

    # Sending entries ---------------------------------------------------------------------

    def send(self, action: str) -> bool:
        """Sends an entry to the service; a refusal is shown and changes nothing. A box
        scored is said in a line ("Ann: 25 in Full house (total 25)")."""
        before = self.state
        try:
            self.game.act(action)
        except FivediceError as error:
            if isinstance(error, StoreError) and error.retryable:  # locked, server away
                self.message = "\n".join(not_saved_lines(error_text(error)))
            else:
                self.message = refused_text(error_text(error))
            self.refresh_view()
            return False
        entry = entry_between(before, self.state)
        self.message = scored_text(entry) if entry is not None and entry.category else ""
        self._new_turn_resets(before)
        self._show_coach("")
        self.refresh_view()
        if self.state.is_match_over:
            self.query_one("#boxes", OptionList).display = False
            self.refresh_bindings()
        return True

    def action_type_die(self, face: int) -> None:
        if self.state.is_match_over:
            return
        if len(self.typed) >= self._dice:
            self.typed = []
        self.typed.append(face)
        if len(self.typed) == self._dice:
            dice = " ".join(map(str, self.typed))
            self.typed = []
            self.send(f"dice {dice}")
            return
        self._show_entry(self.state)

    def action_erase(self) -> None:
        if self.typed:
            self.typed.pop()
            self._show_entry(self.state)

    def action_clear(self) -> None:
        if self._helping and not self.typed:  # Escape closes the help first
            self._show_coach("")
            return
        self.typed = []
        self._show_entry(self.state)

    def _new_turn_resets(self, before: GameState) -> None:
        """The coach's rolls left belong to one player's turn: back to 0 when the turn
        changes hands (a score, or an undo that goes back to another turn)."""
        after = self.state
        turn = (after.game_number, after.current_seat, after.turn_number)
        if turn != (before.game_number, before.current_seat, before.turn_number):
            self.rolls_left = 0

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is None:
            return
        action = f"score {event.option.id}"
        state = self.state
        scratch = zero_score_to_confirm(state, action)
        if scratch is None:
            self.send(action)
            return

        def answered(confirmed: bool | None) -> None:
            if confirmed and self.state is state:
                # Sent once this screen is on top again: a card redrawn under the dialog
                # drew its box names blank.
                self.call_after_refresh(self.send, action)

        column = scratch.column if state.rules.columns > 1 else None
        self.app.push_screen(ConfirmScreen(zero_question(scratch.category, column)), answered)

    def action_points(self) -> None:
        if self.state.is_match_over:
            return

        def entered(text: str | None) -> None:
            if text:
                self.send(f"score {text}")

        self.app.push_screen(PointsScreen(), entered)

    def action_undo(self) -> None:
        before = self.state
        try:
            self.game.undo()
        except FivediceError as error:
            self.message = undo_refused_text(error_text(error))
        else:
            self.message = taken_back_text(entry_between(self.state, before))
            self._new_turn_resets(before)
        self.typed = []
        self.refresh_view()

    def action_rolls_left(self) -> None:
        self.rolls_left = (self.rolls_left + 1) % self.state.rules.rolls_per_turn
        self._show_entry(self.state)

    def action_hint(self) -> None:
        state = self.state
        if state.is_match_over:
            return
        dice = tuple(sorted(self.typed)) if len(self.typed) == DICE else None
        self._show_coach(_("The coach is thinking…"))
        rolls = self.rolls_left
        # (as many options as the window has rows for beside the list of boxes)
        limit = COACH_OPTIONS if self.app.size.height >= TALL else COACH_OPTIONS_SHORT
        self.run_worker(lambda: self._hint_worker(dice, rolls, limit), thread=True, group="hint")

    def _hint_worker(self, dice: tuple[int, ...] | None, rolls: int, limit: int) -> None:
        try:
            options = self.game.hint(dice, rolls)
            why = why_short(self.state.rules, options)
            lines = [*coach_lines(options, limit=limit, compact=True), *([why] if why else [])]
        except FivediceError as error:
            lines = [_("No advice: {reason}").format(reason=error_text(error))]
        self.app.call_from_thread(self._show_coach, "\n".join(lines))

    def _show_coach(self, text: str, separators: tuple[str, ...] | None = None) -> None:
        """Shows the coach's lines (wrapped between whole words and items) in the side
        panel; the list of boxes gives up rows for them, so all fits the window. The help,
        if open, closes."""
        self._helping = False
        coach = self.query_one("#coach", Static)
        breaks = list_separators() if separators is None else separators
        rows = [Row.of(line, separators=breaks) for line in text.splitlines()]
        coach.update(wrapped_rows(coach, rows))
        coach.display = bool(text)
        self.set_class(bool(text), "coached")

    def action_help(self) -> None:
        """Opens the keys' help in the coach's place; `?` again or Escape closes it."""
        if self._helping:
            self._show_coach("")
            return
        self._show_coach(
            "\n".join(
                [
                    _("1-6: type the dice (the fifth enters them); Backspace, Esc: correct"),
                    _("arrows, Enter: score a box; p: points without dice; u: undo"),
                    _("r: rolls left for the coach; h: the coach; q: quit (the game is saved)"),
                    _("? or Esc: close this help"),
                ]
            ),
            (_("; "),),
        )
        self._helping = True

    def action_quit_table(self) -> None:
        self.app.exit()
