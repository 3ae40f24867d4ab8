"""Games nobody plays: an attack on a real `fivedice serve` (SQLite, one worker, loopback)
that asks the API for games of CPUs alone and walks away.

Before: 100 games of 8 beginner CPUs × 100-game matches were accepted from one address,
all 100 played on at once for nobody (each for hours), and after a restart all of them
played on again. Now a game of CPUs alone is one game long, a client has one at a time (a
new one ends the one before), and its CPUs play only while someone watches it (a stream
open, or a look in the last `FIVEDICE_WATCH_SECONDS`): unwatched, it waits - also after a
restart - until someone looks at it again.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from pathlib import Path

import pytest

from tests.web.test_attacks import http, serving

pytestmark = pytest.mark.processes

WATCH_SECONDS = 2
EIGHT_CPUS = [{"name": f"Bot {n}", "kind": "cpu", "level": "beginner"} for n in range(8)]


def versions(database: Path) -> dict[int, tuple[str, int]]:
    """Each game's (status, version), read from the database (a look through the server
    would count as watching)."""
    with contextlib.closing(sqlite3.connect(database)) as connection:
        rows = connection.execute("SELECT id, status, version FROM games").fetchall()
    return {int(game): (str(status), int(version)) for game, status, version in rows}


NOBODYS = (
    "SELECT id, version FROM games WHERE status = 'in_progress' AND NOT EXISTS"
    " (SELECT 1 FROM game_seats s WHERE s.game_id = games.id AND s.cpu_level IS NULL)"
)


def playing(database: Path) -> dict[int, int]:
    """The games of CPUs alone in progress, and their versions."""
    with contextlib.closing(sqlite3.connect(database)) as connection:
        return {int(game): int(version) for game, version in connection.execute(NOBODYS)}


def moved(database: Path, seconds: float) -> set[int]:
    """The games in progress whose version moved within `seconds`."""
    before = playing(database)
    time.sleep(seconds)
    after = playing(database)
    return {game for game, version in after.items() if version > before.get(game, version)}


@pytest.fixture
def unplayed_server(tmp_path, monkeypatch):
    monkeypatch.setenv("FIVEDICE_WATCH_SECONDS", str(WATCH_SECONDS))
    monkeypatch.setenv("FIVEDICE_CPU_DELAY_MS", "50")
    monkeypatch.setenv("FIVEDICE_RATE_GAMES", "1000/minute")
    database = tmp_path / "unplayed.sqlite3"
    return f"sqlite:///{database}", database


def test_games_of_cpus_alone_are_one_per_client_one_game_long_and_wait_unwatched(
    unplayed_server, tmp_path
):
    url, database = unplayed_server
    with serving(url, tmp_path) as (port, _process):
        with http(port, "127.0.8.1") as client:
            long_match = {"players": EIGHT_CPUS, "match_length": 100}
            refused = client.post("/api/games", json=long_match)
            assert refused.status_code == 422 and "one game long" in refused.text
            made = [client.post("/api/games", json={"players": EIGHT_CPUS}) for _ in range(100)]
            assert {answer.status_code for answer in made} == {201}
            last = made[-1].json()["id"]
        with http(port, "127.0.8.2") as client:  # another client has its own
            other = client.post("/api/games", json={"players": EIGHT_CPUS}).json()["id"]
        # One game of CPUs alone per client: the 99 before the last were ended.
        assert len(playing(database)) == 2
        # Nobody watches: once the look of their creation is past, both wait.
        time.sleep(WATCH_SECONDS + 1)
        assert moved(database, 2) == set()
        # A look wakes one (the other waits on).
        with http(port, "127.0.8.3") as client:
            assert client.get(f"/api/games/{last}").status_code == 200
        assert moved(database, 1) == {int(last.split("-")[0])}
        # A stream of the other keeps it playing past the look (as long as it is open).
        with (
            http(port, "127.0.8.3") as client,
            client.stream("GET", f"/api/games/{other}/events") as stream,
        ):
            lines = stream.iter_lines()  # (kept: a dropped iterator closes the stream)
            next(lines)
            time.sleep(WATCH_SECONDS + 1)
            assert int(other.split("-")[0]) in moved(database, 1)
    # A restart: nothing of CPUs alone plays again without a person looking.
    before = playing(database)
    with serving(url, tmp_path) as (port, _process):
        time.sleep(WATCH_SECONDS + 2)
        assert playing(database) == before  # (no version moved)


def test_a_game_with_a_person_is_played_by_its_cpus_whoever_watches(unplayed_server, tmp_path):
    """The bound is for games nobody plays: a person's game's CPUs move on unwatched."""
    url, database = unplayed_server
    with serving(url, tmp_path) as (port, _process):
        with http(port, "127.0.8.4") as client:
            players = [*EIGHT_CPUS[:3], {"name": "Ann"}]
            made = client.post("/api/games", json={"players": players})
            assert made.status_code == 201
        game = int(made.json()["id"].split("-")[0])
        time.sleep(WATCH_SECONDS + 1)
        status, version = versions(database)[game]
        # Its three CPUs played their turns (and wait for Ann, a person, to move).
        assert status == "in_progress" and version >= 3
