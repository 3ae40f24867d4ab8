"""Yatzy and Maxi Yatzy played to the end in the terminal app (Textual's pilot, 80×24): the
card lists the rule set's boxes (translated), six dice fit, the coach refuses cleanly."""

from __future__ import annotations

import asyncio

import pytest
from textual.pilot import Pilot

from fivedice.core.game import GameSettings, Seat
from fivedice.core.rules import find_ruleset
from fivedice.i18n import set_language
from fivedice.tui.app import FivediceApp
from fivedice.tui.screens.dialogs import ConfirmScreen, EndScreen
from fivedice.tui.screens.game import GameScreen
from fivedice.tui.widgets.board import Die, ScoreTable
from tests.tui.support import SIZE, screen_text


async def wait_for(pilot: Pilot[None], condition, seconds: float = 20) -> None:
    for _ in range(int(seconds / 0.05)):
        if condition():
            return
        await pilot.pause(0.05)
    raise AssertionError("timed out waiting for the app")


async def press_until(pilot: Pilot[None], key: str, condition, tries: int = 10) -> None:
    """Presses `key` until `condition` holds (a key that comes while the app is still busy
    with the last action is dropped by the screen, so it is pressed again)."""
    for _ in range(tries):
        await pilot.press(key)
        for _ in range(40):
            if condition():
                return
            await pilot.pause(0.05)
    raise AssertionError(f"pressing {key!r} did not do it")


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["yatzy", "maxi-yatzy"])
def test_two_people_play_a_preset_to_the_end(preset: str) -> None:
    rules = find_ruleset(preset)
    settings = GameSettings(seats=(Seat("Ann"), Seat("Bob")), rules=rules)
    app = FivediceApp(settings, seed=11, pace=0.05, start_now=True)
    set_language("nl")

    async def script(pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, GameScreen)
        table = app.screen.query_one(ScoreTable)
        named = [label for label, box in table._row_labels(app.service.state) if box]
        assert len(named) == len(rules.boxes)
        await pilot.press("r")
        await pilot.pause()
        dice = [die for die in app.screen.query(Die) if die.display]
        assert len(dice) == rules.dice
        for die in dice:  # every die is inside the 80-column screen
            assert die.region.right <= SIZE[0] and die.region.width > 0
        text = screen_text(app)
        assert "Eén paar" in text or "Eén paar" in " ".join(named)
        if rules.saved_rolls:
            # Maxi Yatzy has no exact solve (saved rolls): the coach advises with the expert
            # CPU's estimates (≈). Yatzy's exact coach: tests/strategy, tests/web.
            await pilot.press("h")
            hint = app.screen.query_one("#hint")
            await wait_for(pilot, lambda: "≈" in str(hint.render()), seconds=60)
            await pilot.press("c")
            assert app.play.coach_mode
            await pilot.press("c")
        turns = 0
        # The end screen comes a moment after the last score: the game's state says when
        # to stop pressing keys, then the screen is awaited.
        while not app.service.state.is_game_over:
            before = app.service.state.cards
            if app.service.state.dice is None:
                await press_until(pilot, "r", lambda: app.service.state.dice is not None)
            if rules.dice == 6 and app.service.state.rolls_left > 0:
                # Die 6 has a key.
                await press_until(pilot, "6", lambda: app.service.state.turn.held[5])
                rolls = app.service.state.turn.rolls_used
                await press_until(
                    pilot,
                    "space",
                    lambda rolls=rolls: app.service.state.turn.rolls_used > rolls,
                )

            def scored(before=before) -> bool:
                return isinstance(app.screen, EndScreen) or app.service.state.cards != before

            await press_until(
                pilot, "enter", lambda: isinstance(app.screen, ConfirmScreen) or scored()
            )
            if isinstance(app.screen, ConfirmScreen):
                await press_until(pilot, "y", scored)
            turns += 1
            assert turns <= 2 * len(rules.boxes) + 2
        await wait_for(pilot, lambda: isinstance(app.screen, EndScreen))
        final = app.service.state
        assert final.is_game_over
        assert [card.boxes_filled for card in final.cards] == [len(rules.boxes)] * 2

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(main())
