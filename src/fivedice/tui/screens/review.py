"""The review screen: every decision of a finished game against the best one, seat by seat.

Shows what the service's `review` returns, one seat at a time (Tab / → for the next seat,
Shift+Tab / ← for the one before): the points lost, the share of best decisions, the three
costliest decisions, a text chart of the expected final score against the points scored
(with several seats a second one of the chances of winning),
and every decision. The review is asked for in a worker thread (the first review of a rule
set loads its solved table).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from fivedice.core.errors import N_, FivediceError
from fivedice.i18n import _
from fivedice.tui.session import Backend
from fivedice.tui.wording import localize_bindings
from fivedice.wording.labels import level_name
from fivedice.wording.review import (
    choice_words,
    decision_line,
    exactness_note,
    points,
    review_headline,
    review_title,
    seat_title,
    text_chance_chart,
    text_chart,
)
from fivedice.wording.text import error_text

if TYPE_CHECKING:
    from fivedice.service.games import GameReview, SeatReview


class ReviewUnavailableError(FivediceError):
    """There is no saved game to review (the game was played without a database)."""


def load_review(backend: Backend, game_id: int) -> GameReview:
    """The review of a saved game, from the service (raises its errors)."""
    service = backend.open_service()
    if service is None:
        raise ReviewUnavailableError(N_("there is no database: the game was not saved"))
    review: GameReview = service.review(game_id)
    return review


class ReviewScreen(Screen[None]):
    """A finished game's review, one seat at a time."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,b", "close", "Back"),
        Binding("tab,right,n", "seat(1)", "Player"),
        Binding("shift+tab,left,p", "seat(-1)", "Player", show=False),
    ]

    def __init__(self, game_id: int, backend: Backend) -> None:
        super().__init__()
        localize_bindings(self)
        self.game_id = game_id
        self.backend = backend
        self.review: GameReview | None = None
        self.seat = 0

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="page"):
            title = _("Review of game {game}").format(game=self.game_id)
            yield Static(Text(title, style="bold"), classes="title", id="review-title")
            yield Static(_("Reviewing every decision…"), id="review-body")
        yield Footer()

    def on_mount(self) -> None:
        self._load()

    @work(thread=True, exclusive=True)
    def _load(self) -> None:
        try:
            review = load_review(self.backend, self.game_id)
        except FivediceError as error:
            message = error_text(error)
            self.app.call_from_thread(self._show_error, message)
            return
        self.app.call_from_thread(self._show, review)

    def _show_error(self, message: str) -> None:
        self.query_one("#review-body", Static).update(Text(message, style="red"))

    def _show(self, review: GameReview) -> None:
        self.review = review
        self.query_one("#review-title", Static).update(Text(review_title(review), style="bold"))
        self.rerender()

    def rerender(self) -> None:
        """Shows the current seat's review (after loading, a seat switch or a resize)."""
        if self.review is None:
            return
        body = self.query_one("#review-body", Static)
        body.update(self.seat_body(self.review, self.review.seats[self.seat]))
        self.query_one("#page", VerticalScroll).scroll_home(animate=False)

    def on_resize(self) -> None:
        self.rerender()

    def seat_body(self, review: GameReview, seat: SeatReview) -> RenderableType:
        """One seat's review as Rich renderables."""
        match = any(d.game > 1 for s in review.seats for d in s.decisions)
        count = len(review.seats)
        names = {seat.cpu_level: level_name(seat.cpu_level)} if seat.cpu_level else {}
        heading = seat_title(seat, names)
        if count > 1:
            heading += "  " + _("(player {number} of {count}; Tab: next)").format(
                number=seat.seat + 1, count=count
            )
        parts: list[RenderableType] = [
            Text(exactness_note(review), style="dim"),
            Text(""),
            Text(heading, style="bold"),
        ]
        headline, *details = review_headline(seat)
        parts += [Text(headline, style="bold"), *(Text(line) for line in details)]
        if seat.costliest:
            parts += [Text(""), Text(_("Costliest decisions:"), style="bold")]
            parts += [
                Text(f"{i}. {decision_line(d, match)}") for i, d in enumerate(seat.costliest, 1)
            ]
        if len(seat.curve) > 1:
            width = max(self.size.width - 4, 40)
            parts += [Text(""), Text.from_ansi(text_chart(seat, width, 14, color=True))]
            chances = text_chance_chart(seat, width, 11, color=True)
            if chances is not None:
                parts += [Text(""), Text.from_ansi(chances)]
        if seat.decisions:
            parts += [Text(""), self.decision_table(seat, review.exact, match)]
        return Group(*parts)

    @staticmethod
    def decision_table(seat: SeatReview, exact: bool, match: bool) -> Table:
        """Every decision of the seat: when, dice, what was chosen, the best, the points lost."""
        table = Table(title=_("Every decision:"), title_justify="left", box=None, padding=(0, 1))
        if match:
            table.add_column(_("Game"), justify="right")
        table.add_column(_("Turn"), justify="right")
        table.add_column(_("Dice"))
        table.add_column(_("Rolls left"), justify="right")
        table.add_column(_("Chosen"))
        table.add_column(_("Best option"))
        table.add_column(_("Points lost"), justify="right")
        for decision in seat.decisions:
            lost = "" if decision.is_optimal else points(decision.loss, exact)
            row = [
                str(decision.turn),
                " ".join(map(str, decision.dice)),
                str(decision.rolls_left),
                choice_words(decision.chosen),
                "" if decision.is_optimal else choice_words(decision.best),
                lost,
            ]
            if match:
                row.insert(0, str(decision.game))
            table.add_row(*row, style=None if decision.is_optimal else "red")
        return table

    def action_seat(self, step: int) -> None:
        if self.review is not None and len(self.review.seats) > 1:
            self.seat = (self.seat + step) % len(self.review.seats)
            self.rerender()

    def action_close(self) -> None:
        self.dismiss(None)


class ReviewApp(App[None]):
    """The review screen on its own (`fivedice review GAME --app`)."""

    CSS_PATH = "../app.tcss"  # the game app's styles (tui/app.tcss)
    TITLE = "fivedice"
    ENABLE_COMMAND_PALETTE = False  # Textual's palette speaks only English

    def __init__(self, game_id: int, backend: Backend | None = None) -> None:
        super().__init__()
        self.game_id = game_id
        self.backend = backend or Backend()

    def on_mount(self) -> None:
        self.push_screen(ReviewScreen(self.game_id, self.backend), lambda _result: self.exit())


def run_review_app(game_id: int, db: str | None = None) -> None:
    """Shows the review of a saved game in the terminal app until the player goes back."""
    ReviewApp(game_id, Backend(db)).run()
