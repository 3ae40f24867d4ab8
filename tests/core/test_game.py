"""The game state machine: turns, rolls, holds, scoring, matches, first player, ranking."""

import pytest

from fivedice.core.actions import Hold, Roll, Score
from fivedice.core.categories import CATEGORIES, Category
from fivedice.core.dice import RandomDice, ScriptedDice
from fivedice.core.errors import ActionError, IllegalActionError, MalformedActionError
from fivedice.core.game import (
    FirstPlayer,
    GameSettings,
    Seat,
    SettingsError,
    apply,
    choose_first_player,
    legal_actions,
    new_game,
    rank,
    replay,
)
from fivedice.core.names import PlayerNameError, visible_text
from fivedice.core.rules import RuleSet, find_ruleset

ANN_BOB = (Seat("Ann"), Seat("Bob"))


def test_a_turn_roll_hold_roll_score():
    state = new_game(GameSettings(ANN_BOB))
    assert legal_actions(state) == [Roll()]
    state = apply(state, "roll", ScriptedDice([6, 6, 2, 3, 6]))
    assert state.dice == (6, 6, 2, 3, 6) and state.rolls_left == 2
    state = apply(state, "hold 1 2 5")
    state = apply(state, "roll", ScriptedDice([6, 1]))
    assert state.dice == (6, 6, 6, 1, 6)
    assert state.turn.held == (True, True, False, False, True)
    state = apply(state, "release 5")
    state = apply(state, "roll", ScriptedDice([4, 6, 6]))
    assert state.dice == (6, 6, 4, 6, 6) and state.rolls_left == 0
    assert Roll() not in legal_actions(state)
    state = apply(state, "score sixes")
    assert state.cards[0].columns[0].score(Category.SIXES) == 24
    assert state.current_seat == 1 and state.dice is None and state.turn.held == (False,) * 5


@pytest.mark.parametrize(
    "setup, action, message",
    [
        ([], "score chance", "roll before you score"),
        ([], "hold 1", "roll before you hold"),
        (["roll", "roll", "roll"], "roll", "no rolls are left"),
        (["roll", "roll", "roll"], "hold 1", "no rolls are left"),
        (["roll", "hold 1"], "hold 1", "already held"),
        (["roll"], "release 3", "not held"),
        (["roll", "hold 1 2 3 4 5"], "roll", "all five dice are held"),
        (["roll"], "score 2:chance", "no column 2"),
    ],
)
def test_illegal_actions_raise_and_change_nothing(setup, action, message):
    dice = RandomDice(1)
    state = new_game(GameSettings(ANN_BOB))
    for step in setup:
        state = apply(state, step, dice)
    before = state
    with pytest.raises(IllegalActionError, match=message):
        apply(state, action, dice)
    assert state == before


def test_malformed_and_missing_dice():
    state = new_game(GameSettings())
    with pytest.raises(MalformedActionError):
        apply(state, "dance")
    with pytest.raises(ActionError, match="dice source"):
        apply(state, "roll")


def test_scoring_a_filled_box_is_refused():
    dice = RandomDice(3)
    state = apply(new_game(GameSettings()), "roll", dice)
    state = apply(state, "score chance")
    state = apply(state, "roll", dice)
    with pytest.raises(IllegalActionError, match="already filled"):
        apply(state, "score chance")


def test_rolls_per_turn_option():
    rules = RuleSet(rolls_per_turn=1)
    state = apply(new_game(GameSettings(rules=rules)), "roll", RandomDice(1))
    assert legal_actions(state) == [Score(c) for c in CATEGORIES]


def first_score(state):
    return next(a for a in legal_actions(state) if isinstance(a, Score))


def _play_out(state, dice):
    """Two rolls, then the first legal box, every turn."""
    while not state.is_match_over:
        state = apply(apply(state, "roll", dice), "roll", dice)
        state = apply(state, first_score(state), dice)
    return state


def test_game_ends_after_13_turns_per_seat_per_column():
    rules = find_ruleset("classic", {"columns": 2})
    dice = RandomDice(5)
    state = new_game(GameSettings(ANN_BOB, rules))
    turns = 0
    while not state.is_match_over:
        state = apply(state, "roll", dice)
        state = apply(state, first_score(state), dice)
        turns += 1
    assert turns == 2 * 13 * 2
    assert all(card.is_complete for card in state.cards)
    assert legal_actions(state) == []
    with pytest.raises(IllegalActionError, match="over"):
        apply(state, "roll", dice)


