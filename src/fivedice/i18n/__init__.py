"""Translations: every user-facing string goes through `_` (gettext, domain "fivedice").

English is the source language. The catalogs are the Babel `.po` files in
`fivedice/i18n/locale/<lang>/LC_MESSAGES/fivedice.po`; they are compiled in memory when a
language is chosen, so the repository holds no binary catalogs.
"""

from __future__ import annotations

import gettext
import io
import os
from functools import cache
from pathlib import Path

LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "fivedice"
LANGUAGES: dict[str, str] = {
    "en": "English",
    "nl": "Nederlands",
    "de": "Deutsch",
    "ja": "日本語",
    "fr": "Français",
    "es": "Español",
}

_translation: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


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


def set_language(language: str | None = None) -> str:
    """Makes `language` (or the detected one) current for `_`; returns the code in force."""
    global _translation, _language
    code = (language or detect_language()).strip().lower()
    if code not in LANGUAGES:
        code = "en"
    _translation = load_translations(code)
    _language = code
    return code


def current_language() -> str:
    return _language


def _(message: str) -> str:
    """Translates a message into the current language."""
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    return _translation.ngettext(singular, plural, count)
