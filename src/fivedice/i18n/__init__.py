"""Translations: every user-facing string goes through `_` (gettext, domain "fivedice").

English is the source language. The catalogs are the Babel `.po` files in
`fivedice/i18n/locale/<lang>/LC_MESSAGES/fivedice.po`; they are compiled in memory when a
language is chosen, so the repository holds no binary catalogs.

The language in force is a `ContextVar`: `use_language` (or `in_language`) sets it for one
context only - a web request, an asyncio task, a thread - so concurrent requests in different
languages never see each other's, and nothing needs a lock. A context that has set none uses
the process's language, which `set_language` chooses: the command line and the terminal apps
(one player per process) call it once, or when the player switches language, and every
thread and Textual task they run then speaks it.
"""

from __future__ import annotations

import gettext
import io
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "fivedice"
# The one list of languages every front end offers (web switcher, Accept-Language, --lang,
# FIVEDICE_LANG, the terminal app's `l` key, the sheet), each named in its own language.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "nl": "Nederlands",
    "de": "Deutsch",
    "ja": "日本語",
    "fr": "Français",
    "es": "Español",
}

# The language of a context that has not chosen one: (code, catalog). Replaced whole, never
# mutated, so a reader in another thread sees one language or the other, never a mix.
_process_language: tuple[str, gettext.NullTranslations] = ("en", gettext.NullTranslations())
_context_language: ContextVar[tuple[str, gettext.NullTranslations] | None] = ContextVar(
    "fivedice_language", default=None
)


def catalog_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def detect_language() -> str:
    """The language from FIVEDICE_LANG, LANGUAGE, LC_ALL, LC_MESSAGES or LANG; English if none."""
    for variable in ("FIVEDICE_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable, "")
        code = value.split(":")[0].split(".")[0].split("_")[0].lower()
        if code in LANGUAGES:
            return code
    return "en"


@cache
def load_translations(language: str) -> gettext.NullTranslations:
    """The compiled catalog of a language (English: the messages as written)."""
    path = catalog_path(language)
    if language == "en" or not path.exists():
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with path.open("rb") as source:
        catalog = read_po(source, locale=language)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def _checked(language: str | None) -> str:
    code = (language or detect_language()).strip().lower()
    return code if code in LANGUAGES else "en"


def set_language(language: str | None = None) -> str:
    """Makes `language` (or the detected one) the process's language for `_`; returns the
    code in force. A context inside `use_language` keeps its own until it leaves it."""
    global _process_language
    code = _checked(language)
    _process_language = (code, load_translations(code))
    return code


@contextmanager
def use_language(language: str | None) -> Iterator[str]:
    """Makes `language` current in this context only (a request, a task, a thread) for the
    duration of the block; other contexts keep theirs. Yields the code in force."""
    code = _checked(language)
    token = _context_language.set((code, load_translations(code)))
    try:
        yield code
    finally:
        _context_language.reset(token)


def in_language(language: str, function: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """Calls `function` with `language` current in this context only (see `use_language`)."""
    with use_language(language):
        return function(*args, **kwargs)


def _current() -> tuple[str, gettext.NullTranslations]:
    return _context_language.get() or _process_language


def current_language() -> str:
    """The code of the language in force in this context."""
    return _current()[0]


def _(message: str) -> str:
    """Translates a message into the current language."""
    return _current()[1].gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """Translates a message with plural forms into the current language."""
    return _current()[1].ngettext(singular, plural, count)
