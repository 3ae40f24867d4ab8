"""Small screens: confirm a scratch, the rules in force, the keys, and the end of a game."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, ClassVar

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Static

from fivedice.core.game import GameState
from fivedice.i18n import LANGUAGES, _, ngettext
from fivedice.tui.screens.records import open_records
from fivedice.tui.session import Backend
from fivedice.tui.wording import localize_bindings
from fivedice.wording.cells import text_width
from fivedice.wording.review import points as points_text
from fivedice.wording.rules import rules_title
from fivedice.wording.text import (
    box_name,
    describe_rules,
    first_player_name,
    list_text,
    ranking_lines,
    total_label,
    upper_bonus_label,
    upper_total_label,
    yahtzee_bonus_label,
)

if TYPE_CHECKING:
    from fivedice.service.games import GameReview


class ConfirmScreen(ModalScreen[bool]):
    """Asks a yes/no question; dismisses with the answer (Enter/y yes, Escape/n no)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        localize_bindings(self)
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.question, id="question")
            with Horizontal(id="answers"):
                yield Button(_("Yes"), id="yes", variant="warning")
                yield Button(_("No"), id="no")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)


class StoreProblemScreen(Screen[str]):
    """The saved games cannot be opened: says which database and why, and lets the player
    try again, play without saving (knowing it), or quit. Dismisses with "retry",
    "unsaved" or "quit"."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "choose('retry')", "Try again"),
        Binding("p", "choose('unsaved')", "Play unsaved"),
        Binding("q,escape", "choose('quit')", "Quit"),
    ]
    AUTO_FOCUS = "#quit"

    def __init__(self, database: str, reason: str) -> None:
        super().__init__()
        localize_bindings(self)
        self.database = database
        self.reason = reason

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="page"):
            yield Static(
                Text(_("Your saved games cannot be opened"), style="bold"), classes="title"
            )
            yield Static(_("Database: {path}").format(path=self.database), id="store-path")
            yield Static(Text(self.reason, style="red"), id="store-reason")
            yield Static(
                _(
                    "Nothing in it was changed. Quit and fix it (move the file away, or choose"
                    " another database with --db), try again (once another program lets go of"
                    " it), or play without saving: nothing of such a game is kept."
                ),
                id="store-choices",
            )
            with Horizontal(id="end-buttons"):
                yield Button(_("Try again"), id="retry", compact=True)
                yield Button(_("Play unsaved"), id="unsaved", compact=True, variant="warning")
                yield Button(_("Quit"), id="quit", compact=True, variant="primary")
        yield Footer()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "quit")

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)


KEY_LINE = re.compile(r"^(\S(?:.*?\S)?) {2,}(\S.*)$")
"""A line of the keys page: the key(s), two or more spaces, what they do."""


def hanging_lines(lines: list[str]) -> Group:
    """Lines of a text page; a bullet ("• ...") or a key line ("h    hint") that wraps goes on
    under its text, not under the bullet or key. The key column is as wide as the widest
    key in cells, so keys and texts line up in every language (a Japanese key such as
    "矢印キー" takes 8 cells, not 4)."""
    keyed = [KEY_LINE.match(line) for line in lines]
    key_width = max((text_width(match.group(1)) for match in keyed if match), default=0)
    parts: list[Text | Table] = []
    for line, match in zip(lines, keyed, strict=True):
        if line.startswith("• "):
            head, body, width = "•", line[2:], 1
        elif match:
            head, body, width = match.group(1), match.group(2), key_width
        else:
            parts.append(Text(line))
            continue
        grid = Table.grid(padding=(0, 1))
        grid.add_column(width=width, no_wrap=True)
        grid.add_column(overflow="fold")  # Japanese has no spaces to wrap at
        grid.add_row(head, body)
        parts.append(grid)
    return Group(*parts)


class TextScreen(Screen[None]):
    """A page of text (rules, help); any of Escape, q or the page's own key closes it.

    While it is open the game screen is not active, so CPU turns wait.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,u,f1,f2", "close", "Back")
    ]

    def __init__(self, title: str, lines: list[str]) -> None:
        super().__init__()
        localize_bindings(self)
        self.title_text = title
        self.lines = lines

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="page"):
            yield Static(Text(self.title_text, style="bold"), classes="title")
            yield Static(hanging_lines(self.lines))
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)


