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


def _extracted() -> list[str | tuple[str, ...]]:
    return [
        message
        for _file, _line, message, _comments, _context in extract_from_dir(
            str(SOURCE), keywords={"_": None, "N_": None, "ngettext": (1, 2)}
        )
    ]


def source_messages() -> set[str]:
    """The messages without plural forms."""
    return {message for message in _extracted() if isinstance(message, str)}


def source_plurals() -> set[tuple[str, ...]]:
    """The messages with plural forms, as (singular, plural)."""
    return {tuple(message) for message in _extracted() if not isinstance(message, str)}


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
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


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_catalog_translates_every_plural_form(language):
    """A message shown with a count has every plural form of the language, each with the
    message's placeholders (one form may leave out the count, e.g. "one roll")."""
    with catalog_path(language).open("rb") as source:
        catalog = read_po(source, locale=language)
    plurals = {m.id: m for m in catalog if isinstance(m.id, tuple) and not m.fuzzy}
    wanted = source_plurals()
    assert len(wanted) >= 15
    missing = sorted(ids for ids in wanted if ids[:2] not in plurals)
    assert not missing, f"{language} lacks plural entries for {missing}"
    for ids in wanted:
        forms = plurals[ids[:2]].string
        assert isinstance(forms, tuple) and len(forms) == catalog.num_plurals, ids
        assert all(forms), f"{language} leaves a plural form of {ids[0]!r} empty"
        expected = set(PLACEHOLDER.findall(ids[1]))
        for form in forms:
            assert set(PLACEHOLDER.findall(form)) == expected, (ids, form)


def test_counts_choose_the_plural_form():
    from fivedice.core.rules import RuleSet
    from fivedice.wording.text import describe_rules

    try:
        assert describe_rules(RuleSet(rolls_per_turn=1))[0].startswith("Five dice, up to 1 roll a")
        assert describe_rules(RuleSet())[0].startswith("Five dice, up to 3 rolls a turn")
        set_language("nl")
        assert " 1 worp per beurt" in describe_rules(RuleSet(rolls_per_turn=1))[0]
        assert " 3 worpen per beurt" in describe_rules(RuleSet())[0]
        set_language("de")
        assert " 1 Wurf pro Zug" in describe_rules(RuleSet(rolls_per_turn=1))[0]
        assert " 3 Würfe pro Zug" in describe_rules(RuleSet())[0]
    finally:
        set_language("en")


def test_box_names_as_players_know_them():
    from fivedice.core.categories import CATEGORIES
    from fivedice.wording.text import box_name

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


def test_store_service_and_web_errors_are_translated(tmp_path):
    from fivedice.core.game import GameSettings, Seat
    from fivedice.core.record import parse_record
    from fivedice.service.games import GameService, HintsUnavailableError
    from fivedice.store import GameClosedError, GameNotFoundError
    from fivedice.web.hub import SeatError, UnknownGameError
    from fivedice.wording.text import error_text

    service = GameService.open(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    view = service.create_game(GameSettings(seats=(Seat("Ann"),)), seed=1)
    service.abandon(view.game_id)
    errors = {}
    for kind, call in (
        ("missing", lambda: service.load(999)),
        ("closed", lambda: service.apply_action(view.game_id, "roll", view.version)),
        ("record", lambda: parse_record("hello")),
    ):
        with pytest.raises(ValueError) as caught:
            call()
        errors[kind] = caught.value
    assert isinstance(errors["missing"], GameNotFoundError)
    assert isinstance(errors["closed"], GameClosedError)
    assert str(errors["missing"]) == "there is no saved game 999"
    seat = SeatError(
        "it is {mover}'s turn, not {name}'s (seat {seat})", 403, mover="Bo", name="Ann", seat=1
    )
    assert str(seat) == "it is Bo's turn, not Ann's (seat 1)" and seat.status == 403
    unknown = UnknownGameError("no game has the id {game!r}", game="x1")
    hints = HintsUnavailableError("the strategy layer is not available: {reason}", reason="numpy")
    try:
        set_language("nl")
        assert error_text(errors["missing"]) == "er is geen opgeslagen spel 999"
        assert error_text(errors["closed"]).startswith(f"spel {view.game_id} is ")
        assert error_text(errors["record"]).startswith("geen fivedice-spelverslag")
        assert error_text(seat) == "Bo is aan de beurt, niet Ann (plaats 1)"
        set_language("de")
        assert error_text(errors["missing"]) == "es gibt kein gespeichertes Spiel 999"
        assert error_text(unknown) == "kein Spiel hat die ID 'x1'"
        assert error_text(hints) == "die Strategieschicht ist nicht verfügbar: numpy"
    finally:
        set_language("en")


def test_six_languages_each_named_in_its_own_words():
    from fivedice.i18n import load_translations

    assert LANGUAGES == {
        "en": "English",
        "nl": "Nederlands",
        "de": "Deutsch",
        "ja": "日本語",
        "fr": "Français",
        "es": "Español",
    }
    for code in LANGUAGES:
        if code != "en":
            assert catalog_path(code).is_file(), code
            # Each catalog is really that language's (not an English copy).
            assert load_translations(code).gettext("New game") != "New game", code


def test_region_locales_pick_their_language(monkeypatch):
    from fivedice.i18n import detect_language

    for variable in ("FIVEDICE_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    for value, code in (("ja_JP.UTF-8", "ja"), ("fr_CA.UTF-8", "fr"), ("es_MX", "es")):
        monkeypatch.setenv("LANG", value)
        assert detect_language() == code


def test_numbers_percentages_and_dates_as_each_language_writes_them():
    from datetime import UTC, datetime

    from fivedice.i18n import formats

    moment = datetime(2026, 11, 30, 16, 5, tzinfo=UTC)
    assert formats.number(1234.5, 1, "en") == "1,234.5"
    assert formats.number(1234.5, 1, "ja") == "1,234.5"
    assert formats.number(1234.5, 1, "de") == "1.234,5"
    assert formats.number(231.456, 2, "nl") == "231,46"
    assert formats.number(231.5, 1, "fr").replace("\u202f", " ") == "231,5"
    assert formats.number(12.0, 1, "es") == "12,0"
    assert formats.percent(0.456, "en") == "46%"
    assert formats.percent(0.456, "de").replace("\xa0", " ") == "46 %"
    assert formats.day(moment, "ja") == "2026/11/30"
    assert formats.day("2026-11-30", "de") == "30.11.2026"
    assert formats.day(moment, "en") == "Nov 30, 2026"
    assert formats.moment(moment, "ja") == "2026/11/30 16:05"
    assert formats.moment(moment, "nl") == "30 nov 2026, 16:05"
    try:  # without a language: the current one
        set_language("de")
        assert formats.number(0.5, 1) == "0,5"
    finally:
        set_language("en")
    assert formats.number(0.5, 1) == "0.5"
