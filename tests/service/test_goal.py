"""The coach for a goal, at the service: what a goal is, and what is refused (clearly, in the
player's words, before any table is loaded)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from fivedice.core.card import Column, ScoreCard
from fivedice.core.dice import RandomDice
from fivedice.core.game import GameSettings, GameState, Seat, apply, new_game
from fivedice.core.rules import find_ruleset
from fivedice.service.coach import goal_hints, goal_total, state_hints
from fivedice.service.errors import HintsUnavailableError
from fivedice.strategy.hints import Hint


def _state(*names: str, rules_name: str = "classic") -> GameState:
    seats = tuple(Seat(name) for name in names)
    settings = GameSettings(seats=seats, rules=find_ruleset(rules_name))
    return apply(new_game(settings, RandomDice(5)), "roll", RandomDice(5))


@pytest.mark.parametrize(
    ("goal", "total"),
    [("300", 300), (" reach 300 ", 300), ("beat 245", 246), ("BEAT 245", 246), (280, 280)],
)
def test_a_goal_is_a_total_to_reach_or_to_beat(goal: str | int, total: int) -> None:
    assert goal_total(_state("Ann", "Bo"), goal) == total


def test_beating_a_finished_player_needs_one_point_more_than_her_total() -> None:
    state = _state("Ann", "Bo")
    rules = state.rules
    scores = {box.key: 0 for box in rules.boxes}
    scores["chance"] = 23
    done = ScoreCard((Column.from_scores(rules, scores),))
    state = replace(state, cards=(state.cards[0], done))
    assert goal_total(state, "beat bo") == 24


@pytest.mark.tables
def test_beating_a_player_still_playing_aims_above_her_expected_final_total() -> None:
    # Bo has nothing yet: her expected final total is the optimum, 254.59 (published).
    assert goal_total(_state("Ann", "Bo"), "beat Bo") == 256


@pytest.mark.parametrize(
    ("goal", "words"),
    [
        ("-5", "from 1 to 100000"),
        ("0", "from 1 to 100000"),
        ("beat 100000", "from 1 to 100000"),
        ("10000000000000000000000", "from 1 to 100000"),
        ("lots", "a goal is a total to reach"),
        ("beat", "a goal is a total to reach"),
        ("reach Ann", "a goal is a total to reach"),
        ("beat Zed", "no other player is called Zed (players: Bo)"),
        ("beat Ann", "no other player is called Ann (players: Bo)"),  # oneself
    ],
)
def test_bad_goals_are_refused_with_the_reason(goal: str, words: str) -> None:
    with pytest.raises(HintsUnavailableError) as refused:
        goal_total(_state("Ann", "Bo"), goal)
    assert words in refused.value.template.format(**refused.value.params)


def test_a_goal_too_far_ahead_is_refused_before_any_table_is_needed() -> None:
    with pytest.raises(HintsUnavailableError) as refused:
        state_hints(_state("Ann"), goal="reach 2000")
    message = refused.value.template.format(**refused.value.params)
    assert "2000 is 2000 points ahead" in message and "up to 400" in message


def test_a_goal_needs_one_score_column() -> None:
    with pytest.raises(HintsUnavailableError, match="one score column"):
        goal_hints(_state("Ann", rules_name="triple"), 300)


def test_hints_for_a_goal_come_from_the_goal_path(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []

    def fake(state: GameState, goal: int, *, wait: bool = True) -> list[Hint]:
        asked.append(goal)
        return [Hint(None, state.rules.boxes[0], 0.25, goal=goal)]

    monkeypatch.setattr("fivedice.service.coach.goal_hints", fake)
    hints = state_hints(_state("Ann", "Bo"), goal="beat 245")
    assert asked == [246] and hints[0].goal == 246 and hints[0].value == 0.25
