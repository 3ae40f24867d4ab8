"""Live games: every saved change is pushed to the pages and streams that watch it.

`Live` is one per worker process. A writer calls `changed(topic, version)` after its
transaction committed; subscribers (the event streams of `api.py`) wake up and send what
they missed. Topics are ``("g", game id)`` for games and ``("r", room id)`` for rooms.

Across workers:

- SQLite (one worker): the fan-out is in-process only.
- PostgreSQL: the writer also sends ``NOTIFY fivedice, '<topic>:<id>:<version>'`` (the id
  and version, never the state), and every worker keeps one listener connection
  (``LISTEN fivedice``) that feeds its own in-process fan-out. A worker thus hears its own
  writes twice (directly and through PostgreSQL); streams send each version once anyway,
  because they remember the last version they sent.

``s:<game id>:<version>`` tells the workers that a game's seats changed (a seat handed to a
CPU) without a new version: they drop their cached view of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import text

from fivedice.store import Store

log = logging.getLogger(__name__)

CHANNEL = "fivedice"
UNKNOWN = 2**62  # "something may have changed": the listener reconnected
SHUTDOWN_POLL_SECONDS = 0.5
_NOTIFY = text("SELECT pg_notify(:channel, :payload)")
Topic = tuple[str, int]
GAME = "g"  # a game's new version (the topic of its streams)
ENDED = "a"  # a game abandoned: its status changed at the same version


@dataclass(eq=False)
class Subscription:
    """One stream's interest in a topic: the highest version announced, and a wake-up."""

    topic: Topic
    known: int = -1
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    closed: bool = False  # the client went away, or the server is shutting down

    async def wait(self, timeout: float | None = None) -> int | None:
        """Waits for a change; returns the newest version announced since the last wait
        (None: unknown, ask the database; -1: nothing new, or `timeout` seconds passed)."""
        if not self.wake.is_set():
            # (A timer instead of `asyncio.wait_for`, which makes a task for every wait.)
            timer = (
                None
                if timeout is None
                else asyncio.get_running_loop().call_later(timeout, self.wake.set)
            )
            try:
                await self.wake.wait()
            finally:
                if timer is not None:
                    timer.cancel()
        self.wake.clear()
        known, self.known = self.known, -1
        return None if known == UNKNOWN else known

    def close(self) -> None:
        """Ends the stream that waits on this subscription."""
        self.closed = True
        self.wake.set()


