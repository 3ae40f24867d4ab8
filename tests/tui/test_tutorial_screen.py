"""The tutorial in the terminal app, driven headless through its keys and buttons (Pilot)."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import Button, OptionList, Static

from fivedice.core.rules import RuleSet
from fivedice.i18n import set_language
from fivedice.tui.app import FivediceApp, TutorialStart
from fivedice.tui.screens.setup import SetupScreen
from fivedice.tui.screens.tutorial import LessonScreen, TutorialScreen
from tests.tui.support import open_service, run, screen_text, wait_for


def feedback(app) -> str:
    """What the lesson said so far, oldest first (its steps and its answers)."""
    return str(app.screen.query_one("#lesson-feedback", Static).render())


def said(app) -> str:
    """What the lesson asks now: the last step said."""
    return app.screen.now_text()


async def choose_box(pilot: Pilot[None], app, name: str) -> None:
    boxes = app.screen.query_one("#lesson-boxes", OptionList)
    labels = [str(boxes.get_option_at_index(i).prompt) for i in range(boxes.option_count)]
    index = next(i for i, label in enumerate(labels) if label.startswith(name))
    boxes.focus()
    boxes.highlighted = index
    await pilot.press("enter")
    await pilot.pause()


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_a_lesson_played_with_keys_and_a_wrong_hold_explained():
    app = FivediceApp(tutorial=TutorialStart(RuleSet(), "rolling"))

    async def script(pilot: Pilot[None]) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen))
        assert "Roll them" in said(app)
        await pilot.press("r")
        await wait_for(pilot, lambda: "Three 6s" in said(app))
        assert (
            " ".join(str(app.screen.query_one(f"#die-{p}", Button).label) for p in range(1, 6))
            == "6 6 2 6 3"
        )
        await pilot.press("3")  # the 2: not part of the keep
        await pilot.pause()
        assert "a 2 is not one to hold" in feedback(app)
        assert not app.screen.lesson_run.state.turn.held[2]
        for key in "124":
            await pilot.press(key)
        await pilot.pause()
        assert app.screen.query_one("#die-1", Button).has_class("held")
        await pilot.press("r")
        await wait_for(pilot, lambda: "A fourth 6" in said(app))
        await pilot.click("#die-3")
        await pilot.press("r")
        await wait_for(pilot, lambda: "No rolls are left" in said(app))
        await choose_box(pilot, app, "Chance")
        assert "this step asks for Sixes" in feedback(app)
        await choose_box(pilot, app, "Sixes")
        await wait_for(pilot, lambda: "Lesson done" in said(app))
        assert "You score 24 in Sixes" in feedback(app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, TutorialScreen))
        await wait_for(pilot, lambda: "1 of 7 lessons done." in screen_text(app))
        assert "Rolling and holding (done)" in screen_text(app)

    run(app, script)
    progress = open_service().tutorial_progress()
    assert progress["rolling"].status == "done"


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_skip_from_the_list_and_the_entry_on_the_new_game_screen():
    app = FivediceApp()

    async def script(pilot: Pilot[None]) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen))
        assert "Learn by playing" in screen_text(app)
        await pilot.click("#learn")
        await wait_for(pilot, lambda: isinstance(app.screen, TutorialScreen))
        await wait_for(pilot, lambda: "0 of 7 lessons done." in screen_text(app))
        # (Under load a click that arrives before the list is laid out is lost: wait until
        # the button has its place on the screen.)
        await wait_for(pilot, lambda: app.screen.query_one("#skip-upper").region.area > 0)
        await pilot.pause()
        await pilot.click("#skip-upper")
        await wait_for(pilot, lambda: "(skipped)" in screen_text(app))
        await pilot.click("#play-zero")
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen))
        assert "Put it in Ones" in said(app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, TutorialScreen))
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen))

    run(app, script)
    assert open_service().tutorial_progress()["upper"].status == "skipped"


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_the_lesson_screen_in_german_fits_80_columns():
    set_language("de")
    app = FivediceApp(tutorial=TutorialStart(RuleSet(), "yahtzee"))

    async def script(pilot: Pilot[None]) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen))
        await pilot.press("r")
        await wait_for(pilot, lambda: "Kniffel" in said(app))
        text = screen_text(app)
        assert "Kniffel-Bonus" in text and "Würfeln" in text

    run(app, script)


def keys_line(app) -> str:
    return str(app.screen.query_one("#lesson-keys", Static).render())


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_the_lesson_says_its_keys_shows_positions_and_keeps_the_order_and_the_cursor():
    app = FivediceApp(tutorial=TutorialStart(RuleSet(), "scoring"))

    async def script(pilot: Pilot[None]) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen))
        # The footer shows how to hold and score; the dice stand under their positions.
        text = screen_text(app)
        assert "1-5 Hold" in text and "Score" in text and "r Roll" in text
        positions = app.screen.query("#lesson-positions .position")
        assert [str(p.render()) for p in positions] == ["1", "2", "3", "4", "5"]
        assert (
            keys_line(app) == "Pick Full house (25) in the Score in list with ↑↓ and press Enter."
        )
        # A refused box: explained, and the list's cursor stays on it.
        await choose_box(pilot, app, "Chance")
        boxes = app.screen.query_one("#lesson-boxes", OptionList)
        chance = boxes.get_option_index("chance")
        assert "this step asks for Full house" in feedback(app)
        assert boxes.highlighted == chance
        await choose_box(pilot, app, "Full house")
        await wait_for(pilot, lambda: "A new turn" in said(app))
        # What was said reads in the order it was said: the step, the refusal, the score.
        log = feedback(app)
        first = log.index("Your third and last roll")
        assert first < log.index("this step asks for Full house") < log.index("You score 25")
        assert log.endswith("A new turn. Roll.")  # the newest last
        assert keys_line(app) == "Press r to roll."
        await pilot.press("r")
        await wait_for(pilot, lambda: "a 6 would make a large straight" in said(app))
        assert keys_line(app) == "Press 1 2 3 4 to hold them, then r to roll."
        for key in "1234":
            await pilot.press(key)
        await wait_for(pilot, lambda: keys_line(app) == "Press r to roll.")

    run(app, script)


def test_the_japanese_lesson_at_80_by_24_shows_the_whole_step_and_its_keys():
    set_language("ja")
    app = FivediceApp(tutorial=TutorialStart(RuleSet(), "upper"))

    async def script(pilot: Pilot[None]) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, LessonScreen))
        await pilot.pause()
        text = screen_text(app)
        assert "6の目に記入してください。" in text  # the end of the step's text
        assert "を押しましょう。" in text  # the end of the keys line
        assert "上段合計" in text and "41" in text  # the row the lesson names
        assert "1-5 キープ" in text

    run(app, script)
