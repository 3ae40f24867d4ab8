"""The Texas Hold'em Yahtzee table: one person's seat against CPUs (`fivedice holdem play`).

The screen shows what the player's seat may see (`HoldemService.view`): every seat's chips,
bet and state, the player's two pocket dice, the board drawn as it comes, the pot and its
side pots, whose turn it is. Keys send actions to the service as notation (`fold`, `check`,
`call`, `bet 40`, `raise 120`, `allin`); a bet or raise asks for its amount, with the
smallest and largest allowed, and refuses one outside them before anything is sent. CPU seats
act at a readable pace, each in a worker thread (the strongest level takes a moment); the
coach (`h`) says the equity, the pot odds and what the strongest level would do. The log
says every action and how each hand ended: the hands shown and who won which pot. At the
end, `n` asks the app for another game with the same seats.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Input, RichLog, Static

from fivedice.core.errors import FivediceError
from fivedice.core.game import Seat
from fivedice.core.holdem import HoldemView
from fivedice.i18n import _
from fivedice.service.holdem import ActResult, HoldemService
from fivedice.tui.play import PlaySession, pace_index
from fivedice.tui.screens.dialogs import TextScreen
from fivedice.tui.screens.game import TICK, seconds_text
from fivedice.tui.widgets.holdem import DiceLine, SeatsTable
from fivedice.tui.wording import binding_texts, localize_bindings
from fivedice.wording.holdem import (
    action_text,
    coach_text,
    pots_text,
    result_lines,
    rules_lines,
    street_name,
)
from fivedice.wording.text import error_text

RESULT_PAUSE = 4
"""After a hand ends, the CPUs wait this many steps of the pace before the next one."""


@dataclass(frozen=True)
class HoldemTable:
    """The game the screen plays: through `service`, game `game_id`, as seat `seat`."""

    service: HoldemService
    game_id: int
    seat: int = 0


def holdem_binding_texts() -> dict[str, str]:
    """The key descriptions of the Hold'em table, in the current language."""
    return {
        **binding_texts(),
        "Fold": _("Fold"),
        "Check/Call": _("Check/Call"),
        "Bet/Raise": _("Bet/Raise"),
        "All-in": _("All-in"),
    }


def holdem_help_lines() -> list[str]:
    """The keys of the Hold'em table."""
    return [
        _("f    fold: give up the hand"),
        _("c    check (nothing to call) or call the bet (also Space)"),
        _("b    bet or raise: type the amount your bet becomes, then Enter (Esc: cancel)"),
        _("a    all-in: every chip you have"),
        _("h    the coach: your chance now, the pot odds, what the strongest CPU would do"),
        _("+ -  CPUs faster or slower"),
        _("u    the rules"),
        _("n    a new game with the same players, once the game is over"),
        _("q    quit (the game is kept: fivedice holdem play --resume)"),
    ]


