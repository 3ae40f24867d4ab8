"""Games at the table in words: the line that says what an entry wrote on the card ("Ann: 25
in Full house (total 68)"), what an undo took back, and the question before a 0. Every front
end of the score keeper (web, terminal, plain) says them the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fivedice.core.categories import Category
from fivedice.i18n import _
from fivedice.wording.boxes import box_name
from fivedice.wording.moves import dice_values, entry_taken_back_text, placement_words

if TYPE_CHECKING:
    from fivedice.service.table import LastEntry, TableEntry


def entry_words(entry: TableEntry) -> str:
    """What the entry wrote, without the name: "25 in Full house" (with the column on a
    card of several and every bonus earned) or "dice 3 3 3 5 5"."""
    if entry.category is None:
        return _("dice {dice}").format(dice=dice_values(entry.dice or ()))
    return placement_words(
        entry.points, entry.category, entry.column, entry.upper_bonus, entry.yahtzee_bonus
    )


def scored_text(entry: TableEntry) -> str:
    """The line after a box is scored: "Ann: 25 in Full house (total 68)"."""
    return _("{name}: {placement} (total {total})").format(
        name=entry.name, placement=entry_words(entry), total=entry.total
    )


def taken_back_text(entry: TableEntry | None) -> str:
    """The line after an undo, saying what it took back: "Taken back: Ann's 25 in Full
    house" or "Taken back: Ann's dice 3 3 3 5 5" (None: the general sentence)."""
    if entry is None:
        return entry_taken_back_text()
    return _("Taken back: {name}'s {entry}").format(name=entry.name, entry=entry_words(entry))


def last_entry_text(last: LastEntry | None) -> str:
    """The line a page shows for the log's last entry: what a box got, what an undo took
    back; empty when the last entry only typed dice (they are on show) or there is none."""
    if last is None:
        return ""
    if last.taken_back:
        return taken_back_text(last.entry)
    return scored_text(last.entry) if last.entry.category is not None else ""


def zero_question(category: Category, column: int | None = None) -> str:
    """The question before a box takes a 0: "Score 0 in Yahtzee? The box is then used up."
    (`column` 0-based, on a card of several)."""
    box = box_name(category)
    if column is not None:
        box += " " + _("(column {column})").format(column=column + 1)
    return _("Score 0 in {box}? The box is then used up.").format(box=box)