class Live:
    """The in-process fan-out of one worker, plus PostgreSQL NOTIFY/LISTEN when the store is
    PostgreSQL.

    Args:
        store: the database (its URL decides whether PostgreSQL carries notifications).
        on_remote: called in the event loop for every notification heard from PostgreSQL
            (the app drops stale cached views and pokes the CPU driver there).
    """

    def __init__(self, store: Store, on_remote: Callable[[str, int, int], None] | None = None):
        self.store = store
        self.on_remote = on_remote
        self._subs: dict[Topic, set[Subscription]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._listener: asyncio.Task[None] | None = None
        self._notifier = store.engine.execution_options(isolation_level="AUTOCOMMIT")
        if self.shared:  # every saved action notifies in its own statement (no round trip)
            store.notices = (CHANNEL, _game_payload)
        self.local_hooks: list[Callable[[str, int, int], None]] = []
        self.streams: set[Subscription] = set()  # the open event streams (`closing`)
        self._watcher: asyncio.Task[None] | None = None
        self.remote_hooks: list[Callable[[str, int, int], None]] = []

    @property
    def shared(self) -> bool:
        """Whether other worker processes may write (PostgreSQL)."""
        return not self.store.is_sqlite

    # -- lifecycle (the app's lifespan) ----------------------------------------------------

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._watcher = loop.create_task(self._watch_shutdown())
        if self.shared:
            self._listener = loop.create_task(self._listen())

    def stop(self) -> None:
        self.closing()
        for task in (self._watcher, self._listener):
            if task is not None:
                task.cancel()
        self._watcher = self._listener = None

    def closing(self) -> None:
        """Ends every open stream (the server is shutting down)."""
        for sub in list(self.streams):
            sub.close()

    async def _watch_shutdown(self) -> None:
        """Ends the streams as soon as uvicorn is asked to stop (SIGTERM, Ctrl+C): it waits
        for open answers to finish before it stops, and a stream would never finish."""
        while True:
            await asyncio.sleep(SHUTDOWN_POLL_SECONDS)
            handler = signal.getsignal(signal.SIGTERM)
            server = getattr(handler, "__self__", None)
            if server is not None and getattr(server, "should_exit", False):
                self.closing()

    # -- subscribing (event loop) ----------------------------------------------------------

    def subscribe(self, topic: Topic) -> Subscription:
        sub = Subscription(topic)
        self._subs.setdefault(topic, set()).add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        subs = self._subs.get(sub.topic)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._subs[sub.topic]

    def watchers(self, topic: Topic) -> int:
        return len(self._subs.get(topic, ()))

    def _announce(self, kind: str, ident: int, version: int) -> None:
        # Runs in the event loop.
        if kind == ENDED:  # a game's status changed, not its version: its streams ask
            for sub in list(self._subs.get((GAME, ident), ())):
                sub.known = UNKNOWN
                sub.wake.set()
            return
        for sub in list(self._subs.get((kind, ident), ())):
            if version > sub.known:  # (UNKNOWN stays: the database decides)
                sub.known = version
            sub.wake.set()

    # -- writers (any thread) --------------------------------------------------------------

    def changed(self, kind: str, ident: int, version: int, *, notified: bool = False) -> None:
        """A change of a topic was committed: wake this worker's streams, tell the others
        (`notified`: the write's own statement told them, see `Store.notices`)."""
        self._call_soon(self._local, kind, ident, version)
        if self.shared and not notified:
            try:
                # One statement in autocommit: no BEGIN and COMMIT round trips around it.
                with self._notifier.connect() as connection:
                    connection.execute(
                        _NOTIFY, {"channel": CHANNEL, "payload": f"{kind}:{ident}:{version}"}
                    )
            except Exception as error:  # the change is saved; the others see it on reload
                log.warning("could not notify the other workers: %s", error)

    def _local(self, kind: str, ident: int, version: int) -> None:
        self._announce(kind, ident, version)
        for hook in self.local_hooks:
            hook(kind, ident, version)

    def _call_soon(self, function: Callable[..., None], *args: Any) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            function(*args)
        else:
            with contextlib.suppress(RuntimeError):  # the loop is closing
                loop.call_soon_threadsafe(function, *args)

    # -- PostgreSQL listener (its own thread and connection) -------------------------------

    def _conninfo(self) -> str:
        return self.store.url.set(drivername="postgresql").render_as_string(hide_password=False)

    async def _listen(self) -> None:
        """LISTEN on one connection of this worker, in the event loop (no thread: a
        notification wakes the streams without handing the interpreter to another thread)."""
        import psycopg

        delay = 0.2
        while True:
            try:
                connection = await psycopg.AsyncConnection.connect(
                    self._conninfo(), autocommit=True
                )
                async with connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    delay = 0.2
                    # Missed while (re)connecting: let everyone look again.
                    self._heard("*", 0, 0)
                    async for note in connection.notifies():
                        parsed = _parse(note.payload)
                        if parsed is not None:
                            self._heard(*parsed)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("listener connection lost (%s); reconnecting", error)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)

    def _heard(self, kind: str, ident: int, version: int) -> None:
        if kind == "*":
            for sub_kind, sub_ident in list(self._subs):
                for sub in list(self._subs.get((sub_kind, sub_ident), ())):
                    sub.known = UNKNOWN
                    sub.wake.set()
        else:
            self._announce(kind, ident, version)
        if kind == "*":
            return
        if self.on_remote is not None:
            self.on_remote(kind, ident, version)
        for hook in self.remote_hooks:
            hook(kind, ident, version)


def _game_payload(game_id: int, version: int) -> str:
    return f"g:{game_id}:{version}"


def _parse(payload: str) -> tuple[str, int, int] | None:
    kind, _sep, rest = payload.partition(":")
    ident, _sep, version = rest.partition(":")
    if kind not in ("g", "r", "s", ENDED) or not _digits(ident) or not _digits(version):
        return None
    return kind, int(ident), int(version)


def _digits(text: str) -> bool:
    """ASCII digits only: `str.isdigit` also says yes to "²", which int() refuses."""
    return text.isascii() and text.isdigit()
