"""Rule options in words: each option's label and each enumerated value, as the new-game
forms of the terminal app and the web show them.

The labels are the core's (`core.rules.OPTION_LABELS`, which its errors name options by),
so a form and an error about it say the same; only the column multipliers' field says how
to fill it in.
"""

from __future__ import annotations

from collections.abc import Callable

from fivedice.core.errors import N_
from fivedice.core.rules import OPTION_LABELS
from fivedice.i18n import _

FORM_LABELS: dict[str, str] = {
    **OPTION_LABELS,
    "column_multipliers": N_("Columns (multipliers, e.g. 1,2,3)"),
}
"""Each option's label on a new-game form, by option name."""

CHOICE_LABELS: dict[str, str] = {
    "all_dice": N_("sum of all dice"),
    "matching_dice": N_("matching dice only"),
    "runs": N_("runs anywhere"),
    "fixed": N_("fixed 1-5 and 2-6"),
    "box_scored": N_("Yahtzee box scored"),
    "box_filled": N_("Yahtzee box filled, even with 0"),
    "forced": N_("forced"),
    "free_choice": N_("free choice"),
    "none": N_("none"),
    "yahtzee": N_("Yahtzee: 13 boxes, five dice"),
    "yatzy": N_("Yatzy: 15 boxes, five dice"),
    "maxi_yatzy": N_("Maxi Yatzy: 20 boxes, six dice"),
    "yacht": N_("Yacht: 12 boxes, five dice"),
    "yacht_dice": N_("Yacht Dice: 12 boxes, five dice"),
    "generala": N_("Generala: 11 boxes, five dice"),
    "kismet": N_("Kismet: 15 boxes, five dice"),
    "free": N_("any order"),
    "on": N_("on"),
    "off": N_("off"),
}
"""Each enumerated option value (and a switch's on and off) in words, by value."""


def option_label(name: str, gettext: Callable[[str], str] | None = None) -> str:
    """A rule option's label on a new-game form, translated by `gettext` (default: the
    current language); an unknown option by its key."""
    label = FORM_LABELS.get(name)
    return (gettext or _)(label) if label is not None else name


def choice_label(value: str, gettext: Callable[[str], str] | None = None) -> str:
    """A rule option's enumerated value in words, translated by `gettext` (default: the
    current language); an unknown value as it is."""
    label = CHOICE_LABELS.get(value)
    return (gettext or _)(label) if label is not None else value
