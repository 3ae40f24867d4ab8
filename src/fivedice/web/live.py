"""Live games: every saved change is pushed to the pages and streams that watch it.

`Live` is one per worker process. A writer calls `changed(topic, id, version)` after its
transaction committed; subscribers (the event streams of `routers/api.py`) wake up and send
what they missed. A stream watches ``(Topic.GAME, game id)`` or ``(Topic.ROOM, room id)``.

Across workers:

- SQLite (one worker): the fan-out is in-process only.
- PostgreSQL: the store tells the other workers (a `fivedice.store.notices.Notice`: the
  topic, id and version, never the state; a saved action's notice travels in the action's
  own statement and carries the action, which a worker streaming the game applies to the
  version it keeps instead of reading the game back), and every worker keeps one listener
  (`fivedice.store.pg_notify`) that feeds its own in-process fan-out. A worker thus hears
  its own writes twice (directly and through PostgreSQL); streams send each version once
  anyway, because they remember the last version they sent.

`Topic.SEATS` tells the workers that a game's seats changed (a seat handed to a CPU) without
a new version: they drop their cached view of it.

A change wakes every stream of it at once; `SharedReads` lets them share one database read
(a room's thousand watchers: one read per change per worker, not a thousand). Game streams
share theirs through the hub's event cache.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from fivedice.store import ActionEntry, Store
from fivedice.store.notices import Notice, Topic
from fivedice.store.pg_notify import NoticeListener
from fivedice.web.metrics import OPEN_STREAMS, PUSH_DELAY, PUSHES

UNKNOWN = 2**62  # "something may have changed": the listener reconnected
# A stopping worker's streams are told to reconnect after this many milliseconds, each its
# own number in the range: long enough for the worker to have closed its listening socket
# (so the reconnection goes to another), short enough to go unnoticed, and spread so that a
# worker's thousands of streams do not all arrive at the others in the same instant.
MOVE_RETRY_MS = (250, 1250)
Watched = tuple[Topic, int]  # what a stream watches: a topic and the id of its game or room
Hook = Callable[[Topic, int, int], None]  # (topic, id, version) of a committed change
Now = tuple[int, str]  # a watched thing as one read found it: its version, its JSON text
Read = Callable[[], Awaitable[Now]]  # reads it now from the database
Shared = Hashable  # what streams share reads of: a `Watched`, or one with its audience
SHARED_KEPT = 4096  # the newest read kept per watched thing, for this many things
LOCAL, REMOTE = "local", "remote"  # where a change was committed: this worker, another one


@dataclass(eq=False)
class Subscription:
    """One stream's interest in a topic: the highest version announced, and a wake-up."""

    watched: Watched
    known: int = -1
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    closed: bool = False  # the client went away, or the server is shutting down
    retry_ms: int | None = None  # set when the worker stops: reconnect after this (`drain`)
    # When the oldest change not yet sent was committed here or heard of (time.monotonic()),
    # and where ("local", "remote"): the push delay of web/metrics.py.
    changed_at: float | None = None
    origin: str = LOCAL
    # The newest version the stream has sent (or the client had when it came): a change
    # announced at or below it does not wake the stream, which would only find it sent.
    # Most such announcements are this worker's own writes, heard again through PostgreSQL
    # (every listener hears every notice); each wasted wake-up cost the stream a task step,
    # a new heartbeat timer and the metrics' bookkeeping.
    sent_version: int | None = None

    def sent(self, events: int) -> None:
        """`events` were written to the stream: counted, with the delay since the change."""
        _pushes(self.watched).inc(events)
        if self.changed_at is not None:
            _delay(self.origin).observe(time.monotonic() - self.changed_at)
            self.changed_at = None

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

    def move(self, retry_ms: int) -> None:
        """Ends the stream, telling its client to reconnect after `retry_ms` (elsewhere)."""
        self.retry_ms = retry_ms
        self.close()


