"""Widgets of the Hold'em table: coloured dice drawn as the game screen draws dice, and the
seats with their chips, bets and states.

As the game screen's widgets, they hold no game of their own: they are given a `HoldemView`
(what one seat may see) and render it.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static

from fivedice.core.holdem import COLOURS, Die, HoldemView
from fivedice.i18n import _
from fivedice.tui.widgets.board import die_face
from fivedice.wording.cells import fit_cells, pad_cells
from fivedice.wording.holdem import colour_name, seat_marks
from fivedice.wording.lists import list_text

FACE_WIDTH = 7
"""The cells across a die's face (as `die_face` draws it)."""
NAME_WIDTH = 16
"""The most cells a seat's name takes in the seats' table."""


class ColourDie(Static):
    """One die of the bag: its face drawn with pips, in its colour, and the colour's name
    under the pips (for those who do not see the colour), as the game screen's dice say
    "held"; a die not dealt yet shows a question mark."""

    def __init__(self) -> None:
        super().__init__(die_face(None), classes="hdie")

    def show(self, die: Die | None) -> None:
        name = "" if die is None else fit_cells(colour_name(die.colour), FACE_WIDTH)
        self.update(
            die_face(None if die is None else die.face) + "\n" + pad_cells(name, FACE_WIDTH, "^")
        )
        for colour in COLOURS:
            self.set_class(die is not None and die.colour is colour, colour.value)
        self.set_class(die is None, "unknown")


class DiceLine(Horizontal):
    """A row of `count` coloured dice (the pocket: 2; the board: 5)."""

    def __init__(self, count: int, *, id: str | None = None) -> None:
        super().__init__(id=id, classes="hdice")
        self.count = count

    def compose(self) -> ComposeResult:
        for _number in range(self.count):
            yield ColourDie()

    def show(self, dice: tuple[Die, ...]) -> None:
        """The dice given, then question marks for those still to come."""
        for position, widget in enumerate(self.query(ColourDie)):
            widget.show(dice[position] if position < len(dice) else None)


class SeatsTable(Static):
    """Every seat in one line: name, chips, bet this round, chips in the pot, its state."""

    def show(self, view: HoldemView) -> None:
        table = Table(box=None, padding=(0, 1), show_edge=False, expand=False)
        table.add_column("", no_wrap=True, width=1)
        table.add_column(_("Player"), no_wrap=True)
        table.add_column(_("Chips"), justify="right", no_wrap=True)
        table.add_column(_("Bet"), justify="right", no_wrap=True)
        table.add_column(_("In pot"), justify="right", no_wrap=True)
        table.add_column("", no_wrap=True, overflow="ellipsis")
        for number, seat in enumerate(view.seats):
            style = ""
            if number == view.to_act:
                style = "bold reverse" if number == view.viewer else "bold"
            elif seat.folded or seat.is_out:
                style = "dim"
            table.add_row(
                "▶" if number == view.to_act else "",
                fit_cells(seat.name, NAME_WIDTH).rstrip(),
                str(seat.stack),
                str(seat.street_bet) if seat.street_bet else "",
                str(seat.committed) if seat.committed else "",
                Text(list_text(seat_marks(view, number))),
                style=style,
            )
        self.update(table)
