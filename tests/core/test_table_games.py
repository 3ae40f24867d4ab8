"""Games at the table in the core: dice and points entries, their notation and their checks."""

from __future__ import annotations

import pytest

from fivedice.core.actions import EnterDice, Score, ScorePoints, parse_action
from fivedice.core.card import Column, score_ranges
from fivedice.core.categories import Category
from fivedice.core.errors import IllegalActionError, MalformedActionError
from fivedice.core.game import GameKind, GameSettings, Seat, SettingsError, apply, legal_actions
from fivedice.core.game import new_game as core_new_game
from fivedice.core.rules import CLASSIC, find_ruleset
from fivedice.core.scoring import possible_scores


def table_game(*names: str, rules=CLASSIC):
    seats = tuple(Seat(name) for name in names or ("Ann",))
    return core_new_game(GameSettings(seats, rules, kind=GameKind.TABLE))


def play(state, *entries: str):
    for entry in entries:
        state = apply(state, entry)
    return state


@pytest.mark.parametrize(
    ("text", "action", "notation"),
    [
        ("dice 3 3 3 5 5", EnterDice((3, 3, 3, 5, 5)), "dice 3 3 3 5 5"),
        ("DICE 53335", EnterDice((3, 3, 3, 5, 5)), "dice 3 3 3 5 5"),
        ("dice 6,1,2,3,4", EnterDice((1, 2, 3, 4, 6)), "dice 1 2 3 4 6"),
        ("score full_house 25", ScorePoints(Category.FULL_HOUSE, 25), "score full_house 25"),
        ("score 2:Chance 17", ScorePoints(Category.CHANCE, 17, 1), "score 2:chance 17"),
        ("score yahtzee 0", ScorePoints(Category.YAHTZEE, 0), "score yahtzee 0"),
    ],
)
def test_table_notation_round_trips(text, action, notation):
    parsed = parse_action(text)
    assert parsed == action
    assert str(parsed) == notation
    assert parse_action(str(parsed)) == parsed


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("dice 3 3 3 5", "has 4"),
        ("dice 333556", "has 6"),
        ("dice 3 3 3 5 7", "1 to 6"),
        ("dice x", "five digits"),
        ("score full_house lots", "whole number"),
        ("score full_house -5", "whole number"),
        ("score house 25", "no box is called"),
        ("score full_house 25 extra", "optionally the points"),
    ],
)
def test_malformed_table_entries_say_what_is_wrong(text, words):
    with pytest.raises(MalformedActionError, match=words):
        parse_action(text)


def test_entered_dice_must_be_sorted_values():
    with pytest.raises(MalformedActionError):
        EnterDice((5, 3, 3, 3, 5))


def test_dice_entry_shows_every_box_with_points_and_can_be_replaced():
    state = play(table_game("Ann", "Bob"), "dice 1 2 3 4 4")
    options = {p.category.key: p.points for p in state.placements()}
    assert options["small_straight"] == 30 and options["fours"] == 8 and len(options) == 13
    state = play(state, "dice 3 3 3 5 5")  # a typo fixed: the dice are replaced
    assert state.dice == (3, 3, 3, 5, 5) and state.current_seat == 0
    assert {str(a) for a in legal_actions(state)} >= {"score full_house", "score chance"}
    state = play(state, "score full_house")
    assert state.cards[0].columns[0].score(Category.FULL_HOUSE) == 25
    assert state.current_seat == 1 and state.dice is None


def test_table_games_have_no_roll_or_hold_and_play_games_no_entries():
    table = table_game()
    for action in ("roll", "hold 1", "release 1"):
        with pytest.raises(IllegalActionError, match="roll your own dice"):
            apply(table, action)
    with pytest.raises(IllegalActionError, match="enter the dice first"):
        apply(table, "score chance")
    rolled = core_new_game(GameSettings((Seat("Ann"),)))
    for action in ("dice 33355", "score chance 20"):
        with pytest.raises(IllegalActionError, match="only in games at the table"):
            apply(rolled, action)