class SharedReads:
    """One database read per change per worker, shared by every stream that watches it.

    When a change is announced, every stream of it wakes at once and asks for the thing
    now. Without sharing each one read the database itself: 3,000 watchers of a room meant
    3,000 reads per change, and seconds before the last one heard of it. Here a stream that
    knows the version announced gets the newest read kept if that is as new, or waits for
    the read already under way; at most one read per watched thing runs at a time, and
    those who need a fresher one than it (it started before they asked) share the one
    queued behind it. So a change costs one read, however many streams watch.

    What is shared is keyed by what the streams watch; streams that must see different
    things of it (say members and outsiders of a room) share reads under keys of their own.
    """

    def __init__(self) -> None:
        self._kept: OrderedDict[Shared, Now] = OrderedDict()
        # The read under way per watched thing, with its number (reads are numbered as
        # they begin: a read numbered above `_begun` as a caller saw it began after it).
        self._running: dict[Shared, tuple[asyncio.Task[Now], int]] = {}
        self._queued: dict[Shared, asyncio.Task[Now]] = {}
        self._begun = 0

    async def now(self, key: Shared, known: int | None, read: Read) -> Now:
        """The thing as a read found it: at least version `known` if that is given, else
        (or if no read finds that version) as a read that began after this call found it.

        Raises what `read` raises (every waiter of that read gets its error).
        """
        asked = self._begun
        if known is not None:
            while True:
                kept = self._kept.get(key)
                if kept is not None and kept[0] >= known:
                    return kept
                running = self._running.get(key)
                if running is None:
                    break
                task, number = running
                found = await asyncio.shield(task)
                if found[0] >= known or number > asked:
                    return found
        return await asyncio.shield(self._next(key, read))

    def _next(self, key: Shared, read: Read) -> asyncio.Task[Now]:
        """The read that begins after now: a new one, or the one queued behind the one
        under way."""
        queued = self._queued.get(key)
        if queued is not None:
            return queued
        running = self._running.get(key)
        before = None if running is None else running[0]
        task = asyncio.get_running_loop().create_task(self._read(key, read, before))
        task.add_done_callback(_retrieved)
        if before is None:
            self._begin(key, task)
        else:
            self._queued[key] = task
        return task

    def _begin(self, key: Shared, task: asyncio.Task[Now]) -> None:
        self._begun += 1
        self._running[key] = (task, self._begun)

    async def _read(self, key: Shared, read: Read, before: asyncio.Task[Now] | None) -> Now:
        this = asyncio.current_task()
        assert this is not None  # (a task: made by `_next`)
        if before is not None:
            await asyncio.wait({before})  # (its error is its own waiters')
            del self._queued[key]
            self._begin(key, this)
        try:
            found = await read()
        finally:
            running = self._running.get(key)
            if running is not None and running[0] is this:
                del self._running[key]
        # (Kept whatever its version: the reads of one thing run one after the other, so the
        # last one is the freshest, even for a room deleted and its id given again.)
        self._kept[key] = found
        self._kept.move_to_end(key)
        while len(self._kept) > SHARED_KEPT:
            self._kept.popitem(last=False)
        return found


_PUSH_COUNTERS: dict[Topic, Any] = {}
_DELAY_HISTOGRAMS: dict[str, Any] = {}


def _pushes(watched: Watched) -> Any:
    """The push counter of a stream's topic: `labels()` looked up once per worker, not for
    every push (it takes a lock and checks the labels each time)."""
    topic = watched[0]
    counter = _PUSH_COUNTERS.get(topic)
    if counter is None:
        counter = _PUSH_COUNTERS[topic] = PUSHES.labels(topic.name.lower())
    return counter


def _delay(origin: str) -> Any:
    """The push-delay histogram of a change's origin (likewise looked up once)."""
    histogram = _DELAY_HISTOGRAMS.get(origin)
    if histogram is None:
        histogram = _DELAY_HISTOGRAMS[origin] = PUSH_DELAY.labels(origin)
    return histogram


def _retrieved(task: asyncio.Task[Now]) -> None:
    """Marks a shared read's error as seen (its waiters raised it; one whose waiters all
    went away is not worth a "never retrieved" warning)."""
    if not task.cancelled():
        task.exception()


def _stamp(sub: Subscription, at: float, origin: str) -> None:
    """Keeps the time of the oldest change the stream has not sent yet."""
    if sub.changed_at is None:
        sub.changed_at, sub.origin = at, origin


