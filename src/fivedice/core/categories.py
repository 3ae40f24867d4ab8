"""The classic boxes under their old names (`Category`, `CATEGORIES`, `UPPER`, `LOWER`).

Boxes are data (`fivedice.core.boxes.Box`); a rule set names its own (`RuleSet.boxes`).
These names stay for the classic thirteen, which most of the code and the tests spell so.
"""

from __future__ import annotations

from fivedice.core.boxes import CLASSIC_BOXES, CLASSIC_INDEX, UPPER_BOXES, Box
from fivedice.core.errors import Phrase

Category = Box
"""A box (the old name, from when the thirteen boxes were an Enum)."""

CATEGORIES: tuple[Box, ...] = CLASSIC_BOXES
UPPER: tuple[Box, ...] = UPPER_BOXES
LOWER: tuple[Box, ...] = CLASSIC_BOXES[6:]
CATEGORY_INDEX: dict[Box, int] = {box: CLASSIC_INDEX[box.key] for box in CLASSIC_BOXES}

BOX_NAMES: dict[Box, str] = {box: box.name for box in CLASSIC_BOXES}
"""Each classic box's English name (every box carries its own: `Box.name`)."""


def box_phrase(category: Box) -> Phrase:
    """The box's name for an error message, translated with it ("the Full house box is
    already filled"), never its key."""
    return Phrase(category.name)


def upper_box(face: int) -> Box:
    """The upper box that counts `face` (1 → ones)."""
    return UPPER_BOXES[face - 1]
