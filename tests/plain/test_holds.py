"""Holding and releasing in the plain mode: a line takes the dice it can and says which it
left alone; `release all`; the short forms shared with the terminal app."""

from __future__ import annotations

import io

import pytest

from fivedice.core.actions import Hold, Release
from fivedice.core.dice import ScriptedDice
from fivedice.core.errors import MalformedActionError
from fivedice.core.rules import RuleSet
from fivedice.plain.game import parse_command, run_plain, take_what_can_be
from fivedice.service.games import GameService

PROMPT = "Ann> "
FIRST_ROLL = [6, 5, 4, 6, 2]


class Stdin(io.StringIO):
    def isatty(self) -> bool:
        return False


@pytest.fixture(autouse=True)
def scripted_dice(monkeypatch):
    """Action 1 rolls 6 5 4 6 2; later rolls give ones."""
    monkeypatch.setattr(
        "fivedice.service.view.dice_for",
        lambda seed, number: ScriptedDice(FIRST_ROLL if number == 1 else [1] * 5),
    )


def play(lines: list[str], tmp_path) -> tuple[list[list[str]], list[str]]:
    """The answer to each line, and the saved log."""
    out = io.StringIO()
    code = run_plain(
        RuleSet(),
        ["Ann"],
        [],
        seed=3,
        first="first_seat",
        games=1,
        stdin=Stdin("".join(line + "\n" for line in lines)),
        stdout=out,
        db=f"sqlite:///{tmp_path / 'plain.sqlite3'}",
    )
    assert code == 0
    said = [part.splitlines() for part in out.getvalue().split(PROMPT)[1:]]
    service = GameService.open(f"sqlite:///{tmp_path / 'plain.sqlite3'}")
    return said, [entry.action for entry in service.record(1).actions]


def test_a_hold_takes_the_dice_it_can_and_says_which_were_already_held(tmp_path):
    said, log = play(["r", "hold 1 2", "hold 2 3"], tmp_path)
    assert said[1] == ["Held: 6 and 5."]
    assert said[2] == ["Die 2 was already held.", "Held: 6, 5 and 4."]
    assert log == ["roll", "hold 1 2", "hold 3"]


def test_a_hold_of_held_dice_only_changes_nothing(tmp_path):
    said, log = play(["r", "hold 1 2", "hold 2 1"], tmp_path)
    assert said[2][0] == "Dice 1 and 2 were already held."
    assert log == ["roll", "hold 1 2"]


def test_a_release_takes_the_held_dice_and_says_which_were_not_held(tmp_path):
    said, log = play(["r", "hold 1 3", "release 3 4 5"], tmp_path)
    assert said[2] == ["Dice 4 and 5 were not held.", "Held: 6."]
    assert log == ["roll", "hold 1 3", "release 3"]


def test_release_all_releases_every_held_die_and_then_says_none_is(tmp_path):
    said, log = play(["r", "hold 1 2 4", "release all", "rel all"], tmp_path)
    assert said[2] == ["Nothing is held."]
    assert said[3] == ["No die is held."]
    assert log == ["roll", "hold 1 2 4", "release 1 2 4"]


def test_before_the_first_roll_the_rules_say_why_nothing_is_held(tmp_path):
    said, log = play(["hold 1", "release all", "r"], tmp_path)
    assert said[0][0].startswith("Not allowed: ") and "roll" in said[0][0]
    assert said[1][0].startswith("Not allowed: ") and "roll" in said[1][0]
    assert "already held" not in " ".join(said[0] + said[1])
    assert log == ["roll"]


def test_after_the_last_roll_a_hold_is_refused_for_that_reason(tmp_path):
    said, log = play(["r", "hold 1", "r", "r", "hold 1 2"], tmp_path)
    assert said[4][0].startswith("Not allowed: ")
    assert "already held" not in said[4][0]
    assert log == ["roll", "hold 1", "roll", "roll"]


def test_a_die_that_does_not_exist_refuses_the_whole_line(tmp_path):
    said, log = play(["r", "hold 2 9"], tmp_path)
    assert said[1] == ["Not allowed: there are dice 1 to 5; there is no die 9"]
    assert log == ["roll"]


