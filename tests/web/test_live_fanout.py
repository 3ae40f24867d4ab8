"""Streams that fan out: every watcher of a change in a worker shares one database read.

`SharedReads` is checked on its own (reads counted under every order of arrival), and
through a real server: many watchers of one room, one change, one read of the room.
"""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from fivedice.service.games import GameService
from fivedice.store.notices import Topic
from fivedice.web import create_app
from fivedice.web.hub import GameHub
from fivedice.web.limits import EdgeLimits
from fivedice.web.live import SharedReads
from tests.web.live_helpers import WAIT_SECONDS, running
from tests.web.support import SECRET

ROOM = (Topic.ROOM, 7)
ROOM_WATCHERS = 200  # (the benchmark takes thousands; the count is what is checked here)


class Database:
    """A room whose version the test sets; counts the reads, each one a loop turn long."""

    def __init__(self) -> None:
        self.version = 0
        self.reads = 0

    async def read(self) -> tuple[int, str]:
        self.reads += 1
        version = self.version  # (the read sees the version of when it started)
        await asyncio.sleep(0.01)
        return version, f"room 7 v{version}"


# Every watcher here streams from 127.0.0.1: lift the caps on streams per address and per
# network prefix (the same one for all).
WATCHERS = EdgeLimits(streams_per_client=1_000, streams_per_prefix=1_000)


def test_watchers_woken_by_one_change_share_one_read():
    async def scenario():
        reads, database = SharedReads(), Database()
        await reads.now(ROOM, None, database.read)
        database.version, database.reads = 1, 0
        found = await asyncio.gather(*(reads.now(ROOM, 1, database.read) for _ in range(500)))
        return database.reads, set(found)

    count, found = asyncio.run(scenario())
    assert count == 1
    assert found == {(1, "room 7 v1")}


def test_a_watcher_that_knows_a_newer_version_than_the_read_under_way_gets_a_fresh_read():
    async def scenario():
        reads, database = SharedReads(), Database()
        early = asyncio.ensure_future(reads.now(ROOM, None, database.read))
        while database.reads == 0:  # the read of version 0 is under way ...
            await asyncio.sleep(0)
        database.version = 1  # ... when version 1 is saved and announced
        late = await asyncio.gather(*(reads.now(ROOM, 1, database.read) for _ in range(50)))
        return await early, set(late), database.reads

    early, late, count = asyncio.run(scenario())
    assert early == (0, "room 7 v0")
    assert late == {(1, "room 7 v1")}
    assert count == 2  # the one under way, and one queued behind it for all fifty


def test_a_version_already_read_costs_no_read_and_a_new_stream_always_reads():
    async def scenario():
        reads, database = SharedReads(), Database()
        await reads.now(ROOM, None, database.read)
        known = await reads.now(ROOM, 0, database.read)
        after_known = database.reads
        fresh = await reads.now(ROOM, None, database.read)  # (a new stream: the room now)
        return known, after_known, fresh, database.reads

    known, after_known, fresh, count = asyncio.run(scenario())
    assert known == (0, "room 7 v0") and after_known == 1
    assert fresh == (0, "room 7 v0") and count == 2


def test_a_failed_read_fails_its_waiters_and_the_next_change_reads_again():
    async def scenario():
        reads, database = SharedReads(), Database()
        calls = 0

        async def failing() -> tuple[int, str]:
            nonlocal calls
            calls += 1
            await asyncio.sleep(0.01)
            raise OSError("the database is gone")

        outcomes = await asyncio.gather(
            *(reads.now(ROOM, 1, failing) for _ in range(10)), return_exceptions=True
        )
        database.version = 1
        after = await reads.now(ROOM, 1, database.read)
        return calls, outcomes, after

    calls, outcomes, after = asyncio.run(scenario())
    assert calls == 1
    assert all(isinstance(outcome, OSError) for outcome in outcomes)
    assert after == (1, "room 7 v1")


