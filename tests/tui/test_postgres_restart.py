"""Fault injection: the PostgreSQL server stops in the middle of a game in the terminal app.

The app must say the save failed, let the player try again, and once the server is back go on
(CPU turns by themselves) with no acknowledged action lost. The test starts its own
throwaway cluster (as scripts/with-postgres.sh does), so it can stop and start it; it is
skipped only when the PostgreSQL binaries are not installed.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot

from fivedice.core.game import GameSettings, Seat
from fivedice.i18n import set_language
from fivedice.service.games import GameService
from fivedice.store import Store
from fivedice.tui.app import FivediceApp
from fivedice.tui.screens.dialogs import ConfirmScreen
from fivedice.tui.screens.game import GameScreen
from tests.tui.support import use_database, wait_for

pytestmark = pytest.mark.slow


def _postgres_bin() -> Path | None:
    candidates = sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)
    for directory in candidates:
        if (directory / "initdb").exists() and (directory / "pg_ctl").exists():
            return directory
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(found).parent
    return None


class Cluster:
    """A throwaway PostgreSQL cluster on a free port of 127.0.0.1 that can be stopped and
    started again."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        self.as_root = os.geteuid() == 0
        self.dir = Path(tempfile.mkdtemp(prefix="fivedice-pg-tui.", dir="/tmp"))
        self.dir.chmod(0o755)
        if self.as_root:
            shutil.chown(self.dir, "postgres", "postgres")
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> None:
        command = [str(self.bin / args[0]), *args[1:]]
        if self.as_root:  # root cannot run the server
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def init(self) -> None:
        self._run(
            "initdb", "-D", f"{self.dir}/data", "-U", "postgres", "--auth=trust", "-E", "UTF8",
            "--no-sync",
        )  # fmt: skip

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
            " -c synchronous_commit=off -c full_page_writes=off"
        )
        self._run(
            "pg_ctl", "-D", f"{self.dir}/data", "-l", f"{self.dir}/server.log", "-w", "-t", "60",
            "-o", options, "start",
        )  # fmt: skip

    def stop(self) -> None:
        self._run("pg_ctl", "-D", f"{self.dir}/data", "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):  # already stopped
            self._run("pg_ctl", "-D", f"{self.dir}/data", "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture
def cluster(monkeypatch: pytest.MonkeyPatch) -> Iterator[Cluster]:
    bin_dir = _postgres_bin()
    if bin_dir is None:
        pytest.skip("PostgreSQL is not installed (scripts/system-deps.sh installs it)")
    server = Cluster(bin_dir)
    try:
        server.init()
        server.start()
        use_database(monkeypatch, server.url)
        yield server
    finally:
        set_language("en")
        server.remove()


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