def test_the_held_dice_are_read_in_words_in_the_next_roll(tmp_path):
    said, _log = play(["r", "hold 1 4", "r"], tmp_path)
    assert said[2][0] == "Roll 2 of 3: held 6, 1, 1, held 6, 1."


def test_digits_alone_hold_as_the_terminal_apps_digit_keys_do(tmp_path):
    said, log = play(["r", "1 4", "25"], tmp_path)
    assert said[1] == ["Held: 6 and 6."]
    assert log == ["roll", "hold 1 4", "hold 2 5"]


def test_the_terminal_apps_letters_mean_the_same_here(tmp_path):
    said, log = play(["r", "h", "v", "u", "z", "?", "q"], tmp_path)
    hint, card, rules, undo, help_, quit_ = said[1:7]
    assert hint[0].startswith("The coach's best options")
    assert any(line.startswith("Upper total") for line in card)
    assert rules[0].startswith("Five dice")
    assert undo[0].startswith("Cannot undo: a roll cannot be taken back")
    assert help_[0].startswith("Actions: roll (r)") and "undo (or z)" in " ".join(help_)
    assert quit_[0].startswith("Goodbye.")
    assert log == ["roll"]


def test_the_old_long_words_still_work(tmp_path):
    said, log = play(["roll", "hold 1", "undo", "show", "rules", "hint", "release all"], tmp_path)
    assert said[2][0] == "Your last action is taken back."
    assert any(line.startswith("Upper total") for line in said[3])
    assert log == ["roll", "hold 1", "undo"]


def test_h_with_dice_explains_that_h_is_the_hint(tmp_path):
    said, log = play(["r", "h 1 3"], tmp_path)
    assert said[1] == [  # (wrapped under 80 columns, between its items)
        "Not allowed: h is the hint, as in the terminal app; hold dice with hold 1 3,",
        "  or type their positions alone: 1 3",
    ]
    assert log == ["roll"]


@pytest.mark.parametrize(
    ("action", "held", "left", "ignored"),
    [
        (Hold((2, 3)), (True, True, False, False, False), Hold((3,)), (2,)),
        (Hold((1, 2)), (True, True, False, False, False), None, (1, 2)),
        (Release((1, 5)), (True, False, False, False, False), Release((1,)), (5,)),
        (Release((4,)), (False,) * 5, None, (4,)),
        (Hold((1, 6)), (False,) * 5, Hold((1, 6)), ()),  # die 6: for the rules to refuse
    ],
)
def test_take_what_can_be_splits_a_hold_or_release(action, held, left, ignored):
    assert take_what_can_be(action, held) == (left, ignored)


@pytest.mark.parametrize(
    ("text", "action"),
    [("1 3", Hold((1, 3))), ("13", Hold((1, 3))), ("3,1", Hold((1, 3))), ("rel 2", Release((2,)))],
)
def test_short_forms_parse_to_actions(text, action):
    assert parse_command(text) == action


@pytest.mark.parametrize("text", ["h 1", "hold", "score", "frobnicate", "1 1"])
def test_lines_that_are_no_action_are_refused(text):
    with pytest.raises(MalformedActionError):
        parse_command(text)


def test_an_undo_says_where_the_turn_stands_again(tmp_path):
    said, log = play(["r", "hold 1", "z", "s chance", "undo"], tmp_path)
    assert said[2] == [
        "Your last action is taken back.",
        "Roll 1 of 3: 6, 5, 4, 6, 2.",
        "Boxes: Twos 2, Fours 4, Fives 5, Sixes 12, Chance 23",
    ]
    assert said[4] == [
        "Your last action is taken back.",
        "Turn 1 of 13.",
        "Roll 1 of 3: 6, 5, 4, 6, 2.",
        "Boxes: Twos 2, Fours 4, Fives 5, Sixes 12, Chance 23",
    ]
    assert log == ["roll", "hold 1", "undo", "score chance", "undo"]