def test_same_seed_same_game():
    settings = GameSettings(ANN_BOB)
    assert _play_out(new_game(settings), RandomDice(11)) == _play_out(
        new_game(settings), RandomDice(11)
    )
    assert _play_out(new_game(settings), RandomDice(11)) != _play_out(
        new_game(settings), RandomDice(12)
    )


def test_match_of_three_games_sums_totals_and_rotates_the_start():
    settings = GameSettings(ANN_BOB, match_length=3)
    state = new_game(settings)
    starts = []
    dice = RandomDice(2)
    while not state.is_match_over:
        if state.dice is None and all(c.boxes_filled == 0 for c in state.cards):
            starts.append(state.current_seat)
        state = apply(state, "roll", dice)
        state = apply(state, first_score(state), dice)
    assert starts == [0, 1, 0]
    assert state.game_number == 3 and len(state.finished_games) == 2
    expected = tuple(
        sum(g.totals[s] for g in state.finished_games) + state.totals[s] for s in range(2)
    )
    assert state.match_totals == expected


def test_highest_single_die_with_reroll_of_ties():
    dice = ScriptedDice([5, 6, 6, 2, 3, 4])
    seat, rounds = choose_first_player(FirstPlayer.HIGHEST_DIE, 4, dice)
    # Round 1: 5, 6, 6, 2 -> seats 1 and 2 tie; round 2: 3 vs 4 -> seat 2.
    assert seat == 2
    assert rounds == (((5,), (6,), (6,), (2,)), (None, (3,), (4,), None))


def test_highest_sum_of_five_dice():
    dice = ScriptedDice([1, 1, 1, 1, 1, 6, 6, 6, 6, 5, 2, 2, 2, 2, 2])
    seat, rounds = choose_first_player(FirstPlayer.HIGHEST_SUM, 3, dice)
    assert seat == 1 and len(rounds) == 1
    state = new_game(
        GameSettings((*ANN_BOB, Seat("Cy")), first_player=FirstPlayer.HIGHEST_SUM),
        ScriptedDice([1, 1, 1, 1, 1, 6, 6, 6, 6, 5, 2, 2, 2, 2, 2]),
    )
    assert state.current_seat == state.starting_seat == 1


def test_play_goes_round_the_table_from_the_starting_seat():
    seats = (Seat("A"), Seat("B"), Seat("C"))
    state = new_game(
        GameSettings(seats, first_player=FirstPlayer.HIGHEST_DIE), ScriptedDice([1, 2, 6])
    )
    order = []
    dice = RandomDice(0)
    for _ in range(4):
        order.append(state.current_seat)
        state = apply(state, "roll", dice)
        state = apply(state, first_score(state))
    assert order == [2, 0, 1, 2]


def test_shared_ranks():
    assert rank([250, 250, 200]) == (1, 1, 3)
    assert rank([100]) == (1,)
    assert rank([10, 20, 20, 30]) == (4, 2, 2, 1)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"seats": ()}, "1 to"),
        ({"seats": (Seat("A"), Seat("a"))}, "same name"),
        ({"match_length": 0}, "1 to"),
    ],
)
def test_bad_settings(kwargs, message):
    with pytest.raises(SettingsError, match=message):
        GameSettings(**kwargs)
    with pytest.raises(SettingsError):
        Seat(" ")


def test_replay_rebuilds_the_state():
    settings = GameSettings(ANN_BOB)
    script = [3, 3, 3, 5, 5, 1, 2, 3, 4, 5]
    state = replay(
        settings, ["roll", "score full_house", "roll", "score large_straight"], ScriptedDice(script)
    )
    assert state.totals == (25, 40)


def test_hold_keeps_values_through_rolls():
    state = apply(new_game(GameSettings()), "roll", ScriptedDice([1, 2, 3, 4, 5]))
    state = apply(state, Hold((2, 4)))
    assert state.turn.kept_values == (2, 4)
    state = apply(state, "roll", ScriptedDice([6, 6, 6]))
    assert state.dice == (6, 2, 6, 4, 6)