def rules_screen(state: GameState) -> TextScreen:
    """The rules in force, generated from the rule set of the game."""
    rules = state.rules
    title = _("Rules: {name}").format(name=rules_title(rules))
    lines = [f"• {line}" for line in describe_rules(rules)]
    lines.append("")
    lines.append(
        _("First player: {mode}.").format(mode=first_player_name(state.settings.first_player))
    )
    if state.settings.match_length > 1:
        lines.append(
            ngettext(
                "A match of {count} game.",
                "A match of {count} games.",
                state.settings.match_length,
            ).format(count=state.settings.match_length)
        )
    return TextScreen(title, lines)


def help_lines(dice: int = 5) -> list[str]:
    """The keys of the game screen, for a game of `dice` dice (five, or six in Maxi Yatzy)."""
    if dice == 6:
        first = [
            _("r or space    roll the dice (the first roll of a turn rolls all six)"),
            _("1 to 6        hold or release a die (or click it)"),
        ]
    else:
        first = [
            _("r or space    roll the dice (the first roll of a turn rolls all five)"),
            _("1 to 5        hold or release a die (or click it)"),
        ]
    return [
        *first,
        _("arrow keys    choose a box on your card; it shows what the dice earn there"),
        _("Enter         score the chosen box (a 0 asks for confirmation)"),
        _("h             the coach's ranking of your options"),
        _("a             do what the coach advises: hold its dice, or go to its box"),
        _("y             why the coach's best option beats the next one, box by box"),
        _("z             take back your last action (solo and practice games; not a roll)"),
        _("c             coach mode: after each decision, what it cost"),
        _("v             whose card is shown in full, when not every card fits"),
        _("w             the winning-chances bar, off or on"),
        _("+ and -       CPU players move faster or slower"),
        _("p             pause or resume the CPU players"),
        _("u             the rules in force (pauses the CPU)"),
        _("?             this help (pauses the CPU)"),
        _("Tab           move between the card and the buttons (Enter presses)"),
        _("l             next language: {languages}").format(
            languages=list_text(LANGUAGES.values())
        ),
        _("n             a new game"),
        _("q             quit (the game is kept when the service saves it)"),
        "",
        _("Numbers in green: what the dice would score in that open box, bonuses included."),
        _("A dim × marks an open box the rules do not allow for these dice."),
        _("Next to the upper total: points ahead (+) or behind (−) three of each face."),
        _("A column marked Σ: another seat's card in short (boxes filled, grand total)."),
        _("Several columns: the coach's values are estimates (the expert CPU's), not exact."),
    ]


def card_table(state: GameState, cards_of: list[int] | None = None) -> Table:
    """The final cards of the seats as one Rich table (for the end screen)."""
    rules = state.rules
    seats = cards_of if cards_of is not None else list(range(len(state.seats)))
    table = Table(box=None, padding=(0, 1), show_edge=False)
    table.add_column("")
    for seat in seats:
        for column in range(rules.columns):
            suffix = f" ×{rules.column_multipliers[column]}" if rules.columns > 1 else ""
            table.add_column(state.seats[seat].name[:10] + suffix, justify="right")
    columns = [c for seat in seats for c in state.cards[seat].columns]
    boxes = columns[0].boxes
    last_upper = [box for box in boxes if box.is_upper][-1]
    for category in boxes:
        table.add_row(box_name(category), *(str(c.score(category) or 0) for c in columns))
        if category == last_upper:
            table.add_row(upper_total_label(), *(str(c.upper_total) for c in columns))
            table.add_row(upper_bonus_label(), *(str(c.upper_bonus(rules)) for c in columns))
    table.add_row(yahtzee_bonus_label(), *(str(c.yahtzee_bonus_total(rules)) for c in columns))
    totals = [t for seat in seats for t in state.cards[seat].column_totals(rules)]
    table.add_row(Text(total_label(), style="bold"), *(Text(str(t), "bold") for t in totals))
    return table


