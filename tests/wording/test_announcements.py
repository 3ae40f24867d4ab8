"""What a score changes besides the card is said: an extra turn earned by a Yahtzee, and rolls
saved for later turns; nothing is said when the score earned neither."""

from __future__ import annotations

from fivedice.core.dice import ScriptedDice
from fivedice.core.game import GameSettings, GameState, Seat, apply, new_game
from fivedice.core.rules import RuleSet, find_ruleset
from fivedice.i18n import set_language
from fivedice.wording.announcements import (
    earned_extra_turn,
    rolls_saved_by_score,
    score_announcements,
)

TWO = (Seat("Ann"), Seat("CPU 1", "casual"))


def rolled(rules: RuleSet, dice: list[int], seats=TWO) -> GameState:
    state = new_game(GameSettings(seats, rules))
    return apply(state, "roll", ScriptedDice(dice))


def test_a_yahtzee_under_the_extra_turn_rule_is_announced_with_the_name():
    before = rolled(RuleSet(extra_turn_on_yahtzee=True), [3] * 5)
    after = apply(before, "score yahtzee")
    assert earned_extra_turn(before, after)
    assert score_announcements("CPU 1", before, after) == [
        "CPU 1 plays again: an extra turn for the Yahtzee."
    ]
    assert score_announcements(None, before, after) == [
        "You play again: an extra turn for the Yahtzee."
    ]


def test_no_extra_turn_without_the_rule_or_without_a_yahtzee():
    before = rolled(RuleSet(), [3] * 5)
    assert score_announcements(None, before, apply(before, "score yahtzee")) == []
    before = rolled(RuleSet(extra_turn_on_yahtzee=True), [3, 3, 3, 3, 2])
    assert score_announcements(None, before, apply(before, "score chance")) == []


def test_a_yahtzee_in_a_solo_game_earns_no_extra_turn_to_announce():
    before = rolled(RuleSet(extra_turn_on_yahtzee=True), [3] * 5, seats=(Seat("Ann"),))
    assert not earned_extra_turn(before, apply(before, "score yahtzee"))


def test_rolls_left_when_scoring_under_saved_rolls_are_announced():
    rules = find_ruleset("maxi-yatzy")
    before = rolled(rules, [1, 2, 3, 4, 5, 6])
    after = apply(before, "score chance")
    assert rolls_saved_by_score(before, after) == 2
    assert score_announcements("Ann", before, after) == ["Ann saves 2 rolls for later turns."]
    assert score_announcements(None, before, after) == ["You save 2 rolls for later turns."]


def test_no_saved_rolls_without_the_rule():
    before = rolled(RuleSet(), [1, 2, 3, 4, 6])
    assert rolls_saved_by_score(before, apply(before, "score chance")) == 0


def test_the_announcements_are_translated():
    before = rolled(RuleSet(extra_turn_on_yahtzee=True), [3] * 5)
    after = apply(before, "score yahtzee")
    set_language("de")
    try:
        said = score_announcements("Ann", before, after)
    finally:
        set_language("en")
    assert said == ["Ann ist noch einmal dran: ein Extrazug für den Kniffel."]
