"""The lesson list in words: each lesson's state and mark, and how many lessons are done."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple, Protocol

from fivedice.core.categories import Category
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


class LessonMove(Protocol):
    """What a lesson step waits for (the tutorial engine's `NextMove`)."""

    @property
    def kind(self) -> str: ...
    @property
    def positions(self) -> tuple[int, ...]: ...
    @property
    def category(self) -> Category | None: ...
    @property
    def points(self) -> int: ...


class MoveWords(NamedTuple):
    """One front end's way to say a lesson's move (`N_` templates): `hold` and `release`
    with `{positions}` (or `{keys}`: the same), `score` with `{box}`, `{points}` and `{key}`
    (the box's key, as a command names it), and `roll`; `separator` joins the positions."""

    hold: str
    release: str
    score: str
    roll: str
    separator: str = " "


def lesson_move_text(move: LessonMove | None, words: MoveWords) -> str:
    """The step's move in a front end's own words: the dice by their positions, roll, or the
    box to score ("" when there is no move to make)."""
    from fivedice.wording.boxes import box_name

    if move is None:
        return ""
    positions = words.separator.join(map(str, move.positions))
    if move.kind == "hold":
        return _(words.hold).format(positions=positions, keys=positions)
    if move.kind == "release":
        return _(words.release).format(positions=positions, keys=positions)
    if move.kind == "score" and move.category is not None:
        category = move.category
        return _(words.score).format(key=category.key, box=box_name(category), points=move.points)
    return _(words.roll)
