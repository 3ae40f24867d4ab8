"""Migration 0009 (seat generations, device codes, when a device joined), on SQLite and on
PostgreSQL: games saved before it keep generation 0 (their tokens keep working), a hand-over
raises one seat's generation, and a device code is used once."""

from __future__ import annotations

import hashlib

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import select

from fivedice.core.game import GameSettings, Seat
from fivedice.service.games import GameService
from fivedice.store import Store, schema
from fivedice.store.rooms import RoomError, Rooms

DATABASES = ("postgresql",)  # devices racing for one seat: the server's concurrency

BEFORE = "0003_roomseeds"  # the revision migration 0009 follows


def _to_revision(store: Store, revision: str, *, down: bool) -> None:
    config = store._alembic_config()
    with store.engine.begin() as connection:
        config.attributes["connection"] = connection
        (command.downgrade if down else command.upgrade)(config, revision)


@pytest.mark.empty_database
def test_games_saved_before_migration_0009_get_generation_0_and_keep_playing(db_url):
    store = Store(db_url)
    _to_revision(store, BEFORE, down=True)
    assert store.schema_version() == (BEFORE,)
    service = GameService(store)
    # Saved by the code before: the insert names no generation (the column is gone).
    view = service.create_game(GameSettings((Seat("Ann"), Seat("Bob"))), seed=4)
    store.close()
    again = Store(db_url)  # opening it migrates
    heads = ScriptDirectory.from_config(again._alembic_config()).get_heads()
    assert again.schema_version() == tuple(heads)  # 0009 and every later migration ran
    assert Rooms(again).generations(view.game_id) == {0: 0, 1: 0}
    with again.engine.connect() as connection:
        columns = set(connection.execute(select(schema.room_claims)).keys())
    assert "created_at" in columns
    played = GameService(again).apply_action(view.game_id, "roll", 0)
    assert played.version == 1
    # And back: the downgrade drops the columns again.
    _to_revision(again, BEFORE, down=True)
    assert again.schema_version() == (BEFORE,)
    again.close()


def test_a_hand_over_raises_one_seats_generation(store):
    service = GameService(store)
    rooms = Rooms(store)
    room = rooms.create("host", {"rules": "classic"}, [("me", "Ann", None, ""),
                                                       ("friend", "Bob", None, "")])  # fmt: skip
    joined = rooms.join(room.room_id, 1, "bob-key", "Bob")
    view = service.create_game(GameSettings((Seat("Ann"), Seat("Bob"))), seed=2)
    rooms.hand_to_cpu(view.game_id, 1, "casual")
    rooms.hand_to_cpu(view.game_id, 1, "casual")  # (again: the generation goes on up)
    assert rooms.generations(view.game_id) == {0: 0, 1: 2}
    assert joined.seats[1].joined


def test_a_device_code_is_used_once(store):
    rooms = Rooms(store)
    room = rooms.create("host", {"rules": "classic"}, [("me", "Ann", None, ""),
                                                       ("open", "Cy", None, "")])  # fmt: skip
    rooms.join(room.room_id, None, "cy-key", "Cy")
    code = hashlib.sha256(b"one-time").hexdigest()
    rooms.set_device_code(room.room_id, 1, code)
    _room, seat = rooms.add_device(room.room_id, code, "phone-key")
    assert seat == 1 and rooms.holder_of(room.room_id, "phone-key") == 1
    with pytest.raises(RoomError, match="used already"):
        rooms.add_device(room.room_id, code, "other-key")
    devices = rooms.devices(room.room_id, 1)
    assert [key for key, _since in devices] == ["cy-key", "phone-key"]
    assert all(since is not None for _key, since in devices)


def test_six_devices_claiming_one_seat_at_once_leave_one_claim(store):
    import threading

    rooms = Rooms(store)
    room = rooms.create("host", {"rules": "classic"}, [("me", "Ann", None, ""),
                                                       ("friend", "Bob", None, "")])  # fmt: skip
    barrier = threading.Barrier(6)
    outcomes: list[str] = []

    def claim(number: int) -> None:
        barrier.wait()
        try:
            rooms.join(room.room_id, 1, f"device-{number}", None)
            outcomes.append("claimed")
        except RoomError as refused:
            outcomes.append("taken" if "is taken" in str(refused) else str(refused))

    threads = [threading.Thread(target=claim, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(outcomes) == ["claimed"] + ["taken"] * 5
    assert len(rooms.devices(room.room_id, 1)) == 1
