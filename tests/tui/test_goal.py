"""The terminal app's goal: `g` asks for it, a bad one is refused, `h` then shows each option's
chance of reaching it (the chances' exactness is tested in tests/strategy/test_thresholds.py)."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from fivedice.core.game import GameSettings, GameState, Seat
from fivedice.strategy.hints import Hint
from fivedice.tui.app import FivediceApp
from tests.tui.support import game_screen, run, wait_for


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_g_sets_a_goal_and_the_hint_gives_each_options_chance(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[int] = []

    def fake(state: GameState, goal: int, *, wait: bool = True) -> list[Hint]:
        asked.append(goal)
        return [
            Hint((6, 6), None, 0.4125, hold=(1, 2), goal=goal),
            Hint(None, state.rules.boxes[12], 0.25, loss=0.1625, goal=goal),
        ]

    monkeypatch.setattr("fivedice.service.coach.goal_hints", fake)
    app = FivediceApp(GameSettings(seats=(Seat("Ann"),)), seed=4, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("r", "g")
        await pilot.pause()
        await pilot.press(*"lots", "enter")  # not a goal: refused, none set
        await pilot.pause()
        await pilot.press("h")
        hint = game_screen(app).query_one("#hint")
        await wait_for(pilot, lambda: "expected points" in str(hint.render()), seconds=40)
        assert asked == []
        await pilot.press("g")
        await pilot.pause()
        await pilot.press(*"beat 245", "enter")
        await pilot.pause()
        await pilot.press("h")
        await wait_for(pilot, lambda: "246+" in str(hint.render()), seconds=20)
        lines = str(hint.render()).splitlines()
        assert lines[0] == "Coach: chance of 246+"
        assert lines[1].split()[0] == "41%" and lines[2].split()[0] == "25%"
        assert asked == [246]

    run(app, script)