class HoldemScreen(Screen[None]):
    """Plays one Hold'em game, one person's seat against CPU seats, until it is over."""

    # Footer order is importance order: what is cut off in a narrow window matters least.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f", "fold", "Fold"),
        Binding("c,space", "check_call", "Check/Call"),
        Binding("b,r", "bet", "Bet/Raise"),
        Binding("a", "all_in", "All-in"),
        Binding("h", "coach", "Coach"),
        Binding("n", "new_game", "New game"),
        Binding("u,f2", "rules", "Rules", show=False),  # (on the help page)
        Binding("question_mark,f1", "help", "Help"),
        Binding("q", "quit_game", "Quit"),
        Binding("escape", "cancel_amount", "Cancel"),
        Binding("plus,equals_sign", "pace(-1)", "Faster", show=False),
        Binding("minus", "pace(1)", "Slower", show=False),
    ]

    AUTO_FOCUS = None  # the keys are the screen's; the amount line takes the focus when open

    class Rematch(Message):
        """The player asks for another game with the same seats."""

        def __init__(self, seats: tuple[Seat, ...]) -> None:
            super().__init__()
            self.seats = seats

    def __init__(self, table: HoldemTable, pace: float = 0.7) -> None:
        super().__init__()
        self.table = table
        self.play = PlaySession(pace_index(pace))
        self.view = table.service.view(table.game_id, table.seat)
        self._busy = False  # a CPU is deciding in a worker thread
        self._next_cpu = 0.0  # when the next CPU may act (time.monotonic)
        self._hand_shown = 0
        self._ended = False
        self._asking: tuple[int, int] | None = None  # the amount range asked for, if asked
        self._coach_for: HoldemView | None = None  # the view the coach speaks of
        localize_bindings(self, holdem_binding_texts())

    # Layout and rendering ----------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="hd-status")
        with Horizontal(id="hd-dice"):
            with Vertical(id="hd-pocket-box"):
                yield Static(_("Your dice"), classes="hd-label")
                yield DiceLine(2, id="hd-pocket")
            with Vertical(id="hd-board-box"):
                yield Static(id="hd-board-label", classes="hd-label")
                yield DiceLine(5, id="hd-board")
        yield Static(id="hd-pot")
        yield SeatsTable(id="hd-seats")
        with Horizontal(id="hd-amount"):
            yield Static(id="hd-amount-label")
            yield Input(type="integer", id="hd-amount-input", compact=True, disabled=True)
        yield Static(id="hd-message")
        yield Static(id="hd-coach")
        yield RichLog(id="hd-log", wrap=True, markup=False)
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.set_interval(TICK, self._tick)
        self._next_cpu = time.monotonic() + self.pace
        self.refresh_view()

    @property
    def pace(self) -> float:
        """Seconds between two CPU actions."""
        return self.play.pace

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.view.seats]

    def refresh_view(self) -> None:
        """Renders the seat's view of the game, freshly read from the service."""
        table = self.table
        view = self.view = table.service.view(table.game_id, table.seat)
        if view.hand_number != self._hand_shown and view.winner is None:
            self._hand_shown = view.hand_number
            self._log(Text(_("Hand {number}.").format(number=view.hand_number), style="bold"))
        me = view.seats[table.seat]
        self.query_one("#hd-status", Static).update(self._status_text(view))
        pocket, board = me.pocket or (), view.board
        last = view.last_hand
        if view.winner is not None and last is not None:  # the end: the last hand stays
            pocket, board = last.shown[table.seat] or (), last.board
        self.query_one("#hd-pocket", DiceLine).show(pocket)
        self.query_one("#hd-board", DiceLine).show(board)
        self.query_one("#hd-board-label", Static).update(
            _("Board · {street}").format(street=street_name(view.street))
        )
        self.query_one("#hd-pot", Static).update(self._pot_text(view))
        self.query_one("#hd-seats", SeatsTable).show(view)
        if self._coach_for is not None and self._coach_for != view:
            self._coach_for = None
            self.query_one("#hd-coach", Static).display = False
        if view.winner is not None and not self._ended:
            self._ended = True
            self._close_amount()
            winner = _("{name} wins the game.").format(name=view.seats[view.winner].name)
            self._log(Text(winner, style="bold"))
            self._say(Text(winner + " " + _("n: a new game, q: quit."), style="bold"))
        self.refresh_bindings()

    def _status_text(self, view: HoldemView) -> Text:
        if view.winner is not None:
            return Text(_("The game is over."), style="bold")
        if view.my_turn:
            turn = _("Your turn")
        elif view.to_act is not None:
            turn = _("Turn: {name}").format(name=view.seats[view.to_act].name)
        else:
            turn = ""
        parts = [_("Hand {number}").format(number=view.hand_number), turn]
        text = Text(" · ".join(part for part in parts if part), style="bold")
        extras = [_("CPU {seconds} s").format(seconds=seconds_text(self.pace))]
        if self.table.service.commitment(self.table.game_id) is None:
            extras.append(_("practice"))
        text.append("  [" + ", ".join(extras) + "]", style="dim")
        return text

    def _pot_text(self, view: HoldemView) -> Text:
        parts = [pots_text(view)]
        if view.my_turn:
            if view.to_call:
                parts.append(_("To call {amount}").format(amount=view.to_call))
            if view.raise_range is not None:
                low, high = view.raise_range
                parts.append(
                    _("Bet to {low}–{high}").format(low=low, high=high)
                    if self._sized_word() == "bet"
                    else _("Raise to {low}–{high}").format(low=low, high=high)
                )
        return Text(" · ".join(parts), style="bold")

    def _log(self, line: str | Text) -> None:
        self.query_one("#hd-log", RichLog).write(line)

    def _say(self, message: str | Text, warning: bool = False) -> None:
        """The message line under the seats (a refusal in the warning colour)."""
        widget = self.query_one("#hd-message", Static)
        widget.update(message)
        widget.set_class(warning, "warning")

    def _tell(self, move: ActResult) -> None:
        """Logs an action and, when it ended a hand, how the hand ended."""
        if move.seat == self.table.seat:
            self._log(action_text(move.action, own=True))
        else:
            self._log(_("{name} {does}.").format(name=move.name, does=action_text(move.action)))
        if move.ended_hand is not None:
            for line in result_lines(move.ended_hand, self.names, self.table.seat, by_pot=True):
                self._log(line)
            self._next_cpu = time.monotonic() + RESULT_PAUSE * self.pace

    # CPU seats -----------------------------------------------------------------------------

    def _tick(self) -> None:
        """Lets a CPU seat act when the pace allows and nothing is open on top of the table."""
        if self._busy or self.app.screen is not self or self.view.to_act is None:
            return
        if self.view.my_turn or time.monotonic() < self._next_cpu:
            return
        self._busy = True
        self.run_worker(self._cpu_step, thread=True, group="holdem-cpu")

    def _cpu_step(self) -> None:
        """One CPU action, decided in a worker thread; the table shows it on the main one."""
        try:
            move = self.table.service.cpu_step(self.table.game_id)
        except FivediceError as error:
            self.app.call_from_thread(self._cpu_failed, error_text(error))
            return
        self.app.call_from_thread(self._cpu_moved, move)

    def _cpu_moved(self, move: ActResult | None) -> None:
        self._busy = False
        if move is not None:
            self._next_cpu = max(self._next_cpu, time.monotonic() + self.pace)
            self._tell(move)
        self.refresh_view()

    def _cpu_failed(self, message: str) -> None:
        self._busy = False
        self._next_cpu = time.monotonic() + 5.0  # a CPU bug must not spin
        self._say(message, warning=True)

    # The player's actions ------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The betting keys only on the player's turn (and not while an amount is typed);
        a bet or raise only when one is allowed; a new game once this one is over."""
        view = self.view
        if self._asking is not None:  # keys typed go to the amount; Esc closes it
            return action == "cancel_amount"
        if action == "all_in":
            return view.my_turn and "allin" in view.legal
        if action in ("fold", "check_call", "coach"):
            return view.my_turn
        if action == "bet":
            return view.my_turn and view.raise_range is not None
        if action == "cancel_amount":
            return False
        if action == "new_game":
            return view.winner is not None
        return True

    def _act(self, action: str) -> bool:
        """Sends the player's action; a refusal is said and changes nothing (False)."""
        table = self.table
        try:
            move = table.service.act(table.game_id, table.seat, action)
        except FivediceError as error:
            self._say(error_text(error), warning=True)
            return False
        self._say("")
        self._tell(move)
        self._next_cpu = max(self._next_cpu, time.monotonic() + self.pace)
        self.refresh_view()
        return True

    def action_fold(self) -> None:
        self._act("fold")

    def action_check_call(self) -> None:
        self._act("check" if "check" in self.view.legal else "call")

    def action_all_in(self) -> None:
        self._act("allin")

    def _sized_word(self) -> str:
        """ "bet" when no one has bet this round, else "raise"."""
        return "bet" if self.view.current_bet == 0 else "raise"

    def action_bet(self) -> None:
        """Opens the amount line, with the smallest and largest amount allowed."""
        if self.view.raise_range is None:
            return
        low, high = self._asking = self.view.raise_range
        label = (
            _("Bet to ({low} to {high}, Enter; Esc cancels):")
            if self._sized_word() == "bet"
            else _("Raise to ({low} to {high}, Enter; Esc cancels):")
        )
        self.query_one("#hd-amount-label", Static).update(label.format(low=low, high=high))
        self.query_one("#hd-amount").display = True
        amount = self.query_one("#hd-amount-input", Input)
        amount.disabled = False
        amount.value = str(low)
        amount.focus()
        self.refresh_bindings()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """An amount typed: refused (and said why) outside the range, else sent."""
        event.stop()
        if self._asking is None:
            return
        low, high = self._asking
        text = event.value.strip()
        if not text.isdigit() or not low <= int(text) <= high:
            self._say(
                _("The amount must be a whole number from {low} to {high} chips.").format(
                    low=low, high=high
                ),
                warning=True,
            )
            return
        if self._act(f"{self._sized_word()} {int(text)}"):
            self._close_amount()

    def action_cancel_amount(self) -> None:
        self._close_amount()
        self._say("")

    def _close_amount(self) -> None:
        self._asking = None
        self.query_one("#hd-amount").display = False
        self.query_one("#hd-amount-input", Input).disabled = True  # (no focus while hidden)
        self.refresh_bindings()

    # The coach, pages, pace ------------------------------------------------------------------

    def action_coach(self) -> None:
        """The coach's words on the player's turn (worked out in a worker thread)."""
        view = self.view
        self._coach_for = view
        coach = self.query_one("#hd-coach", Static)
        coach.update(Text(_("The coach is thinking…"), style="dim"))
        coach.display = True
        self.run_worker(lambda: self._ask_coach(view), thread=True, group="holdem-coach")

    def _ask_coach(self, view: HoldemView) -> None:
        try:
            said = coach_text(self.table.service.coach(self.table.game_id, self.table.seat))
        except FivediceError as error:
            said = error_text(error)
        self.app.call_from_thread(self._coach_says, view, said)

    def _coach_says(self, view: HoldemView, said: str) -> None:
        if self._coach_for != view:
            return  # the table moved on while the coach was thinking
        self.query_one("#hd-coach", Static).update(said)

    def action_pace(self, step: int) -> None:
        self.play.change_pace(step)
        self.refresh_view()

    def action_rules(self) -> None:
        lines = [f"• {line}" for line in rules_lines()]
        self.app.push_screen(TextScreen(_("Rules: Texas Hold'em Yahtzee"), lines))

    def action_help(self) -> None:
        self.app.push_screen(TextScreen(_("Keys"), holdem_help_lines()))

    def action_new_game(self) -> None:
        seats = tuple(Seat(seat.name, seat.cpu_level) for seat in self.view.seats)
        self.post_message(self.Rematch(seats))

    def action_quit_game(self) -> None:
        self.app.exit()
