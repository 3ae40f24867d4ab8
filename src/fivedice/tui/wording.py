"""Words only the terminal app needs: key descriptions, option and level names, advice.

Key descriptions are declared in English on the classes (Textual reads them once, at import)
and translated per screen instance by `localize_bindings`; calling it again after a language
switch re-translates a screen that is already showing.
"""

from __future__ import annotations

import dataclasses

from textual.dom import DOMNode

from fivedice.core.categories import Category
from fivedice.i18n import _
from fivedice.wording.cells import fit_cells
from fivedice.wording.text import box_name
from fivedice.wording.text import level_name as level_name


def binding_texts() -> dict[str, str]:
    """Each key description of the app, in the current language."""
    return {
        "Roll": _("Roll"),
        "Score": _("Score"),
        "Hint": _("Hint"),
        "Coach": _("Coach"),
        "Cards": _("Cards"),
        "Chances": _("Chances"),
        "Faster": _("Faster"),
        "Slower": _("Slower"),
        "Pause": _("Pause"),
        "Rules": _("Rules"),
        "Help": _("Help"),
        "New game": _("New game"),
        "Quit": _("Quit"),
        "Yes": _("Yes"),
        "No": _("No"),
        "Back": _("Back"),
        "Rematch": _("Rematch"),
        "Start": _("Start"),
        "Hold": _("Hold"),
        "Statistics": _("Statistics"),
        "High scores": _("High scores"),
        "Language": _("Language"),
        "Player": _("Player"),
        "Review": _("Review"),
        "Try again": _("Try again"),
        "Play unsaved": _("Play unsaved"),
        "Undo": _("Undo"),
        "Quit?": _("Quit?"),
    }


def localize_bindings(node: DOMNode, texts: dict[str, str] | None = None) -> None:
    """Translates the key descriptions a node shows in the footer (`texts`: English
    description → shown text; default `binding_texts()`)."""
    texts = binding_texts() if texts is None else texts
    # Textual keeps each node's bindings in a per-instance map copied from the class's English
    # ones; start again from that copy so a second call translates from English, not from the
    # language shown before.
    merged = node._merged_bindings
    if merged is not None:
        node._bindings = merged.copy()
    mapping = node._bindings.key_to_bindings
    for key, bindings in mapping.items():
        mapping[key] = [
            dataclasses.replace(b, description=texts.get(b.description, b.description))
            for b in bindings
        ]


def short_box_name(category: Category) -> str:
    """A box's name in at most 10 cells, for the compact score card of small windows."""
    names = {
        "three_of_a_kind": _("3 of kind"),
        "four_of_a_kind": _("4 of kind"),
        "five_of_a_kind": _("5 of kind"),
        "small_straight": _("Small str."),
        "large_straight": _("Large str."),
        "full_straight": _("Full str."),
    }
    name = names.get(category.key) or box_name(category)
    return fit_cells(name, 10)


def short_sum_labels() -> tuple[str, str, str, str, str]:
    """Upper total, upper bonus, Yahtzee bonus, total and grand total in at most 10 cells."""
    labels = (_("Upper sum"), _("Bonus"), _("Yahtzee +"), _("Total"), _("Grand tot."))
    return tuple(fit_cells(label, 10) for label in labels)  # type: ignore[return-value]


def option_label(name: str) -> str:
    """A rule option's label for the advanced panel (the key itself for unknown options)."""
    labels = {
        "rolls_per_turn": _("Rolls per turn"),
        "upper_bonus": _("Upper bonus"),
        "upper_bonus_threshold": _("Upper bonus threshold"),
        "upper_bonus_value": _("Upper bonus points"),
        "full_house": _("Full house points"),
        "small_straight": _("Small straight points"),
        "large_straight": _("Large straight points"),
        "yahtzee": _("Yahtzee points"),
        "of_a_kind_scores": _("Three/four of a kind score"),
        "five_of_a_kind_is_full_house": _("Five of a kind is a full house"),
        "straights": _("Straights"),
        "yahtzee_bonus": _("Extra-Yahtzee bonus"),
        "yahtzee_bonus_value": _("Extra-Yahtzee bonus points"),
        "yahtzee_bonus_condition": _("Extra-Yahtzee bonus needs"),
        "joker": _("Joker"),
        "upper_first": _("Upper boxes first"),
        "family": _("Boxes and dice"),
        "four_of_a_kind_is_two_pairs": _("Four of a kind is two pairs"),
        "fill_order": _("Fill order"),
        "extra_turn_on_yahtzee": _("Extra turn on a Yahtzee"),
        "saved_rolls": _("Unused rolls are saved"),
        "column_multipliers": _("Columns (multipliers, e.g. 1,2,3)"),
    }
    return labels.get(name, name)


def choice_label(value: str) -> str:
    """A rule option's enumerated value in words (the value itself when unknown)."""
    labels = {
        "all_dice": _("sum of all dice"),
        "matching_dice": _("matching dice only"),
        "runs": _("runs anywhere"),
        "fixed": _("fixed 1-5 and 2-6"),
        "box_scored": _("Yahtzee box scored"),
        "box_filled": _("Yahtzee box filled, even with 0"),
        "forced": _("forced"),
        "free_choice": _("free choice"),
        "none": _("none"),
        "yahtzee": _("Yahtzee: 13 boxes, five dice"),
        "yatzy": _("Yatzy: 15 boxes, five dice"),
        "maxi_yatzy": _("Maxi Yatzy: 20 boxes, six dice"),
        "free": _("any order"),
    }
    return labels.get(value, value)