@pytest.fixture
def counted_room_reads(monkeypatch):
    """Counts the room reads of the streams (`GameHub.room_events_since`)."""
    counter = {"reads": 0}
    original = GameHub.room_events_since

    def counting(self, room_id, after):
        counter["reads"] += 1
        return original(self, room_id, after)

    monkeypatch.setattr(GameHub, "room_events_since", counting)
    return counter


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_every_watcher_of_a_room_hears_a_join_from_one_read_of_the_room(
    service, counted_room_reads
):
    app = create_app(service, SECRET, cpu_delay_ms=0, cpu_scan_seconds=0.5, limits=WATCHERS)
    with running(app) as base:
        made = httpx.post(
            f"{base}/api/rooms",
            json={"players": [{"name": "Ann", "kind": "me"}, {"name": "Bob", "kind": "friend"}]},
        )
        assert made.status_code == 201, made.text
        code = made.json()["room"]["code"]
        invitation = made.json()["invitations"][0]["invitation"]

        def join():
            return httpx.post(f"{base}/api/rooms/{code}/join", json={"invitation": invitation})

        url = f"/api/rooms/{code}/events"
        heard = asyncio.run(_watch(base, url, 0, join, counted_room_reads, ROOM_WATCHERS))
    reads_for_the_join, versions = heard
    assert versions == [1] * ROOM_WATCHERS  # every watcher heard the join ...
    assert reads_for_the_join == 1  # ... from one read of the room


async def _watch(base, url, first, change, counter, watchers):
    """Opens `watchers` streams at `url`, waits until each has version `first`, makes the
    `change` (in a thread), and returns the reads counted for it and the version each
    watcher then heard."""
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    timeout = httpx.Timeout(WAIT_SECONDS)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=timeout) as client:
        opened = asyncio.Event()
        ready = 0

        async def watch() -> int:
            nonlocal ready
            async with client.stream("GET", url) as response:
                assert response.status_code == 200
                async for line in response.aiter_lines():
                    if not line.startswith("data:"):
                        continue
                    version = json.loads(line[5:])["version"]
                    if version == first:
                        ready += 1
                        if ready == watchers:
                            opened.set()
                        continue
                    return int(version)
            raise AssertionError("the stream ended")

        tasks = [asyncio.ensure_future(watch()) for _ in range(watchers)]
        # A watcher refused (a 429) or cut off fails the test at once, not after the wait.
        all_open = asyncio.ensure_future(opened.wait())
        await asyncio.wait(
            [all_open, *tasks], timeout=WAIT_SECONDS, return_when=asyncio.FIRST_COMPLETED
        )
        for task in tasks:
            if task.done():
                task.result()
        assert all_open.done(), f"{ready} of {watchers} watchers opened"
        counter["reads"] = 0
        changed = await asyncio.to_thread(change)
        assert changed.status_code == 200, changed.text
        versions = await asyncio.wait_for(asyncio.gather(*tasks), WAIT_SECONDS)
        return counter["reads"], versions


@pytest.fixture
def counted_game_reads(monkeypatch):
    """Counts the reads of a game's log (`GameService.latest`, `versions_after`)."""
    counter = {"reads": 0}
    for name in ("latest", "versions_after"):
        original = getattr(GameService, name)

        def counting(self, *args, _original=original, **kwargs):
            counter["reads"] += 1
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(GameService, name, counting)
    return counter


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_every_watcher_of_a_game_hears_an_action_with_at_most_one_read_of_the_game(
    service, counted_game_reads
):
    app = create_app(service, SECRET, cpu_delay_ms=0, cpu_scan_seconds=0.5, limits=WATCHERS)
    with running(app) as base:
        made = httpx.post(f"{base}/api/games", json={"players": [{"name": "Ann"}], "seed": 3})
        assert made.status_code == 201, made.text
        game = made.json()
        seat = {"Authorization": f"Bearer {game['tokens'][0]['token']}"}

        def act():
            return httpx.post(
                f"{base}/api/games/{game['id']}/actions",
                json={"action": "roll", "version": game["version"]},
                headers=seat,
            )

        url = f"/api/games/{game['id']}/events"
        reads_for_the_roll, versions = asyncio.run(
            _watch(base, url, game["version"], act, counted_game_reads, ROOM_WATCHERS)
        )
    assert versions == [game["version"] + 1] * ROOM_WATCHERS
    assert reads_for_the_roll <= 1


