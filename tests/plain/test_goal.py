"""The plain mode's `goal`: set, refused, shown with the hints, cleared."""

from __future__ import annotations

import pytest

from fivedice.core.game import GameState
from fivedice.strategy.hints import Hint
from tests.plain.test_play import play


@pytest.mark.slow
def test_a_goal_ranks_the_hints_by_their_chance(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []

    def fake(state: GameState, goal: int, *, wait: bool = True) -> list[Hint]:
        asked.append(goal)
        return [
            Hint((6, 6), None, 0.4125, hold=(4, 5), goal=goal),
            Hint(None, state.rules.boxes[12], 0.003, loss=0.4095, goal=goal),
        ]

    monkeypatch.setattr("fivedice.service.coach.goal_hints", fake)
    out = play("goal beat 245\nr\nhint\ngoal off\nhint\n", tmp_path, seed=3)
    assert "Goal: a final total of 246 or more. The hints now play for it." in out
    assert asked == [246]
    shown = out.split("for a final total of 246 (chance of reaching it):\n")[1].splitlines()
    assert shown[0].startswith("  1. keep 6 6") and shown[0].endswith(": 41%")
    assert shown[1] == "  2. score Chance: <1%"
    assert "No goal: the hints play for the most points on average." in out
    assert "(expected points still to come):" in out.split("No goal")[1]


@pytest.mark.parametrize(
    ("goal", "words"),
    [("goal lots", "a goal is a total to reach"), ("goal -4", "from 1 to 100000")],
)
def test_a_goal_that_is_not_one_is_refused(tmp_path, goal: str, words: str) -> None:
    out = play(f"{goal}\nhelp\n", tmp_path)
    assert words in out and "Goal: a final total" not in out
    assert "goal beat Ann" in out  # the help says how


def test_ctrl_c_during_a_goal_tables_build_cancels_it_and_the_prompt_comes_back(
    tmp_path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Minutes of building are shown on stderr with the time left; Ctrl+C stops them (nothing
    saved) and the game goes on at the prompt."""
    from fivedice.strategy.derived import build_in_memory

    def building(state: GameState, goal: int, *, wait: bool = True) -> list[Hint]:
        def build(_temporary: object, step) -> list[Hint]:  # type: ignore[no-untyped-def]
            step(1, 4)
            raise KeyboardInterrupt

        return build_in_memory(build, kind="goal")  # type: ignore[arg-type]

    monkeypatch.setattr("fivedice.service.coach.goal_hints", building)
    out = play("goal 300\nr\nhint\ngoal off\nhint\n", tmp_path, seed=3)
    assert "Cancelled: nothing was saved." in out
    after = out.split("Cancelled: nothing was saved.")[1]
    assert "(expected points still to come):" in after  # the prompt came back and answers
    assert "Computing the goal table: 25% done" in capsys.readouterr().err
