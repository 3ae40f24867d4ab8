"""Words about players and rules every front end shares: the log's grammar per subject, the
announcements of extra turns and saved rolls, custom rules by name, the coach by position."""

from __future__ import annotations

from fivedice.core.dice import ScriptedDice
from fivedice.core.game import GameSettings, Seat, apply, new_game
from fivedice.core.rules import find_ruleset
from fivedice.i18n import use_language
from fivedice.tui.widgets.move_log import action_entry, entry_text
from fivedice.wording.coach import hold_text
from fivedice.wording.moves import turn_news
from fivedice.wording.rules import describe_rules, rules_title


def test_the_log_speaks_to_you_and_about_the_others() -> None:
    settings = GameSettings((Seat("You"), Seat("Ann")))
    state = new_game(settings, ScriptedDice([1, 2, 3, 4, 4] * 4))
    rolled = apply(state, "roll", ScriptedDice([1, 2, 3, 4, 4]))
    held = apply(rolled, "hold 4 5")
    assert entry_text(action_entry(state, "roll", rolled)) == "You roll 1 2 3 4 4"
    assert entry_text(action_entry(rolled, "hold 4 5", held)) == "You hold dice 4 5 (4 4)"
    scored = apply(held, "score chance", ScriptedDice([6, 6, 6, 6, 6]))
    assert entry_text(action_entry(held, "score chance", scored)) == "You score 14 in Chance"
    their_roll = apply(scored, "roll", ScriptedDice([6, 6, 6, 6, 6]))
    assert entry_text(action_entry(scored, "roll", their_roll)) == "Ann rolls 6 6 6 6 6"
    with use_language("ja"):  # the same entry, spoken to the player in Japanese
        assert entry_text(action_entry(rolled, "hold 4 5", held)).startswith("あなたは")


def test_an_extra_turn_for_a_yahtzee_is_announced() -> None:
    rules = find_ruleset("classic", {"extra_turn_on_yahtzee": True})
    state = new_game(GameSettings((Seat("Ann"), Seat("Bob")), rules))
    rolled = apply(state, "roll", ScriptedDice([5, 5, 5, 5, 5]))
    after = apply(rolled, "score yahtzee")
    assert after.current_seat == 0  # Ann plays again
    assert turn_news("Ann", rolled, after) == ["Yahtzee! Ann plays an extra turn."]
    assert turn_news(None, rolled, after) == ["Yahtzee! You play an extra turn."]
    plain = find_ruleset("classic")
    ordinary = apply(
        new_game(GameSettings((Seat("Ann"), Seat("Bob")), plain)),
        "roll",
        ScriptedDice([5, 5, 5, 5, 5]),
    )
    assert turn_news("Ann", ordinary, apply(ordinary, "score yahtzee")) == []


def test_saved_rolls_are_announced_when_they_change() -> None:
    rules = find_ruleset("maxi-yatzy")
    state = new_game(GameSettings((Seat("Ann"), Seat("Bob")), rules))
    rolled = apply(state, "roll", ScriptedDice([1, 2, 3, 4, 5, 6]))
    after = apply(rolled, "score chance")  # two rolls not used: saved for later
    assert after.rolls_saved(0) == 2
    assert turn_news("Ann", rolled, after) == ["Ann has 2 rolls saved for later turns."]
    assert turn_news(None, rolled, after) == ["You have 2 rolls saved for later turns."]
    assert turn_news("Ann", state, rolled) == []  # a roll changes nothing about turns


def test_custom_rules_are_named_by_what_differs_from_the_nearest_preset() -> None:
    assert rules_title(find_ruleset("classic")) == "Classic"
    assert rules_title(find_ruleset("classic", {"upper_bonus_threshold": 70})) == (
        "Classic, bonus at 70"
    )
    assert rules_title(find_ruleset("yatzy", {"rolls_per_turn": 2})) == "Yatzy, 2 rolls a turn"
    many = find_ruleset(
        "classic",
        {"upper_bonus_threshold": 70, "upper_bonus_value": 50, "rolls_per_turn": 4, "yahtzee": 60},
    )
    assert rules_title(many).endswith(", 1 more change")
    with use_language("ja"):
        assert rules_title(find_ruleset("classic", {"upper_bonus_threshold": 70})) == (
            "クラシック（ボーナスは 70 点から）"
        )


def test_yatzy_rules_do_not_speak_of_further_yahtzees() -> None:
    for preset in ("yatzy", "maxi-yatzy"):
        text = " ".join(describe_rules(find_ruleset(preset)))
        assert "further Yahtzee" not in text
    assert "further Yahtzee" in " ".join(describe_rules(find_ruleset("classic")))


def test_the_coach_names_a_keep_by_positions_and_faces() -> None:
    assert hold_text((4, 5), (2, 3, 1, 5, 5)) == "hold 4 5 (5 5)"
    assert hold_text((), (2, 3, 1, 5, 5)) == "roll every die again"
