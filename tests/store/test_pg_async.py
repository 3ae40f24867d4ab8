"""The hot statements awaited in the event loop (`fivedice.store.pg_async`)
save and read exactly what the synchronous store does, refuse what it refuses, and an
action's NOTIFY travels in the action's own statement, only when the action is saved."""

from __future__ import annotations

import asyncio

import psycopg
import pytest

from fivedice.core.game import GameSettings, Seat
from fivedice.service.games import GameService
from fivedice.store import StaleVersionError
from fivedice.store.notices import CHANNEL, Notice, Topic
from fivedice.store.pg_async import AsyncStatements
from tests.support.players import human_move, simple_cpu_factory


@pytest.fixture
def pg_service(service):
    if service.store.is_sqlite:
        pytest.skip("the async statements are PostgreSQL's")
    return service


def _new_game(service: GameService) -> int:
    view = service.create_game(GameSettings(seats=(Seat("Ann"), Seat("Bob"))), seed=7)
    return view.game_id


def _conninfo(service: GameService) -> str:
    return service.store.url.set(drivername="postgresql").render_as_string(hide_password=False)


def test_async_actions_are_saved_as_the_synchronous_ones(pg_service):
    game_id = _new_game(pg_service)

    async def play() -> None:
        statements = AsyncStatements(pg_service.store)
        try:
            view = pg_service.kept(game_id)
            for _ in range(6):
                action = human_move(view.state)
                view = await pg_service.apply_action_async(
                    statements, game_id, action, view.version
                )
                assert view is not None
        finally:
            await statements.close()

    asyncio.run(play())
    kept = pg_service.kept(game_id)
    fresh = GameService(pg_service.store, cpu_factory=simple_cpu_factory).load(game_id)
    assert kept is not None and kept.version == 6
    assert fresh.version == 6 and fresh.state == kept.state


def test_an_async_catch_up_reads_what_another_service_saved(pg_service):
    game_id = _new_game(pg_service)
    other = GameService(pg_service.store, cpu_factory=simple_cpu_factory)
    view = other.load(game_id)
    for _ in range(3):
        view = other.apply_action(game_id, human_move(view.state), view.version)

    async def catch_up():
        statements = AsyncStatements(pg_service.store)
        try:
            steps: list = []
            return await pg_service.latest_async(statements, game_id, steps), steps
        finally:
            await statements.close()

    caught, steps = asyncio.run(catch_up())
    assert caught is not None and caught.version == 3 and caught.state == view.state
    assert [step.version for step in steps] == [1, 2]


def test_a_stale_async_action_is_refused_and_saves_nothing(pg_service):
    game_id = _new_game(pg_service)
    before = pg_service.kept(game_id)
    other = GameService(pg_service.store, cpu_factory=simple_cpu_factory)
    moved = other.apply_action(game_id, "roll", 0)  # another worker moved the game on

    async def late() -> None:
        statements = AsyncStatements(pg_service.store)
        try:
            await statements.append(game_id, 0, *_entry(pg_service, before))
        finally:
            await statements.close()

    with pytest.raises(StaleVersionError):
        asyncio.run(late())
    assert other.load(game_id).version == moved.version == 1


def _entry(service: GameService, view):
    entry, after, _finished = service._prepared(view, "roll")
    return entry, after


def test_an_action_notifies_in_its_own_statement_only_when_saved(pg_service):
    game_id = _new_game(pg_service)
    opening = pg_service.kept(game_id)
    with psycopg.connect(_conninfo(pg_service), autocommit=True) as listener:
        listener.execute(f"LISTEN {CHANNEL}")
        view = pg_service.apply_action(game_id, "roll", 0)  # the synchronous statement

        async def act():
            statements = AsyncStatements(pg_service.store)
            try:
                return await pg_service.apply_action_async(
                    statements, game_id, human_move(view.state), view.version
                )
            finally:
                await statements.close()

        after = asyncio.run(act())
        assert after is not None and after.version == 2
        with pytest.raises(StaleVersionError):  # refused by the database: no notification
            pg_service.store.append_action(game_id, 0, *_entry(pg_service, opening))
        heard = [note.payload for note in listener.notifies(timeout=2, stop_after=3)]
    notices = [Notice.parse(payload) for payload in heard]
    assert [notice and notice[:3] for notice in notices] == [
        (Topic.GAME, game_id, 1),
        (Topic.GAME, game_id, 2),
    ]
    # Each carries its action as the log keeps it (the synchronous and the awaited append).
    stored = pg_service.store.load_game(game_id).actions
    assert [notice and notice.entry() for notice in notices] == list(stored)
