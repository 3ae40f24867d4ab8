"""The winning-chances bar of the terminal app: on by default, `w` switches it off and on."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from fivedice.core.game import GameSettings, Seat
from fivedice.tui.app import FivediceApp
from fivedice.tui.screens.game import GameScreen
from fivedice.tui.widgets.chances_bar import ChancesBar, chances_text
from tests.tui.support import run, screen_text, wait_for


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_the_bar_shows_both_seats_and_w_switches_it() -> None:
    app = FivediceApp(
        GameSettings(seats=(Seat("Ann"), Seat("Bot", "master"))), seed=4, pace=2.5, start_now=True
    )

    async def script(pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, GameScreen)
        bar = app.screen.query_one(ChancesBar)
        await wait_for(pilot, lambda: bar.display, seconds=120)
        assert "Chances to win: Ann 50% · Bot 50%" in screen_text(app)
        await pilot.press("r")  # Ann's first roll changes her chances
        await wait_for(pilot, lambda: bar._shown is not None and bar._shown[0] is app.service.state)
        assert "Chances to win: Ann" in screen_text(app)
        await pilot.press("w")
        assert not bar.display
        assert "Chances to win" not in screen_text(app)
        await pilot.press("w")
        await wait_for(pilot, lambda: bar.display)
        assert "Chances to win" in screen_text(app)

    run(app, script)


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_a_solo_game_shows_no_bar() -> None:
    app = FivediceApp(GameSettings(seats=(Seat("Ann"),)), seed=4, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.pause(0.5)
        assert not app.screen.query_one(ChancesBar).display

    run(app, script)


def test_the_bar_text_splits_the_width_by_the_chances() -> None:
    from fivedice.core.game import new_game

    state = new_game(GameSettings(seats=(Seat("Ann"), Seat("Bob"), Seat("Cy"))))
    text = chances_text(state, (0.5, 0.3, 0.2), 50)
    bar, figures = text.plain.split("\n")
    assert bar == "█" * 50
    assert [span.end - span.start for span in text.spans[:3]] == [25, 15, 10]
    assert figures == "Chances to win: Ann 50% · Bob 30% · Cy 20%"
    assert "≈" in chances_text(state, (0.5, 0.3, 0.2), 50, estimate=True).plain
    # Narrow: the label goes first, then the names are cut.
    assert chances_text(state, (0.5, 0.3, 0.2), 30).plain.split("\n")[1] == (
        "Ann 50% · Bob 30% · Cy 20%"
    )
