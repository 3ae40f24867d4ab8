"""A Japanese player meets no English in the terminal app: the new-game screen,
a whole solo game (help, rules, hint, zero confirmations) and its end screen, statistics,
high scores and the review are read for ASCII words; only keys and names may appear."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from textual.pilot import Pilot

from fivedice.core.game import GameSettings, Seat
from fivedice.i18n import set_language
from fivedice.tui.app import FivediceApp
from fivedice.tui.screens.dialogs import ConfirmScreen, EndScreen
from fivedice.tui.screens.game import GameScreen
from tests.tui.support import run, use_database

KEYS = {
    # The keys in the footers and the help, as the keyboard labels them, and the CPU seats.
    "r", "h", "a", "q", "c", "u", "l", "n", "m", "s", "t", "w", "v", "p", "z", "y", "k", "g", "esc",
    "tab", "Tab", "Enter", "CPU", "fivedice",
    # The languages of the language key, each in its own language.
    "English", "Nederlands", "Deutsch", "Fran", "ais", "Espa", "ol",
}  # fmt: skip
"""Every ASCII word the Japanese terminal app may show (kept small on purpose)."""

TEXT = re.compile(r"<text [^>]*>([^<]*)</text>")


@pytest.fixture(autouse=True)
def japanese(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    use_database(monkeypatch, f"sqlite:///{tmp_path / 'games.sqlite3'}")
    set_language("ja")
    yield
    set_language("en")


def shown_words(app: FivediceApp) -> set[str]:
    """The ASCII words on the screen now (from its SVG screenshot's text)."""
    text = " ".join(html.unescape(run) for run in TEXT.findall(app.export_screenshot()))
    return set(re.findall(r"[A-Za-z][A-Za-z]*", text))


@pytest.mark.slow
def test_a_whole_solo_game_in_japanese_shows_no_english() -> None:
    app = FivediceApp(GameSettings(seats=(Seat("太郎"),)), seed=5, start_now=True)
    seen: set[str] = set()

    async def look(pilot: Pilot[None]) -> None:
        await pilot.pause()
        seen.update(shown_words(app))

    async def script(pilot: Pilot[None]) -> None:
        await look(pilot)
        for key in ("question_mark", "u"):  # the help and the rules, each closed again
            await pilot.press(key)
            await look(pilot)
            await pilot.press("escape")
        turns = 0
        while isinstance(app.screen, GameScreen | ConfirmScreen) and turns < 40:
            turns += 1
            await pilot.press("r")
            await pilot.press("h")  # the coach's options
            await look(pilot)
            await pilot.press("enter")
            await look(pilot)
            if isinstance(app.screen, ConfirmScreen):  # a 0 is confirmed first
                await pilot.press("y")
                await look(pilot)
        assert isinstance(app.screen, EndScreen)
        await look(pilot)
        for key in ("s", "t", "w"):  # statistics, high scores, the review
            await pilot.press(key)
            await pilot.pause(0.5)
            await look(pilot)
            await pilot.press("escape")
            await pilot.pause()

    run(app, script, settle=True)
    assert sorted(seen - KEYS) == []


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_the_new_game_screen_shows_no_english() -> None:
    app = FivediceApp()

    async def script(pilot: Pilot[None]) -> None:
        await pilot.pause()
        assert shown_words(app) - KEYS == set()
        assert "クラシック：" in " ".join(TEXT.findall(app.export_screenshot()))

    run(app, script, settle=True)