class EndScreen(Screen[str]):
    """Ranking (shared ranks), match standings, the final cards; then new game or rematch."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "choose('new')", "New game"),
        Binding("m", "choose('rematch')", "Rematch"),
        Binding("s", "records('stats')", "Statistics"),
        Binding("t", "records('top')", "High scores"),
        Binding("w", "review", "Review"),
        Binding("q", "choose('quit')", "Quit"),
        Binding("escape", "ask_quit", "Quit?", show=False),
    ]

    def __init__(
        self,
        state: GameState,
        coach_loss: float | None,
        *,
        backend: Backend,
        game_id: int | None = None,
        estimate: bool = False,
    ) -> None:
        """Args:
        state: the game at its end.
        coach_loss: what the human's decisions cost in all (None: the coach was off).
        backend: the service, for the records and the review.
        game_id: the saved game, for its review (None: it was not saved).
        estimate: the coach's costs are estimates (several columns).
        """
        super().__init__()
        localize_bindings(self)
        self.state = state
        self.coach_loss = coach_loss
        self.backend = backend
        self.game_id = game_id
        self.estimate = estimate

    def compose(self) -> ComposeResult:
        state = self.state
        match = state.settings.match_length > 1
        with VerticalScroll(id="page"):
            title = _("Match over") if match else _("Game over")
            yield Static(Text(title, style="bold"), classes="title")
            yield Static("\n".join(ranking_lines(state)), id="ranking")
            if match:
                standings = Table(title=_("Match standings"), box=None, padding=(0, 1))
                standings.add_column(_("Game"))
                for seat in state.seats:
                    standings.add_column(seat.name[:10], justify="right")
                games = [g.totals for g in state.finished_games] + [state.totals]
                for number, totals in enumerate(games, start=1):
                    standings.add_row(str(number), *map(str, totals))
                standings.add_row(_("Total"), *map(str, state.match_totals))
                yield Static(standings, id="standings")
            if self.coach_loss is not None:
                yield Static(self._coach_total_text(None), id="coach-total")
            yield Static(card_table(state), id="final-cards")
            with Horizontal(id="end-buttons"):
                yield Button(_("New game"), id="new", variant="primary", compact=True)
                yield Button(_("Rematch"), id="rematch", compact=True)
                yield Button(_("Statistics"), id="stats", compact=True)
                yield Button(_("High scores"), id="top", compact=True)
                yield Button(_("Review"), id="review", compact=True)
                yield Button(_("Quit"), id="quit", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        if self.coach_loss is not None and self.game_id is not None:
            self.run_worker(self._load_review, thread=True, group="coach-total")

    def _load_review(self) -> None:
        from fivedice.tui.screens.review import load_review

        if self.game_id is None:
            return
        try:
            review = load_review(self.backend, self.game_id)
        except Exception:  # no review here: the coach mode's own total stays
            return
        self.app.call_from_thread(self._show_review_total, review)

    def _show_review_total(self, review: GameReview) -> None:
        self.query_one("#coach-total", Static).update(self._coach_total_text(review))

    def _coach_total_text(self, review: GameReview | None) -> str:
        """The coach's total, with one meaning: what every decision of the human seats cost
        in all, as the review counts it (so the two agree, whenever coach mode was turned
        on). Before the review is ready, or for a game that was not saved, only the
        decisions judged while coach mode was on can be counted, and the text says so."""
        if review is None:
            if self.game_id is not None:
                return _("Coach: adding up every decision, as the review does…")
            points = points_text(self.coach_loss or 0.0, not self.estimate)
            return _(
                "Coach: the decisions judged in coach mode cost {points} expected points."
            ).format(points=points)
        humans = [seat for seat in review.seats if seat.cpu_level is None]
        lines = []
        for seat in humans:
            template = (
                _(
                    "Coach: your {count} decisions cost {points} expected points in all"
                    " (as in the review)."
                )
                if len(humans) == 1
                else _(
                    "Coach: the {count} decisions of {name} cost {points} expected points in all."
                )
            )
            lines.append(
                template.format(
                    count=len(seat.decisions),
                    name=seat.name,
                    points=points_text(seat.total_loss, review.exact),
                )
            )
        return "\n".join(lines)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        button = event.button.id or "quit"
        if button in ("stats", "top"):
            self.action_records(button)
        elif button == "review":
            self.action_review()
        else:
            self.dismiss(button)

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)

    def action_review(self) -> None:
        """Opens the review of this game over the end screen (Back returns here)."""
        from fivedice.tui.screens.review import ReviewScreen

        if self.game_id is None:
            self.notify(_("This game was not saved, so it cannot be reviewed."), severity="error")
            return
        self.app.push_screen(ReviewScreen(self.game_id, self.backend))

    def action_ask_quit(self) -> None:
        """Escape asks before it quits the app (q quits at once, as the footer says)."""

        def answer(confirmed: bool | None) -> None:
            if confirmed:
                self.dismiss("quit")

        self.app.push_screen(ConfirmScreen(_("Quit fivedice?")), answer)

    def action_records(self, page: str) -> None:
        """Opens the statistics or high-score page over the end screen (Back returns here)."""
        open_records(self.app, page, self.backend)
