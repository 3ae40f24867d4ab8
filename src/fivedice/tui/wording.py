"""Words only the terminal app needs: key descriptions and the compact card's short labels.

Key descriptions are declared in English on the classes (Textual reads them once, at import)
and translated per screen instance by `localize_bindings`; calling it again after a language
switch re-translates a screen that is already showing.
"""

from __future__ import annotations

import dataclasses

from textual.dom import DOMNode

from fivedice.core.categories import Category
from fivedice.core.errors import N_
from fivedice.i18n import _
from fivedice.wording.boxes import box_name
from fivedice.wording.cells import fit_cells


def binding_texts() -> dict[str, str]:
    """Each key description of the app, in the current language."""
    return {
        "Roll": _("Roll"),
        "Score": _("Score"),
        "Hint": _("Hint"),
        "Apply hint": _("Apply hint"),
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
        "Skill": _("Skill"),
        "Language": _("Language"),
        "Player": _("Player"),
        "Review": _("Review"),
        "Try again": _("Try again"),
        "Play unsaved": _("Play unsaved"),
        "Undo": _("Undo"),
        "Quit?": _("Quit?"),
        "Restart": _("Restart"),
        "Skip": _("Skip"),
        "Points": _("Points"),
        "Rolls left": _("Rolls left"),
        "Clear": _("Clear"),
        "Cancel": _("Cancel"),
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


SHORT_BOX_NAMES: dict[str, str] = {
    "three_of_a_kind": N_("3 of kind"),
    "four_of_a_kind": N_("4 of kind"),
    "five_of_a_kind": N_("5 of kind"),
    "small_straight": N_("Small str."),
    "large_straight": N_("Large str."),
    "full_straight": N_("Full str."),
}
"""The boxes whose full names are too long for the compact card, abbreviated, by key."""


def short_box_name(category: Category) -> str:
    """A box's name in at most 10 cells, for the compact score card of small windows."""
    short = SHORT_BOX_NAMES.get(category.key)
    name = _(short) if short is not None else box_name(category)
    return fit_cells(name, 10)


def short_sum_labels() -> tuple[str, str, str, str, str]:
    """Upper total, upper bonus, Yahtzee bonus, total and grand total in at most 10 cells."""
    labels = (_("Upper sum"), _("Bonus"), _("Yahtzee +"), _("Total"), _("Grand tot."))
    return tuple(fit_cells(label, 10) for label in labels)  # type: ignore[return-value]
