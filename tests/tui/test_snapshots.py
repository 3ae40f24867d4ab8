"""Snapshots of the main screens at 80×24, in English and in a second language.

Each screen is rendered headless and compared, as plain text, with a file under
`snapshots/`. After an intended change of a screen, look at the new text and refresh the
files with `FIVEDICE_UPDATE_SNAPSHOTS=1 .venv/bin/pytest tests/tui/test_snapshots.py`.
"""

from __future__ import annotations

import asyncio
import html
import os
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from fivedice.core.game import GameSettings, Seat
from fivedice.core.rules import find_ruleset
from fivedice.i18n import set_language
from fivedice.tui.app import FivediceApp
from fivedice.tui.chances_bar import ChancesBar
from fivedice.tui.game_screen import GameScreen
from tests.tui.support import use_database

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = os.environ.get("FIVEDICE_UPDATE_SNAPSHOTS") == "1"
TEXT = re.compile(r'<text class="[^"]*-r\d+" x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)</text>')
CELL_WIDTH, LINE_HEIGHT = 12.2, 24.4  # Textual's SVG cell size


@pytest.fixture(autouse=True)
def database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    use_database(monkeypatch, f"sqlite:///{tmp_path / 'games.sqlite3'}")
    yield
    set_language("en")


def screen_lines(app: FivediceApp) -> str:
    """The screen as 24 lines of 80 characters, rebuilt from the SVG screenshot's text runs."""
    grid = [[" "] * 80 for _ in range(24)]
    for x, y, text in TEXT.findall(app.export_screenshot()):
        row = round((float(y) - 20) / LINE_HEIGHT)
        column = round(float(x) / CELL_WIDTH)
        for offset, char in enumerate(html.unescape(text).replace("\xa0", " ").rstrip("\n")):
            if 0 <= row < 24 and 0 <= column + offset < 80:
                grid[row][column + offset] = char
    return "\n".join("".join(line).rstrip() for line in grid) + "\n"


async def settle(pilot: Pilot[None], app: FivediceApp) -> None:
    """Waits until the winning-chances bar (computed in a worker) shows the current position."""
    bar = app.screen.query_one(ChancesBar)
    for _ in range(1200):
        shown = bar._shown
        if shown is not None and shown[0] is app.service.state and bar.display:
            await pilot.pause()
            return
        await pilot.pause(0.05)
    raise AssertionError("the chances bar never caught up")


def check(name: str, text: str) -> None:
    path = SNAPSHOTS / f"{name}.txt"
    if UPDATE or not path.exists():
        path.write_text(text, encoding="utf-8")
        if not UPDATE:
            pytest.fail(f"snapshot {path.name} was missing and has been written: look at it")
    assert text == path.read_text(encoding="utf-8"), f"{name} differs from {path}"


def run(app: FivediceApp, script: Callable[[Pilot[None]], Awaitable[None]]) -> None:
    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await script(pilot)
            await pilot.pause()

    asyncio.run(main())


@pytest.mark.parametrize("language", ["en", "nl"])
def test_new_game_screen(language: str) -> None:
    set_language(language)
    app = FivediceApp()

    async def script(pilot: Pilot[None]) -> None:
        check(f"new-game-{language}", screen_lines(app))

    run(app, script)


@pytest.mark.parametrize("language", ["en", "de"])
def test_game_screen_after_a_roll_and_a_hold(language: str) -> None:
    set_language(language)
    settings = GameSettings(seats=(Seat("Ann"), Seat("Bot", "beginner")))
    app = FivediceApp(settings, seed=5, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, GameScreen)
        await pilot.press("r", "2", "4")
        await settle(pilot, app)
        check(f"game-{language}", screen_lines(app))

    run(app, script)


@pytest.mark.parametrize("language", ["en", "de"])
def test_rules_screen(language: str) -> None:
    set_language(language)
    app = FivediceApp(GameSettings(seats=(Seat("Ann"),)), seed=5, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("u")
        await pilot.pause()
        check(f"rules-{language}", screen_lines(app))

    run(app, script)


def test_triple_game_with_three_seats() -> None:
    settings = GameSettings(
        seats=(Seat("Ann"), Seat("Cleo", "expert"), Seat("Dirk", "beginner")),
        rules=find_ruleset("triple"),
    )
    app = FivediceApp(settings, seed=4, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("r")
        await settle(pilot, app)
        check("game-triple-3-seats-en", screen_lines(app))

    run(app, script)
