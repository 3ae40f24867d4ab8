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


# Item 2 and the banner: a failed save is a state, with a retry; CPU turns resume by themselves


class FlakyStore:
    """Makes the service's writes fail while `down` is set, as a locked database would."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from fivedice.store import StoreUnavailableError

        self.down = False
        store = session.open_service().store
        for name in ("append_action", "save_session"):
            original = getattr(store, name)

            def failing(*args: object, _original=original, **kwargs: object) -> object:
                if self.down:
                    raise StoreUnavailableError(
                        "could not save the action: database is locked; nothing was changed"
                    )
                return _original(*args, **kwargs)

            monkeypatch.setattr(store, name, failing)


def banner_text(app: FivediceApp) -> str:
    banner = game_screen(app).query_one("#banner")
    return str(banner.render()) if banner.display else ""


def test_a_failed_save_of_a_cpu_turn_shows_a_banner_and_resumes_by_itself(monkeypatch) -> None:
    app = FivediceApp(DUEL, seed=5, pace=0.05, start_now=True)

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
        saved = session.open_service().load(app.service.game_id)
        assert saved.state == app.service.state  # nothing lost, nothing applied twice

    run(app, script)


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
        assert session.open_service().load(app.service.game_id).state == app.service.state

    run(app, script)


# Item 3: a database that cannot be opened is shown, never silently unsaved ----------------


def damaged_file(path: Path) -> None:
    path.write_bytes(b"this is not a database at all, but it is someone's file" * 100)


def foreign_file(path: Path) -> None:
    import sqlite3

    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
    connection.close()


@pytest.mark.parametrize("make", [damaged_file, foreign_file])
def test_a_database_that_cannot_be_opened_is_shown(tmp_path: Path, make) -> None:
    from fivedice.tui.dialogs import StoreProblemScreen

    path = tmp_path / "other.sqlite3"
    make(path)
    before = path.read_bytes()
    session.configure(f"sqlite:///{path}")
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
    if make is damaged_file:  # (a foreign file's header is the store's business: issue 10)
        assert path.read_bytes() == before  # left as it was


def test_quit_from_the_database_problem_screen(tmp_path: Path) -> None:
    path = tmp_path / "bad.sqlite3"
    damaged_file(path)
    session.configure(f"sqlite:///{path}")
    app = FivediceApp()

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("q")
        await pilot.pause()
        assert app.return_code is not None or not app.is_running

    run(app, script)


# Item 4: 60×20 works, smaller says so ---------------------------------------------------


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


# Item 5: the Abandon button stays on screen at 80 columns ---------------------------------


def test_abandon_stays_on_screen_with_long_names() -> None:
    service = session.open_service()
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
