"""Who drives a game's CPU seats: a lease per game, one holder at a time.

On PostgreSQL a lease is an advisory lock (``pg_try_advisory_lock(LOCK_CLASS, game id)``)
held on one dedicated connection of the worker: if the worker dies, its connection closes,
the lock is freed and another worker can take the game over. On SQLite there is one worker,
so a lease is always granted (the worker's own task table is the lease).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from typing import TYPE_CHECKING, Any

from fivedice.store import signals
from fivedice.store.pg_connection import connect
from fivedice.store.statements import LOCK_CLASS

if TYPE_CHECKING:
    from fivedice.store.database import Store

log = logging.getLogger(__name__)

STATEMENT_SECONDS = 5.0
"""How long one lease statement (with its connecting) may take. Every CPU task of the worker
shares the one connection, one statement at a time: a statement stuck on a connection the
database lost (a restart) would otherwise hold every other game's lease behind it for good.
Past it the connection is dropped and opened again on the next call."""
_TRY_LOCK = "SELECT pg_try_advisory_lock(%s, %s)"
_UNLOCK = "SELECT pg_advisory_unlock(%s, %s)"


class GameLease:
    """The leases of one worker process, awaited in its event loop (no thread).

    Args:
        store: the database whose games are leased.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self._connection: Any = None
        self._lock: asyncio.Lock | None = None

    async def acquire(self, game_id: int) -> bool:
        """Takes the game's lease if nobody holds it; whether this worker holds it now.
        A lost connection answers False (and is opened again on the next call)."""
        if self.store.is_sqlite:
            return True
        try:
            return bool(await self._execute(_TRY_LOCK, game_id))
        except Exception as error:
            log.warning("advisory lock unavailable: %s", error)
            self.store.signals.error(signals.UNAVAILABLE)
            await self._drop()
            return False

    async def release(self, game_id: int) -> None:
        """Lets the game's lease go (nothing to do if the connection was lost)."""
        if self.store.is_sqlite:
            return
        try:
            await self._execute(_UNLOCK, game_id)
        except Exception:  # the connection is gone: so is the lock
            await self._drop()

    async def close(self) -> None:
        """Closes the connection, which frees every lease still held."""
        await self._drop()

    async def _execute(self, sql: str, game_id: int) -> Any:
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:  # (one connection: one statement at a time)
            try:
                async with asyncio.timeout(STATEMENT_SECONDS):
                    if self._connection is None or self._connection.closed:
                        # Named, so an operator (and the tests) can see which process drives
                        # a game.
                        self._connection = await connect(
                            self.store.url, application_name=f"fivedice-cpu-{os.getpid()}"
                        )
                    cursor = await self._connection.execute(sql, (LOCK_CLASS, game_id))
                    row = await cursor.fetchone()
            except TimeoutError:
                await self._drop()
                raise
        return row[0] if row else None

    async def _drop(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(Exception):  # (bounded: it may be stuck itself)
                async with asyncio.timeout(STATEMENT_SECONDS):
                    await connection.close()
