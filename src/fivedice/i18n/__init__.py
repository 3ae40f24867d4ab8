"""Translations: every user-facing string goes through `_` (gettext, domain "fivedice").

English is the source language. Catalogs live in `fivedice/i18n/locale/<lang>/LC_MESSAGES`.
"""

from __future__ import annotations

import gettext
import os
from pathlib import Path

LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "fivedice"
LANGUAGES = ("en", "nl", "de")

_translation: gettext.NullTranslations = gettext.NullTranslations()


def detect_language() -> str:
    """The language from FIVEDICE_LANG, LANGUAGE, LC_ALL, LC_MESSAGES or LANG; English if none."""
    for variable in ("FIVEDICE_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable, "")
        code = value.split(":")[0].split(".")[0].split("_")[0].lower()
        if code in LANGUAGES:
            return code
    return "en"


def set_language(language: str | None = None) -> str:
    """Makes `language` (or the detected one) current for `_`; returns the code in force."""
    global _translation
    code = (language or detect_language()).lower()
    if code not in LANGUAGES:
        code = "en"
    _translation = gettext.translation(
        DOMAIN, localedir=LOCALE_DIR, languages=[code], fallback=True
    )
    return code


def _(message: str) -> str:
    """Translates a message into the current language."""
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    return _translation.ngettext(singular, plural, count)