class Live:
    """The in-process fan-out of one worker, plus PostgreSQL NOTIFY/LISTEN when the store is
    PostgreSQL.

    Args:
        store: the database (its URL decides whether PostgreSQL carries notifications).
        on_remote: called in the event loop for every notice heard from PostgreSQL
            (the app drops stale cached views and pokes the CPU driver there).
        on_action: called in the event loop with (game id, action) for another worker's
            saved action that its notice carried, when a stream of the game is open here
            (the hub moves its kept game on without a read: `GameHub.heard_action`).
    """

    def __init__(
        self,
        store: Store,
        on_remote: Hook | None = None,
        on_action: Callable[[int, ActionEntry], object] | None = None,
    ):
        self.store = store
        self.on_remote = on_remote
        self.on_action = on_action
        self._subs: dict[Watched, set[Subscription]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._listener: asyncio.Task[None] | None = None
        self.local_hooks: list[Hook] = []
        self.streams: set[Subscription] = set()  # the open event streams (`closing`)
        self.draining = False  # the worker is stopping: streams are sent elsewhere (`drain`)
        self.remote_hooks: list[Hook] = []
        self.reads = SharedReads()  # the streams' shared reads (rooms)

    @property
    def shared(self) -> bool:
        """Whether other worker processes may write (PostgreSQL)."""
        return self.store.announces_changes

    # -- lifecycle (the app's lifespan) ----------------------------------------------------

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        if self.shared:
            listener = NoticeListener(self.store, heard=self._heard, missed=self._missed)
            self._listener = loop.create_task(listener.listen())

    def stop(self) -> None:
        self.closing()
        if self._listener is not None:
            self._listener.cancel()
        self._listener = None

    def closing(self) -> None:
        """Ends every open stream (the server is shutting down)."""
        for sub in list(self.streams):
            sub.close()

    def drain(self) -> None:
        """The worker is stopping (`fivedice.web.stopping`): every open stream, and every
        one opened from now on, is told to reconnect (an SSE ``retry:`` of `MOVE_RETRY_MS`
        and a ``moving`` event) and ended. uvicorn waits for open answers to finish before
        it stops, and a stream would never finish; its client comes back through the
        balancer to a worker that stays, with the Last-Event-ID of the last version it got."""
        self.draining = True
        # (Every subscription, not only `streams`: one whose stream has not begun sending
        # yet would otherwise wait, unmoved, until the graceful timeout.)
        for subs in list(self._subs.values()):
            for sub in list(subs):
                sub.move(random.randint(*MOVE_RETRY_MS))

    # -- subscribing (event loop) ----------------------------------------------------------

    def stream_opened(self, sub: Subscription) -> None:
        """A stream began sending (`closing` ends it; the open-streams gauge counts it)."""
        self.streams.add(sub)
        OPEN_STREAMS.inc()

    def stream_closed(self, sub: Subscription) -> None:
        """A stream ended."""
        if sub in self.streams:
            self.streams.discard(sub)
            OPEN_STREAMS.dec()

    def subscribe(self, watched: Watched) -> Subscription:
        """A new stream's interest in a game's or a room's changes (one that begins while
        the worker stops is moved elsewhere at once)."""
        sub = Subscription(watched)
        self._subs.setdefault(watched, set()).add(sub)
        if self.draining:
            sub.move(random.randint(*MOVE_RETRY_MS))
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        """Forgets a stream's interest (the stream ended)."""
        subs = self._subs.get(sub.watched)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._subs[sub.watched]

    def watchers(self, watched: Watched) -> int:
        """How many streams of this worker watch it."""
        return len(self._subs.get(watched, ()))

    def _announce(
        self, topic: Topic, ident: int, version: int, at: float | None = None, origin: str = LOCAL
    ) -> None:
        # Runs in the event loop. `at`: when the change was committed or heard of.
        at = time.monotonic() if at is None else at
        if topic is Topic.ENDED:  # a game's status changed, not its version: its streams ask
            for sub in list(self._subs.get((Topic.GAME, ident), ())):
                sub.known = UNKNOWN
                _stamp(sub, at, origin)
                sub.wake.set()
            return
        for sub in list(self._subs.get((topic, ident), ())):
            if sub.sent_version is not None and version <= sub.sent_version:
                continue  # sent already (see `Subscription.sent_version`)
            if version > sub.known:  # (UNKNOWN stays: the database decides)
                sub.known = version
            _stamp(sub, at, origin)
            sub.wake.set()

    # -- writers (any thread) --------------------------------------------------------------

    def changed(self, topic: Topic, ident: int, version: int, *, notified: bool = False) -> None:
        """A change was committed: wake this worker's streams, tell the others (`notified`:
        the write's own statement told them, see `Store.announces_changes`)."""
        self._call_soon(self._local, topic, ident, version, time.monotonic())
        if self.shared and not notified:
            self.store.notify(Notice(topic, ident, version))

    def _local(self, topic: Topic, ident: int, version: int, at: float | None = None) -> None:
        self._announce(topic, ident, version, at)
        for hook in self.local_hooks:
            hook(topic, ident, version)

    def call_soon(self, function: Callable[..., None], *args: Any) -> None:
        """Calls `function(*args)` in the event loop (any thread; nothing once it closed)."""
        self._call_soon(function, *args)

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

    # -- notices of every worker (PostgreSQL; the event loop) --------------------------------

    def _missed(self) -> None:
        """The listener (re)connected: every stream looks again."""
        for subs in list(self._subs.values()):
            for sub in list(subs):
                sub.known = UNKNOWN
                sub.wake.set()

    def _heard(self, notice: Notice) -> None:
        topic, ident, version, _logged = notice
        self._announce(topic, ident, version, origin=REMOTE)
        if self.on_remote is not None:
            self.on_remote(topic, ident, version)
        for hook in self.remote_hooks:
            hook(topic, ident, version)
        if self.on_action is not None and notice.logged and (Topic.GAME, ident) in self._subs:
            # Another worker's action, carried by its notice, for a game streamed here: the
            # game moves on in memory now (after the hooks, which judge by the game as this
            # worker knew it), before the streams woken above run and look for it.
            entry = notice.entry()
            if entry is not None:
                self.on_action(ident, entry)
