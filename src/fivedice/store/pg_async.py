"""PostgreSQL from the event loop: the two statements of a live game's hot path, without a
thread.

A web worker applies most actions in its event loop. On SQLite a write is tens of
microseconds in the process; on PostgreSQL every statement waits for a round trip to
another process. Waiting for it in the loop would stall every other client of the worker,
and waiting in a pool thread costs handing the interpreter to the thread and back (the
largest cost measured on the hot path). Here the loop awaits psycopg's async connections
instead: the usual action (`append`: the version check, the action and its NOTIFY in one
statement, as `Store.append_action` sends it) and the catch-up read (`game_tail`). Anything
else (a first load, an undo, an action that ends a game of the match) keeps the store's
synchronous path.

One instance per event loop (the web app makes one in its lifespan): its connections
(`POOL_SIZE` at most) are opened when first needed and closed by `close()`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from sqlalchemy.dialects.postgresql import psycopg as psycopg_dialect

from fivedice.core.errors import N_, Phrase
from fivedice.store import signals, statements
from fivedice.store.errors import StaleVersionError, StoreUnavailableError
from fivedice.store.pg_connection import connect

if TYPE_CHECKING:
    import psycopg

    from fivedice.core.game import GameState
    from fivedice.core.record import ActionEntry
    from fivedice.store.database import Store

POOL_SIZE = 8  # connections per event loop: statements in flight at once
STATEMENT_SECONDS = 10.0
"""How long one statement may take, with its wait for a free connection and its connecting:
past it the connection is dropped and the caller gets `StoreUnavailableError`, as for a lost
database. Nothing here may wait for good: a CPU game's task awaits these statements, and one
that never returned would keep its game from moving (its worker thinks it drives it)."""


def _compiled(statement: Any) -> tuple[str, dict[str, Any]]:
    """A statement as psycopg's SQL text (`%(name)s` placeholders) and its fixed values."""
    compiled = statement.compile(dialect=psycopg_dialect.dialect())  # type: ignore[no-untyped-call]
    return str(compiled), dict(compiled.params)


class AsyncStatements:
    """The hot statements of one PostgreSQL store, awaited in the event loop."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._append = _compiled(statements.APPEND_IN_ONE)
        self._append_notify = _compiled(statements.APPEND_AND_NOTIFY)
        self._tail = _compiled(statements.GAME_TAIL)
        self._version = "SELECT version, status FROM games WHERE id = %(id)s"
        self._idle: list[psycopg.AsyncConnection[Any]] = []
        self._open = 0
        self._freed: asyncio.Condition | None = None

    @asynccontextmanager
    async def _connection(self, doing: str) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        import psycopg
        from psycopg.rows import namedtuple_row

        if self._freed is None:
            self._freed = asyncio.Condition()
        connection = None
        taken = False  # (a place in the pool: `_open` counts it until it is dropped)
        try:
            async with asyncio.timeout(STATEMENT_SECONDS):
                async with self._freed:
                    while not self._idle and self._open >= POOL_SIZE:
                        await self._freed.wait()
                    connection = self._idle.pop() if self._idle else None
                    if connection is None:
                        self._open += 1
                    taken = True
                if connection is None:
                    connection = await connect(self.store.url, row_factory=namedtuple_row)
                yield connection
        except psycopg.Error as error:
            broken = connection is None or connection.broken or connection.closed
            if broken and taken:
                await self._drop(connection)
                connection = None
                # The idle ones were opened before the same failure (a restarted server
                # closed them all): each would fail its next statement in turn.
                await self.close()
            if isinstance(error, psycopg.IntegrityError):
                raise  # (a stale version: the caller's answer, not a database error)
            self.store.signals.error(signals.UNAVAILABLE)
            raise self._unavailable(doing, str(error)) from None
        except TimeoutError:
            if taken:
                await self._drop(connection)
            connection = None
            self.store.signals.error(signals.UNAVAILABLE)
            raise self._unavailable(doing, f"no answer in {STATEMENT_SECONDS:.0f} s") from None
        except BaseException:
            if taken:
                await self._drop(connection)  # (cancelled mid-statement: state unknown)
            connection = None
            raise
        finally:
            if taken:
                async with self._freed:
                    if connection is not None:
                        self._idle.append(connection)
                    self._freed.notify()

    def _unavailable(self, doing: str, reason: str) -> StoreUnavailableError:
        return StoreUnavailableError(
            N_("could not {doing} ({database}): {reason}; nothing was changed, try again"),
            doing=Phrase(doing),
            database=self.store.description,
            reason=reason,
        )

    async def _drop(self, connection: psycopg.AsyncConnection[Any] | None) -> None:
        self._open -= 1
        if connection is not None:
            with contextlib.suppress(Exception):  # (it is gone either way)
                await connection.close()

    async def append(
        self, game_id: int, expected_version: int, entry: ActionEntry, after: GameState
    ) -> None:
        """`Store.append_action` for an action that finishes no game of the match.

        Raises:
            StaleVersionError, GameClosedError, GameNotFoundError: nothing was saved.
            StoreUnavailableError: the write failed; nothing changed.
        """
        import psycopg

        advance, in_one, notice = self.store.append_parameters(
            game_id, expected_version, entry, after
        )
        sql, fixed = self._append if notice is None else self._append_notify
        async with self._connection(N_("save the action")) as connection:
            try:
                cursor = await connection.execute(
                    sql, {**fixed, **advance, **in_one, **(notice or {})}
                )
            except psycopg.IntegrityError:
                raise StaleVersionError(game_id, expected_version, None) from None
            if await cursor.fetchone() is not None:
                return
            cursor = await connection.execute(self._version, {"id": game_id})
            row = await cursor.fetchone()
        self.store.refuse(game_id, expected_version, row)

    async def game_tail(self, game_id: int, after: int) -> tuple[int, str, tuple[Any, ...]]:
        """`Store.game_tail`, awaited."""
        sql, fixed = self._tail
        async with self._connection(N_("read the game")) as connection:
            cursor = await connection.execute(sql, {**fixed, "b_id": game_id, "b_after": after})
            rows = await cursor.fetchall()
        return self.store.tail_of(game_id, after, rows)

    async def close(self) -> None:
        """Closes the idle connections (the app's shutdown, or a lost server: new ones are
        opened as needed)."""
        idle, self._idle = self._idle, []
        for connection in idle:
            await self._drop(connection)
