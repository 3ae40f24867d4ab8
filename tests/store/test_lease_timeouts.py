"""A statement stuck on a connection the database lost (a restart) holds nothing up for good:
a lease statement does not hold every other game's lease behind it, and a hot statement of
the event loop (`pg_async`) does not keep a CPU game's task, or a place in the pool, forever;
each is cut off, its connection dropped, and the next statement opens a new one. A
connection found broken takes the idle ones (opened before the same failure) with it. No
PostgreSQL needed: the connections are stand-ins."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import psycopg
import pytest

from fivedice.store import pg_async, pg_lease
from fivedice.store.errors import StoreUnavailableError
from fivedice.store.signals import StoreSignals


class StandIn:
    """A connection whose statements answer True, or never (`stuck`)."""

    def __init__(self, stuck: bool) -> None:
        self.stuck = stuck
        self.closed = False

    async def execute(self, _sql: str, _args: tuple[int, int]) -> StandIn:
        if self.stuck:
            await asyncio.sleep(3600)
        return self

    async def fetchone(self) -> tuple[bool]:
        return (True,)

    async def close(self) -> None:
        self.closed = True


def test_a_stuck_lease_statement_is_cut_off_and_the_next_takes_a_new_connection(monkeypatch):
    opened: list[StandIn] = []

    async def connect(_url, **_options):
        opened.append(StandIn(stuck=not opened))  # the first connection is the lost one
        return opened[-1]

    monkeypatch.setattr(pg_lease, "connect", connect)
    monkeypatch.setattr(pg_lease, "STATEMENT_SECONDS", 0.2)
    store = SimpleNamespace(is_sqlite=False, signals=StoreSignals(), url=None)
    lease = pg_lease.GameLease(store)  # type: ignore[arg-type]

    async def run() -> tuple[bool, bool, bool]:
        stuck = asyncio.create_task(lease.acquire(1))
        waiting = asyncio.create_task(lease.acquire(2))  # queued behind the stuck one
        return await asyncio.wait_for(asyncio.gather(stuck, waiting), 5) + [await lease.acquire(3)]

    first, second, third = asyncio.run(run())
    assert first is False  # cut off: "not held", the scan tries again
    assert second is True and third is True  # on a new connection
    assert len(opened) == 2 and opened[0].closed and not opened[1].closed


class LostConnection:
    """A pooled connection of `pg_async`: its reads answer, hang (`stuck`), or fail as a
    connection the server closed (`lost`: psycopg then marks it broken)."""

    def __init__(self, how: str = "answers") -> None:
        self.how = how
        self.closed = self.broken = False

    async def execute(self, _sql: str, _params: dict[str, object]) -> LostConnection:
        await asyncio.sleep(3600 if self.how == "stuck" else 0.01)  # (a round trip)
        if self.how == "lost":
            self.broken = True
            raise psycopg.OperationalError("server closed the connection unexpectedly")
        return self

    async def fetchall(self) -> list[str]:
        return ["a row"]

    async def close(self) -> None:
        self.closed = True


def _statements(monkeypatch, connections: list[LostConnection]) -> pg_async.AsyncStatements:
    """Hot statements whose new connections are taken from `connections`, in order."""

    async def connect(_url, **_options):
        return connections.pop(0)

    monkeypatch.setattr(pg_async, "connect", connect)
    store = SimpleNamespace(
        signals=StoreSignals(),
        description="a stand-in",
        tail_of=lambda _g, _a, rows: rows,
        url=None,  # the stand-in connect ignores it
    )
    return pg_async.AsyncStatements(store)  # type: ignore[arg-type]


def test_a_stuck_hot_statement_is_cut_off_and_gives_its_place_in_the_pool_back(monkeypatch):
    monkeypatch.setattr(pg_async, "STATEMENT_SECONDS", 0.2)
    monkeypatch.setattr(pg_async, "POOL_SIZE", 2)
    stuck = [LostConnection("stuck") for _ in range(2)]
    statements = _statements(monkeypatch, [*stuck, LostConnection()])

    async def run() -> list[object]:
        cut = await asyncio.gather(
            *(statements.game_tail(1, 0) for _ in stuck), return_exceptions=True
        )
        # (Both places were freed: a third statement still gets a connection, a new one.)
        return [*cut, await asyncio.wait_for(statements.game_tail(1, 0), 5)]

    *cut, answered = asyncio.run(run())
    assert all(isinstance(error, StoreUnavailableError) for error in cut)
    assert "no answer in" in str(cut[0])
    assert answered == ["a row"] and all(connection.closed for connection in stuck)


def test_a_connection_found_broken_takes_the_idle_ones_with_it(monkeypatch):
    pool = [LostConnection() for _ in range(3)]
    unopened = [*pool, LostConnection()]
    statements = _statements(monkeypatch, unopened)

    async def run() -> list[str]:
        await asyncio.gather(*(statements.game_tail(1, 0) for _ in pool))  # three at once
        assert len(unopened) == 1  # (three opened, idle now)
        for connection in pool:
            connection.how = "lost"  # the server restarted: all three are gone
        with pytest.raises(StoreUnavailableError, match="closed the connection"):
            await statements.game_tail(1, 0)
        return await statements.game_tail(1, 0)  # (a new connection, not the next lost one)

    assert asyncio.run(run()) == ["a row"]
    assert all(connection.closed for connection in pool)
