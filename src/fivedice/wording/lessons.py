"""The lesson list in words: each lesson's state and mark, and how many lessons are done."""

from __future__ import annotations

from collections.abc import Callable

from fivedice.core.errors import N_
from fivedice.i18n import _
from fivedice.i18n import ngettext as current_ngettext

STATE_NAMES: dict[str, str] = {
    "done": N_("done"),
    "skipped": N_("skipped"),
    "new": N_("not done yet"),
}
"""A lesson's state in words, by state (`service.tutorial.progress.lesson_state`)."""

STATE_MARKS: dict[str, str] = {"done": "✓", "skipped": "–"}
"""The mark before a lesson in a list, by state (a blank for a lesson not done yet)."""


def lesson_state_label(state: str, gettext: Callable[[str], str] | None = None) -> str:
    """A lesson's state in words, translated by `gettext` (default: the current language)."""
    return (gettext or _)(STATE_NAMES.get(state, STATE_NAMES["new"]))


def lesson_mark(state: str) -> str:
    """The one-character mark of a lesson's state in a list: ✓ done, – skipped, else blank."""
    return STATE_MARKS.get(state, " ")


def lessons_done_text(
    done: int, count: int, ngettext: Callable[[str, str, int], str] = current_ngettext
) -> str:
    """How many lessons are done ("3 of 7 lessons done."), the plural form chosen by
    `ngettext` (default: the current language's; the name lets Babel find the message)."""
    message = ngettext("{done} of {count} lesson done.", "{done} of {count} lessons done.", count)
    return message.format(done=done, count=count)
