"""SQLite failure handling: damaged files, a locked database, a full disk, two processes."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap

import pytest
from sqlalchemy import event

from fivedice.core.game import GameSettings, Seat
from fivedice.service.games import GameService
from fivedice.store import DatabaseDamagedError, Store, StoreUnavailableError
from tests.support.players import human_move, play_out, simple_cpu_factory

SOLO = GameSettings((Seat("Ann"),))


def url_of(path) -> str:
    return f"sqlite:///{path}"


@pytest.mark.parametrize(
    "content",
    [b"hello, this is a shopping list\n", b"\x00" * 100 + os.urandom(5000), b"SQLite format 3"],
    ids=["text", "random", "bad-header"],
)
def test_a_file_that_is_no_database_gives_a_clear_error_and_is_kept(tmp_path, content):
    path = tmp_path / "games.sqlite3"
    path.write_bytes(content)
    with pytest.raises(DatabaseDamagedError, match="damaged or is not a fivedice database"):
        Store(url_of(path))
    assert path.read_bytes() == content


def test_a_damaged_database_gives_a_clear_error_and_is_kept(tmp_path):
    path = tmp_path / "games.sqlite3"
    service = GameService(Store(url_of(path)), cpu_factory=simple_cpu_factory)
    for seed in range(6):
        play_out(service, service.create_game(SOLO, seed=seed).game_id)
    service.store.close()
    with sqlite3.connect(path) as connection:  # fold the WAL into the file
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    assert len(data) > 5 * 4096
    data[2 * 4096 : len(data) - 4096] = os.urandom(len(data) - 3 * 4096)
    path.write_bytes(bytes(data))
    with pytest.raises(DatabaseDamagedError) as caught:
        store = Store(url_of(path))
        GameService(store).load(3)
        store.list_games()
        store.results()
    assert "left as it is" in str(caught.value)
    assert path.read_bytes() == bytes(data)


def test_a_locked_database_is_a_retryable_error_and_nothing_is_applied(tmp_path):
    path = tmp_path / "games.sqlite3"
    service = GameService(Store(url_of(path), busy_timeout_ms=200))
    view = service.create_game(SOLO, seed=1)
    view = service.apply_action(view.game_id, "roll", 0)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        move = human_move(view.state)
        with pytest.raises(StoreUnavailableError, match="locked") as caught:
            service.apply_action(view.game_id, move, view.version)
        assert caught.value.retryable
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert service.load(view.game_id).version == 1
    after = service.apply_action(view.game_id, move, view.version)  # the retry works
    assert after.version == 2


def test_a_full_disk_is_a_retryable_error_and_nothing_is_applied(tmp_path):
    path = tmp_path / "games.sqlite3"
    store = Store(url_of(path))
    service = GameService(store, cpu_factory=simple_cpu_factory)
    game_id = service.create_game(SOLO, seed=1).game_id
    store.engine.dispose()

    def no_room(dbapi_connection, _record):
        pages = dbapi_connection.execute("PRAGMA page_count").fetchone()[0]
        dbapi_connection.execute(f"PRAGMA max_page_count = {pages}")

    event.listen(store.engine, "connect", no_room)
    failed = None
    for _ in range(400):  # fill the last free space of the file
        view = service.load(game_id)
        if view.is_over:
            view = service.create_game(SOLO, seed=2)
            game_id = view.game_id
        move = human_move(view.state)
        try:
            service.apply_action(game_id, move, view.version)
        except StoreUnavailableError as error:
            failed = (error, view.version, move)
            break
    assert failed is not None, "the size limit was never reached"
    error, version, move = failed
    assert error.retryable and "full" in str(error)
    assert service.load(game_id).version == version
    event.remove(store.engine, "connect", no_room)
    store.engine.dispose()
    assert service.apply_action(game_id, move, version).version == version + 1


WRITER = textwrap.dedent(
    """
    import sys
    from fivedice.core.game import GameSettings, Seat
    from fivedice.service.games import GameService
    from fivedice.store import GameClosedError, StaleVersionError, Store
    from tests.support.players import human_move, simple_cpu_factory

    url, shared, name = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    service = GameService(Store(url, busy_timeout_ms=20000), cpu_factory=simple_cpu_factory)
    own = service.create_game(GameSettings((Seat(name),)), seed=len(name)).game_id
    stale = 0
    for _ in range(60):
        for game_id in (own, shared):
            view = service.load(game_id)
            if view.is_over:
                continue
            try:
                service.apply_action(game_id, human_move(view.state), view.version)
            except (StaleVersionError, GameClosedError):  # the other process moved first
                stale += 1
    print(own, stale)
    """
)


@pytest.mark.processes
def test_two_processes_writing_one_file_do_not_corrupt_it(tmp_path):
    path = tmp_path / "games.sqlite3"
    service = GameService(Store(url_of(path)), cpu_factory=simple_cpu_factory)
    shared = service.create_game(GameSettings((Seat("Shared"),)), seed=9).game_id
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = {**os.environ, "PYTHONPATH": root}
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, url_of(path), str(shared), name],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for name in ("Ann", "Bob")
    ]
    outputs = [worker.communicate(timeout=240) for worker in workers]
    for worker, (_out, err) in zip(workers, outputs, strict=True):
        assert worker.returncode == 0, err
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    for summary in service.list_games():
        view = service.load(summary.game_id)  # every log replays
        assert view.version == summary.actions
    shared_view = service.load(shared)
    # Both processes played the shared game: each action exactly once, in order.
    assert shared_view.version == len(service.record(shared).actions) >= 40
