"""Races between writers and readers: new profiles created at once, reads beside a writer."""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest
from sqlalchemy import event, func, select

from fivedice.core.game import GameSettings, Seat
from fivedice.service.games import GameService
from fivedice.service.rooms import RoomSeatSpec, RoomService
from fivedice.store import (
    DatabaseDamagedError,
    StaleVersionError,
    Store,
    StoreConflictError,
    StoreError,
    database,
    schema,
)
from fivedice.store.rooms import RoomError
from tests.support.players import simple_cpu_factory

DATABASES = ("postgresql",)  # writers racing: real concurrency needs the server

THREADS = 12


def test_many_new_games_with_the_same_new_name_at_once_make_one_profile(db_url):
    setup = Store(db_url)
    barrier = threading.Barrier(THREADS)
    outcomes: list[object] = []

    def create(index: int) -> None:
        store = Store(db_url, migrate=False)
        try:
            barrier.wait()
            # "zed", "Zed", " ZED ": one profile, matched ignoring case and outer spaces.
            name = ("Zed", "zed", " ZED ")[index % 3]
            record = store.create_game(GameSettings((Seat(name), Seat("Bot", "casual"))))
            outcomes.append(record.game_id)
        except Exception as error:
            outcomes.append(error)
        finally:
            store.close()

    threads = [threading.Thread(target=create, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    failures = [o for o in outcomes if isinstance(o, Exception)]
    assert failures == []
    assert len(outcomes) == THREADS
    with setup.engine.connect() as connection:
        profiles = connection.execute(select(schema.profiles.c.id)).scalars().all()
        linked = connection.execute(
            select(func.count(func.distinct(schema.game_seats.c.profile_id))).where(
                schema.game_seats.c.profile_id.is_not(None)
            )
        ).scalar_one()
    assert len(profiles) == 1 and linked == 1
    assert [name.casefold() for name in setup.profile_names()] == ["zed"]
    setup.close()


def test_a_profile_inserted_by_another_transaction_meanwhile_is_reused(db_url):
    """The exact interleaving of the race, made deterministic (PostgreSQL: SQLite writers
    cannot overlap, as each holds the write lock from its first statement)."""
    store = Store(db_url)
    if store.is_sqlite:
        store.close()
        pytest.skip("SQLite write transactions never overlap (BEGIN IMMEDIATE)")
    now = database.utc_now()
    found: list[object] = []
    with store.engine.connect() as first:
        first.begin()
        mine = database._profile_id(first, "Zed", now)  # inserted, not yet committed

        def second() -> None:
            try:
                with store.engine.begin() as connection:
                    # Waits on the unique index until the first transaction ends.
                    found.append(database._profile_id(connection, "zed", now))
            except Exception as error:
                found.append(error)

        thread = threading.Thread(target=second)
        thread.start()
        time.sleep(0.5)
        assert found == []  # blocked behind the uncommitted row
        first.commit()
    thread.join(10)
    assert found == [mine]
    assert store.profile_names() == ["Zed"]
    store.close()


def test_a_constraint_violation_is_not_reported_as_damage(db_url):
    store = Store(db_url)
    try:
        with (
            pytest.raises(StoreConflictError) as caught,
            store._errors("save the profile"),
            store.engine.begin() as connection,
        ):
            for _ in range(2):
                connection.execute(
                    schema.profiles.insert().values(
                        name="Ann", name_key="ann", created_at=database.utc_now()
                    )
                )
        assert not isinstance(caught.value, DatabaseDamagedError)
        assert isinstance(caught.value, StoreError) and caught.value.retryable
        assert "nothing was changed" in str(caught.value)
    finally:
        store.close()


# -- SQLite: reads do not queue behind writers ----------------------------------------------


def test_sqlite_reads_do_not_wait_for_a_writer(tmp_path):
    path = tmp_path / "games.sqlite3"
    service = GameService(Store(f"sqlite:///{path}", busy_timeout_ms=300), simple_cpu_factory)
    store = service.store
    view = service.create_game(GameSettings((Seat("Ann"),)), seed=1)
    service.apply_action(view.game_id, "roll", 0)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process is writing
    other.execute("UPDATE games SET updated_at = updated_at")
    try:
        started = time.monotonic()
        assert store.load_game(view.game_id).version == 1
        assert [game.game_id for game in store.list_games()] == [view.game_id]
        assert store.results() == []
        assert store.profile_names() == ["Ann"]
        assert store.schema_version()
        assert service.load(view.game_id).version == 1
        assert time.monotonic() - started < 0.3  # not one busy timeout was waited out
    finally:
        other.execute("ROLLBACK")
        other.close()
    store.close()


def test_sqlite_writes_still_take_the_write_lock_first(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    statements: list[str] = []

    def record(conn, cursor, statement, *args):
        statements.append(statement.strip().upper())

    event.listen(store.engine, "before_cursor_execute", record)
    record_ = store.create_game(GameSettings((Seat("Ann"),)))
    assert "BEGIN IMMEDIATE" in statements
    statements.clear()
    store.load_game(record_.game_id)
    store.list_games()
    assert "BEGIN IMMEDIATE" not in statements
    store.close()


def test_stale_version_message_names_versions_not_the_internal_id():
    error = StaleVersionError(4711, 3, 5)
    text = str(error)
    assert "4711" not in text
    assert "version 5" in text and "version 3" in text and "reload" in text
    assert error.game_id == 4711 and error.expected == 3 and error.current == 5
    unknown = str(StaleVersionError(4711, 3, None))
    assert "4711" not in unknown and "version 3" in unknown


# -- rooms: a start is one transaction ------------------------------------------------------

STARTS = 6


def test_simultaneous_starts_of_one_room_make_exactly_one_game(db_url):
    """Six hosts' clicks at once (each its own worker's store): one start, one game; the
    others are refused and leave nothing behind."""
    setup = GameService(Store(db_url), simple_cpu_factory)
    room = RoomService(setup).create(
        [RoomSeatSpec("me", "Ann"), RoomSeatSpec("friend", "Bob")],
        host_session="host",
        options={"rules": "classic"},
    )
    barrier = threading.Barrier(STARTS)
    outcomes: list[object] = []

    def start() -> None:
        worker = GameService(Store(db_url, migrate=False), simple_cpu_factory)
        try:
            barrier.wait()
            _room, view = RoomService(worker).start(room.code, room.version, fill_with_cpus=True)
            outcomes.append(view.game_id)
        except Exception as error:
            outcomes.append(error)
        finally:
            worker.store.close()

    threads = [threading.Thread(target=start) for _ in range(STARTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    started = [o for o in outcomes if isinstance(o, int)]
    refused = [o for o in outcomes if not isinstance(o, int)]
    assert len(started) == 1 and len(outcomes) == STARTS
    assert all(isinstance(error, RoomError) for error in refused), refused
    with setup.store.engine.connect() as connection:
        games = connection.execute(select(func.count()).select_from(schema.games)).scalar_one()
    assert games == 1
    after = RoomService(setup).by_code(room.code)
    assert after.started and after.game_id == started[0]
    assert setup.load(started[0]).state.seats[1].is_cpu  # the friend nobody joined: a CPU
    setup.store.close()
