"""Widgets of the game screen: the dice, and the score card of every seat as one table.

Widgets hold no game state of their own: they are given a `GameState` and render it, and they
post messages (a die was clicked) for the screen to turn into actions for the service.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.events import Click
from textual.message import Message
from textual.widgets import Button, DataTable, Static

from fivedice.core.card import Column, Placement
from fivedice.core.categories import Category
from fivedice.core.dice import MAX_DICE
from fivedice.core.game import GameState
from fivedice.core.rules import RuleSet
from fivedice.i18n import _
from fivedice.service.settings import shown_name
from fivedice.tui.wording import short_box_name, short_sum_labels
from fivedice.wording.cells import fit_cells, pad_cells, text_width
from fivedice.wording.text import (
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


_STAR = ("       ", "   ★   ", "       ")
"""The wild die's 1 face (`wild_die`)."""


def die_face(value: int | None, width: int = 7, wild: bool = False) -> str:
    """Three lines of pips, 7 wide (or 5: `width=5`), for a face (a question mark before the
    first roll); the wild die's 1 is a star."""
    lines = ("       ", "   ?   ", "       ") if value is None else _PIPS[value]
    if wild and value == 1:
        lines = _STAR
    if width == 5:
        return "\n".join(line[1:-1] for line in lines)
    return "\n".join(lines)


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

    def show(self, value: int | None, held: bool, width: int = 7, wild: bool = False) -> None:
        """Renders a face (`width` 7 or 5) and, on a fourth line, whether it is held; the
        wild die in its own colour, its title starred."""
        label = _("held") if held else ""
        if text_width(label) > width:  # "guardado", "キープ": the border says it, and a tick
            label = "✓"
        self.update(die_face(value, width, wild) + "\n" + pad_cells(label, width, "^"))
        self.set_class(held, "held")
        self.set_class(wild, "wild")
        # The star goes under the die: "5★" does not fit in the top border of a 7-cell die.
        self.border_title = str(self.position)
        self.border_subtitle = "★" if wild else ""

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(self.Clicked(self.position))


class DiceRow(Horizontal):
    """The dice in a row: five, or six under Maxi Yatzy (the sixth is hidden otherwise)."""

    def compose(self) -> ComposeResult:
        for position in range(1, MAX_DICE + 1):
            yield Die(position)

    def show(self, state: GameState, width: int = 7) -> None:
        """Renders the dice of the turn in progress (faces `width` 7, or 5 when narrow)."""
        dice = state.dice
        count = state.rules.dice
        for position in range(1, MAX_DICE + 1):
            die = self.query_one(f"#die-{position}", Die)
            die.display = position <= count
            if position > count:
                continue
            value = None if dice is None else dice[position - 1]
            held = state.turn.held[position - 1]
            die.show(value, held, width, wild=state.rules.wild_die and position == count)

    def suggest(self, hold: tuple[int, ...] | None) -> None:
        """Marks the dice the coach's best option holds (None: no advice shown)."""
        for position in range(1, MAX_DICE + 1):
            die = self.query_one(f"#die-{position}", Die)
            die.set_class(hold is not None and position in hold, "suggested")


@dataclass(frozen=True)
class CellTarget:
    """What a cell of the score table stands for: a box of one column of one seat."""

    seat: int
    column: int
    category: Category


def _name(text: str, width: int = 9) -> str:
    return fit_cells(text, width)


def _short(text: str, width: int) -> str:
    """A seat name in `width` cells: "CPU 1 (expert)" becomes "CPU 1", then "CPU1"."""
    bracket = min((text.find(mark) for mark in "(（" if mark in text), default=-1)
    if text_width(text) > width and bracket >= 0:  # "CPU 1（達人）": a full-width bracket
        text = text[:bracket].strip() or text
    if text_width(text) > width:
        text = text.replace(" ", "")
    return _name(text, width)


LEVELS = 4
"""How compact the score table can be: 0 every column in full; 1 the shown seat's columns in
full, one column per other seat; 2 as 1, with short names and no cell padding; 3 as 2, the
shown seat's card only (one seat at a time)."""


