"""The game under the new rule sets: the forced fill order, upper-first and the joker on other
cards, Maxi Yatzy's six dice and saved rolls, and the extra turn on a Yahtzee with several
players."""

from __future__ import annotations

import pytest

from fivedice.core import (
    Box,
    GameSettings,
    Hold,
    IllegalActionError,
    MalformedActionError,
    Roll,
    Score,
    ScriptedDice,
    Seat,
    apply,
    find_ruleset,
    legal_actions,
    new_game,
    parse_action,
)
from fivedice.core.card import Column

YATZY = find_ruleset("yatzy")
MAXI = find_ruleset("maxi-yatzy")


def scores_offered(state):
    return [a.category.key for a in legal_actions(state) if isinstance(a, Score)]


def test_forced_fill_order_offers_only_the_next_box():
    rules = YATZY.with_settings({"fill_order": "forced"})
    state = new_game(GameSettings(seats=(Seat("Ann"),), rules=rules))
    state = apply(state, "roll", ScriptedDice([6, 6, 6, 6, 6]))
    assert scores_offered(state) == ["ones"]
    with pytest.raises(IllegalActionError, match="top to bottom"):
        apply(state, "score sixes")
    state = apply(state, "score ones")
    state = apply(state, "roll", ScriptedDice([2, 2, 3, 4, 5]))
    assert scores_offered(state) == ["twos"]
    assert apply(state, "score twos").totals == (4,)


def test_forced_order_runs_down_the_whole_card():
    rules = YATZY.with_settings({"fill_order": "forced"})
    state = new_game(GameSettings(seats=(Seat("Ann"),), rules=rules))
    order = []
    while not state.is_game_over:
        state = apply(state, "roll", ScriptedDice([1, 2, 3, 4, 5]))
        (box,) = scores_offered(state)
        order.append(box)
        state = apply(state, f"score {box}")
    assert order == [box.key for box in YATZY.boxes]


def test_upper_first_on_the_yatzy_card():
    rules = YATZY.with_settings({"upper_first": "on"})
    column = Column.empty(rules)
    assert [box.key for box, _ in column.legal_boxes(rules, (2, 2, 5, 5, 6))] == [
        "ones",
        "twos",
        "threes",
        "fours",
        "fives",
        "sixes",
    ]
    with pytest.raises(IllegalActionError, match="upper-first"):
        column.fill(rules, Box.parse("one_pair"), (2, 2, 5, 5, 6))


def test_joker_on_the_yatzy_card_is_judged_by_the_yatzy_box():
    rules = YATZY.with_settings({"joker": "forced"})
    column = Column.empty(rules).fill(rules, Box.parse("yatzy"), (4, 4, 4, 4, 4))
    # Forced: the fours box is open, so the roll must go there.
    assert [(b.key, j) for b, j in column.legal_boxes(rules, (4, 4, 4, 4, 4))] == [("fours", True)]
    column = column.fill(rules, Box.parse("fours"), (4, 4, 4, 4, 4))
    placements = {p.category.key: p.points for p in column.placements(rules, (4,) * 5)}
    assert "ones" not in placements  # a lower box is open: the upper boxes are closed
    assert placements["full_house"] == 20 and placements["small_straight"] == 15
    assert placements["two_pairs"] == 16
    # Without the joker (the preset) the same roll is an ordinary roll.
    plain = Column.empty(YATZY).fill(YATZY, Box.parse("yatzy"), (4,) * 5)
    assert {p.category.key: p.points for p in plain.placements(YATZY, (4,) * 5)}["full_house"] == 0


def test_a_box_of_another_card_is_refused_with_the_boxes_of_this_one():
    state = new_game(GameSettings(seats=(Seat("Ann"),)))
    state = apply(state, "roll", ScriptedDice([2, 2, 5, 5, 6]))
    with pytest.raises(IllegalActionError, match="no One pair box"):
        apply(state, "score one_pair")


def test_six_dice_hold_and_roll():
    state = new_game(GameSettings(seats=(Seat("Ann"),), rules=MAXI))
    state = apply(state, "roll", ScriptedDice([1, 2, 3, 4, 5, 6]))
    assert len(state.dice) == 6 and len(state.turn.held) == 6
    assert Hold((6,)) in legal_actions(state)
    state = apply(state, "hold 5 6")
    state = apply(state, "roll", ScriptedDice([6, 6, 6, 6]))
    assert state.dice == (6, 6, 6, 6, 5, 6)
    assert {p.category.key: p.points for p in state.placements()}["five_of_a_kind"] == 30


def test_die_six_exists_only_with_six_dice():
    with pytest.raises(MalformedActionError, match="no die 6"):
        parse_action("hold 6")
    assert parse_action("hold 6", 6) == Hold((6,))
    state = new_game(GameSettings(seats=(Seat("Ann"),)))
    state = apply(state, "roll", ScriptedDice([1, 2, 3, 4, 5]))
    with pytest.raises(IllegalActionError, match="no die 6"):
        apply(state, Hold((6,)))


