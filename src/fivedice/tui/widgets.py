"""Widgets of the game screen: the dice, and the score card of every seat as one table.

Widgets hold no game state of their own: they are given a `GameState` and render it, and they
post messages (a die was clicked) for the screen to turn into actions for the service.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.events import Click
from textual.message import Message
from textual.widgets import Button, DataTable, Static

from fivedice.core.card import Placement
from fivedice.core.categories import CATEGORIES, UPPER, Category
from fivedice.core.game import GameState
from fivedice.i18n import _
from fivedice.text import (
    box_name,
    total_label,
    upper_bonus_label,
    upper_total_label,
    yahtzee_bonus_label,
)

# Pips of each face on a 5×3 grid.
_PIPS: dict[int, tuple[str, str, str]] = {
    1: ("       ", "   ●   ", "       "),
    2: (" ●     ", "       ", "     ● "),
    3: (" ●     ", "   ●   ", "     ● "),
    4: (" ●   ● ", "       ", " ●   ● "),
    5: (" ●   ● ", "   ●   ", " ●   ● "),
    6: (" ●   ● ", " ●   ● ", " ●   ● "),
}


def die_face(value: int | None) -> str:
    """Three lines of pips, 7 wide, for a face (a question mark before the first roll)."""
    if value is None:
        return "\n".join(("       ", "   ?   ", "       "))
    return "\n".join(_PIPS[value])


class FlatButton(Button):
    """A one-line button of the game screen; Tab reaches it, and every one also has a key.

    The score table keeps its arrow keys: the screen sends arrows pressed on a button back
    to the table.
    """


class Die(Static):
    """One die: a box-drawn face; a held die has a heavy, coloured border and a label."""

    class Clicked(Message):
        """The player clicked die `position` (1-5)."""

        def __init__(self, position: int) -> None:
            super().__init__()
            self.position = position

    def __init__(self, position: int) -> None:
        super().__init__(die_face(None), id=f"die-{position}", classes="die")
        self.position = position

    def show(self, value: int | None, held: bool) -> None:
        """Renders a face and, on a fourth line, whether it is held."""
        label = _("held")[:7] if held else ""
        self.update(die_face(value) + "\n" + f"{label:^7}")
        self.set_class(held, "held")
        self.border_title = str(self.position)

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(self.Clicked(self.position))


class DiceRow(Horizontal):
    """The five dice in a row."""

    def compose(self) -> ComposeResult:
        for position in range(1, 6):
            yield Die(position)

    def show(self, state: GameState) -> None:
        """Renders the dice of the turn in progress."""
        dice = state.dice
        for position in range(1, 6):
            value = None if dice is None else dice[position - 1]
            self.query_one(f"#die-{position}", Die).show(value, state.turn.held[position - 1])


@dataclass(frozen=True)
class CellTarget:
    """What a cell of the score table stands for: a box of one column of one seat."""

    seat: int
    column: int
    category: Category


def _name(text: str, width: int = 9) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


class ScoreTable(DataTable[Text]):
    """Every seat's card (every column) side by side; the seat to move's open boxes preview.

    Rows are the thirteen boxes and the sums; there is one table column per seat and score
    column. The cell cursor picks a box; the screen scores it when Enter is pressed.
    """

    def __init__(self) -> None:
        super().__init__(id="card", cursor_type="cell", zebra_stripes=False)
        self.rows_meaning: list[Category | None] = []
        self.columns_meaning: list[tuple[int, int] | None] = []

    def target_at(self, row: int, column: int) -> CellTarget | None:
        """The box behind a cell, or None for names and sums."""
        if not 0 <= row < len(self.rows_meaning) or not 0 <= column < len(self.columns_meaning):
            return None
        category = self.rows_meaning[row]
        where = self.columns_meaning[column]
        if category is None or where is None:
            return None
        return CellTarget(where[0], where[1], category)

    def cell_of(self, seat: int, column: int, category: Category) -> tuple[int, int]:
        """The (row, column) of a box in the table."""
        return self.rows_meaning.index(category), self.columns_meaning.index((seat, column))

    def show(self, state: GameState) -> None:
        """Rebuilds the table from a state, keeping the cursor where it was."""
        rules = state.rules
        cursor = self.cursor_coordinate
        playing = not state.is_match_over
        placements: dict[tuple[int, Category], Placement] = {
            (p.column, p.category): p for p in state.placements()
        }
        multi = rules.columns > 1
        self.clear(columns=True)
        self.columns_meaning = [None]
        self.add_column(Text(""), key="box")
        for seat_index, seat in enumerate(state.seats):
            for column in range(rules.columns):
                label = _name(seat.name, 6 if multi else 9)
                if multi:
                    label += f" ×{rules.column_multipliers[column]}"
                style = "bold reverse" if playing and seat_index == state.current_seat else "bold"
                self.add_column(Text(label, style=style), key=f"{seat_index}-{column}")
                self.columns_meaning.append((seat_index, column))
        self.rows_meaning = []
        rows: list[list[Text]] = []

        def add(label: str, cells: list[Text], category: Category | None = None) -> None:
            style = "" if category is not None else "bold"
            rows.append([Text(label, style=style), *cells])
            self.rows_meaning.append(category)

        for category in CATEGORIES:
            cells = []
            for seat_index, card in enumerate(state.cards):
                for column_index, card_column in enumerate(card.columns):
                    cells.append(
                        self._box_cell(
                            state,
                            seat_index,
                            column_index,
                            category,
                            card_column.score(category),
                            placements,
                        )
                    )
            add(box_name(category), cells, category)
            if category is UPPER[-1]:
                add(
                    upper_total_label(),
                    [
                        Text(f"{c.upper_total} {c.upper_par:+d}", justify="right")
                        for card in state.cards
                        for c in card.columns
                    ],
                )
                add(
                    upper_bonus_label(),
                    [
                        Text(str(c.upper_bonus(rules)), justify="right")
                        if c.upper_bonus(rules)
                        else Text(
                            f"{max(rules.upper_bonus_threshold - c.upper_total, 0)}↑"
                            if rules.upper_bonus
                            else "-",
                            style="dim",
                            justify="right",
                        )
                        for card in state.cards
                        for c in card.columns
                    ],
                )
        if rules.yahtzee_bonus:
            add(
                yahtzee_bonus_label(),
                [
                    Text(str(c.yahtzee_bonus_total(rules)), justify="right")
                    for card in state.cards
                    for c in card.columns
                ],
            )
        add(
            total_label(),
            [
                Text(str(total), style="bold", justify="right")
                for card in state.cards
                for total in card.column_totals(rules)
            ],
        )
        if multi:
            grand = [
                Text(str(card.total(rules)) if column == rules.columns - 1 else "", "bold")
                for card in state.cards
                for column in range(rules.columns)
            ]
            add(_("Grand total"), [Text(cell.plain, "bold", justify="right") for cell in grand])
        for row in rows:
            self.add_row(*row)
        self.move_cursor(row=cursor.row, column=cursor.column, scroll=False)

    @staticmethod
    def _box_cell(
        state: GameState,
        seat: int,
        column: int,
        category: Category,
        score: int | None,
        placements: dict[tuple[int, Category], Placement],
    ) -> Text:
        if score is not None:
            return Text(str(score), justify="right")
        if seat != state.current_seat or state.dice is None or state.is_match_over:
            return Text("·", style="dim", justify="right")
        placement = placements.get((column, category))
        if placement is None:  # open, but not allowed for these dice (joker, upper-first)
            return Text("×", style="dim red", justify="right")
        style = "bold green" if placement.points else "yellow"
        return Text(f"{placement.points}", style=style, justify="right")
