"""Snapshots of the main screens at 80×24, in English and in a second language.

Each screen is rendered headless and compared, as plain text, with a file under
`snapshots/`. After an intended change of a screen, look at the new text and refresh the
files with `FIVEDICE_UPDATE_SNAPSHOTS=1 .venv/bin/pytest tests/tui/test_snapshots.py`.
"""

from __future__ import annotations

import html
import os
import re
from pathlib import Path

import pytest
from rich.cells import cell_len
from textual.pilot import Pilot

from fivedice.core.categories import CATEGORIES
from fivedice.core.game import GameSettings, Seat
from fivedice.core.rules import find_ruleset
from fivedice.i18n import set_language
from fivedice.tui.app import FivediceApp
from fivedice.tui.screens.game import GameScreen
from fivedice.tui.widgets.chances_bar import ChancesBar
from fivedice.wording.text import box_name
from tests.tui.support import run

SNAPSHOTS = Path(__file__).parent / "snapshots"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
UPDATE = os.environ.get("FIVEDICE_UPDATE_SNAPSHOTS") == "1"
TEXT = re.compile(r'<text class="[^"]*-r\d+" x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)</text>')
CELL_WIDTH, LINE_HEIGHT = 12.2, 24.4  # Textual's SVG cell size


def screen_lines(app: FivediceApp, svg: str | None = None) -> str:
    """The screen as 24 lines of 80 cells, rebuilt from the SVG screenshot's text runs; a
    double-width (Japanese) character fills two cells, so the lines read as on screen."""
    grid = [[" "] * 80 for _ in range(24)]
    for x, y, text in TEXT.findall(svg or app.export_screenshot()):
        row = round((float(y) - 20) / LINE_HEIGHT)
        column = round(float(x) / CELL_WIDTH)
        for char in html.unescape(text).replace("\xa0", " ").rstrip("\n"):
            if 0 <= row < 24 and 0 <= column < 80:
                grid[row][column] = char
                if cell_len(char) == 2 and column + 1 < 80:
                    grid[row][column + 1] = ""  # the second half of a wide character
            column += cell_len(char)
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


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
@pytest.mark.parametrize("language", ["en", "nl"])
def test_new_game_screen(language: str) -> None:
    set_language(language)
    app = FivediceApp()

    async def script(pilot: Pilot[None]) -> None:
        for _ in range(100):  # under load the footer's keys are drawn a moment later
            if screen_lines(app).rstrip("\n").rsplit("\n", 1)[-1].strip():
                break
            await pilot.pause(0.05)
        check(f"new-game-{language}", screen_lines(app))

    run(app, script, settle=True)


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
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

    run(app, script, settle=True)


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
@pytest.mark.parametrize("language", ["en", "de"])
def test_rules_screen(language: str) -> None:
    set_language(language)
    app = FivediceApp(GameSettings(seats=(Seat("Ann"),)), seed=5, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("u")
        await pilot.pause()
        check(f"rules-{language}", screen_lines(app))

    run(app, script, settle=True)


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
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

    run(app, script, settle=True)


def save_svg(name: str, svg: str) -> None:
    """The screenshot as SVG in test-artifacts/ (git-ignored), for a person to look at."""
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"{name}.svg").write_text(svg, encoding="utf-8")


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_new_game_screen_in_japanese() -> None:
    """Double-width text: every label whole, the form's fields in line."""
    set_language("ja")
    app = FivediceApp()

    async def script(pilot: Pilot[None]) -> None:
        svg = app.export_screenshot()
        save_svg("tui-new-game-ja", svg)
        text = screen_lines(app, svg)
        check("new-game-ja", text)
        lines = text.splitlines()
        assert all(cell_len(line) <= 80 for line in lines)
        for label in ("新しいゲーム", "プレイヤー", "ルール", "言語", "日本語"):
            assert label in text, label
        assert "…" not in text
        # The fields of the form start in one column, measured in cells.
        starts = {
            cell_len(line[: line.index(value)])
            for line in lines
            for value in ("最初の席から始める", "日本語")
            if value in line and not line.lstrip().startswith(value)
        }
        assert len(starts) == 1, starts

    run(app, script, settle=True)


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_game_screen_in_japanese() -> None:
    """The card's box names take two cells a character: the points still line up, the dice
    keep their shape and nothing is cut."""
    set_language("ja")
    settings = GameSettings(seats=(Seat("花子"), Seat("Bot", "beginner")))
    app = FivediceApp(settings, seed=5, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, GameScreen)
        await pilot.press("r", "2", "4")
        await settle(pilot, app)
        svg = app.export_screenshot()
        save_svg("tui-game-ja", svg)
        text = screen_lines(app, svg)
        check("game-ja", text)
        lines = text.splitlines()
        assert all(cell_len(line) <= 80 for line in lines)
        names = [box_name(category) for category in CATEGORIES]
        rows = [line for line in lines if any(line.startswith(f" {name} ") for name in names)]
        assert len(rows) == len(CATEGORIES)
        # Where each box's first figure (score, preview or "·") ends, in cells: one column.
        ends = set()
        for line in rows:
            name = next(name for name in names if line.startswith(f" {name} "))
            rest = line[len(name) + 1 :]
            figure = re.search(r"\S+", rest)
            assert figure is not None, line
            ends.add(cell_len(line[: len(name) + 1 + figure.end()]))
        assert len(ends) == 1, ends
        # Five whole dice: each die's top border has its two corners, in the same row.
        tops = [line for line in lines if line.count("╮") + line.count("┓") == 5]
        assert tops, "the dice row is cut"

    run(app, script, settle=True)