def _last_upper(boxes: tuple[Category, ...]) -> Category:
    """The last upper box of a card (the upper sums follow it)."""
    return [box for box in boxes if box.is_upper][-1]


def _upper_reachable(column: Column, rules: RuleSet) -> bool:
    """Whether the upper bonus can still be earned in a column: all dice of each open face."""
    best = column.upper_total + sum(
        rules.dice * box.face for box in column.boxes if box.is_upper and column.score(box) is None
    )
    return best >= rules.upper_bonus_threshold


@dataclass(frozen=True)
class _TableColumn:
    """One table column: its header, its cells (one per row) and what a cell stands for."""

    header: Text
    cells: list[Text]
    meaning: tuple[int, int] | None  # (seat, column) of a box column; None for summaries


class ScoreTable(DataTable[Text]):
    """The score cards as one table; the seat to move's open boxes preview their points.

    Rows are the thirteen boxes and the sums; the first column (the box names) never scrolls
    away. When every seat's every column fits, each has a table column; when not, the shown
    seat (the seat to move, or the one picked with `v`) keeps all its columns and every
    other seat gets one compact column (for several columns: boxes filled, and the grand
    total). The cell cursor picks a box; the screen scores it when Enter is pressed.
    """

    def __init__(self) -> None:
        super().__init__(id="card", cursor_type="cell", zebra_stripes=False, fixed_columns=1)
        self.rows_meaning: list[Category | None] = []
        self.columns_meaning: list[tuple[int, int] | None] = []
        self.level = 0
        self.shown_seat = 0
        self.merge_upper = False
        """One row for the upper section's sums (the bonus row: what is missing, or the
        bonus), for windows too short for the card (Maxi Yatzy's twenty boxes at 24 rows)."""

    def target_at(self, row: int, column: int) -> CellTarget | None:
        """The box behind a cell, or None for names, sums and compact columns."""
        if not 0 <= row < len(self.rows_meaning) or not 0 <= column < len(self.columns_meaning):
            return None
        category = self.rows_meaning[row]
        where = self.columns_meaning[column]
        if category is None or where is None:
            return None
        return CellTarget(where[0], where[1], category)

    def cell_of(self, seat: int, column: int, category: Category) -> tuple[int, int] | None:
        """The (row, column) of a box in the table, or None when it is not shown."""
        if (seat, column) not in self.columns_meaning or category not in self.rows_meaning:
            return None
        return self.rows_meaning.index(category), self.columns_meaning.index((seat, column))

    # Building ---------------------------------------------------------------------------

    def _row_labels(
        self, state: GameState, short: bool = False, merge: bool | None = None
    ) -> list[tuple[str, Category | None]]:
        """The row names, top to bottom, with the box of each (None for sums); `short`: in
        at most 10 cells each; `merge`: one row for the upper sums (default: as set)."""
        merge = self.merge_upper if merge is None else merge
        if short:
            upper, bonus, extra, total, grand = short_sum_labels()
        else:
            upper, bonus, extra = upper_total_label(), upper_bonus_label(), yahtzee_bonus_label()
            total, grand = total_label(), _("Grand total")
        rows: list[tuple[str, Category | None]] = []
        boxes = state.cards[0].columns[0].boxes
        for category in boxes:
            rows.append((short_box_name(category) if short else box_name(category), category))
            if category == _last_upper(boxes):
                if not merge:
                    rows.append((upper, None))
                rows.append((bonus, None))
        if state.rules.yahtzee_bonus:
            rows.append((extra, None))
        rows.append((total, None))
        if state.rules.columns > 1:
            rows.append((grand, None))
        return rows

    def _full_cells(self, state: GameState, seat: int, column: int, short: bool) -> list[Text]:
        """The cells of one column of one seat's card, top to bottom."""
        rules = state.rules
        card = state.cards[seat]
        c = card.columns[column]
        placements: dict[tuple[int, Category], Placement] = {
            (p.column, p.category): p for p in state.placements()
        }
        cells: list[Text] = []
        for category in c.boxes:
            cells.append(
                self._box_cell(state, seat, column, category, c.score(category), placements)
            )
            if category == _last_upper(c.boxes):
                par = "" if short else f" {c.upper_par:+d}"
                if not self.merge_upper:
                    cells.append(Text(f"{c.upper_total}{par}", justify="right"))
                if c.upper_bonus(rules):
                    cells.append(Text(str(c.upper_bonus(rules)), justify="right"))
                elif not rules.upper_bonus:
                    cells.append(Text("-", style="dim", justify="right"))
                elif _upper_reachable(c, rules):
                    missing = max(rules.upper_bonus_threshold - c.upper_total, 0)
                    cells.append(Text(f"{missing}↑", style="dim", justify="right"))
                else:  # out of reach: no points to chase any more
                    cells.append(Text("0", style="dim", justify="right"))
        if rules.yahtzee_bonus:
            cells.append(Text(str(c.yahtzee_bonus_total(rules)), justify="right"))
        cells.append(Text(str(card.column_totals(rules)[column]), "bold", justify="right"))
        if rules.columns > 1:
            last = column == rules.columns - 1
            cells.append(Text(str(card.total(rules)) if last else "", "bold", justify="right"))
        return cells

    def _compact_cells(self, state: GameState, seat: int) -> list[Text]:
        """One column for a seat's whole several-column card: boxes filled, and totals."""
        rules = state.rules
        card = state.cards[seat]
        cells: list[Text] = []
        boxes = card.columns[0].boxes
        for category in boxes:
            filled = sum(column.score(category) is not None for column in card.columns)
            style = "" if filled == rules.columns else "dim"
            cells.append(Text(f"{filled}/{rules.columns}", style=style, justify="right"))
            if category == _last_upper(boxes):
                bonuses = sum(column.upper_bonus(rules) for column in card.columns)
                if not self.merge_upper:
                    cells.append(Text(""))
                cells.append(Text(str(bonuses) if bonuses else "", justify="right"))
        if rules.yahtzee_bonus:
            bonus = sum(column.yahtzee_bonus_total(rules) for column in card.columns)
            cells.append(Text(str(bonus), justify="right"))
        cells.append(Text(""))
        cells.append(Text(str(card.total(rules)), "bold", justify="right"))
        return cells

    def _plan(
        self, state: GameState, shown: int, level: int
    ) -> tuple[Text, list[tuple[str, Category | None]], list[_TableColumn]]:
        """The box-name header, the rows and the table columns of a compactness level."""
        rules = state.rules
        playing = not state.is_match_over
        multi = rules.columns > 1
        short = level >= 2

        def header(seat: int, text: str) -> Text:
            style = "bold reverse" if playing and seat == state.current_seat else "bold"
            return Text(text, style=style, justify="right" if short else None)

        rows = self._row_labels(state, short)
        columns: list[_TableColumn] = []
        corner = Text("")
        # Seats keep their order at every width, so a column never moves when the window
        # narrows or the turn passes; the seat shown in full is marked by its header.
        for seat_index in range(len(state.seats)):
            seat = replace(state.seats[seat_index], name=shown_name(state.seats[seat_index].name))
            if level >= 3 and seat_index != shown:
                continue  # one seat at a time: `v` shows the next
            if level == 0 or seat_index == shown:
                for column in range(rules.columns):
                    if level == 0:
                        label = _short(seat.name, 6 if multi else 9)
                        if multi:
                            label += f" ×{rules.column_multipliers[column]}"
                    else:
                        if multi:
                            label = _name(f"×{rules.column_multipliers[column]}", 4 if short else 9)
                        else:  # the seat shown in full keeps a readable name ("あなた", "CPU 1")
                            label = _short(seat.name, 6 if short else 9)
                    columns.append(
                        _TableColumn(
                            header(seat_index, label),
                            self._full_cells(state, seat_index, column, short),
                            (seat_index, column),
                        )
                    )
                if level > 0 and multi:
                    corner = header(seat_index, _name(seat.name, 10 if short else 16))
                    corner.justify = None
            elif multi:
                label = _short(seat.name, 4 if short else 6) + " Σ"
                cells = self._compact_cells(state, seat_index)
                columns.append(_TableColumn(header(seat_index, label), cells, None))
            else:
                columns.append(
                    _TableColumn(
                        header(seat_index, _short(seat.name, 4 if short else 9)),
                        self._full_cells(state, seat_index, 0, short),
                        (seat_index, 0),
                    )
                )
        return corner, rows, columns

    def needed_width(self, state: GameState, shown: int, level: int) -> int:
        """The cells a level of the table needs across (without a scrollbar)."""
        corner, rows, columns = self._plan(state, shown, level)
        padding = 0 if level >= 2 else 2
        width = max([corner.cell_len, *(text_width(label) for label, _ in rows)]) + (padding or 1)
        for column in columns:
            content = max(cell.cell_len for cell in [column.header, *column.cells])
            width += content + (padding or 1)
        return width

    def rows_needed(self, state: GameState, merge: bool = False) -> int:
        """Rows of the table, the header included (`merge`: with one row of upper sums)."""
        return len(self._row_labels(state, merge=merge)) + 1

    # The cursor stays on boxes: sums and names cannot be scored, so the arrows pass them by.

    def _step(self, rows: int, columns: int) -> None:
        row, column = self.cursor_coordinate
        while True:
            row, column = row + rows, column + columns
            if not (0 <= row < self.row_count and 0 <= column < len(self.columns)):
                return  # no box further on: stay
            if self.target_at(row, column) is not None:
                self.move_cursor(row=row, column=column)
                return

    def action_cursor_up(self) -> None:
        self._step(-1, 0)

    def action_cursor_down(self) -> None:
        self._step(1, 0)

    def action_cursor_left(self) -> None:
        self._step(0, -1)

    def action_cursor_right(self) -> None:
        self._step(0, 1)

    def best_level(self, state: GameState, shown: int, width: int) -> int:
        """The least compact level that fits `width` cells (the most compact if none does)."""
        for level in range(LEVELS):
            if self.needed_width(state, shown, level) <= width:
                return level
        return LEVELS - 1

    def show(self, state: GameState, shown: int | None = None, level: int = 0) -> None:
        """Rebuilds the table from a state, keeping the cursor where it was.

        Args:
            state: the game.
            shown: the seat whose columns stay in full at levels 1 and 2 (default: to move).
            level: how compact (see `LEVELS`).
        """
        shown = state.current_seat if shown is None else shown
        cursor = self.cursor_coordinate
        corner, rows, columns = self._plan(state, shown, level)
        self.level, self.shown_seat = level, shown
        self.clear(columns=True)
        narrow = level >= 2
        self.cell_padding = 0 if narrow else 1

        def width(texts: list[Text]) -> int | None:
            return max(text.cell_len for text in texts) + 1 if narrow else None

        name_cells = [Text(label, style="" if category else "bold") for label, category in rows]
        self.add_column(corner, key="box", width=width([corner, *name_cells]))
        self.columns_meaning = [None]
        for index, column in enumerate(columns):
            self.add_column(
                column.header, key=f"c{index}", width=width([column.header, *column.cells])
            )
            self.columns_meaning.append(column.meaning)
        self.rows_meaning = [category for _, category in rows]
        for row_index, name in enumerate(name_cells):
            self.add_row(name, *(column.cells[row_index] for column in columns))
        self.move_cursor(row=cursor.row, column=cursor.column, scroll=False)
        self.call_after_refresh(self._forget_renders)

    def _forget_renders(self) -> None:
        # DataTable caches rendered cells without their width: cells drawn before the new
        # columns were measured (the screen under a dialog is drawn, but measured later) would
        # stay blank. Drop them once the table is laid out.
        self._clear_caches()
        self.refresh()

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