def test_no_cpu_seats_at_the_table():
    with pytest.raises(SettingsError):
        GameSettings((Seat("Ann"), Seat("CPU", "casual")), kind=GameKind.TABLE)


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ("score full_house 30", "no roll scores 30 in Full house now; it can score 0, 25"),
        ("score fours 21", "it can score 0, 4, 8, 12, 16, 20"),
        ("score chance 4", "it can score 5-30"),
        ("score large_straight 30", "it can score 0, 40"),
        ("score 2:chance 20", "there is no column 2"),
    ],
)
def test_impossible_points_are_refused_and_change_nothing(entry, message):
    state = play(table_game("Ann", "Bob"), "dice 3 3 3 5 5")
    with pytest.raises(IllegalActionError, match=message):
        apply(state, entry)
    assert state.dice == (3, 3, 3, 5, 5) and state.current_seat == 0


def test_points_follow_the_box_scores_of_the_rules():
    # Every box accepts exactly the scores a roll can give it on an empty card.
    for rules in (CLASSIC, find_ruleset("classic-five"), find_ruleset("simple")):
        column = Column()
        for category in Category:
            for points in range(0, 61):
                allowed = points in possible_scores(rules, category)
                try:
                    column.fill_points(rules, category, points)
                except IllegalActionError:
                    assert not allowed, (category, points)
                else:
                    assert allowed, (category, points)


def test_points_respect_upper_first():
    rules = find_ruleset("classic", {"upper_first": True})
    with pytest.raises(IllegalActionError, match="upper-first"):
        Column().fill_points(rules, Category.CHANCE, 20)


def test_points_that_only_a_bonus_yahtzee_gives_earn_the_bonus():
    # Yahtzee box 50, forced joker: fours 20 can only be 4-4-4-4-4, which earns +100.
    column = Column().fill(CLASSIC, Category.YAHTZEE, (2, 2, 2, 2, 2))
    filled = column.fill_points(CLASSIC, Category.FOURS, 20)
    assert filled.extra_yahtzees == 1 and filled.total(CLASSIC) == 50 + 20 + 100
    # Chance 20 also comes from ordinary rolls (4-4-4-4-4 must go in the open fours box
    # anyway): no bonus is guessed.
    assert column.fill_points(CLASSIC, Category.CHANCE, 20).extra_yahtzees == 0
    # Fours filled: a joker of 4s may go in any lower box, but large straight 40 is also an
    # ordinary roll, so points alone do not earn the bonus; the dice do.
    fours = column.fill(CLASSIC, Category.FOURS, (4, 4, 4, 1, 2))
    assert fours.fill_points(CLASSIC, Category.LARGE_STRAIGHT, 40).extra_yahtzees == 0
    assert fours.fill(CLASSIC, Category.LARGE_STRAIGHT, (4, 4, 4, 4, 4)).extra_yahtzees == 1


def test_joker_placement_from_entered_dice_includes_bonus_and_joker():
    state = play(table_game("Ann"), "dice 22222", "score yahtzee", "dice 6 6 6 1 2")
    state = play(state, "score sixes", "dice 66666")
    options = {p.category: p for p in state.placements()}
    assert Category.SIXES not in options and Category.ONES not in options  # forced: lower
    assert options[Category.LARGE_STRAIGHT].points == 140
    assert options[Category.LARGE_STRAIGHT].joker
    state = play(state, "score large_straight")
    assert state.totals == (50 + 18 + 40 + 100,)


def test_score_ranges():
    assert score_ranges({3}) == "3"
    assert score_ranges({0, 1, 2, 4}) == "0-2, 4"


def test_score_from_dice_still_uses_the_entered_dice():
    state = play(table_game(), "dice 1 1 1 1 2")
    assert Score(Category.ONES) in legal_actions(state)
    state = play(state, "score ones")
    assert state.totals == (4,)
