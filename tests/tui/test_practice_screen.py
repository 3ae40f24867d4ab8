"""The terminal app's Practice screen, driven headless through its keys (Pilot): a puzzle
answered with a game's keys, a refused answer, the verdict, and the way in from the
new-game screen."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import Button, OptionList, Static

from fivedice.i18n import set_language
from fivedice.service.drills import BUILTIN, BUILTIN_PREFIX
from fivedice.tui.app import FivediceApp
from fivedice.tui.screens.practice import PracticeScreen
from fivedice.tui.screens.setup import SetupScreen
from tests.support.language import english_sentences
from tests.tui.support import open_service, run, screen_text, wait_for

pytestmark = [pytest.mark.tables, pytest.mark.slow]  # judged by the classic table; whole flows


def talk(app) -> str:
    return str(app.screen.query_one("#practice-text", Static).render())


def dice(app) -> str:
    return " ".join(str(app.screen.query_one(f"#die-{p}", Button).label) for p in range(1, 6))


def test_a_puzzle_answered_with_the_keys_of_a_game():
    app = FivediceApp(drills=True)

    async def script(pilot: Pilot[None]) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, PracticeScreen))
        await wait_for(pilot, lambda: "Keep some dice and roll, or score now?" in talk(app))
        assert dice(app) == "6 2 6 3 6" and "A classic position to practise" in talk(app)
        for key in "135":
            await pilot.press(key)
        await pilot.pause()
        assert app.screen.query_one("#die-3", Button).has_class("held")
        await pilot.press("r")
        await wait_for(pilot, lambda: "Right: keep 6 6 6 is the best move." in talk(app))
        assert f"Rule of thumb: {BUILTIN[0].title}" in talk(app)
        assert "Right once: it comes back after 8 other positions" in talk(app)
        await pilot.press("n")
        await wait_for(pilot, lambda: dice(app) == "5 3 2 5 4")
        boxes = app.screen.query_one("#practice-boxes", OptionList)
        labels = [str(boxes.get_option_at_index(i).prompt) for i in range(boxes.option_count)]
        boxes.focus()
        boxes.highlighted = next(i for i, label in enumerate(labels) if label.startswith("Chance"))
        await pilot.press("enter")
        await wait_for(pilot, lambda: "The best is keep 2 3 4 5" in talk(app))
        assert "score Chance loses" in talk(app)
        assert "keep 2 3 4 5 rather than score Chance: " in talk(app)  # why, box by box
        assert "It comes back after 3 other positions." in screen_text(app)
        assert "1 to practise again" in talk(app) or "2 to practise again" in talk(app)

    run(app, script)
    drills = open_service()
    assert drills.drill(BUILTIN_PREFIX + BUILTIN[0].name).right_in_a_row == 1
    assert drills.drill(BUILTIN_PREFIX + BUILTIN[1].name).times_missed == 1
    assert drills.list_games() == []  # nothing of it is a game


def test_practice_opens_from_the_new_game_screen_and_escape_goes_back():
    app = FivediceApp()

    async def script(pilot: Pilot[None]) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen))
        await pilot.click("#drills")
        await wait_for(pilot, lambda: isinstance(app.screen, PracticeScreen))
        await wait_for(pilot, lambda: "Keep some dice and roll, or score now?" in talk(app))
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen))

    run(app, script)


def test_the_practice_screen_in_japanese_has_no_english_left():
    set_language("ja")
    app = FivediceApp(drills=True)
    seen: list[str] = []

    async def script(pilot: Pilot[None]) -> None:
        await wait_for(pilot, lambda: "今記入しますか" in talk(app))
        seen.append(screen_text(app))
        await pilot.press("r")  # keep nothing: a miss, with its verdict
        await wait_for(pilot, lambda: "最善" in talk(app))
        seen.append(screen_text(app))

    run(app, script)
    for screen in seen:
        assert not english_sentences(screen), screen
