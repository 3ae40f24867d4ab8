"""Commitments drawn before the client seeds: each makes one game or one room, on any
worker, at once or later; expired and forged handles make none; old uses are forgotten as
new ones are written. Runs on SQLite and PostgreSQL (`db_url`)."""

from __future__ import annotations

import hashlib
import threading
import time

import pytest
from sqlalchemy import func, select

from fivedice.core.fairdice import CommitmentHandleError
from fivedice.service.creation import Commitments, PlayerSpec, create_game
from fivedice.service.games import GameService
from fivedice.service.rooms import RoomSeatSpec, RoomService
from fivedice.store import CommitmentUsedError, Store, schema
from fivedice.store.rooms import Room
from fivedice.store.schema import used_commitments
from tests.support.players import simple_cpu_factory

DATABASES = ("postgresql",)  # workers racing for one handle: the server's concurrency

SOLO = [PlayerSpec("Ann")]


def _keyed(text: str) -> str:
    return hashlib.sha256(b"store-test-secret" + text.encode()).hexdigest()


def _service(db_url: str) -> GameService:
    return GameService(Store(db_url), cpu_factory=simple_cpu_factory)


def _uses(store: Store) -> int:
    with store.engine.connect() as db:
        return int(db.execute(select(func.count()).select_from(used_commitments)).scalar_one())


def test_a_commitment_makes_one_game_whichever_worker_takes_it(db_url):
    commitments = Commitments(_keyed)
    drawn = commitments.draw()
    one, other = _service(db_url), _service(db_url)  # two workers on one database
    try:
        made = create_game(
            one, SOLO, client_seeds=["mine"], handle=drawn.handle, commitments=commitments
        )
        assert made.dice_commitment == drawn.commitment and made.client_seeds == ("mine",)
        with pytest.raises(CommitmentUsedError):
            create_game(
                other, SOLO, client_seeds=["other"], handle=drawn.handle, commitments=commitments
            )
        assert len(other.list_games()) == 1 and _uses(other.store) == 1
    finally:
        one.store.close()
        other.store.close()


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_six_creations_at_once_with_one_handle_make_one_game(db_url):
    commitments = Commitments(_keyed)
    drawn = commitments.draw()
    workers = [_service(db_url) for _ in range(6)]
    outcomes: list[object] = []
    barrier = threading.Barrier(len(workers))

    def create(worker: GameService) -> None:
        barrier.wait()
        try:
            view = create_game(
                worker, SOLO, client_seeds=["x"], handle=drawn.handle, commitments=commitments
            )
            outcomes.append(view.dice_commitment)
        except CommitmentUsedError as refused:
            outcomes.append(type(refused))

    threads = [threading.Thread(target=create, args=(worker,)) for worker in workers]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert sorted(map(str, outcomes)) == sorted(
            [drawn.commitment] + [str(CommitmentUsedError)] * 5
        )
        assert len(workers[0].list_games()) == 1
    finally:
        for worker in workers:
            worker.store.close()


def test_expired_and_forged_handles_make_no_game(db_url):
    service = _service(db_url)
    try:
        stale = Commitments(_keyed, clock=lambda: time.time() - 3601).draw()
        foreign = Commitments(lambda text: hashlib.sha256(text.encode()).hexdigest()).draw()
        for handle in (stale.handle, foreign.handle, ""):
            with pytest.raises(CommitmentHandleError):
                create_game(
                    service,
                    SOLO,
                    client_seeds=["x"],
                    handle=handle or None,
                    commitments=Commitments(_keyed),
                )
        assert service.list_games() == [] and _uses(service.store) == 0
    finally:
        service.store.close()


