"""Refusals from the core reach players in their language, with the values filled in."""

from __future__ import annotations

import pickle

import pytest
from typer.testing import CliRunner

from fivedice.cli import app
from fivedice.core.dice import ScriptedDice
from fivedice.core.errors import N_, FivediceError, IllegalActionError, MalformedActionError
from fivedice.core.game import GameSettings, Seat, apply, new_game
from fivedice.core.rules import find_preset
from fivedice.i18n import load_translations, set_language
from fivedice.wording.text import error_text


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    set_language("en")


def refusal(state, action):
    with pytest.raises(FivediceError) as caught:
        apply(state, action, ScriptedDice([3, 3, 3, 5, 5] * 4))
    return caught.value


@pytest.fixture
def rolled():
    state = new_game(GameSettings(seats=(Seat("Ann"),)))
    return apply(state, "roll", ScriptedDice([3, 3, 3, 5, 5]))


def test_an_error_keeps_its_template_and_parameters(rolled):
    error = refusal(apply(rolled, "hold 1"), "hold 1")
    assert isinstance(error, IllegalActionError)
    assert str(error) == "die 1 is already held"
    assert error.template == "die {position} is already held"
    assert error.params == {"position": 1}
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is IllegalActionError and copy.params == error.params
    assert str(copy) == str(error)


def test_plain_strings_still_work():
    error = FivediceError("something {odd} happened")
    assert str(error) == "something {odd} happened" and error.params == {}
    assert error_text(error) == "something {odd} happened"
    assert error_text(ValueError("not ours")) == "not ours"


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "die 1 is already held"),
        ("nl", "steen 1 wordt al vastgehouden"),
        ("de", "Würfel 1 ist schon festgehalten"),
    ],
)
def test_illegal_hold_in_each_language(rolled, language, expected):
    error = refusal(apply(rolled, "hold 1"), "hold 1")
    set_language(language)
    assert error_text(error) == expected
    assert str(error) == "die 1 is already held"  # the error itself stays English


def test_filled_box_and_rolls_left_in_dutch_and_german(rolled):
    filled = apply(apply(rolled, "score full_house"), "roll", ScriptedDice([3, 3, 3, 5, 5]))
    error = refusal(filled, "score full_house")
    # The box is named as on the player's card, never by its key.
    assert str(error) == "the Full house box is already filled (with 25)"
    set_language("nl")
    assert error_text(error) == "het vak Full House is al ingevuld (met 25)"
    set_language("de")
    assert error_text(error) == "das Feld Full House ist schon ausgefüllt (mit 25)"

    spent = apply(apply(rolled, "roll", ScriptedDice([1] * 5)), "roll", ScriptedDice([2] * 5))
    error = refusal(spent, "roll")
    assert str(error).startswith("no rolls are left (3 of 3 used)")
    assert error_text(error, load_translations("nl").gettext).startswith(
        "er zijn geen worpen meer (3 van 3 gebruikt)"
    )
    assert "(3 von 3 verbraucht)" in error_text(error, load_translations("de").gettext)


def test_malformed_actions_and_rule_sets_translated(rolled):
    error = refusal(rolled, "hold 9")
    assert isinstance(error, MalformedActionError)
    dutch = load_translations("nl").gettext
    german = load_translations("de").gettext
    assert error_text(error, dutch) == "er zijn stenen 1 tot 5; er is geen steen 9"
    assert error_text(error, german) == "es gibt die Würfel 1 bis 5; einen Würfel 9 gibt es nicht"
    # A box error re-raised as a malformed action keeps its template and values.
    error = refusal(rolled, "score nothing")
    assert error_text(error, dutch).startswith("geen vak heet 'nothing'; de vakken zijn ones,")
    with pytest.raises(FivediceError) as caught:
        find_preset("classic").rules.with_settings({"rolls_per_turn": "0"})
    # The option is named as players see it, in their language; never by its key.
    assert str(caught.value) == "Rolls per turn must be from 1 to 100, not 0"
    assert (
        error_text(caught.value, german) == "Würfe pro Zug muss zwischen 1 und 100 liegen, nicht 0"
    )
    assert error_text(caught.value, dutch) == "Worpen per beurt moet van 1 tot 100 zijn, niet 0"
    with pytest.raises(FivediceError) as caught:
        find_preset("classic").rules.with_settings({"upper-first": "maybe"})
    assert str(caught.value) == "Upper boxes first must be on or off, not 'maybe'"
    assert (
        error_text(caught.value, dutch)
        == "Eerst het bovenste deel moet on of off zijn, niet 'maybe'"
    )


def test_what_the_store_could_not_do_is_translated():
    from sqlalchemy.exc import OperationalError

    from fivedice.store.database import Store
    from fivedice.store.errors import StoreUnavailableError
    from fivedice.store.signals import StoreSignals

    store = Store.__new__(Store)  # (no database: only the error's wording is under test)
    store.description = "games.sqlite3"
    store.signals = StoreSignals()
    german = load_translations("de").gettext
    with pytest.raises(StoreUnavailableError) as caught, store._errors(N_("save the action")):
        raise OperationalError("x", {}, Exception("disk full"))
    assert str(caught.value).startswith("could not save the action (games.sqlite3): disk full")
    text = error_text(caught.value, german)
    assert "save the action" not in text and "Zug" in text, text


def test_a_bad_translation_falls_back_to_english():
    error = IllegalActionError(N_("die {position} is not held"), position=4)
    assert error_text(error, lambda message: "{nope}") == "die 4 is not held"


def play_plain(*options: str) -> str:
    result = CliRunner().invoke(
        app, [*options, "play", "--plain", "--seed", "4"], input="hold 1\nroll\nhold 9\n"
    )
    assert result.exit_code == 0, result.output
    return result.stdout


def test_plain_mode_refuses_in_dutch(monkeypatch):
    out = " ".join(play_plain("--lang", "nl").split())  # (lines wrapped under 80 columns)
    assert "gooi eerst voordat je stenen vasthoudt: de beurt begint met een worp" in out
    assert "er zijn stenen 1 tot 5; er is geen steen 9" in out
    assert "there is no die 9" not in out
    set_language("en")
    monkeypatch.setenv("FIVEDICE_LANG", "nl")
    assert "er is geen steen 9" in " ".join(play_plain().split())


def test_plain_mode_in_english_unchanged(monkeypatch):
    monkeypatch.setenv("FIVEDICE_LANG", "en")
    out = play_plain()
    assert "Not allowed: roll before you hold dice: the turn starts with a roll" in out
    assert "Not allowed: there are dice 1 to 5; there is no die 9" in out


def test_command_line_values_are_refused_in_the_players_language():
    from fivedice.core.rules import RuleSet
    from fivedice.plain.game import build_settings
    from fivedice.strategy.levels import parse_level

    dutch = load_translations("nl").gettext
    with pytest.raises(FivediceError) as caught:
        parse_level("god")
    from fivedice.strategy.levels import LEVELS

    levels = ", ".join(LEVELS)
    assert str(caught.value) == f"a CPU level is one of {levels}, not 'god'"
    assert error_text(caught.value, load_translations("de").gettext) == (
        f"eine CPU-Stufe ist eine von {levels}, nicht 'god'"
    )
    with pytest.raises(FivediceError) as caught:
        build_settings(RuleSet(), ["Ann"], [], "loudest", 1)
    assert error_text(caught.value, dutch).startswith(
        "de manier om de eerste speler te kiezen is een van first_seat,"
    )
