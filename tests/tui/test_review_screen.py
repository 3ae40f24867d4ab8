"""The review screen, driven headless: opened from the end of a game, seat by seat, refusals."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.pilot import Pilot

from fivedice.core.game import GameSettings, Seat
from fivedice.i18n import set_language
from fivedice.service.games import GameService
from fivedice.tui.app import FivediceApp
from fivedice.tui.screens.dialogs import EndScreen
from fivedice.tui.screens.game import GameScreen
from fivedice.tui.screens.review import ReviewApp, ReviewScreen
from tests.tui.support import SIZE, screen_text, use_database, wait_for


@pytest.fixture
def url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    use_database(monkeypatch, url)
    yield url
    set_language("en")


def finished_cpu_game(url: str, seats: tuple[Seat, ...]) -> int:
    service = GameService.open(url)
    view = service.create_game(GameSettings(seats=seats), seed=21)
    while not view.is_over:
        _, view = service.cpu_step(view.game_id, view.version)
    service.store.close()
    return view.game_id


async def wait_for_review(pilot: Pilot[None], app) -> ReviewScreen:
    await wait_for(pilot, lambda: isinstance(app.screen, ReviewScreen))
    screen = app.screen
    await wait_for(pilot, lambda: screen.review is not None, seconds=60)
    await pilot.pause()
    return screen


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_the_end_screen_opens_the_review_of_the_game(url) -> None:
    app = FivediceApp(GameSettings(seats=(Seat("Ann"),)), seed=5, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        while not app.service.state.is_match_over:  # the greediest player there is
            app.service.act("roll")
            best = max(app.service.state.placements(), key=lambda p: p.points)
            app.service.act(f"score {best.category.key}")
        screen.refresh_view()
        await wait_for(
            pilot, lambda: isinstance(app.screen, EndScreen) and bool(app.screen.query("#review"))
        )
        await pilot.press("w")
        review_screen = await wait_for_review(pilot, app)
        review = review_screen.review
        text = screen_text(app)
        assert f"Review of game {app.service.game_id}" in text
        assert f"Expected points lost: {review.seats[0].total_loss:.2f}" in text
        assert "Costliest decisions:" in text  # never rolling again costs something
        await pilot.press("pagedown", "pagedown")
        assert "turns played" in screen_text(app)  # the chart's x axis
        await pilot.press("escape")
        assert isinstance(app.screen, EndScreen)

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(main())


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_tab_shows_the_next_seat(url) -> None:
    game_id = finished_cpu_game(url, (Seat("Ann", "beginner"), Seat("Bob", "expert")))
    app = ReviewApp(game_id)

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for_review(pilot, app)
            text = screen_text(app)
            assert "Ann (CPU, beginner)" in text and "player 1 of 2" in text
            await pilot.press("tab")
            text = screen_text(app)
            assert "Bob (CPU, expert)" in text and "player 2 of 2" in text
            assert "Expected points lost: 0.00" in text
            assert "(100%)" in text
            await pilot.press("shift+tab")
            assert "Ann (CPU, beginner)" in screen_text(app)

    asyncio.run(main())


def test_a_game_in_progress_is_not_reviewed(url) -> None:
    service = GameService.open(url)
    view = service.create_game(GameSettings(seats=(Seat("Cy"),)), seed=3)
    service.apply_action(view.game_id, "roll", view.version)
    service.store.close()
    app = ReviewApp(view.game_id)

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            await wait_for(pilot, lambda: "still in progress" in screen_text(app), seconds=30)
            assert isinstance(screen, ReviewScreen) and screen.review is None

    asyncio.run(main())
