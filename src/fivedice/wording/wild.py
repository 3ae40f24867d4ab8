"""The wild die in words and in short text: apart from the other dice, its ★ named.

In short text (the dice line of the terminal and the coach's keeps) the wild die stands in
braces, "{★}" or "{4}"; in the plain mode's words it is "wild die: star" (`fivedice.core.wild`).
"""

from __future__ import annotations

from fivedice.core.wild import STAR, WILD, die_token
from fivedice.i18n import _

die_text = die_token
"""A die of a roll or keep (the wild die coded apart) in short text: "4", "{★}"."""


def wild_face_text(face: int) -> str:
    """The wild die's face in short text: "{★}" or "{4}"."""
    return die_token(face + WILD)


def wild_die_words(face: int) -> str:
    """The wild die in words: "wild die: star", "wild die: 4"."""
    return _("wild die: {face}").format(face=_("star") if face == STAR else str(face))
