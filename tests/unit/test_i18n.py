"""Every catalog covers every message of the source, with the same placeholders."""

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

import fivedice
from fivedice.i18n import LANGUAGES, _, catalog_path, set_language

SOURCE = Path(fivedice.__file__).parent
PLACEHOLDER = re.compile(r"\{[a-z_]*(?:![rsa])?\}")


def source_messages() -> set[str]:
    found = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(SOURCE), keywords={"_": None, "N_": None, "ngettext": (1, 2)}
    ):
        found.update(message if isinstance(message, tuple) else (message,))
    return found


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_catalog_covers_every_message(language):
    with catalog_path(language).open("rb") as source:
        catalog = read_po(source, locale=language)
    translated = {m.id: m.string for m in catalog if m.id and m.string and not m.fuzzy}
    messages = source_messages()
    assert len(messages) > 50
    missing = sorted(m for m in messages if m not in translated)
    assert not missing, f"{language} lacks translations for {missing}"
    for message in messages:
        assert set(PLACEHOLDER.findall(message)) == set(PLACEHOLDER.findall(translated[message])), (
            message
        )


def test_box_names_as_players_know_them():
    from fivedice.core.categories import CATEGORIES
    from fivedice.text import box_name

    try:
        set_language("nl")
        assert [box_name(c) for c in CATEGORIES] == [
            "Enen",
            "Tweeën",
            "Drieën",
            "Vieren",
            "Vijven",
            "Zessen",
            "Drie gelijke",
            "Vier gelijke",
            "Full House",
            "Kleine straat",
            "Grote straat",
            "Yahtzee",
            "Kans",
        ]
        set_language("de")
        assert [box_name(c) for c in CATEGORIES] == [
            "Einser",
            "Zweier",
            "Dreier",
            "Vierer",
            "Fünfer",
            "Sechser",
            "Dreierpasch",
            "Viererpasch",
            "Full House",
            "Kleine Straße",
            "Große Straße",
            "Kniffel",
            "Chance",
        ]
        assert set_language("xx") == "en" and _("Ones") == "Ones"
    finally:
        set_language("en")


def test_language_from_environment(monkeypatch):
    from fivedice.i18n import detect_language

    for variable in ("FIVEDICE_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    assert detect_language() == "en"
    monkeypatch.setenv("LANG", "nl_NL.UTF-8")
    assert detect_language() == "nl"
    monkeypatch.setenv("FIVEDICE_LANG", "de")
    assert detect_language() == "de"