def test_a_change_the_stream_has_sent_does_not_wake_it(service):
    """A worker hears its own writes again through PostgreSQL: a version the stream sent
    already must not wake it, while a newer version, a status change and a reconnected
    listener still do."""
    from fivedice.web.live import REMOTE, UNKNOWN, Live

    async def scenario() -> None:
        live = Live(service.store)
        live.start(asyncio.get_running_loop())
        sub = live.subscribe((Topic.GAME, 5))
        sub.sent_version = 3
        for version in (2, 3):  # (older and the same: heard back, sent already)
            live._announce(Topic.GAME, 5, version, origin=REMOTE)
            assert not sub.wake.is_set() and sub.changed_at is None
        live._announce(Topic.GAME, 5, 4, origin=REMOTE)
        assert sub.wake.is_set() and await sub.wait(0) == 4
        live._announce(Topic.ENDED, 5, 3)  # (same version, new status: the database says)
        assert await sub.wait(0) is None
        live._missed()
        assert sub.wake.is_set() and sub.known == UNKNOWN
        fresh = live.subscribe((Topic.GAME, 5))  # (nothing sent yet: every change wakes it)
        live._announce(Topic.GAME, 5, 1, origin=REMOTE)
        assert fresh.wake.is_set() and await fresh.wait(0) == 1
        live.stop()

    asyncio.run(scenario())


@pytest.mark.postgres
def test_another_workers_action_reaches_the_streams_here_from_its_notice_without_a_read(
    postgres_databases,
):
    """The notice of a saved action carries the action: a worker that keeps the game at the
    version before moves it on in memory, and its streams send the new version without
    reading the game back; what they send is what the writer's worker sends."""
    from fivedice.core.game import GameSettings, Seat
    from fivedice.web.live import Live
    from fivedice.web.security import Signer

    url = postgres_databases.create()
    writer, reader = GameService.open(url), GameService.open(url)
    try:
        game = writer.create_game(GameSettings(seats=(Seat("Ann"), Seat("Bob"))), seed=4)
        here, there = GameHub(reader, Signer(SECRET)), GameHub(writer, Signer(SECRET))
        here.load(game.game_id)  # (this worker keeps version 0: a stream of it opened here)

        async def scenario() -> list[tuple[int, str, str]] | None:
            live = Live(reader.store, on_action=here.heard_action)
            sub = live.subscribe((Topic.GAME, game.game_id))
            live.start(asyncio.get_running_loop())
            try:
                assert await sub.wait(WAIT_SECONDS) is None  # (the listener is connected)
                rolled = await asyncio.to_thread(writer.apply_action, game.game_id, "roll", 0)
                held = await asyncio.to_thread(writer.apply_action, game.game_id, "hold 1 2", 1)
                known = None
                while known != 2:
                    known = await sub.wait(WAIT_SECONDS)
                    assert known != -1, "the notices never came"
                # (No statements in this loop and no read allowed: from memory or None.)
                events = here.events_now(game.game_id, 0, 2)
                assert [there.json_text(rolled), there.json_text(held)] == [
                    text for _version, text, _name in events or []
                ]
                return events
            finally:
                live.stop()

        events = asyncio.run(scenario())
        assert [(version, name) for version, _text, name in events or []] == [
            (1, "game"),
            (2, "game"),
        ]
    finally:
        writer.store.close()
        reader.store.close()
