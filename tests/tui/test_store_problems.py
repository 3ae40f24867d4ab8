"""A database that cannot be opened is shown to the player, never silently played unsaved
(issue 14, item 7): which file, why (translated), and the choice; the file stays untouched."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Button

from fivedice.core.game import GameSettings, Seat
from fivedice.i18n import set_language
from fivedice.tui.app import FivediceApp
from fivedice.tui.screens.dialogs import StoreProblemScreen
from fivedice.tui.screens.game import GameScreen
from fivedice.tui.session import Backend
from tests.store.test_foreign_files import FOREIGN
from tests.tui.test_app import run, screen_text, wait_for

SOLO = GameSettings((Seat("Ann"),))
REASONS = {
    "text": "it is not a SQLite database",
    "users-table": "it holds other tables: users",
    "truncated-fivedice": "it is cut short",
    "damaged-fivedice": "not a fivedice database",
    "another-alembic-app": "not a fivedice database",
}


@pytest.mark.parametrize("kind", list(REASONS))
def test_a_foreign_or_damaged_file_is_shown_with_its_path_and_reason(
    tmp_path: Path, kind: str
) -> None:
    path = tmp_path / "other.sqlite3"
    FOREIGN[kind](path)
    before = path.read_bytes()
    app = FivediceApp(SOLO, seed=1, start_now=True, backend=Backend(f"sqlite:///{path}"))

    async def script(pilot: Pilot[None]) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, StoreProblemScreen))
        text = " ".join(screen_text(app).split())
        assert "cannot be opened" in text and path.name in text
        assert REASONS[kind] in text
        await pilot.press("p")  # play without saving, knowingly
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen))
        assert "not saved" in screen_text(app) and not app.service.saved

    run(app, script)
    assert path.read_bytes() == before


def test_the_problem_is_said_in_the_players_language(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    FOREIGN["users-table"](path)
    set_language("de")
    try:
        app = FivediceApp(SOLO, seed=1, backend=Backend(f"sqlite:///{path}"))

        async def script(pilot: Pilot[None]) -> None:
            await wait_for(pilot, lambda: isinstance(app.screen, StoreProblemScreen))
            text = " ".join(screen_text(app).split())
            assert "keine fivedice-Datenbank" in text and path.name in text
            await pilot.press("q")

        run(app, script)
    finally:
        set_language("en")


def test_lessons_work_after_choosing_to_play_unsaved(tmp_path: Path) -> None:
    """Without a database the lessons run on one in memory (nothing kept), not a crash."""
    from fivedice.tui.screens.setup import SetupScreen
    from fivedice.tui.screens.tutorial import LessonScreen, TutorialScreen

    path = tmp_path / "other.sqlite3"
    FOREIGN["text"](path)
    app = FivediceApp(backend=Backend(f"sqlite:///{path}"))

    async def script(pilot: Pilot[None]) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, StoreProblemScreen))
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen))
        app.screen.query_one("#learn", Button).press()
        await wait_for(pilot, lambda: isinstance(app.screen, TutorialScreen))
        assert "0 of" in screen_text(app)  # the list, with no progress
        # The list is built on mount and again on resume: press the button that stays.
        for _ in range(80):
            if isinstance(app.screen, LessonScreen):
                break
            buttons = [b for b in app.screen.query("#play-upper") if b.is_attached]
            if buttons:
                buttons[-1].press()
            await pilot.pause(0.25)
        assert isinstance(app.screen, LessonScreen)

    run(app, script)
    assert path.read_text() == "my shopping list\nmilk\n"


def test_the_tutorial_app_shows_a_database_it_cannot_open(tmp_path: Path) -> None:
    from fivedice.core.rules import RuleSet
    from fivedice.tui.app import TutorialStart
    from fivedice.tui.screens.tutorial import TutorialScreen

    path = tmp_path / "other.sqlite3"
    FOREIGN["users-table"](path)
    before = path.read_bytes()
    app = FivediceApp(backend=Backend(f"sqlite:///{path}"), tutorial=TutorialStart(RuleSet()))

    async def script(pilot: Pilot[None]) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, StoreProblemScreen))
        text = " ".join(screen_text(app).split())
        assert path.name in text and "it holds other tables: users" in text
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, TutorialScreen))

    run(app, script)  # type: ignore[arg-type]
    assert path.read_bytes() == before
