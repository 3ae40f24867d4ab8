"""What a score changes besides the card is said (`turn_news`, every front end): an extra turn
earned by a Yahtzee, and rolls saved for later turns; nothing when the score earned neither."""

from __future__ import annotations

from fivedice.core.dice import ScriptedDice
from fivedice.core.game import GameSettings, GameState, Seat, apply, new_game
from fivedice.core.rules import RuleSet, find_ruleset
from fivedice.i18n import set_language
from fivedice.wording.moves import saved_rolls_turn_text, turn_events, turn_news

TWO = (Seat("Ann"), Seat("CPU 1", "casual"))


def rolled(rules: RuleSet, dice: list[int], seats=TWO) -> GameState:
    state = new_game(GameSettings(seats, rules))
    return apply(state, "roll", ScriptedDice(dice))


def test_a_yahtzee_under_the_extra_turn_rule_is_announced_with_the_name():
    before = rolled(RuleSet(extra_turn_on_yahtzee=True), [3] * 5)
    after = apply(before, "score yahtzee")
    assert turn_events(before, after)[0]
    assert turn_news("CPU 1", before, after) == ["Yahtzee! CPU 1 plays an extra turn."]
    assert turn_news(None, before, after) == ["Yahtzee! You play an extra turn."]


def test_no_extra_turn_without_the_rule_or_without_a_yahtzee():
    before = rolled(RuleSet(), [3] * 5)
    assert turn_news(None, before, apply(before, "score yahtzee")) == []
    before = rolled(RuleSet(extra_turn_on_yahtzee=True), [3, 3, 3, 3, 2])
    assert turn_news(None, before, apply(before, "score chance")) == []


def test_a_yahtzee_in_a_solo_game_earns_no_extra_turn_to_announce():
    before = rolled(RuleSet(extra_turn_on_yahtzee=True), [3] * 5, seats=(Seat("Ann"),))
    assert not turn_events(before, apply(before, "score yahtzee"))[0]


def test_rolls_left_when_scoring_under_saved_rolls_are_announced():
    rules = find_ruleset("maxi-yatzy")
    before = rolled(rules, [1, 2, 3, 4, 5, 6])
    after = apply(before, "score chance")
    assert turn_events(before, after)[1] == 2
    assert turn_news("Ann", before, after) == ["Ann has 2 rolls saved for later turns."]
    assert turn_news(None, before, after) == ["You have 2 rolls saved for later turns."]


def test_no_saved_rolls_without_the_rule():
    before = rolled(RuleSet(), [1, 2, 3, 4, 6])
    assert turn_events(before, apply(before, "score chance")) == (False, 0)


def test_a_turn_with_saved_rolls_says_how_many_it_has():
    assert saved_rolls_turn_text(2, 5) == "2 saved rolls: 5 rolls this turn."
    assert saved_rolls_turn_text(1, 4) == "1 saved roll: 4 rolls this turn."


def test_the_announcements_are_translated():
    before = rolled(RuleSet(extra_turn_on_yahtzee=True), [3] * 5)
    after = apply(before, "score yahtzee")
    set_language("de")
    try:
        said = turn_news("Ann", before, after)
    finally:
        set_language("en")
    assert said and said != ["Yahtzee! Ann plays an extra turn."] and "Ann" in said[0]
