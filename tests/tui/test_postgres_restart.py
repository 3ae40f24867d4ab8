"""Fault injection: the PostgreSQL server stops in the middle of a game in the terminal app.

The app must say the save failed, let the player try again, and once the server is back go on
(CPU turns by themselves) with no acknowledged action lost. The test starts its own
throwaway cluster (as scripts/with-postgres.sh does), so it can stop and start it; it is
skipped only when the PostgreSQL binaries are not installed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from textual.pilot import Pilot

from fivedice.core.game import GameSettings, Seat
from fivedice.service.games import GameService
from fivedice.store import Store
from fivedice.tui.app import FivediceApp
from fivedice.tui.screens.dialogs import ConfirmScreen
from fivedice.tui.screens.game import GameScreen
from tests.support.postgres import Cluster
from tests.tui.support import use_database, wait_for


@pytest.fixture
def cluster(cluster: Cluster, monkeypatch: pytest.MonkeyPatch) -> Iterator[Cluster]:
    """The test's own PostgreSQL server, as the app's default database."""
    use_database(monkeypatch, cluster.url)
    yield cluster


def banner(app: FivediceApp) -> str:
    screen = app.screen
    assert isinstance(screen, GameScreen)
    widget = screen.query_one("#banner")
    return str(widget.render()) if widget.display else ""


def test_the_server_stops_mid_game_and_nothing_acknowledged_is_lost(cluster: Cluster) -> None:
    settings = GameSettings(seats=(Seat("Ann"), Seat("Bot", "beginner")))
    app = FivediceApp(settings, seed=5, pace=0.05, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("p", "r", "1")  # paused CPU; a roll and a hold, both saved
        acknowledged = app.service.state
        assert acknowledged.turn.held[0]

        cluster.stop()
        await pilot.press("2")
        assert "Not saved" in banner(app) and "Press t" in banner(app)
        assert app.service.state is acknowledged
        await pilot.press("t")  # still down: still refused, still shown
        assert "Not saved" in banner(app) and app.service.state is acknowledged

        cluster.start()
        await pilot.press("t")
        assert app.service.state.turn.held[:2] == (True, True)
        assert banner(app) == ""

        await pilot.press("enter")  # score the best box; the CPU is next (paused)
        if isinstance(app.screen, ConfirmScreen):
            await pilot.press("y")
        assert app.service.is_cpu_turn
        cluster.stop()
        await pilot.press("p")  # the CPU's turn cannot be saved ...
        await wait_for(pilot, lambda: "Not saved" in banner(app), seconds=30)
        assert app.service.is_cpu_turn
        cluster.start()  # ... and goes on by itself once the server is back
        await wait_for(pilot, lambda: not app.service.is_cpu_turn, seconds=60)
        assert banner(app) == ""

        fresh = GameService(Store(cluster.url))
        saved = fresh.load(app.service.game_id)
        assert saved.state == app.service.state  # every acknowledged action is there
        fresh.store.close()

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(main())
