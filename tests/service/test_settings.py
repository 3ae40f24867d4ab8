"""The settings every front end shares: names, CPU levels, first player, seat lists, a 0."""

from __future__ import annotations

import pytest

from fivedice.core.actions import Hold, Roll, Score
from fivedice.core.categories import Category
from fivedice.core.dice import ScriptedDice
from fivedice.core.errors import SettingsError
from fivedice.core.game import FirstPlayer, GameKind, GameSettings, Seat, apply, new_game
from fivedice.core.names import MAX_NAME_LENGTH, PlayerNameError, check_name, name_key
from fivedice.core.rules import CLASSIC, find_ruleset
from fivedice.service.settings import (
    FirstPlayerError,
    build_table_settings,
    game_settings,
    parse_first_player,
    zero_score_to_confirm,
)
from fivedice.strategy.levels import (
    DEFAULT_LEVEL,
    LEVELS,
    CpuLevelError,
    Level,
    check_level,
    parse_level,
)

# -- names ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Ann", "ann"),
        ("  Ann ", "ANN"),
        ("Straße", "STRASSE"),
        ("Émile", "émile"),
    ],
)
def test_names_that_differ_in_case_or_outer_spaces_are_one_name(first, second):
    assert name_key(first) == name_key(second)


@pytest.mark.parametrize(("first", "second"), [("Ann", "Anne"), ("Ann", "A nn"), ("Bo", "Bö")])
def test_different_names_have_different_keys(first, second):
    assert name_key(first) != name_key(second)


@pytest.mark.parametrize(
    ("name", "allowed"),
    [
        ("x" * MAX_NAME_LENGTH, True),
        ("  " + "x" * MAX_NAME_LENGTH + "  ", True),  # counted once trimmed
        ("x" * (MAX_NAME_LENGTH + 1), False),
        ("ß" * MAX_NAME_LENGTH, False),  # its key, "ss" each, is twice as long
    ],
)
def test_a_name_and_its_key_fit_the_one_length_limit(name, allowed):
    if allowed:
        assert len(name_key(check_name(name))) <= MAX_NAME_LENGTH
    else:
        with pytest.raises(PlayerNameError, match=f"at most {MAX_NAME_LENGTH} characters"):
            check_name(name)


def test_two_seats_whose_names_share_a_key_are_refused():
    with pytest.raises(SettingsError, match="same name"):
        GameSettings((Seat("Ann"), Seat(" ANN")))


# -- CPU levels ------------------------------------------------------------------------------


def test_the_default_level_is_one_of_the_levels():
    assert DEFAULT_LEVEL in LEVELS
    assert DEFAULT_LEVEL == "casual"


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_passes_the_check(level):
    assert check_level(level) == level


@pytest.mark.parametrize(
    ("text", "seat"),
    [("god", None), ("Casual", 2), (" expert", 1), ("", 3), ("grandmaster", None)],
)
def test_a_level_that_is_not_exactly_a_name_is_refused_with_the_one_message(text, seat):
    with pytest.raises(CpuLevelError) as caught:
        check_level(text, seat=seat)
    assert str(caught.value) == f"a CPU level is one of {', '.join(LEVELS)}, not {text!r}"
    assert isinstance(caught.value, SettingsError)
    assert caught.value.params.get("seat") == seat


@pytest.mark.parametrize(("text", "level"), [("Expert", Level.EXPERT), (" casual ", Level.CASUAL)])
def test_a_typed_level_is_read_in_any_case(text, level):
    assert Level.parse(text) is level
    assert parse_level(text) == level.value


def test_a_typed_level_that_does_not_exist_gets_the_same_message_as_the_check():
    with pytest.raises(CpuLevelError) as typed:
        parse_level("god")
    with pytest.raises(CpuLevelError) as checked:
        check_level("god")
    assert typed.value.template == checked.value.template
    assert str(typed.value) == str(checked.value)


# -- first player ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "names", "expected"),
    [
        ("", (), FirstPlayer.FIRST_SEAT),
        ("  ", ("Ann",), FirstPlayer.FIRST_SEAT),
        ("first_seat", (), FirstPlayer.FIRST_SEAT),
        ("highest_die", (), FirstPlayer.HIGHEST_DIE),
        ("Highest-Sum", (), FirstPlayer.HIGHEST_SUM),
        (" highest_die ", ("Ann", "Bob"), FirstPlayer.HIGHEST_DIE),
        ("bob", ("Ann", "Bob"), 1),
        ("  ANN ", ("Ann", "Bob"), 0),
        ("strasse", ("Ann", "Straße"), 1),
        ("highest_die", ("Ann", "Highest_Die"), 1),  # a player's name comes first
    ],
)
def test_the_first_player_is_a_mode_or_a_players_name(text, names, expected):
    assert parse_first_player(text, names) == expected


@pytest.mark.parametrize(
    ("text", "names", "listed"),
    [
        ("loudest", (), "first_seat, highest_die, highest_sum"),
        ("Zoe", ("Ann", "Bob"), "Ann, Bob, first_seat, highest_die, highest_sum"),
        ("bob", (), "first_seat, highest_die, highest_sum"),  # names count only where given
    ],
)
def test_an_unknown_first_player_is_refused_with_what_would_do(text, names, listed):
    with pytest.raises(FirstPlayerError) as caught:
        parse_first_player(text, names)
    assert str(caught.value) == f"first player mode must be one of {listed}, not {text!r}"
    assert isinstance(caught.value, SettingsError)