def test_maxi_rolls_not_used_are_saved_for_later_turns():
    ann_bob = (Seat("Ann"), Seat("Bob"))
    state = new_game(GameSettings(seats=ann_bob, rules=MAXI))
    state = apply(state, "roll", ScriptedDice([1, 2, 3, 4, 5, 6]))
    state = apply(state, "score full_straight")  # Ann used 1 roll of 3: 2 saved
    assert state.saved_rolls == (2, 0)
    assert state.current_seat == 1 and state.rolls_left == 3  # Bob has none saved
    for _ in range(3):
        state = apply(state, Roll(), ScriptedDice([1] * 6))
    state = apply(state, "score ones")
    assert state.saved_rolls == (2, 0) and state.rolls_left == 5  # Ann: 3 + 2 saved
    for _ in range(5):
        state = apply(state, Roll(), ScriptedDice([2] * 6))
    assert state.rolls_left == 0
    with pytest.raises(IllegalActionError, match="no rolls are left"):
        apply(state, Roll(), ScriptedDice([2] * 6))
    state = apply(state, "score twos")
    assert state.saved_rolls == (0, 0)


def test_without_the_saved_rolls_rule_nothing_is_saved():
    rules = MAXI.with_settings({"saved_rolls": "off"})
    state = new_game(GameSettings(seats=(Seat("Ann"),), rules=rules))
    state = apply(state, "roll", ScriptedDice([1, 2, 3, 4, 5, 6]))
    state = apply(state, "score full_straight")
    assert state.rolls_left == 3 and state.saved_rolls == ()


def _yahtzee_then(state, box):
    state = apply(state, "roll", ScriptedDice([5] * state.rules.dice))
    return apply(state, f"score {box}")


def _ordinary(state):
    state = apply(state, "roll", ScriptedDice([1, 2, 3, 4, 6, 6][: state.rules.dice]))
    box = next(a for a in legal_actions(state) if isinstance(a, Score))
    return apply(state, box)


@pytest.mark.parametrize("preset", ["classic", "yatzy", "maxi-yatzy"])
def test_extra_turn_on_a_yahtzee_in_a_three_player_game(preset):
    rules = find_ruleset(preset).with_settings({"extra_turn_on_yahtzee": "on"})
    seats = (Seat("Ann"), Seat("Bob"), Seat("Cy"))
    state = new_game(GameSettings(seats=seats, rules=rules))
    yahtzee_box = rules.all_same_box.key
    state = _yahtzee_then(state, yahtzee_box)
    assert state.current_seat == 0  # Ann plays again at once
    state = _yahtzee_then(state, "fives")  # another Yahtzee, in another box: again
    assert state.current_seat == 0
    state = _ordinary(state)
    assert state.current_seat == 1  # an ordinary roll ends the turn as usual
    # Bob and Cy play ordinary turns; Ann is now two boxes ahead of them.
    boxes = len(rules.boxes)
    movers = []
    while not state.is_game_over:
        movers.append(state.current_seat)
        state = _ordinary(state)
    # Ann's card fills first; after that she is skipped and the others play to the end.
    assert movers[-4:] == [1, 2, 1, 2]
    assert movers.count(0) == boxes - 3
    assert [card.boxes_filled for card in state.cards] == [boxes] * 3


def test_extra_turn_off_by_default_and_the_last_box():
    state = new_game(GameSettings(seats=(Seat("Ann"), Seat("Bob")), rules=YATZY))
    state = _yahtzee_then(state, "yatzy")
    assert state.current_seat == 1  # the preset has no extra turn


def test_extra_turn_skips_a_full_card():
    rules = YATZY.with_settings({"extra_turn_on_yahtzee": "on"})
    state = new_game(GameSettings(seats=(Seat("Ann"), Seat("Bob")), rules=rules))
    state = _yahtzee_then(state, "yatzy")  # Ann: extra turn, one box ahead of Bob
    order = []
    while not state.is_game_over:
        order.append(state.current_seat)
        state = _ordinary(state)
    # Ann fills her 15th box one turn before Bob: Bob then plays his last two turns in a row.
    assert order[-2:] == [1, 1]
    assert [card.boxes_filled for card in state.cards] == [15, 15]


def test_a_yahtzee_in_the_last_box_ends_the_game_for_that_player():
    rules = YATZY.with_settings({"extra_turn_on_yahtzee": "on"})
    state = new_game(GameSettings(seats=(Seat("Ann"), Seat("Bob")), rules=rules))
    while state.cards[1].boxes_filled < 14:
        state = _ordinary(state)
    assert state.current_seat == 0 and state.cards[0].columns[0].open_boxes == (Box.parse("yatzy"),)
    state = _yahtzee_then(state, "yatzy")  # Ann's last box: her card is full, Bob plays
    assert state.cards[0].is_complete and state.current_seat == 1
    state = _yahtzee_then(state, "yatzy")  # Bob's last box too: game over
    assert state.is_game_over and state.totals[0] == state.totals[1]
