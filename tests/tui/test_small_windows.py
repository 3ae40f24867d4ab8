"""Small terminals: the game fits 60×20, a smaller window says how large it must be and keys
wait, and the Abandon button stays on screen.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from fivedice.core.game import GameSettings, Seat
from fivedice.i18n import set_language
from fivedice.tui.app import FivediceApp
from fivedice.tui.screens.dialogs import ConfirmScreen
from fivedice.tui.widgets.board import ScoreTable
from tests.tui.support import (
    game_screen,
    lines,
    open_service,
    run,
    screen_text,
)

SOLO = GameSettings(seats=(Seat("Ann"),))
DUEL = GameSettings(seats=(Seat("Ann"), Seat("Bot", "beginner")))


# 60×20 works, smaller says so -------------------------------------------------------------------


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
@pytest.mark.parametrize("language", ["en", "de"])
def test_the_game_fits_60_by_20(language: str) -> None:
    set_language(language)
    app = FivediceApp(DUEL, seed=5, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("r")
        await pilot.pause()
        table = game_screen(app).query_one(ScoreTable)
        assert table.virtual_size.width <= table.size.width  # no cut-off columns
        assert table.virtual_size.height <= table.size.height
        text = screen_text(app)
        quit_key = "q Quit" if language == "en" else "q Beenden"
        assert quit_key in text
        names = [line.split()[0] for line in lines(app)[2:19] if line.strip()]
        assert not any(name.endswith("…") for name in names), names
        chance = next(line for line in lines(app) if line.startswith(("Chance",)))
        assert any(ch.isdigit() for ch in chance)  # numbers, not only names

    run(app, script, (60, 20))


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_v_shows_one_seat_at_a_time_at_60_by_20() -> None:
    settings = GameSettings(
        seats=(Seat("Ann"), Seat("Bert"), Seat("Cleo"), Seat("Dirk"), Seat("Eefje"))
    )
    app = FivediceApp(settings, seed=5, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        table = game_screen(app).query_one(ScoreTable)
        assert table.virtual_size.width <= table.size.width
        assert [m for m in table.columns_meaning if m] == [(0, 0)]
        await pilot.press("v")
        await pilot.pause()
        assert [m for m in table.columns_meaning if m] == [(1, 0)]
        assert "Bert" in screen_text(app)

    run(app, script, (60, 20))


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
@pytest.mark.parametrize("size", [(40, 12), (59, 24), (80, 19)])
def test_a_smaller_window_says_how_large_it_must_be(size: tuple[int, int]) -> None:
    app = FivediceApp(DUEL, seed=5, pace=0.05, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        text = screen_text(app)
        assert "Make the window at least 60×20" in text
        assert f"{size[0]}×{size[1]}" in text
        await pilot.press("r")
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        text = screen_text(app)
        assert "Make the window" not in text and "Three of a kind" in text

    run(app, script, size)


# The Abandon button stays on screen at 80 columns -----------------------------------------------


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_abandon_stays_on_screen_with_long_names() -> None:
    service = open_service()
    long_names = GameSettings(
        seats=(Seat("Annemarie-Louise"), Seat("Bartholomeus Jr"), Seat("Cpu", "casual"))
    )
    service.create_game(long_names, seed=1)
    app = FivediceApp()

    async def script(pilot: Pilot[None]) -> None:
        button = app.screen.query_one("#abandon-0")
        region = button.region
        assert region.width > 0 and region.right <= 80
        await pilot.click("#abandon-0")
        assert isinstance(app.screen, ConfirmScreen)

    run(app, script)


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
@pytest.mark.parametrize("size", [(40, 12), (59, 19)])
def test_keys_do_nothing_while_the_window_is_too_small(size: tuple[int, int]) -> None:
    """The message says the game waits: a roll, a hold or a score typed blind must not act."""
    app = FivediceApp(SOLO, seed=5, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        before = game_screen(app).state
        assert before.dice is not None
        await pilot.resize_terminal(*size)
        await pilot.pause()
        await pilot.pause()
        assert "Make the window at least 60×20" in screen_text(app)
        await pilot.press("r", "1", "enter", "space", "z")
        await pilot.pause()
        assert game_screen(app).state is before
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        assert game_screen(app).state.rolls_left == before.rolls_left - 1

    run(app, script, size)
