"""Errors in words: a fivedice error's template translated and filled at the edge."""

from __future__ import annotations

from collections.abc import Callable

from fivedice.core.boxes import KNOWN_BOXES
from fivedice.core.errors import Phrase, Phrases
from fivedice.i18n import _
from fivedice.wording.lists import list_text


def error_text(error: BaseException, gettext: Callable[[str], str] | None = None) -> str:
    """An error's message for players, translated.

    The message template of a fivedice error (`error.template`) is translated with `gettext`
    (default: the current language's `_`; the web passes the page language's) and filled with
    the error's parameters. Other errors, and a translation that cannot be filled, give
    `str(error)`.
    """
    template = getattr(error, "template", None)
    params = getattr(error, "params", None)
    if not isinstance(template, str) or not template or not isinstance(params, dict):
        return str(error)
    translated = (gettext or _)(template)
    if not params:
        return translated
    # An error inside an error (what is damaged in a game, ...) is translated as well, and so
    # is a parameter that is a message itself (what the store could not do, an option's name);
    # a box is named as on the card ("Full House" in German), not by its key.
    params = {
        key: _localized_box(value, gettext) if key == "box" else _translated_param(value, gettext)
        for key, value in params.items()
    }
    try:
        return translated.format(**params)
    except (KeyError, IndexError, ValueError, AttributeError):
        return str(error)


def _translated_param(value: object, gettext: Callable[[str], str] | None) -> object:
    if isinstance(value, BaseException):
        return error_text(value, gettext)
    if isinstance(value, Phrase):
        return (gettext or _)(str(value))
    if isinstance(value, Phrases):
        return list_text(((gettext or _)(phrase) for phrase in value), gettext)
    return value


def _localized_box(value: object, gettext: Callable[[str], str] | None) -> object:
    """A box key ("full_house") as the box's name in the language; other values as they are."""
    category = KNOWN_BOXES.get(value) if isinstance(value, str) else None
    if category is None:  # already a name (a `Phrase`), or not a box at all
        return _translated_param(value, gettext)
    return (gettext or _)(category.name)


def refused_text(reason: str) -> str:
    """An action the game refused, with why: "Not allowed: it is not your turn"."""
    return _("Not allowed: {reason}").format(reason=reason)


def undo_refused_text(reason: str) -> str:
    """An undo the game refused, with why: "Cannot undo: a roll cannot be taken back"."""
    return _("Cannot undo: {reason}").format(reason=reason)


def not_saved_lines(reason: str) -> list[str]:
    """A save that failed but may succeed if tried again: why, and that nothing changed."""
    return [
        _("Not saved: {reason}").format(reason=reason),
        _("The action was not applied. Type it again to retry."),
    ]


def changed_elsewhere_text() -> str:
    """What a stale action says before the game is shown as saved now."""
    return _("The game was changed elsewhere; here it is as saved now.")
