"""What the terminal-app tests share: the test's database as the app's default one, and
driving an app headless (Textual's `run_test` and `Pilot`) and reading its screen.

pytest-asyncio is not a dependency: each test runs its coroutine with `asyncio.run`.
"""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import Awaitable, Callable

import pytest
from rich.cells import cell_len
from textual.app import App
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import RichLog

from fivedice.core.categories import Category
from fivedice.core.game import GameSettings
from fivedice.service.games import GameService
from fivedice.tui.app import FivediceApp
from fivedice.tui.screens.game import GameScreen
from fivedice.tui.widgets.board import ScoreTable
from fivedice.tui.widgets.wrapped import ELLIPSIS, WrappedVisual

SIZE = (80, 24)
"""The terminal the tests run the apps in, unless a test asks for another."""


def use_database(monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    """Makes `url` the database every app (and `open_service`) of this test opens by default."""
    monkeypatch.setenv("FIVEDICE_DATABASE_URL", url)


def open_service() -> GameService:
    """A service of its own on the test's database (what the app saved, read back)."""
    return GameService.open()


def screen_text(app: App[object]) -> str:
    """The visible text of the screen (from the SVG screenshot)."""
    svg = app.export_screenshot()
    parts = re.findall(r"<text[^>]*>([^<]*)</text>", svg)
    return html.unescape("".join(parts)).replace("\xa0", " ")


def run(
    app: App[object],
    script: Callable[[Pilot[None]], Awaitable[None]],
    size: tuple[int, int] = SIZE,
    *,
    settle: bool = False,
) -> None:
    """Runs `app` headless in a terminal of `size` and plays `script` on it; with `settle`,
    lets the app handle what the script's last key caused before it stops."""

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(pilot)
            if settle:
                await pilot.pause()

    asyncio.run(main())


async def wait_for(pilot: Pilot[None], condition: Callable[[], bool], seconds: float = 20) -> None:
    """Lets the app run until `condition()` holds; fails after `seconds`."""
    for _ in range(int(seconds / 0.05)):
        if condition():
            return
        await pilot.pause(0.05)
    raise AssertionError("timed out waiting for the app")


def record_notes(app: FivediceApp) -> list[str]:
    """Collects the messages the app notifies (toasts are off in headless tests)."""
    notes: list[str] = []
    original = app.notify

    def notify(message: str, *args: object, **kwargs: object) -> None:
        notes.append(str(message))
        original(message, *args, **kwargs)  # type: ignore[arg-type]

    app.notify = notify  # type: ignore[method-assign]
    return notes


def lines(app: FivediceApp) -> list[str]:
    """The screen's text, one string per line."""
    return screen_text(app).splitlines()


def game_screen(app: FivediceApp) -> GameScreen:
    screen = app.screen
    assert isinstance(screen, GameScreen)
    return screen


async def move_to(pilot: Pilot[None], app: FivediceApp, category_key: str) -> None:
    """Puts the card's cursor on a box of the first seat."""
    table = game_screen(app).query_one(ScoreTable)
    cell = table.cell_of(0, 0, Category.parse(category_key))
    assert cell is not None
    table.move_cursor(row=cell[0], column=cell[1])
    await pilot.pause()


def finish_game(settings: GameSettings, seed: int | None, *, rounds: int | None = None) -> int:
    """Plays a game through the service (best box after one roll); returns its id.

    With `rounds`, stops after that many human turns and leaves the game unfinished. A game
    with a seed is a practice game: pass None for one that counts in the statistics.
    """
    service = open_service()
    view = service.create_game(settings, seed=seed)
    turns = 0
    while not view.is_over and (rounds is None or turns < rounds):
        if view.is_cpu_turn:
            _action, view = service.cpu_step(view.game_id, view.version)
            continue
        view = service.apply_action(view.game_id, "roll", view.version)
        best = max(view.state.placements(), key=lambda p: p.points)
        view = service.apply_action(view.game_id, f"score {best.category.key}", view.version)
        turns += 1
    return int(view.game_id)


def log_lines(app: FivediceApp) -> list[str]:
    """The lines the log widget shows."""
    log = game_screen(app).query_one("#log", RichLog)
    return [strip.text.rstrip() for strip in log.lines]


def wrapped_lines(hint: Widget) -> tuple[list[str], list[str]]:
    """A coach panel's lines as drawn (its border and padding left out), checked to be all
    on screen: none taller or wider than the panel, the panel inside the window; and the
    figures before its rows."""
    content = hint.render()
    assert isinstance(content, WrappedVisual)
    width = hint.content_size.width
    drawn = [line for line, _style in content.wrapped.lines(width)]
    assert hint.content_size.height == len(drawn)  # every line shown, none clipped
    assert all(cell_len(line) <= width for line in drawn), (width, drawn)
    assert hint.region.bottom <= hint.app.size.height - 1  # above the footer
    return drawn, [row.prefix for row in content.wrapped.rows]


def assert_whole_words(drawn: list[str], *texts: str) -> None:
    """Every word drawn is a word of `texts` (a word cut mid-way, "Upp", is not), an ellipsis
    only after a whole item, and every text's first words are drawn."""
    words = {word for text in texts for word in text.split()}
    for line in drawn:
        for word in line.split():
            assert word in words or word == ELLIPSIS, (word, drawn)
    flat = " ".join(drawn).split()
    for text in texts:
        head = text.split()[:2]
        assert any(flat[i : i + 2] == head for i in range(len(flat))), (head, drawn)
