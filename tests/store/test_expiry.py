"""Expiry: rooms never started and games never played are deleted; nothing played is touched."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest

from fivedice.core.game import GameSettings, Seat
from fivedice.service.rooms import RoomSeatSpec, RoomService
from fivedice.store import GameNotFoundError
from fivedice.store.browser_seats import BrowserSeats
from fivedice.store.database import utc_now
from fivedice.store.rooms import RoomError

PAIR = GameSettings((Seat("Ann"), Seat("Bob")))
ROOM_SEATS = [RoomSeatSpec("me", "Ann"), RoomSeatSpec("open", "Bob")]  # (joined by the room code)


def _room(service):
    return RoomService(service).create(
        ROOM_SEATS, host_session="host", options={"rules": "classic"}
    )


def _tick():
    """Lets the clock move on, so that what is made next is made after `utc_now()`."""
    time.sleep(0.01)


def test_only_rooms_never_started_and_games_never_played_made_before_the_cutoff_go(service):
    store, rooms = service.store, RoomService(service)
    unplayed = service.create_game(PAIR, seed=1)
    played = service.create_game(PAIR, seed=2)
    service.apply_action(played.game_id, "roll", 0)
    BrowserSeats(store).add("browser", [(unplayed.game_id, 0)])
    waiting = _room(service)
    started = _room(service)
    rooms.join(started, "friend", name="Bob")
    _started_room, started_game = rooms.start(
        started.code, started.version + 1, fill_with_cpus=False
    )
    service.apply_action(started_game.game_id, "roll", 0)
    _tick()
    cutoff = utc_now()
    _tick()
    recent_game = service.create_game(PAIR, seed=3)
    recent_room = _room(service)

    expired, full = store.expire_unstarted(games_made_before=cutoff, rooms_made_before=cutoff)

    assert expired.game_ids == (unplayed.game_id,)
    assert expired.room_ids == (waiting.room_id,)
    assert not full
    with pytest.raises(GameNotFoundError):
        store.load_game(unplayed.game_id)
    with pytest.raises(RoomError):
        rooms.by_code(waiting.code)
    assert BrowserSeats(store).games("browser") == []
    for kept in (played, started_game, recent_game):
        assert store.load_game(kept.game_id).version == service.load(kept.game_id).version
    assert rooms.by_code(started.code).started
    assert rooms.by_code(recent_room.code).room_id == recent_room.room_id


def test_a_room_started_but_never_played_goes_with_its_game(service):
    rooms = RoomService(service)
    room = _room(service)
    rooms.join(room, "friend", name="Bob")
    _room_now, game = rooms.start(room.code, room.version + 1, fill_with_cpus=False)
    _tick()
    expired = service.expire_unstarted(game_age=timedelta(0), room_age=timedelta(days=1))
    assert expired.game_ids == (game.game_id,) and expired.room_ids == (room.room_id,)
    with pytest.raises(RoomError):
        rooms.by_code(room.code)
    with pytest.raises(GameNotFoundError):
        service.load(game.game_id)  # the service forgot its view too


def test_expiry_goes_batch_by_batch_and_says_when_more_is_left(service):
    for seed in range(5):
        service.create_game(PAIR, seed=seed)
    _tick()
    cutoff = utc_now()
    first, full = service.store.expire_unstarted(
        games_made_before=cutoff, rooms_made_before=cutoff, batch=3
    )
    assert len(first.game_ids) == 3 and full
    rest, full = service.store.expire_unstarted(
        games_made_before=cutoff, rooms_made_before=cutoff, batch=3
    )
    assert len(rest.game_ids) == 2 and not full
    assert service.store.list_games() == []
