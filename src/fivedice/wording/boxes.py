"""Boxes in words: their names as players know them, the labels of the card's sums, and a
box the player typed, found by any of its names.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from fivedice.core.actions import Score
from fivedice.core.boxes import Box
from fivedice.core.categories import CATEGORIES, Category
from fivedice.core.errors import N_, MalformedActionError
from fivedice.i18n import _
from fivedice.i18n import _ as current_gettext
from fivedice.wording.lists import list_text


def box_name(category: Category) -> str:
    """The box's name as players know it, in the current language."""
    return _(category.name)


def _box_words(text: str) -> str:
    # Letters and digits only, case folded: "Full-House", "full_house" and "full house" match.
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def find_box(text: str, boxes: tuple[Box, ...] = CATEGORIES) -> Category | None:
    """The box a player typed: its key, its English name or its name in the current language
    (case, spaces, dashes and underscores ignored), among `boxes` (the rule set's; default
    the classic thirteen); None when no box is called that."""
    wanted = _box_words(text)
    if not wanted:
        return None
    for category in boxes:
        names = (category.key, category.name, box_name(category))
        if any(_box_words(name) == wanted for name in names):
            return category
    return None


CARD_LABELS: dict[str, str] = {
    "upper_total": N_("Upper total"),
    "against_par": N_("Against par"),
    "upper_bonus": N_("Upper bonus"),
    "yahtzee_bonus": N_("Yahtzee bonus"),
    "total": N_("Total"),
}
"""The labels of the card's sums, by key: the upper boxes' sum, their standing against par
(three of each face), the upper bonus, the extra-Yahtzee bonuses and a card's (or column's)
total."""


def card_label(key: str, _: Callable[[str], str] = current_gettext) -> str:
    """The label of one of the card's sums (`CARD_LABELS`), translated by `_` (default: the
    current language)."""
    return _(CARD_LABELS[key])


upper_total_label = partial(card_label, "upper_total")
par_label = partial(card_label, "against_par")
upper_bonus_label = partial(card_label, "upper_bonus")
yahtzee_bonus_label = partial(card_label, "yahtzee_bonus")
total_label = partial(card_label, "total")


def parse_score_words(text: str, boxes: tuple[Box, ...] = CATEGORIES) -> Score:
    """A score action from the words after `score`: a box by any of its names (`find_box`),
    optionally after its column and a colon (`2:Sixes`, `full house`, `Dreierpasch`), among
    `boxes`.

    Raises:
        MalformedActionError: no such column or box (the message lists the boxes).
    """
    column = 0
    column_text, sep, box_text = (part.strip() for part in text.partition(":"))
    if sep:
        number = column_text.isascii() and column_text.isdigit()
        column = int(column_text) - 1 if number and len(column_text) < 4 else -1
        if column < 0:
            raise MalformedActionError(
                N_("a column number counts from 1, not {column!r}"), column=column_text
            )
    else:
        box_text = text
    category = find_box(box_text, boxes)
    if category is None:
        raise MalformedActionError(
            N_("no box is called {text!r}; the boxes are {boxes}"),
            text=box_text.strip(),
            boxes=list_text(box_name(c) for c in boxes),
        )
    return Score(category, column)
