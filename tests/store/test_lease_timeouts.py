"""A lease statement stuck on a connection the database lost (a restart) does not hold every
other game's lease behind it: it is cut off, its connection dropped, and the next statement
opens a new one (no PostgreSQL needed: the connections are stand-ins)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from fivedice.store import pg_lease
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

    async def connect(_store, **_options):
        opened.append(StandIn(stuck=not opened))  # the first connection is the lost one
        return opened[-1]

    monkeypatch.setattr(pg_lease, "connect", connect)
    monkeypatch.setattr(pg_lease, "STATEMENT_SECONDS", 0.2)
    store = SimpleNamespace(is_sqlite=False, signals=StoreSignals())
    lease = pg_lease.GameLease(store)  # type: ignore[arg-type]

    async def run() -> tuple[bool, bool, bool]:
        stuck = asyncio.create_task(lease.acquire(1))
        waiting = asyncio.create_task(lease.acquire(2))  # queued behind the stuck one
        return await asyncio.wait_for(asyncio.gather(stuck, waiting), 5) + [await lease.acquire(3)]

    first, second, third = asyncio.run(run())
    assert first is False  # cut off: "not held", the scan tries again
    assert second is True and third is True  # on a new connection
    assert len(opened) == 2 and opened[0].closed and not opened[1].closed