def test_old_uses_are_forgotten_as_new_ones_are_written(db_url):
    now = [time.time()]
    commitments = Commitments(_keyed, clock=lambda: now[0])
    service = _service(db_url)
    try:
        for _ in range(2):
            create_game(service, SOLO, handle=commitments.draw().handle, commitments=commitments)
        assert _uses(service.store) == 2
        now[0] += commitments.lifetime + 3600  # both handles long expired everywhere
        create_game(service, SOLO, handle=commitments.draw().handle, commitments=commitments)
        assert _uses(service.store) == 1 and len(service.list_games()) == 3
    finally:
        service.store.close()


def test_a_game_without_client_seeds_or_handle_keeps_the_one_step(db_url):
    service = _service(db_url)
    try:
        view = create_game(service, SOLO)
        assert view.dice_commitment and view.client_seeds == ("",) and _uses(service.store) == 0
    finally:
        service.store.close()


# -- rooms: a commitment makes one room or one game --------------------------------------

ROOM_SEATS = [RoomSeatSpec("me", "Ann", None, "ann's"), RoomSeatSpec("friend", "Bob")]


def _rooms_made(store: Store) -> int:
    with store.engine.connect() as db:
        return int(db.execute(select(func.count()).select_from(schema.rooms)).scalar_one())


def _room(service: GameService, commitments: Commitments, handle: str) -> Room:
    return RoomService(service).create(
        ROOM_SEATS, host_session="host", options={}, handle=handle, commitments=commitments
    )


def test_a_commitment_makes_one_room_and_then_no_game_whichever_worker_takes_it(db_url):
    commitments = Commitments(_keyed)
    drawn = commitments.draw()
    one, other = _service(db_url), _service(db_url)
    try:
        room = _room(one, commitments, drawn.handle)
        assert room.commitment == drawn.commitment
        assert room.server_seed == commitments.server_seed(drawn.handle)
        with pytest.raises(CommitmentUsedError):
            _room(other, commitments, drawn.handle)
        with pytest.raises(CommitmentUsedError):
            create_game(
                other, SOLO, client_seeds=["x"], handle=drawn.handle, commitments=commitments
            )
        assert _rooms_made(other.store) == 1 and other.list_games() == []
        assert _uses(other.store) == 1
    finally:
        one.store.close()
        other.store.close()


def test_a_commitment_that_made_a_game_makes_no_room(db_url):
    commitments = Commitments(_keyed)
    drawn = commitments.draw()
    service = _service(db_url)
    try:
        create_game(service, SOLO, client_seeds=["x"], handle=drawn.handle, commitments=commitments)
        with pytest.raises(CommitmentUsedError):
            _room(service, commitments, drawn.handle)
        assert _rooms_made(service.store) == 0 and _uses(service.store) == 1
    finally:
        service.store.close()


def test_six_rooms_at_once_with_one_handle_make_one_room(db_url):
    commitments = Commitments(_keyed)
    drawn = commitments.draw()
    workers = [_service(db_url) for _ in range(6)]
    outcomes: list[str] = []
    barrier = threading.Barrier(len(workers))

    def create(worker: GameService) -> None:
        barrier.wait()
        try:
            outcomes.append(str(_room(worker, commitments, drawn.handle).commitment))
        except CommitmentUsedError:
            outcomes.append("used")

    threads = [threading.Thread(target=create, args=(worker,)) for worker in workers]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert sorted(outcomes) == sorted([drawn.commitment] + ["used"] * 5)
        assert _rooms_made(workers[0].store) == 1
    finally:
        for worker in workers:
            worker.store.close()


def test_a_hosts_seed_without_a_handle_makes_no_room_and_none_without_a_seed_draws_now(db_url):
    service = _service(db_url)
    try:
        with pytest.raises(CommitmentHandleError):
            RoomService(service).create(ROOM_SEATS, host_session="host", options={})
        assert _rooms_made(service.store) == 0
        seatless = [RoomSeatSpec("me", "Ann"), RoomSeatSpec("friend", "Bob")]
        room = RoomService(service).create(seatless, host_session="host", options={})
        assert room.commitment is not None and _uses(service.store) == 0
    finally:
        service.store.close()
