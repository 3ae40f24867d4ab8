"""What the store tells the other processes of its database (notices, the listener), the
games a CPU driver looks after, and the advisory-lock lease of a game's CPUs."""

from __future__ import annotations

import asyncio

import pytest

from fivedice.core.game import GameSettings, Seat
from fivedice.core.record import ActionEntry
from fivedice.store.notices import Notice, Topic
from fivedice.store.pg_lease import GameLease
from fivedice.store.pg_notify import NoticeListener

UNICODE_DIGITS = ["\u00b2", "\u0661", "\uff11"]  # superscript two, Arabic-Indic one, fullwidth one


@pytest.mark.parametrize("topic", list(Topic))
def test_a_notice_round_trips_through_its_payload(topic):
    notice = Notice(topic, 12, 3)
    assert Notice.parse(notice.payload) == notice


NOT_NOTICES = ["", "g", "g:12", "x:12:3", "g:-1:3", "g:12:3.0"]
NOT_NOTICES += [f"g:1:{digit}" for digit in UNICODE_DIGITS]


@pytest.mark.parametrize("payload", NOT_NOTICES)
def test_a_text_that_is_not_a_notice_is_refused(payload):
    assert Notice.parse(payload) is None


def test_only_a_server_database_announces_its_changes(store):
    assert store.announces_changes is (not store.is_sqlite)
    store.notify(Notice(Topic.ROOM, 1, 1))  # (SQLite: nobody to tell, nothing happens)


def test_the_games_with_cpus_are_those_in_progress_with_a_cpu_seat(service):
    store = service.store
    people = service.create_game(GameSettings(seats=(Seat("Ann"), Seat("Bob"))), seed=1)
    cpu = service.create_game(GameSettings(seats=(Seat("Ann"), Seat("Cee", "casual"))), seed=2)
    ended = service.create_game(GameSettings(seats=(Seat("Ann"), Seat("Dee", "casual"))), seed=3)
    service.abandon(ended.game_id)
    bots = service.create_game(GameSettings(seats=(Seat("Bo", "casual"), Seat("Cy", "beginner"))))
    assert sorted(store.games_with_cpus()) == [
        (cpu.game_id, cpu.version, False, True),
        (bots.game_id, bots.version, False, False),  # (nobody plays it)
    ]
    assert people.game_id not in {row[0] for row in store.games_with_cpus()}


def test_the_games_with_cpus_say_whether_a_worker_holds_their_lease(pg_store, service):
    cpu = service.create_game(GameSettings(seats=(Seat("Ann"), Seat("Cee", "casual"))), seed=2)
    lease = GameLease(pg_store)

    async def held_then_let_go() -> tuple[list[tuple[int, int, bool, bool]], ...]:
        try:
            assert await lease.acquire(cpu.game_id)
            held = await asyncio.to_thread(pg_store.games_with_cpus)
            await lease.release(cpu.game_id)
            return held, await asyncio.to_thread(pg_store.games_with_cpus)
        finally:
            await lease.close()

    held, let_go = asyncio.run(held_then_let_go())
    assert held == [(cpu.game_id, cpu.version, True, True)]
    assert let_go == [(cpu.game_id, cpu.version, False, True)]


@pytest.fixture
def pg_store(store):
    if store.is_sqlite:
        pytest.skip("notices and advisory locks are PostgreSQL's")
    return store


def test_every_saved_action_and_every_notice_reach_the_listeners(pg_store, service):
    game = service.create_game(GameSettings(seats=(Seat("Ann"), Seat("Bob"))), seed=7)
    heard: list[Notice] = []

    async def listen() -> None:
        connected = asyncio.Event()
        listener = NoticeListener(pg_store, heard=heard.append, missed=connected.set)
        task = asyncio.get_running_loop().create_task(listener.listen())
        try:
            await asyncio.wait_for(connected.wait(), 10)
            await asyncio.to_thread(service.apply_action, game.game_id, "roll", 0)
            await asyncio.to_thread(pg_store.notify, Notice(Topic.SEATS, game.game_id, 1))
            for _ in range(100):
                if len(heard) == 2:
                    break
                await asyncio.sleep(0.05)
        finally:
            task.cancel()

    asyncio.run(listen())
    action, seats = heard
    assert seats == Notice(Topic.SEATS, game.game_id, 1)
    assert action[:3] == (Topic.GAME, game.game_id, 1)
    # The saved action travels with its notice, exactly as the log keeps it.
    (stored,) = pg_store.load_game(game.game_id).actions
    assert action.entry() == stored and stored.action == "roll" and len(stored.dice) == 5


SAVED = [(0, (1, 2, 3, 4, 5), "roll"), (1, (), "hold 1 2"), (2, (6,), "score full_house")]


@pytest.mark.parametrize(("seat", "dice", "action"), SAVED)
def test_a_saved_actions_notice_carries_the_action_as_logged(seat, dice, action):
    entry = ActionEntry(9, seat, action, dice)
    notice = Notice.logging(12, entry)
    assert notice[:3] == (Topic.GAME, 12, 9)
    parsed = Notice.parse(notice.payload)
    assert parsed == notice and parsed.entry() == entry


NOT_ENTRIES = ["g:12:3", "g:12:3:x:12:roll", "g:12:3:0:12:", "g:12:3:0:12:undo",
               "g:12:3:0:19:roll", "g:12:3:0:12:fly", "r:12:3:0:12:roll"]  # fmt: skip


@pytest.mark.parametrize("payload", NOT_ENTRIES)
def test_a_notice_without_a_usable_action_carries_none(payload):
    notice = Notice.parse(payload)
    assert notice is not None and notice.entry() is None


def test_a_game_lease_has_one_holder_at_a_time(pg_store):
    async def lease() -> None:
        first, second = GameLease(pg_store), GameLease(pg_store)
        try:
            assert await first.acquire(5)
            assert not await second.acquire(5)
            assert await second.acquire(6)  # (another game: another lease)
            await first.release(5)
            assert await second.acquire(5)
        finally:
            await first.close()
            await second.close()

    asyncio.run(lease())


def test_a_closed_lease_frees_its_games(pg_store):
    async def lease() -> None:
        first, second = GameLease(pg_store), GameLease(pg_store)
        try:
            assert await first.acquire(7)
            await first.close()  # (as when its worker dies)
            assert await second.acquire(7)
        finally:
            await second.close()

    asyncio.run(lease())


def test_on_sqlite_a_lease_is_always_granted(store):
    if not store.is_sqlite:
        pytest.skip("SQLite's one worker")

    async def lease() -> None:
        first, second = GameLease(store), GameLease(store)
        assert await first.acquire(1) and await second.acquire(1)

    asyncio.run(lease())
