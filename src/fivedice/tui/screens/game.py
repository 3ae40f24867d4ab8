"""The game screen: dice, every score card, the turn, CPU moves at a readable pace, the coach.

The screen renders the state of the game it is given and sends every action to the service as
notation text (`roll`, `hold 1 3`, `score 2:chance`); it never changes game state itself. It
keeps the app's session of the game (`PlaySession`) up to date and asks the app, by message,
for a new game or a rematch (`NewGame`, `Rematch`).

A save that fails is a state of the screen, not a passing message: a banner says so until a
save succeeds, `t` tries again, and CPU turns try again by themselves every few seconds.
Below `MIN_SIZE` the screen says how large the window must be instead of drawing a broken
table, and the CPU waits.
"""

from __future__ import annotations

import dataclasses
import time
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.geometry import Size
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Footer, Input, RichLog, Static

from fivedice.core.actions import Roll, Score
from fivedice.core.categories import Category
from fivedice.core.errors import FivediceError
from fivedice.core.game import GameSettings, GameState, legal_actions
from fivedice.core.record import UNDO
from fivedice.i18n import LANGUAGES, _, current_language, formats, ngettext, set_language
from fivedice.service.errors import DatabaseDamagedError, SchemaTooNewError, StoreError
from fivedice.service.games import goal_table_cost, goal_total, strategy_refusal
from fivedice.service.settings import is_default_human_name, zero_score_to_confirm
from fivedice.service.solving import BuildProgress, reporting_builds
from fivedice.tui.play import PlaySession
from fivedice.tui.screens.dialogs import (
    ConfirmScreen,
    EndScreen,
    TextScreen,
    help_lines,
    rules_screen,
)
from fivedice.tui.session import Backend, GameInPlay, coach_hints, decision_loss, warm_up
from fivedice.tui.widgets.board import DiceRow, Die, FlatButton, ScoreTable
from fivedice.tui.widgets.chances_bar import ChancesBar
from fivedice.tui.widgets.move_log import (
    Entry,
    LogView,
    action_entry,
    coach_entry,
    correction_entry,
    entry_text,
    game_entry,
)
from fivedice.tui.widgets.wrapped import Row, list_separators, wrapped_rows
from fivedice.tui.wording import localize_bindings
from fivedice.wording.cells import pad_cells
from fivedice.wording.goal import (
    goal_cleared_text,
    goal_help_text,
    goal_set_text,
    goal_short_heading,
    goal_value_text,
)
from fivedice.wording.progress import build_progress_text
from fivedice.wording.reasons import (
    ESTIMATED,
    chance_text,
    difference_lines,
    why_lines,
    why_short,
)
from fivedice.wording.text import box_name, choice_text, error_text, hold_text

if TYPE_CHECKING:
    from fivedice.core.rules import RuleSet
    from fivedice.service.games import Hint

TICK = 0.05
# Cells across the side panel (dice, buttons, log) takes: dice 7 wide inside, or 5 (narrow).
WIDE_SIDE, NARROW_SIDE = 51, 36
SIDE_MOST = 90
"""The widest the side panel grows in a wide window (lines longer than this read badly)."""
WHY_LINES = 2
"""The most lines the hint's reasons take (whole items; `y` gives every one)."""
SIX_DICE_NARROW_SIDE = 43
"""The narrow side panel with six dice (always 7 wide each: 42 cells and the padding)."""
MIN_SIZE = (60, 20)
"""The smallest window (columns, rows) the game screen is drawn in; below it, it says so."""
RETRY_SECONDS = 3.0
"""How often a CPU turn tries again to save after a save failed."""
Judgement = tuple[GameState, tuple[int, ...] | None, Category | None, int | None]
"""A human decision for the coach: the state it was made in, the keep or the box (column)."""


def is_save_failure(error: Exception) -> bool:
    """Whether an error means the game could not be saved (and trying again may help), as
    opposed to an action that is refused (stale, closed, illegal)."""
    return isinstance(error, StoreError) and (
        error.retryable or isinstance(error, DatabaseDamagedError | SchemaTooNewError)
    )


def seconds_text(seconds: float) -> str:
    """Seconds with as few decimals as they need, as the language writes them ("0.7", "0,7",
    "1", "0.05")."""
    digits = next(d for d in (0, 1, 2) if abs(round(seconds, d) - seconds) < 1e-9 or d == 2)
    return formats.number(seconds, digits)


def advice_text(option: Hint, state: GameState) -> str:
    """A coach option as the player carries it out: a keep by the dice's positions and faces
    ("hold 4 5 (5 5)", as the plain mode says it), a box by its name."""
    if option.category is None and option.hold is not None and state.dice is not None:
        return hold_text(option.hold, state.dice)
    return choice_text(option.keep, option.category, option.column)