# -- seat lists ------------------------------------------------------------------------------


def test_game_settings_hold_the_seats_in_order_with_their_levels():
    settings = game_settings(
        [(" Ann ", None), ("CPU", "expert")],
        CLASSIC,
        first_player="highest-die",
        match_length=3,
    )
    assert [(s.name, s.cpu_level) for s in settings.seats] == [("Ann", None), ("CPU", "expert")]
    assert settings.first_player is FirstPlayer.HIGHEST_DIE
    assert settings.match_length == 3
    assert settings.kind is GameKind.PLAY


@pytest.mark.parametrize(
    ("seats", "first", "error", "words"),
    [
        ([("Ann", None), ("CPU", "god")], "", CpuLevelError, "a CPU level is one of"),
        ([("Ann", None)], "loudest", FirstPlayerError, "first player mode must be one of"),
        ([("Ann", None), ("ann", "casual")], "", SettingsError, "same name"),
        ([], "", SettingsError, "1 to 100 seats, not 0"),
        ([("\x1b[31m", None)], "", PlayerNameError, "control characters"),
    ],
)
def test_game_settings_refuse_with_the_one_message_of_each_check(seats, first, error, words):
    with pytest.raises(error, match=words):
        game_settings(seats, CLASSIC, first_player=first)


def test_a_refused_level_names_its_seat():
    with pytest.raises(CpuLevelError) as caught:
        game_settings([("Ann", None), ("Bo", "casual"), ("Cy", "god")], CLASSIC)
    assert caught.value.params["seat"] == 3


@pytest.mark.parametrize(
    ("players", "first", "order", "mode"),
    [
        (["Ann", "Bob", "Cy"], "", ["Ann", "Bob", "Cy"], FirstPlayer.FIRST_SEAT),
        (["Ann", "Bob", "Cy"], "cy", ["Cy", "Ann", "Bob"], FirstPlayer.FIRST_SEAT),
        (["Ann", "Bob", "Cy"], "BOB", ["Bob", "Cy", "Ann"], FirstPlayer.FIRST_SEAT),
        (["Ann", "Bob"], "highest_sum", ["Ann", "Bob"], FirstPlayer.HIGHEST_SUM),
    ],
)
def test_table_settings_start_from_the_named_player_in_the_order_given(players, first, order, mode):
    settings = build_table_settings(CLASSIC, players, first)
    assert [seat.name for seat in settings.seats] == order
    assert settings.first_player is mode
    assert settings.kind is GameKind.TABLE


@pytest.mark.parametrize(
    ("players", "first", "words"),
    [
        ([], "", "name the players at the table"),
        (["Ann", "Bob"], "Zoe", "one of Ann, Bob, first_seat"),
        (["Ann", "ANN"], "", "same name"),
    ],
)
def test_table_settings_refuse_with_the_reason(players, first, words):
    with pytest.raises(SettingsError, match=words):
        build_table_settings(CLASSIC, players, first)


# -- a score of 0 ----------------------------------------------------------------------------


def _rolled(dice, rules=CLASSIC):
    state = new_game(GameSettings((Seat("Ann"),), rules))
    return apply(state, Roll(), ScriptedDice(dice))


@pytest.mark.parametrize(
    ("dice", "action", "asks"),
    [
        ((1, 2, 3, 4, 6), "score yahtzee", True),  # a 0: asked first
        ((1, 2, 3, 4, 6), Score(Category.YAHTZEE), True),
        ((1, 2, 3, 4, 6), "score chance", False),  # points: scored at once
        ((1, 2, 3, 4, 6), "score fives", True),
        ((5, 5, 5, 5, 5), "score yahtzee", False),
        ((1, 2, 3, 4, 6), "roll", False),  # not a score
        ((1, 2, 3, 4, 6), Hold((1,)), False),
        ((1, 2, 3, 4, 6), "score nonsense", False),  # malformed: the service says why
    ],
)
def test_only_a_legal_score_of_zero_asks_for_confirmation(dice, action, asks):
    placement = zero_score_to_confirm(_rolled(dice), action)
    assert (placement is not None) == asks
    if asks:
        assert placement.points == 0


def test_no_confirmation_before_the_first_roll_or_for_a_used_box():
    state = new_game(GameSettings((Seat("Ann"),), CLASSIC))
    assert zero_score_to_confirm(state, "score yahtzee") is None  # not legal yet
    rolled = _rolled((1, 2, 3, 4, 6))
    after = apply(rolled, "score yahtzee")
    after = apply(after, Roll(), ScriptedDice((1, 2, 3, 4, 6)))
    assert zero_score_to_confirm(after, "score yahtzee") is None  # used up: refused instead


def test_the_confirmation_names_the_column_of_several():
    state = _rolled((1, 2, 3, 4, 6), find_ruleset("triple"))
    placement = zero_score_to_confirm(state, "score 3:yahtzee")
    assert placement is not None and placement.column == 2
