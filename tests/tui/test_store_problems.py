"""Store problems in the terminal app: a database that cannot be opened is shown to the
player, never silently played unsaved (which file, why, translated, and the choice; the file
stays untouched), and a failed save is a state with a retry."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Button

from fivedice.core.game import GameSettings, Seat
from fivedice.i18n import set_language
from fivedice.tui.app import FivediceApp
from fivedice.tui.screens.dialogs import ConfirmScreen, StoreProblemScreen
from fivedice.tui.screens.game import GameScreen
from fivedice.tui.session import Backend
from tests.support.files import FOREIGN
from tests.tui.support import (
    game_screen,
    open_service,
    run,
    screen_text,
    use_database,
    wait_for,
)

SOLO = GameSettings((Seat("Ann"),))
DUEL = GameSettings(seats=(Seat("Ann"), Seat("Bot", "beginner")))
REASONS = {
    "text": "it is not a SQLite database",
    "users-table": "it holds other tables: users",
    "truncated-fivedice": "it is cut short",
    "damaged-fivedice": "not a fivedice database",
    "another-alembic-app": "not a fivedice database",
}


@pytest.fixture
def tmp_path() -> Iterator[Path]:
    """A directory with a short path, so the screen shows a file's whole path in 80 columns
    however deep pytest's own temporary directories are (each xdist worker adds a level)."""
    path = Path(tempfile.mkdtemp(prefix="fd-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
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


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
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


# A failed save is a state, with a retry; CPU turns resume by themselves -------------------------


class FlakyStore:
    """Makes the service's writes fail while `down` is set, as a locked database would."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from fivedice.store import Store, StoreUnavailableError

        self.down = False
        # Every store of the test fails alike: the app opens its own service (its Backend).
        for name in ("append_action", "save_session"):
            original = getattr(Store, name)

            def failing(*args: object, _original=original, **kwargs: object) -> object:
                if self.down:
                    raise StoreUnavailableError(
                        "could not save the action: database is locked; nothing was changed"
                    )
                return _original(*args, **kwargs)

            monkeypatch.setattr(Store, name, failing)


def banner_text(app: FivediceApp) -> str:
    banner = game_screen(app).query_one("#banner")
    return str(banner.render()) if banner.display else ""


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_a_failed_save_of_a_cpu_turn_shows_a_banner_and_resumes_by_itself(monkeypatch) -> None:
    # No seed: a seeded game is practice (the header would say so, crowding the status).
    app = FivediceApp(DUEL, seed=None, pace=0.05, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        flaky = FlakyStore(monkeypatch)
        await pilot.press("p", "r", "enter")  # paused: the CPU waits for us
        if isinstance(app.screen, ConfirmScreen):
            await pilot.press("y")
        flaky.down = True
        await pilot.press("p")  # the CPU's turn goes on now, and cannot be saved
        await wait_for(pilot, lambda: "Not saved" in banner_text(app))
        before = app.service.state
        assert app.service.is_cpu_turn
        text = screen_text(app)
        assert "database is locked" in text and "waiting for the save" in text
        assert "t Try again" in text
        await pilot.pause(1.0)
        assert "Not saved" in banner_text(app)  # it stays, unlike a toast
        assert app.service.state is before
        flaky.down = False  # the lock is gone: no key needed
        await wait_for(pilot, lambda: not app.service.is_cpu_turn)
        assert banner_text(app) == ""
        assert "t Try again" not in screen_text(app)
        saved = open_service().load(app.service.game_id)
        assert saved.state == app.service.state  # nothing lost, nothing applied twice

    run(app, script)


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_a_failed_save_of_a_human_action_is_retried_with_t(monkeypatch) -> None:
    app = FivediceApp(SOLO, seed=5, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        flaky = FlakyStore(monkeypatch)
        await pilot.press("r")
        rolled = app.service.state
        flaky.down = True
        await pilot.press("1")
        assert "Not saved" in banner_text(app) and "Press t" in banner_text(app)
        assert app.service.state is rolled and not rolled.turn.held[0]
        await pilot.press("t")  # still locked: still refused, still shown
        assert "Not saved" in banner_text(app) and app.service.state is rolled
        flaky.down = False
        await pilot.press("t")
        assert app.service.state.turn.held[0]
        assert banner_text(app) == ""
        assert open_service().load(app.service.game_id).state == app.service.state

    run(app, script)


# A database that cannot be opened is shown, never silently unsaved ------------------------------


def damaged_file(path: Path) -> None:
    path.write_bytes(b"this is not a database at all, but it is someone's file" * 100)


def foreign_file(path: Path) -> None:
    import sqlite3

    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
    connection.close()


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
@pytest.mark.parametrize("make", [damaged_file, foreign_file])
def test_a_database_that_cannot_be_opened_is_shown(
    tmp_path: Path, make, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fivedice.tui.screens.dialogs import StoreProblemScreen

    path = tmp_path / "other.sqlite3"
    make(path)
    before = path.read_bytes()
    use_database(monkeypatch, f"sqlite:///{path}")
    app = FivediceApp(SOLO, seed=1, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, StoreProblemScreen)
        text = screen_text(app)
        assert "cannot be opened" in text and str(path) in text
        assert "not a fivedice database" in text
        assert "Play unsaved" in text and "Quit" in text
        await pilot.press("p")  # knowingly
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen))
        assert "not saved" in screen_text(app)
        await pilot.press("r")
        assert app.service.state.dice is not None  # playable, in memory

    run(app, script)
    if make is damaged_file:  # (a foreign file's header is the store's business)
        assert path.read_bytes() == before  # left as it was


def test_quit_from_the_database_problem_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "bad.sqlite3"
    damaged_file(path)
    use_database(monkeypatch, f"sqlite:///{path}")
    app = FivediceApp()

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("q")
        await pilot.pause()
        assert app.return_code is not None or not app.is_running

    run(app, script)