class GoalScreen(ModalScreen[str | None]):
    """Asks for the coach's goal: "300", "beat 245", "beat Ann" (empty or off: none)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, goal: str) -> None:
        super().__init__()
        self._initial = goal
        localize_bindings(self)

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(goal_help_text(), id="goal-help")  # wraps: a long sentence
            yield Input(value=self._initial, placeholder="300", id="goal-input")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip())

    def action_cancel(self) -> None:
        self.dismiss(None)


class GameScreen(Screen[None]):
    """Plays one game (or match) through the service until it is over."""

    # Footer order is importance order: what is cut off in a narrow window matters least.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("t,f5", "retry", "Try again"),
        Binding("r,space", "roll", "Roll"),
        *(Binding(str(face), f"hold_die({face})", "Hold", show=False) for face in range(1, 7)),
        Binding("h", "hint", "Hint"),
        Binding("a", "apply_hint", "Apply hint"),
        Binding("g", "goal", "Goal", show=False),
        Binding("y", "why", "Why", show=False),
        Binding("z,ctrl+z", "undo", "Undo"),
        Binding("question_mark,f1", "help", "Help"),
        Binding("q", "quit_game", "Quit"),
        Binding("c", "coach", "Coach"),
        Binding("w", "toggle_chances", "Chances", show=False),
        Binding("v", "view_card", "Cards", show=False),
        Binding("plus,equals_sign", "pace(-1)", "Faster", show=False),
        Binding("minus", "pace(1)", "Slower", show=False),
        Binding("p", "pause", "Pause", show=False),
        Binding("u,f2", "rules", "Rules"),
        Binding("l", "language", "Language"),
        Binding("n", "new_game", "New game", show=False),
        # The score table handles the arrows itself while it has the focus; from a button
        # (reached with Tab) they come here and bring the focus back to the table.
        Binding("up", "card_cursor('up')", show=False),
        Binding("down", "card_cursor('down')", show=False),
        Binding("left", "card_cursor('left')", show=False),
        Binding("right", "card_cursor('right')", show=False),
    ]

    class NewGame(Message):
        """The player leaves this game for the new-game screen."""

    class Rematch(Message):
        """The player asks for another game with the same settings."""

        def __init__(self, settings: GameSettings) -> None:
            super().__init__()
            self.settings = settings

    def __init__(self, game: GameInPlay, play: PlaySession, backend: Backend) -> None:
        """Args:
        game: the game in play (through the service: every action saved before shown).
        play: the app's session of this game (pace, coach, log), changed as the game goes.
        backend: the service, for the end screen's records and review.
        """
        super().__init__()
        self.game = game
        self.play = play
        self.backend = backend
        self._localize_bindings()
        self.paused = False
        self._last_cpu_step = 0.0
        self._seen: tuple[int, int] | None = None  # (game number, seat) last shown
        self._ended = False
        self._hint_for: GameState | None = None
        self._advice: Hint | None = None  # the coach's best option for `_hint_for`, once known
        self._goal: str | None = None  # the player's goal for the hints ("300", "beat Ann")
        self._options: list[Hint] = []  # every option of `_hint_for`, best first, once known
        self._solving: int | None = None  # percent of the coach's table solved, while solving
        self._building: BuildProgress | None = None  # a table the hint waits for, while built
        self._hint_rows: list[Row] | None = None  # the hint shown (the progress goes under it)
        self._cursor_moment: tuple[int, int, int] | None = None
        self._shown_seat: int | None = None  # the card `v` picked; None: the seat to move
        self._shown_for: tuple[int, int] | None = None  # (game, seat to move) it was picked at
        self._laid_out_for: Size | None = None  # the terminal size the table was fitted to
        self._save_error: str | None = None  # why the last save failed (None: saved)
        self._pending: tuple[str, Judgement | None] | None = None  # a human action to retry
        self._session_dirty = False  # the session (pace, coach, log...) is not saved yet
        self._too_small = False

    def _localize_bindings(self) -> None:
        """Translates the footer, which offers undo only where it may be allowed (solo and
        practice games that are saved); `z` answers everywhere, saying why not."""
        localize_bindings(self)
        service = self.game
        if service.saved and (service.practice or len(service.state.seats) == 1):
            return
        mapping = self._bindings.key_to_bindings
        for key, bindings in mapping.items():
            mapping[key] = [
                dataclasses.replace(b, show=False) if b.action == "undo" else b for b in bindings
            ]

    @property
    def state(self) -> GameState:
        return self.game.state

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield Static(id="banner")
        yield Static(id="too-small")
        with Horizontal(id="main"):
            yield ScoreTable()
            with Vertical(id="side"):
                yield Static(id="side-status")
                yield DiceRow(id="dice")
                with Horizontal(id="buttons"):
                    yield FlatButton(_("Roll"), id="roll", compact=True, variant="primary")
                    yield FlatButton(_("Hint"), id="hint-button", compact=True)
                    yield FlatButton(_("Rules"), id="rules-button", compact=True)
                    yield FlatButton(_("Help"), id="help-button", compact=True)
                yield Static(id="preview")
                yield Static(id="hint")
                yield ChancesBar(lambda: self.game.state, id="chances")
                yield LogView(lambda: self.play.move_log.lines(), id="log")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one(ScoreTable).focus()
        self.set_interval(TICK, self._tick)
        self._render_log()
        self._seen = (self.state.game_number, self.state.current_seat)
        self.refresh_view()
        rules = self.state.rules
        # Load (or solve) the coach's table now, so the first hint does not keep anyone waiting.
        self.run_worker(lambda: self._warm_up(rules), thread=True, group="warm-up")

    def _warm_up(self, rules: RuleSet) -> None:
        """Readies the coach in a worker thread, reporting a solve's progress to the screen
        (a new table takes about half a minute; the hint says how far it is)."""
        shown = -1

        def progress(done: int, total: int) -> None:
            nonlocal shown
            percent = min(100 * done // max(total, 1), 99)
            if percent != shown:  # at most a hundred updates, whatever the solver reports
                shown = percent
                self.app.call_from_thread(self._show_solve_progress, percent)

        try:
            warm_up(rules, progress)
        finally:
            self.app.call_from_thread(self._show_solve_progress, None)

    def _show_solve_progress(self, percent: int | None) -> None:
        """Keeps the waiting hint up to date while the coach's table is solved (None: done)."""
        self._solving = percent
        if not self.is_mounted:
            return
        if self._advice is None and self._hint_for is self.state:
            self.query_one("#hint", Static).update(self._thinking_text())

    def _thinking_text(self) -> Text:
        """What the hint says while the coach works: with the solve's progress, if any."""
        if self._building is not None:
            return Text(build_progress_text(self._building), style="dim")
        if self._solving is None:
            return Text(_("The coach is thinking…"), style="dim")
        return Text(
            _("Preparing the coach's table: {percent}").format(
                percent=formats.percent(self._solving / 100)
            ),
            style="dim",
        )

    # Rendering ---------------------------------------------------------------------------

    def refresh_view(self) -> None:
        """Renders the service's state: status, dice, cards, the box under the cursor."""
        state = self.state
        table = self.query_one(ScoreTable)
        self._show_banner()
        if self._check_size():
            self._show_status(state)
            return
        narrow = self._layout(state)
        six = state.rules.dice > 5  # six dice are always drawn narrow, to fit the side panel
        self.query_one(DiceRow).show(state, 5 if narrow or six else 7)
        self._place_cursor(state)
        self._show_status(state)
        roll = self.query_one("#roll", FlatButton)
        had_focus = roll.has_focus
        roll.disabled = not self._human_can_roll(state)
        if (roll.disabled and had_focus) or self.focused is None:
            # Textual would pass the focus on to the next button; once rolling is over the
            # only move left is a box, so the card gets it.
            table.focus()
        self._show_preview()
        if self._hint_for is not state:
            self.query_one("#hint", Static).update("")
            self.query_one("#hint", Static).display = False
            self._advice = None
            self._options = []
        advice = self._advice
        self.query_one(DiceRow).suggest(advice.hold if advice is not None else None)
        seen = (state.game_number, state.current_seat)
        if seen != self._seen and not state.is_match_over:
            if self._seen is not None and seen[0] != self._seen[0]:
                self._add_log(game_entry(state.game_number, state.settings.match_length))
            self._seen = seen
        if state.is_match_over and not self._ended:
            self._ended = True
            self.set_timer(0.3, self._show_end)

    def _check_size(self) -> bool:
        """Shows "make the window larger" instead of the game when it does not fit; True then."""
        width, height = self.app.size
        too_small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        message = self.query_one("#too-small", Static)
        if too_small:
            message.update(
                _(
                    "Make the window at least {width}×{height} to play (it is {now} now)."
                    " The game waits; q quits."
                ).format(width=MIN_SIZE[0], height=MIN_SIZE[1], now=f"{width}×{height}")
            )
        message.display = too_small
        self.query_one("#main").display = not too_small
        if too_small != self._too_small:
            self.refresh_bindings()
        self._too_small = too_small
        self._laid_out_for = None if too_small else self._laid_out_for
        return too_small

    def _layout(self, state: GameState) -> bool:
        """Fits the score table to the screen; True when the dice are drawn narrow for it.

        The least compact table that fits wins; narrow dice are used only when they let a
        less compact table fit.
        """
        table = self.query_one(ScoreTable)
        if self._shown_for != (state.game_number, state.current_seat):
            self._shown_seat = None  # a new turn shows the card of the seat to move
        shown = state.current_seat if self._shown_seat is None else self._shown_seat
        width, height = self._laid_out_for = self.app.size
        # A card taller than the window (Maxi Yatzy at 24 rows) first shows the upper sums
        # in one row, then moves the status line into the side panel, over the dice.
        room = height - 2
        table.merge_upper = table.rows_needed(state) > room
        tall = table.rows_needed(state, merge=True) > room
        self.set_class(table.merge_upper and tall, "tall")
        if table.merge_upper and tall:
            room += 1
        scrollbar = 1 if table.rows_needed(state, table.merge_upper) > room else 0
        room = width - WIDE_SIDE - scrollbar
        level = table.best_level(state, shown, room)
        six = state.rules.dice > 5
        self.set_class(six, "six")
        narrow_room = width - (SIX_DICE_NARROW_SIDE if six else NARROW_SIDE) - scrollbar
        narrow_level = table.best_level(state, shown, narrow_room)
        fits = table.needed_width(state, shown, level) <= room
        narrow = narrow_level < level or (
            not fits and table.needed_width(state, shown, narrow_level) <= narrow_room
        )
        self.set_class(narrow, "narrow")
        table.show(state, shown, narrow_level if narrow else level)
        # The side panel takes what the card leaves (the coach's lines wrap less in a wide
        # window), at least its own width.
        least = (SIX_DICE_NARROW_SIDE if six else NARROW_SIDE) if narrow else WIDE_SIDE
        needed = table.needed_width(state, shown, narrow_level if narrow else level) + scrollbar
        self.query_one("#side").styles.width = max(least, min(width - needed - 1, SIDE_MOST))
        return narrow

    def on_resize(self) -> None:
        # Only a new terminal size needs another layout (rebuilding the table while the
        # first one is laid out would leave its columns unmeasured). The log wraps its lines
        # again by itself (`LogView`).
        if self.app.size != self._laid_out_for:
            self.call_after_refresh(self.refresh_view)

    def action_toggle_chances(self) -> None:
        """Switches the winning-chances bar off or on."""
        on = self.query_one(ChancesBar).toggle()
        self.notify(_("Winning chances: on") if on else _("Winning chances: off"), timeout=2)

    def action_view_card(self) -> None:
        """Shows the next seat's card in full (when the table is too narrow for every card)."""
        state = self.state
        table = self.query_one(ScoreTable)
        if table.level == 0:
            self.notify(_("Every card is shown in full."), timeout=2)
            return
        shown = (table.shown_seat + 1) % len(state.seats)
        self._shown_seat = None if shown == state.current_seat else shown
        self._shown_for = (state.game_number, state.current_seat)
        self.refresh_view()
        self.notify(_("Card shown in full: {name}").format(name=state.seats[shown].name), timeout=2)

    def _show_status(self, state: GameState) -> None:
        """The status line, at the top, or over the dice when the card needs every row."""
        tall = self.has_class("tall")
        self.query_one("#status", Static).update(self._status_text(state, 0 if tall else None))
        side = self.query_one("#side-status", Static)
        side.update(self._status_text(state, 200) if tall else "")

    def _status_text(self, state: GameState, room: int | None = None) -> Text:
        """The header: whose turn, the round, the rolls left, then the app's state in
        brackets; in a narrow window the same in fewer words, so it is never cut (the turn
        and the rolls first)."""
        service = self.game
        if state.is_match_over:
            return Text(_("The game is over."), style="bold")
        seat = state.seats[state.current_seat]
        # Saved rolls (Maxi Yatzy) add to the turn's own, and the status says how many.
        saved = state.rolls_saved(state.current_seat)
        rolls = state.rules.rolls_per_turn + saved
        left = ngettext(
            "{left} of {rolls} roll left",
            "{left} of {rolls} rolls left",
            rolls,
        ).format(left=state.rolls_left, rolls=rolls)
        if saved:
            left += " " + _("({count} saved)").format(count=saved)
        turn = (
            _("Your turn")
            if is_default_human_name(seat.name)
            else _("Turn: {name}").format(name=seat.name)
        )
        round_text = _("round {turn}/{turns}").format(
            turn=state.turn_number, turns=state.rules.turns
        )
        game = ""
        if state.settings.match_length > 1:
            game = _("game {number}/{count}").format(
                number=state.game_number, count=state.settings.match_length
            )
        extras = []
        if service.practice:
            extras.append(_("practice"))
        if not service.saved:
            extras.append(_("not saved"))
        pace = ""
        if any(s.is_cpu for s in state.seats):
            pace = _("CPU {seconds} s").format(seconds=seconds_text(self.play.pace))
            if self.paused:
                extras.append(_("paused"))
            elif self._save_error is not None and service.is_cpu_turn:
                extras.append(_("waiting for the save"))
        if self.play.coach_mode:
            extras.append(_("coach on"))
        if room is None:
            room = max(self.app.size.width - 2, 20)
        short_round = f"{state.turn_number}/{state.rules.turns}"
        # From the fullest to the shortest: the pace goes first, then the words around the
        # figures; the turn, the rolls left and the bracketed states stay.
        for parts, shown_extras in (
            ([game, turn, round_text, left], [*extras[:2], pace, *extras[2:]]),
            ([game, turn, round_text, left], extras),
            ([game, turn, short_round, left], extras),
            ([turn, short_round, left], extras),
        ):
            text = Text(" · ".join(p for p in parts if p), style="bold")
            shown = [e for e in shown_extras if e]
            if shown:
                text.append("  [" + ", ".join(shown) + "]", style="dim")
            if text.cell_len <= room:
                break
        return text

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """`t` (try again) is offered only while a save has failed; while the window is too
        small for the game only `q` works (keys typed blind must not roll or score)."""
        if self._too_small and action != "quit_game":
            return False
        if action == "retry":
            return self._save_error is not None
        if action == "apply_hint":
            return self._advice is not None
        return True

    def _show_banner(self) -> None:
        """The save failure, in plain sight until a save succeeds."""
        self.refresh_bindings()
        banner = self.query_one("#banner", Static)
        banner.display = self._save_error is not None
        if self._save_error is None:
            return
        if self.game.is_cpu_turn:
            advice = _("The CPU tries again by itself; t tries now.")
        else:
            advice = _("Press t to try again.")
        banner.update(
            Text(
                _("Not saved: {reason}").format(reason=self._save_error)
                + "\n"
                + _("Nothing is lost: the game waits until saving works.")
                + " "
                + advice,
                style="bold",
            )
        )

    def _place_cursor(self, state: GameState) -> None:
        """Keeps the cursor on an open box of the seat to move, the best one after a roll."""
        table = self.query_one(ScoreTable)
        if state.is_match_over:
            return
        coordinate = table.cursor_coordinate
        target = table.target_at(coordinate.row, coordinate.column)
        placements = state.placements()
        keys = {(p.column, p.category) for p in placements}
        moment = (state.game_number, state.current_seat, state.turn.rolls_used)
        fresh_roll = moment != self._cursor_moment
        self._cursor_moment = moment
        if (
            not fresh_roll
            and target is not None
            and target.seat == state.current_seat
            and (target.column, target.category) in keys
        ):
            return
        if placements:
            best = max(placements, key=lambda p: p.points)
            cell = table.cell_of(state.current_seat, best.column, best.category)
        else:
            column_card = state.cards[state.current_seat].columns[0]
            first = column_card.open_boxes[0] if column_card.open_boxes else Category.ONES
            cell = table.cell_of(state.current_seat, 0, first)
        if cell is not None:  # None: another seat's card is shown in full
            table.move_cursor(row=cell[0], column=cell[1])

    def _show_preview(self) -> None:
        """Says what the box under the cursor would score now, or why it cannot."""
        state = self.state
        table = self.query_one(ScoreTable)
        coordinate = table.cursor_coordinate
        target = table.target_at(coordinate.row, coordinate.column)
        preview = self.query_one("#preview", Static)
        if state.is_match_over:
            preview.update("")
            return
        if target is None:
            preview.update(Text(_("Choose a box with the arrow keys."), style="dim"))
            return
        name = box_name(target.category)
        column = state.cards[target.seat].columns[target.column]
        score = column.score(target.category)
        if score is not None:
            preview.update(_("{box}: filled with {points}.").format(box=name, points=score))
            return
        if target.seat != state.current_seat or state.dice is None:
            preview.update(_("{box}: open.").format(box=name))
            return
        for placement in state.placements():
            if (placement.column, placement.category) == (target.column, target.category):
                notes = []
                if placement.upper_bonus:
                    notes.append(_("upper bonus +{points}").format(points=placement.upper_bonus))
                if placement.yahtzee_bonus:
                    notes.append(
                        _("Yahtzee bonus +{points}").format(points=placement.yahtzee_bonus)
                    )
                if placement.joker:
                    notes.append(_("joker"))
                if self._human_turn(state):
                    text = ngettext(
                        "{box}: {points} point. Enter scores it.",
                        "{box}: {points} points. Enter scores it.",
                        placement.points,
                    )
                else:
                    text = ngettext(
                        "{box}: {points} point.", "{box}: {points} points.", placement.points
                    )
                text = text.format(box=name, points=placement.points)
                if notes:
                    text += " (" + ", ".join(notes) + ")"
                preview.update(Text(text, style="green"))
                return
        preview.update(Text(_("{box}: not allowed for these dice.").format(box=name), style="red"))

    # The move log ---------------------------------------------------------------------------

    def _add_log(self, entry: Entry) -> Entry:
        """Adds an entry to the app's move log and shows it."""
        self.play.move_log.append(entry)
        text = entry_text(entry)
        if text is not None:
            self.query_one("#log", RichLog).write(text)
        self._session_dirty = True
        return entry

    def _render_log(self) -> None:
        """Shows the whole log again (in the current language, or with an entry inserted)."""
        self.query_one("#log", LogView).rewrite()

    def _save_session(self) -> None:
        """Saves the session (pace, coach, language, log) with the game; a failure shows the
        banner like any failed save."""
        self._session_dirty = True
        try:
            self.game.save_session(self.play.data())
        except StoreError as error:
            self._save_error = error_text(error)
            return
        self._session_dirty = False
        if self._pending is None:
            self._save_error = None

    # Acting through the service -------------------------------------------------------------

    def _human_turn(self, state: GameState) -> bool:
        return not state.is_match_over and not self.game.is_cpu_turn

    def _human_can_roll(self, state: GameState) -> bool:
        return self._human_turn(state) and Roll() in legal_actions(state)

    def act(self, action: str, judge: Judgement | None = None) -> bool:
        """Sends an action to the service, saves the session, and only then shows the
        outcome; False when refused or not saved (a failed save shows the banner and keeps
        the action for `t`).

        `judge` is the decision for the coach to value once the action is saved.
        """
        before = self.state
        try:
            self.game.act(action)
        except FivediceError as error:
            if is_save_failure(error):
                self._pending = (action, judge)
                self._save_error = error_text(error)
                self.refresh_view()
                return False
            self.notify(error_text(error), severity="warning", timeout=4)
            return False
        self._pending = None
        if action == UNDO:
            entry = self._add_log(self._undo_entry(before))
        else:
            entry = self._add_log(action_entry(before, action, self.state))
        if judge is not None:
            self._coach_judge(*judge, entry)
        self._save_session()
        self.refresh_view()
        return True

    def _undo_entry(self, before: GameState) -> Entry:
        """The log's correction: what was taken back (the log keeps what happened)."""
        undone = next(
            (
                e
                for e in reversed(self.play.move_log.entries)
                if e.get("kind") in ("roll", "hold", "release", "score")
            ),
            None,
        )
        name = before.seats[before.current_seat].name
        self._forget_verdict(undone)
        return correction_entry(name, undone)

    def _forget_verdict(self, undone: Entry | None) -> None:
        """Takes a taken-back decision out of the coach's total (its verdict stays logged)."""
        entries = self.play.move_log.entries
        position = next((i for i, e in enumerate(entries) if e is undone), None)
        if position is None or position + 1 >= len(entries):
            return
        verdict = entries[position + 1]
        if verdict.get("kind") == "coach" and isinstance(verdict.get("loss"), int | float):
            play = self.play
            play.coach_loss = max(play.coach_loss - float(verdict["loss"]), 0.0)
            play.coach_decisions = max(play.coach_decisions - 1, 0)

    def action_undo(self) -> None:
        """Takes back the last action, when the service allows it (otherwise says why)."""
        if not self.game.saved:
            self.notify(_("Undo needs a saved game."), severity="warning", timeout=4)
            return
        self.act(UNDO)

    def _tick(self) -> None:
        """Lets a CPU seat take one action when the pace allows and nothing is open on top.

        After a failed save it tries again every `RETRY_SECONDS`, so the game goes on by
        itself once saving works again.
        """
        service = self.game
        if self.paused or self.app.screen is not self or self._too_small:
            return
        if not service.is_cpu_turn:
            return
        now = time.monotonic()
        pace = self.play.pace
        if self._save_error is not None:
            pace = max(pace, RETRY_SECONDS)
        if now - self._last_cpu_step < pace:
            return
        self._last_cpu_step = now
        self._cpu_step()

    def _cpu_step(self) -> None:
        service = self.game
        before = service.state
        try:
            action = service.cpu_step()
        except FivediceError as error:
            if is_save_failure(error):
                self._save_error = error_text(error)
                self.refresh_view()
                return
            # A CPU bug (or a game moved on elsewhere) must not freeze the table.
            self.paused = True
            self.notify(error_text(error), severity="error")
            self.refresh_view()
            return
        self._pending = None
        self._add_log(action_entry(before, str(action), service.state))
        self._save_session()
        self.refresh_view()

    def action_retry(self) -> None:
        """Tries the failed save again: the human action, the CPU's step, or the session."""
        if self._save_error is None:
            self.notify(_("Everything is saved."), timeout=2)
            return
        if self._pending is not None:
            action, judge = self._pending
            if self.state is (judge[0] if judge else self.state):
                self.act(action, judge)
                return
            self._pending = None
        if self.game.is_cpu_turn:
            self._last_cpu_step = time.monotonic()
            self._cpu_step()
            return
        self._save_session()
        self.refresh_view()

    def action_roll(self) -> None:
        state = self.state
        if not self._human_turn(state):
            return
        judge = None
        if state.dice is not None and state.rolls_left > 0:
            judge = (state, state.turn.kept_values, None, None)
        self.act("roll", judge)

    def action_hold_die(self, position: int) -> None:
        state = self.state
        if not self._human_turn(state):
            return
        if position > len(state.turn.held):
            return  # no such die under these rules (die 6 with five dice)
        held = state.dice is not None and state.turn.held[position - 1]
        self.act(f"{'release' if held else 'hold'} {position}")

    def on_die_clicked(self, message: Die.Clicked) -> None:
        self.action_hold_die(message.position)

    def on_button_pressed(self, event: FlatButton.Pressed) -> None:
        actions = {
            "roll": self.action_roll,
            "hint-button": self.action_hint,
            "rules-button": self.action_rules,
            "help-button": self.action_help,
        }
        handler = actions.get(event.button.id or "")
        if handler is not None:
            handler()

    def on_data_table_cell_highlighted(self, _event: DataTable.CellHighlighted) -> None:
        self._show_preview()

    def on_data_table_cell_selected(self, event: DataTable.CellSelected) -> None:
        """Enter (or a click on the chosen cell) scores the box, asking first for a 0."""
        state = self.state
        if not self._human_turn(state):
            return
        table = self.query_one(ScoreTable)
        target = table.target_at(event.coordinate.row, event.coordinate.column)
        if target is None or target.seat != state.current_seat:
            return
        if state.dice is None:
            self.notify(_("Roll first: a turn starts with a roll."), timeout=3)
            return
        action = Score(target.category, target.column)
        if action not in legal_actions(state):
            self._show_preview()
            return
        column = "" if state.rules.columns == 1 else f"{target.column + 1}:"
        text = f"score {column}{target.category.key}"  # as typed: the column named if several

        def score(confirmed: bool | None) -> None:
            if confirmed and self.state is state:
                self.act(text, (state, None, target.category, target.column))

        if zero_score_to_confirm(state, action) is not None:
            box = box_name(target.category)
            if state.rules.columns > 1:  # which of the boxes of that name, as the log says
                box = f"{box} ({target.column + 1})"
            question = _("Scratch {box}: score 0 there?").format(box=box)
            self.app.push_screen(ConfirmScreen(question), score)
        else:
            score(True)

    def action_card_cursor(self, direction: str) -> None:
        """Focuses the score table and moves its cursor (arrows pressed on a button)."""
        table = self.query_one(ScoreTable)
        table.focus()
        getattr(table, f"action_cursor_{direction}")()

    def action_language(self) -> None:
        """Switches to the next language and re-renders this screen in it (for the session)."""
        codes = list(LANGUAGES)
        code = set_language(codes[(codes.index(current_language()) + 1) % len(codes)])
        self.retranslate()
        self._save_session()
        self.refresh_view()
        self.notify(LANGUAGES[code], timeout=2)

    def retranslate(self) -> None:
        """Renders every text of the screen again in the current language, the move log
        included; the coach's ranking is dropped (ask again)."""
        self._localize_bindings()
        self.refresh_bindings()
        for button_id, label in (
            ("roll", _("Roll")),
            ("hint-button", _("Hint")),
            ("rules-button", _("Rules")),
            ("help-button", _("Help")),
        ):
            button = self.query_one(f"#{button_id}", FlatButton)
            button.label = label
            button.refresh(layout=True)  # a new label does not resize the button by itself
        self._hint_for = None
        self._render_log()
        # The bar draws its figures only when asked: in the new language's number style now.
        self.query_one(ChancesBar).refresh()
        self.refresh_view()

    def action_pace(self, step: int) -> None:
        self.play.change_pace(step)
        self._save_session()
        self.refresh_view()

    def action_pause(self) -> None:
        self.paused = not self.paused
        self.refresh_view()

    def action_rules(self) -> None:
        self.app.push_screen(rules_screen(self.state))

    def action_help(self) -> None:
        self.app.push_screen(TextScreen(_("Keys"), help_lines(self.state.rules.dice)))

    def action_new_game(self) -> None:
        """Asks before leaving a game in progress for the new-game screen."""
        if self.state.is_match_over:
            self.post_message(self.NewGame())
            return
        if self.game.saved:
            question = _(
                "Leave this game for a new one? It stays saved: resume it from the new-game screen."
            )
        else:
            question = _("Leave this game for a new one? It is not saved and will be lost.")

        def leave(confirmed: bool | None) -> None:
            if confirmed:
                self.post_message(self.NewGame())

        self.app.push_screen(ConfirmScreen(question), leave)

    def action_quit_game(self) -> None:
        self.app.exit()

    # The coach ---------------------------------------------------------------------------

    def action_coach(self) -> None:
        play = self.play
        refusal = strategy_refusal(self.state.rules)
        if refusal is not None and not play.coach_mode:
            self.notify(error_text(refusal), severity="warning", timeout=4)
            return
        play.coach_mode = not play.coach_mode
        self.notify(_("Coach mode on.") if play.coach_mode else _("Coach mode off."), timeout=2)
        self._save_session()
        self.refresh_view()

    def action_hint(self) -> None:
        state = self.state
        hint = self.query_one("#hint", Static)
        if not self._human_turn(state) or state.dice is None:
            self.notify(_("The coach advises once your dice are rolled."), timeout=3)
            return
        hint.display = True
        hint.update(self._thinking_text())
        self._hint_for = state
        self.run_worker(lambda: self._hint_worker(state), thread=True, group="hint", exclusive=True)

    def action_goal(self) -> None:
        """Asks for a goal ("300", "beat 245", "beat Ann"; empty: none); the hints then rank
        the options by their chance of reaching it."""

        def chosen(goal: str | None) -> None:
            if goal is None:
                return
            if goal.strip().casefold() in ("", "off", "none"):
                self._goal = None
                self.notify(goal_cleared_text(), timeout=4)
                return
            try:
                total = goal_total(self.state, goal)
            except FivediceError as error:
                self.notify(error_text(error), severity="error", timeout=6)
                return
            self._goal = goal
            self.notify(goal_set_text(total), timeout=4)

        self.app.push_screen(GoalScreen(self._goal or ""), chosen)

    def _hint_worker(self, state: GameState) -> None:
        """The hint, in a worker thread; a table it waits for (new rules, a goal table:
        minutes) shows its progress in the coach panel, and while a goal table is built the
        normal advice is shown above the progress."""
        shown = 0.0

        def listen(progress: BuildProgress) -> None:
            nonlocal shown
            if progress.fraction < 1.0 and time.monotonic() - shown < 0.5:
                return
            shown = time.monotonic()
            self.app.call_from_thread(self._show_build_progress, state, progress)

        goal = self._goal
        try:
            with reporting_builds(listen):
                if goal is not None and goal_table_cost(state.rules) is not None:
                    self.app.call_from_thread(self._show_hint, state, coach_hints(state, True))
                options = coach_hints(state, explain=goal is None, goal=goal)
        except Exception as error:  # the coach failing must not end the game
            self.app.call_from_thread(self._show_hint_error, state, error_text(error))
            return
        finally:
            self.app.call_from_thread(self._show_build_progress, state, None)
        self.app.call_from_thread(self._show_hint, state, options)

    def _show_build_progress(self, state: GameState, progress: BuildProgress | None) -> None:
        """The progress of a table the hint waits for, under the advice shown (if any)."""
        self._building = progress
        if self._hint_for is not state or not self.is_mounted:
            return
        hint = self.query_one("#hint", Static)
        if self._advice is None or self._hint_rows is None:
            hint.update(self._thinking_text())
        elif progress is not None:
            building = Row.of(build_progress_text(progress), style="dim")
            hint.update(wrapped_rows(hint, [*self._hint_rows, building]))

    def _show_hint_error(self, state: GameState, message: str) -> None:
        if self._hint_for is state:
            self.query_one("#hint", Static).update(Text(message, style="red"))

    def _show_hint(self, state: GameState, options: list[Hint]) -> None:
        if self._hint_for is not state or self.state is not state:
            return
        hint = self.query_one("#hint", Static)
        if not options:
            hint.update(_("The coach is not available for these rules."))
            return
        if options[0].goal is not None:
            self._show_goal_hint(state, options)
            return
        estimate = any(option.estimate for option in options)
        title = (
            _("Coach: estimated points from here (not exact)")
            if estimate
            else _("Coach: expected points from here")
        )
        # One row per option: the value, what it costs against the best, then the choice,
        # which wraps under itself (never under the figures, so no figure reads as another
        # option); the reasons (best against the next) wrap between their items, and `y`
        # gives them at length.
        rows = [Row.of(title, style="bold")]
        for index, option in enumerate(options[:4]):
            loss = _("best") if index == 0 else "−" + formats.number(option.loss, 2)
            if index and round(option.loss, 2) == 0:  # as good as the best: not "−0.00"
                loss = _("tie")
            exact = pad_cells(formats.number(option.value, 1), 6, ">")
            value = "≈" + formats.number(option.value) if estimate else exact
            prefix = f"{value} {pad_cells(loss, 6, '>')}  "
            rows.append(Row.of(advice_text(option, state), prefix, "green" if index == 0 else ""))
        why = why_short(state.rules, options)
        if why is not None:
            rows.append(Row.of(why, style="dim", separators=list_separators(), lines=WHY_LINES))
        hint.update(wrapped_rows(hint, rows))
        self._hint_rows = rows
        self._advice = options[0]
        self._options = options
        self.refresh_bindings()
        self.refresh_view()

    def _show_goal_hint(self, state: GameState, options: list[Hint]) -> None:
        """The options for the goal, each with its chance of reaching it."""
        rows = [Row.of(goal_short_heading(options[0].goal or 0), style="bold")]
        for index, option in enumerate(options[:4]):
            chance = pad_cells(goal_value_text(option.value), 5, ">")
            style = "green" if index == 0 else ""
            rows.append(Row.of(advice_text(option, state), f"{chance}  ", style))
        hint = self.query_one("#hint", Static)
        hint.update(wrapped_rows(hint, rows))
        self._hint_rows = rows
        self._advice = options[0]
        self._options = []  # (the reasons `y` gives are those of points, not of a goal)
        self.refresh_bindings()
        self.refresh_view()

    def action_why(self) -> None:
        """The coach's reasons at length in the hint's place: what the best option gains and
        loses against the next one, box by box, then its chances this turn."""
        state, options = self.state, self._options
        if self._hint_for is not state or self._advice is None or len(options) < 2:
            self.notify(_("Ask the coach first (h): the reasons are the hint's."), timeout=3)
            return
        best, other = options[0], options[1]
        differences = difference_lines(state.rules, best, other)
        if best.parts is None or not differences:
            lines = why_lines(state.rules, options)
            if lines:
                rows = [Row.of(line, separators=list_separators()) for line in lines]
                hint = self.query_one("#hint", Static)
                hint.update(wrapped_rows(hint, rows))
            return
        title = _("{better} rather than {other}:").format(
            better=advice_text(best, state), other=advice_text(other, state)
        )
        if best.estimate:  # several columns: the split of an estimate
            title = _(ESTIMATED).format(text=title)
        rows = [Row.of(title, style="bold")]
        rows.extend(Row.of(line.lstrip(), "  ") for line in differences)
        chances = chance_text(state.rules, best)
        if chances is not None:
            rows.append(Row.of(chances, style="dim", separators=list_separators()))
        hint = self.query_one("#hint", Static)
        hint.update(wrapped_rows(hint, rows))

    def action_apply_hint(self) -> None:
        """Does what the coach's best option says: holds its dice (releasing the others),
        or puts the cursor on its box, for Enter to score."""
        state, advice = self.state, self._advice
        if advice is None or self._hint_for is not state or not self._human_turn(state):
            return
        if advice.category is not None:
            cell = self.query_one(ScoreTable).cell_of(
                state.current_seat, advice.column or 0, advice.category
            )
            if cell is not None:
                self.query_one(ScoreTable).move_cursor(row=cell[0], column=cell[1])
                self.query_one(ScoreTable).focus()
            return
        wanted = set(advice.hold or ())
        held = {p for p, h in enumerate(state.turn.held, start=1) if h}
        release = sorted(held - wanted)
        hold = sorted(wanted - held)
        if release and not self.act("release " + " ".join(map(str, release))):
            return
        if hold:
            self.act("hold " + " ".join(map(str, hold)))

    def _coach_judge(
        self,
        state: GameState,
        keep: tuple[int, ...] | None,
        category: Category | None,
        column: int | None,
        anchor: Entry,
    ) -> None:
        """In coach mode, works out in the background what a human decision cost; the verdict
        goes right after `anchor`, the log entry of the decision, whatever came since.

        `column` (0-based) is the column of a scored box. With several columns the costs are
        the expert CPU's estimates, and the coach says so.
        """
        play = self.play
        if not play.coach_mode or state.dice is None:
            return
        play.coach_decisions += 1
        if not state.rules.is_single_column:
            play.coach_estimated = True

        def judge() -> None:
            try:
                options = coach_hints(state)
            except Exception:  # no verdict rather than a crash
                return
            if not options:
                return
            loss = decision_loss(options, keep, category, column)
            if loss is not None:
                self.app.call_from_thread(self._report_loss, loss, options[0], anchor)

        self.run_worker(judge, thread=True)

    def _report_loss(self, loss: float, best: Hint, anchor: Entry) -> None:
        self.play.coach_loss += loss
        verdict = coach_entry(loss, best.keep, best.category, best.column, best.estimate)
        log = self.play.move_log
        if log.entries and log.entries[-1] is anchor:
            self._add_log(verdict)
        else:
            log.insert_after(anchor, verdict)
            self._render_log()
        self._save_session()
        if self._save_error is not None:
            self.refresh_view()

    # The end -----------------------------------------------------------------------------

    def _show_end(self) -> None:
        play = self.play
        loss = play.coach_loss if play.coach_decisions else None
        screen = EndScreen(
            self.state,
            loss,
            backend=self.backend,
            game_id=self.game.game_id,
            estimate=play.coach_estimated,
        )
        self.app.push_screen(screen, self._after_end)

    def _after_end(self, choice: str | None) -> None:
        if choice == "rematch":
            self.post_message(self.Rematch(self.state.settings))
        elif choice == "new":
            self.post_message(self.NewGame())
        else:
            self.app.exit()