# -- player names: the one rule ----------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "a\x00b",  # NUL
        "a\x1b[31mc",  # ESC: a terminal escape
        "a\x7fb",  # DEL
        "a\x9bb",  # C1 (CSI)
        'a\nseed: 99\nseat: "Evil" cpu=expert',  # forged record/listing lines
        "a\rb",
        "a\tb",
        "a\x0bb\x0cc",
        "a\x85b",  # NEL
        "a\u2028b",  # line separator
        "a\u2029b",  # paragraph separator
        "\u202eevil",  # right-to-left override
        "a\u2066b",
        "\ud800",  # a lone surrogate: no encoding can write it
    ],
)
def test_names_with_control_characters_or_line_breaks_are_refused(name):
    with pytest.raises(PlayerNameError, match="control characters, line breaks") as caught:
        Seat(name)
    assert isinstance(caught.value, SettingsError) and isinstance(caught.value, ValueError)
    # The message shows the name escaped: it is one line, without the character itself.
    message = str(caught.value)
    assert message.isprintable() and caught.value.params["code"].startswith("U+")


@pytest.mark.parametrize("name", ["", "   ", "\u3000", " \u0301"])
def test_names_with_nothing_visible_are_refused(name):
    with pytest.raises(PlayerNameError, match="every seat needs a name"):
        Seat(name)


@pytest.mark.parametrize(
    "name",
    [
        "\u2800",  # the blank Braille pattern (a symbol, drawn as a space)
        "\u3164",  # HANGUL FILLER, a letter drawn as nothing
        "\u115f",  # HANGUL CHOSEONG FILLER
        "\uffa0",  # HALFWIDTH HANGUL FILLER
        "A\u200bnn",  # a zero-width space inside
        "Ann\u2060",  # WORD JOINER
        "Ann\U000e0041",  # a tag character
        "\ufeffAnn",  # a leading byte order mark
        "Ann\u00a0Lee",  # a space that only looks like one
        "\u200dAnn",  # a joiner with nothing to join
        "\u00a0\u3000",
        "\u200d\u0301",
    ],
)
def test_invisible_and_space_look_alike_characters_are_refused(name):
    with pytest.raises(PlayerNameError, match="invisible characters") as caught:
        Seat(name)
    assert caught.value.params["code"].startswith("U+")


@pytest.mark.parametrize("name", ["❤\ufe0f Ann", "👩\u200d💻", "山田\u3000太郎", "Jose\u0301"])
def test_emoji_sequences_and_ideographic_spaces_are_names(name):
    assert Seat(name).name == name


def test_names_are_trimmed_and_at_most_40_characters_after_trimming():
    assert Seat("  Ann  ").name == "Ann"
    assert Seat(" " * 10 + "x" * 40 + " " * 10).name == "x" * 40
    with pytest.raises(PlayerNameError, match="at most 40 characters"):
        Seat("x" * 41)
    # Names are matched ignoring case; the case-folded key must fit the 40 as well.
    assert Seat("ß" * 20).name == "ß" * 20
    with pytest.raises(PlayerNameError, match="when compared ignoring case"):
        Seat("ß" * 21)
    with pytest.raises(PlayerNameError):
        Seat(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "name", ["Ann", "Jörg Müller", "李小龙", "👨‍👩‍👧 family", "O'Brien: 2nd", 'Ann "A"']
)
def test_ordinary_names_are_kept_as_they_are(name):
    assert Seat(name).name == name


def test_two_seats_whose_names_differ_only_in_outer_spaces_are_the_same_player():
    with pytest.raises(SettingsError, match="same name"):
        GameSettings((Seat("Ann"), Seat(" ann ")))


@pytest.mark.parametrize(
    "text, expected",
    [
        ("a\nseed: 99", "a\\nseed: 99"),
        ("a\x00b\x1b[31mc", "a\\x00b\\x1b[31mc"),
        ("x\u2028y\u202e", "x\\u2028y\\u202e"),
        ("back\\slash", "back\\\\slash"),
        ("Jörg  Müller", "Jörg  Müller"),
    ],
)
def test_visible_text_shows_stored_text_on_one_line_without_escapes(text, expected):
    assert visible_text(text) == expected
    assert visible_text(text, quote=True) == f'"{expected}"'
    assert visible_text(text).isprintable()
