"""One lock per game: made when first asked for, dropped when nobody holds or awaits it.

Two games never share a lock (a slow step of one never delays another), and the locks of a
process are as many as the games being entered at that moment. Each game has a lock for
threads and one for the coroutines of the event loop (`held_async`); a coroutine that holds
its game's loop lock then takes the threads' lock without waiting, so both kinds take turns.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager

__all__ = ["GameLocks"]


class _Entry:
    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.users = 0  # threads holding or waiting for the lock


class _AsyncEntry:
    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0


class GameLocks:
    """The per-game locks of one process (see the module's docstring)."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._locks: dict[int, _Entry] = {}
        self._async: dict[int, _AsyncEntry] = {}  # (the event loop's only: no guard needed)

    def __len__(self) -> int:
        """How many games have a lock now (held or awaited)."""
        return len(self._locks) + len(self._async)

    @contextmanager
    def held(self, game_id: int, *, blocking: bool = True) -> Iterator[bool]:
        """The game's lock for a thread: yields whether it was taken (without `blocking`,
        only if it is free at once) and releases it after."""
        with self._guard:
            entry = self._locks.get(game_id)
            if entry is None:
                entry = self._locks[game_id] = _Entry()
            entry.users += 1
        try:
            taken = entry.lock.acquire(blocking=blocking)
            try:
                yield taken
            finally:
                if taken:
                    entry.lock.release()
        finally:
            with self._guard:
                entry.users -= 1
                if entry.users == 0:
                    del self._locks[game_id]

    @contextlib.asynccontextmanager
    async def held_async(self, game_id: int) -> AsyncIterator[bool]:
        """The game's locks for a coroutine: its loop lock (awaited), then the threads'
        lock without waiting. Yields whether the threads' lock was taken (False: a thread
        holds it)."""
        entry = self._async.get(game_id)
        if entry is None:
            entry = self._async[game_id] = _AsyncEntry()
        entry.users += 1
        try:
            async with entry.lock:
                with self.held(game_id, blocking=False) as taken:
                    yield taken
        finally:
            entry.users -= 1
            if entry.users == 0:
                del self._async[game_id]

    def busy_async(self, game_id: int) -> bool:
        """Whether a coroutine holds or awaits the game's loop lock."""
        return game_id in self._async
