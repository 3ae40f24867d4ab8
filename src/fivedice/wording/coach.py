"""The coach's options in words: a keep, a box, and the ranked list with expected points."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from fivedice.core.categories import Category
from fivedice.core.errors import N_
from fivedice.i18n import _
from fivedice.wording.boxes import box_name
from fivedice.wording.wild import die_text

if TYPE_CHECKING:
    from fivedice.strategy.hints import Hint

KEEP_DICE = N_("keep {dice}")
ROLL_ALL_AGAIN = N_("roll all the dice again")  # (five or six: Maxi Yatzy has six)
SCORE_BOX = N_("score {box}")
SCORE_BOX_IN_COLUMN = N_("score {box} in column {column}")
"""The coach's options as message templates, for a page that fills them in itself."""


def keep_text(keep: tuple[int, ...]) -> str:
    """A keep in words: "keep 6 6 6" or "roll all the dice again"."""
    if not keep:
        return _(ROLL_ALL_AGAIN)
    return _(KEEP_DICE).format(dice=" ".join(map(die_text, keep)))


def hold_text(hold: tuple[int, ...], dice: tuple[int, ...]) -> str:
    """A keep said by the dice's positions, as the player holds them, with their faces:
    "hold 4 5 (5 5)"; holding nothing is "roll every die again"."""
    if not hold:
        return _("roll every die again")
    faces = " ".join(str(dice[position - 1]) for position in hold if position <= len(dice))
    return _("hold {positions} ({dice})").format(positions=" ".join(map(str, hold)), dice=faces)


def choice_text(
    keep: tuple[int, ...] | None, category: Category | None, column: int | None = None
) -> str:
    """A coach option in words (`column`, 0-based, for a box of a several-column card)."""
    if category is not None and column is not None:
        return _(SCORE_BOX_IN_COLUMN).format(box=box_name(category), column=column + 1)
    if category is not None:
        return _(SCORE_BOX).format(box=box_name(category))
    return keep_text(keep or ())


def coach_lines(options: Sequence[Hint], limit: int = 8, compact: bool = False) -> list[str]:
    """The coach's best options, one a line, with the expected points to come and the loss.

    `options` are the service's hints; several-column values are estimates, marked ≈.
    `compact`: the numbers without words.
    """
    lines = []
    for number, option in enumerate(options[:limit], start=1):
        if number == 1:  # the best loses nothing: no "(−0.0)"
            template = (
                _("{number}. {option}: {mark}{value:.1f} (best)")
                if compact
                else _("{number}. {option}: {mark}{value:.1f} points to come (best)")
            )
        elif round(option.loss, 1) == 0:  # as good as the best, to a tenth: not "−0.0"
            template = (
                _("{number}. {option}: {mark}{value:.1f} (tie)")
                if compact
                else _("{number}. {option}: {mark}{value:.1f} points to come (tie)")
            )
        else:
            template = (
                _("{number}. {option}: {mark}{value:.1f} (−{loss:.1f})")
                if compact
                else _("{number}. {option}: {mark}{value:.1f} points to come (−{loss:.1f})")
            )
        lines.append(
            template.format(
                number=number,
                option=choice_text(option.keep, option.category, option.column),
                mark="≈" if option.estimate else "",
                value=option.value,
                loss=option.loss,
            )
        )
    return lines
