"""The terminal app, finished: small windows, failed saves in sight, the session on resume.

Each test drives the app headless through its keys (Textual's `run_test` and `Pilot`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from fivedice.core.game import GameSettings, Seat
from fivedice.i18n import set_language
from fivedice.tui import session
from fivedice.tui.app import FivediceApp
from fivedice.tui.dialogs import ConfirmScreen
from fivedice.tui.game_screen import GameScreen
from fivedice.tui.widgets import ScoreTable

from .test_app import screen_text, wait_for

SOLO = GameSettings(seats=(Seat("Ann"),))
DUEL = GameSettings(seats=(Seat("Ann"), Seat("Bot", "beginner")))


@pytest.fixture(autouse=True)
def database(tmp_path: Path):
    """Every test saves its games in its own SQLite file."""
    session.configure(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    yield
    session.configure(None)
    set_language("en")


def run(
    app: FivediceApp,
    script: Callable[[Pilot[None]], Awaitable[None]],
    size: tuple[int, int] = (80, 24),
) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(main())


def lines(app: FivediceApp) -> list[str]:
    """The screen's text, one string per line."""
    return screen_text(app).splitlines()


def game_screen(app: FivediceApp) -> GameScreen:
    screen = app.screen
    assert isinstance(screen, GameScreen)
    return screen


async def move_to(pilot: Pilot[None], app: FivediceApp, category_key: str) -> None:
    """Puts the card's cursor on a box of the first seat."""
    from fivedice.core.categories import Category

    table = game_screen(app).query_one(ScoreTable)
    cell = table.cell_of(0, 0, Category.parse(category_key))
    assert cell is not None
    table.move_cursor(row=cell[0], column=cell[1])
    await pilot.pause()


# Item 1: the card keeps its box names after a confirmed 0 ------------------------------


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_box_names_stay_after_confirming_a_zero(size: tuple[int, int]) -> None:
    app = FivediceApp(SOLO, seed=3, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("r")
        state = app.service.state
        zero = next(p for p in state.placements() if p.points == 0)
        await move_to(pilot, app, zero.category.key)
        await pilot.press("enter")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen))
        await pilot.pause()
        text = screen_text(app)
        assert "Ones" in text and "Three of a kind" in text and "Chance" in text

    run(app, script, size)
