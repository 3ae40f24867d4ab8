"""Lists in words, with the language's own separator."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from fivedice.i18n import _


def list_text(items: Iterable[str], gettext: Callable[[str], str] | None = None) -> str:
    """Items joined as a list in the language: "Ones, Chance" in English, "1の目、チャンス" in
    Japanese (the separator is a message of its own, so no comma is built into a sentence)."""
    # Translators: the separator between the items of a list: a comma and a space in English.
    return (gettext or _)(", ").join(items)
