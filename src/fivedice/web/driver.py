"""CPU seats played by the server, one visible step at a time, whether or not anyone watches.

One `CpuDriver` per worker process runs in the app's event loop. It is poked whenever a game
changes (by this worker, or by another one through PostgreSQL NOTIFY) and, every
`scan_seconds`, it pokes every game in progress that has a CPU seat, whose CPU lease nobody
holds, and whose version has not moved since the scan before, or whose kept view here says a
CPU is to move at the version the scan read (so a game whose worker died is picked up at
the next scan of a worker that follows it, else within two scans; a game whose kept view is
at the version the scan read, with a human to move, is skipped).
Pokes are cheap when nothing is to do: a change this worker made that left a
human to move starts nothing (the kept view says so), and a change another worker made only
wakes a task this worker already runs for the game - unless this worker has that version
already (PostgreSQL tells every listener of every write, its own too) or the task found a
person to move and is letting the game go (the writer drives the game itself; a
worker that cannot get a game's lease tries again shortly, in case the holder was just
letting go). A poked game gets one task that, while a CPU seat is to move, waits the
room's pace (`delay_ms`) and asks the hub for one CPU step.

Exactly once: the store's version check refuses a second step made against the same
version, and a worker drives a game only while it holds the game's lease
(`fivedice.store.pg_lease`: on PostgreSQL an advisory lock on one dedicated connection per
worker); if the worker dies its connection closes, the lock is freed and the next scan of
another worker takes over. SQLite has one worker: the task table of this process is the
lease.

A CPU whose level plays from a table nobody solved yet (strong, expert, master on new rules)
holds no thread of the pool while it waits: its game's task awaits the table, built in the
worker's one solver thread (`_tables_for`; games of the same rules share the build), and
the game shows its CPU thinking meanwhile. The build asks the permit of the request that
poked the game (its creator's, or a person's who acted in it), else the server's own
(`permit`: only rules some client's permit paid for), so a game's CPU never solves what
nobody was permitted - nor after a restart, until a person comes back to it.

A game with no person at it (CPUs alone, or every person's seat handed to a CPU) is played
only while someone watches it: a stream of it open on this worker, or a look at it (its
page, its JSON, its creation) within `WATCH_SECONDS`. Otherwise its task lets it go at the
next step (paused, not ended: a look or a stream wakes it), and the scan passes it by - so
such games never play on after a restart, or for nobody (docs/host/limits.md).

A worker that is asked to stop (`fivedice.web.stopping`) does not wait for that: it lets
its games go as soon as their step in flight is saved (`hand_over`), and tells the other
workers (a `Topic.DRIVER` notice), one of which takes each over at once (`adopt`); a game a
request of the stopping worker hands to a CPU afterwards is announced the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from starlette.concurrency import run_in_threadpool

from fivedice.core.errors import FivediceError
from fivedice.core.rules import RuleSet
from fivedice.service.settings import Level
from fivedice.service.solving import NewSolvePermit, current_permit, permitting_new_solves
from fivedice.store import StaleVersionError
from fivedice.store.notices import Notice, Topic
from fivedice.store.pg_lease import GameLease
from fivedice.web.logs import GAME, REQUEST_ID
from fivedice.web.metrics import CPU_MOVES_WAITING, CPU_STEP, count_database_retry

if TYPE_CHECKING:
    from fivedice.service.games import GameView
    from fivedice.web.hub import GameHub

log = logging.getLogger(__name__)

RETRY_SECONDS = 1.0  # a failed step (database busy): wait, then try again
MAX_FAILURES = 3  # failed steps in a row, then the game waits for the next scan or change
LEASE_TRIES = 3  # a game another worker holds: try this often, LEASE_RETRY_SECONDS apart
LEASE_RETRY_SECONDS = 0.1
HAND_OVER_SECONDS = 5.0  # a stopping worker waits this long at most for its steps in flight
# Levels that decide fast enough to be stepped in the event loop itself (the guide: a few
# rules read in microseconds; elsewhere it plays like casual).
INLINE_LEVELS = frozenset({Level.BEGINNER.value, Level.CASUAL.value, Level.GUIDE.value})
WATCH_SECONDS = 30.0
"""How long a look at a game nobody plays (its page, its JSON, its creation) keeps its CPUs
playing without a stream of it open."""


class CpuDriver:
    """Plays the CPU seats of the games of one worker (see the module's docstring)."""

    def __init__(
        self,
        hub: GameHub,
        delay_ms: int,
        scan_seconds: float,
        permit: NewSolvePermit | None = None,
    ) -> None:
        self.hub = hub
        self.permit = permit  # the server's own permit for new tables (None: any)
        self._solver = ThreadPoolExecutor(1, thread_name_prefix="fivedice-tables")
        self._builds: dict[tuple[str, RuleSet], asyncio.Future[None]] = {}
        self.delay = max(delay_ms, 0) / 1000
        self.scan_seconds = scan_seconds
        self.lease = GameLease(hub.service.store)
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._scanner: asyncio.Task[None] | None = None
        self._stopping = False
        self._warm: set[str] = set()  # levels this process has decided with once
        self._stepping: dict[int, int] = {}  # game -> the version its running step makes
        self._finishing: set[int] = set()  # games whose task found a person to move
        self._halt = asyncio.Event()  # set when the worker stops: no step begins any more
        self._handing_over: asyncio.Task[None] | None = None
        self._announcing: set[asyncio.Task[None]] = set()
        self._waiting: set[int] = set()  # games whose CPU is to move, its step not saved yet
        self._looked: dict[int, float] = {}  # game -> when it was last looked at (monotonic)
        self.watch_seconds = WATCH_SECONDS
        self.watchers: Callable[[int], int] = lambda _game_id: 0  # its streams open here

    def looked_at(self, game_id: int) -> None:
        """Someone looked at the game (a page, its JSON, its creation): if nobody plays it,
        its CPUs play on for `watch_seconds` (any thread may call it)."""
        now = time.monotonic()
        if len(self._looked) > 10_000:  # (forget the old looks: the map stays small)
            self._looked = {
                game: at for game, at in self._looked.items() if now - at < self.watch_seconds
            }
        self._looked[game_id] = now

    def watched(self, game_id: int) -> bool:
        """Whether someone watches the game here: a stream of it open, or a recent look."""
        if self.watchers(game_id) > 0:
            return True
        at = self._looked.get(game_id)
        return at is not None and time.monotonic() - at < self.watch_seconds

    def start(self) -> None:
        self._scanner = asyncio.get_running_loop().create_task(self._scan_forever())

    async def warm_up(self) -> None:
        """Plays one turn of each level that steps in the event loop, in a thread, before
        the worker serves: the first decision of a process loads the bots' compiled code
        (numba), which holds the interpreter for most of a second, and would otherwise
        stall every request of the worker the first time a CPU moves."""
        try:
            await run_in_threadpool(_play_a_turn, INLINE_LEVELS)
        except Exception as error:  # the first real move pays it then
            log.warning("could not warm the CPU players up: %s", error)
            return
        self._warm.update(INLINE_LEVELS)

    def begin_hand_over(self) -> None:
        """The worker begins to stop: its games are let go (`hand_over`, in the background;
        `stop` waits for it)."""
        if self._handing_over is None and not self._stopping:
            self._handing_over = asyncio.get_running_loop().create_task(self.hand_over())

    async def hand_over(self) -> None:
        """Lets every game this worker drives go, as soon as its step in flight is saved
        (at most `HAND_OVER_SECONDS`; a step cut short is refused by the store's version
        check if another worker made it meanwhile), and tells the other workers, so that
        one of them takes each game over now rather than at its next scan."""
        self._stopping = True
        self._halt.set()
        if self._scanner is not None:
            self._scanner.cancel()
        driving = dict(self._tasks)
        if driving:
            _done, late = await asyncio.wait(driving.values(), timeout=HAND_OVER_SECONDS)
            for task in late:
                task.cancel()
            for task in late:
                with contextlib.suppress(BaseException):
                    await task  # (its lease is released as it ends)
        await self._announce(list(driving))
        if driving:
            log.info("handed %d CPU game(s) over to the other workers", len(driving))

    async def _announce(self, games: list[int]) -> None:
        """Tells the other workers that nobody here drives these games any more."""
        store = self.hub.service.store
        if not games or not store.announces_changes:
            return

        def notify() -> None:
            for game_id in games:
                kept = self.hub.service.kept(game_id)
                store.notify(Notice(Topic.DRIVER, game_id, 0 if kept is None else kept.version))

        await run_in_threadpool(notify)

    def adopt(self, game_id: int) -> None:
        """Another worker stopped driving this game (a `Topic.DRIVER` notice): drive it
        if a CPU is to move (the lease decides which of the workers that heard it does)."""
        self.poke(game_id)

    async def stop(self) -> None:
        if self._handing_over is not None:
            with contextlib.suppress(BaseException):
                await self._handing_over
        for task in list(self._announcing):
            with contextlib.suppress(BaseException):
                await task
        self._stopping = True
        self._halt.set()
        tasks = [*self._tasks.values(), *([self._scanner] if self._scanner else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        self._solver.shutdown(wait=False, cancel_futures=True)
        await self.lease.close()

    def poke(
        self,
        game_id: int,
        version: int | None = None,
        *,
        remote: bool = False,
        seats: bool = False,
    ) -> None:
        """A game changed (to `version`, when known): drive it if a CPU is to move (runs
        in the event loop). `remote`: the change came from another worker; `seats`: its
        seats changed (a seat handed to a CPU), not its version."""
        if self._stopping:
            if not remote and game_id not in self._tasks and self._handing_over is not None:
                # A request of this stopping worker changed it: if a CPU is to move, one of
                # the other workers must drive it (`_tasks`: announced by `hand_over`).
                kept = self.hub.service.kept(game_id)
                if kept is None or kept.version != version or kept.is_cpu_turn:
                    task = asyncio.get_running_loop().create_task(self._announce([game_id]))
                    self._announcing.add(task)
                    task.add_done_callback(self._announcing.discard)
            return
        if version is not None and not seats:
            kept = self.hub.service.kept(game_id)
            if kept is not None and kept.version == version and not kept.is_cpu_turn:
                # A person (or nobody) is to move at this version: nothing for the CPUs to
                # do, whether or not a task of this game is still finishing.
                return
            if remote and kept is not None and kept.version >= version:
                # Known here already: most often this worker's own write, heard back
                # through PostgreSQL (every listener hears every notification).
                return
        if game_id in self._tasks:
            if remote and not seats and game_id in self._finishing:
                # The task found a person to move and is letting the game go: the writer
                # drives the game if a CPU is to move now (its tries outlast the release).
                return
            if seats or version is None or self._stepping.get(game_id) != version:
                self._again.add(game_id)
            return
        if remote:
            return  # the worker that wrote it drives it (or the next scan, if it died)
        self._tasks[game_id] = asyncio.get_running_loop().create_task(self._drive(game_id, version))

    async def _scan_forever(self) -> None:
        before: dict[int, int] | None = None  # the versions the last scan read
        while not self._stopping:
            try:
                found = await run_in_threadpool(self.hub.service.store.games_with_cpus)
                for game_id, version, leased, people in found:
                    if leased:
                        continue  # a worker holds its lease: it drives it
                    if not people and not self.watched(game_id):
                        continue  # nobody plays or watches it: it waits (a look wakes it)
                    # A game whose version moved since the last scan has someone alive
                    # moving it: only the others are poked (the first scan pokes all).
                    # Otherwise every scan would poke every game another worker writes
                    # (this worker's kept view of it is behind), each a lease round trip.
                    # But a game this worker knows to be at a CPU's turn at that version,
                    # with nobody holding its lease, lost its driver (a host killed): it is
                    # taken over at once, not a scan later.
                    if (
                        before is None
                        or before.get(game_id) == version
                        or self._orphan(game_id, version)
                    ):
                        self.poke(game_id, version)  # (nothing to do if the kept view says so)
                before = {row[0]: row[1] for row in found}
            except Exception as error:
                log.warning("could not look for CPU turns: %s", error)
            await asyncio.sleep(self.scan_seconds)

    def _orphan(self, game_id: int, version: int) -> bool:
        """Whether this worker's kept view says a CPU is to move at `version` (the scan
        found nobody holding the game's lease)."""
        if game_id in self._tasks:
            return False  # (driving it here: between two steps, or letting it go)
        kept = self.hub.service.kept(game_id)
        return kept is not None and kept.version == version and kept.is_cpu_turn

    async def _drive(self, game_id: int, version: int | None = None) -> None:
        # This task's log lines name its game, not the request that happened to poke it
        # (a task starts with a copy of its creator's context; these change only the copy).
        REQUEST_ID.set(None)
        GAME.set(game_id)
        # Poked by a request: its client's permit; else (a scan, another worker's change)
        # the server's own.
        with permitting_new_solves(current_permit() or self.permit):
            await self._drive_leased(game_id, version)

    async def _drive_leased(self, game_id: int, version: int | None) -> None:
        try:
            for attempt in range(LEASE_TRIES):
                if await self.lease.acquire(game_id):
                    break
                if attempt + 1 == LEASE_TRIES or await self._halted(LEASE_RETRY_SECONDS):
                    return  # another worker drives it (perhaps it was just letting go)
            try:
                await self._steps(game_id, version)
            finally:
                await self.lease.release(game_id)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # never let one game stop the driver
            log.warning("CPU of game %s stopped: %s", game_id, error)
        finally:
            self._waiting_for(game_id, waiting=False)
            self._tasks.pop(game_id, None)
            self._stepping.pop(game_id, None)
            self._finishing.discard(game_id)
            if game_id in self._again and not self._stopping:  # poked while finishing
                self._again.discard(game_id)
                self.poke(game_id)

    async def _halted(self, seconds: float) -> bool:
        """Waits `seconds` (the pace of the CPUs), or less if the worker begins to stop
        meanwhile; whether it did."""
        if seconds > 0 and not self._halt.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._halt.wait(), seconds)
        return self._halt.is_set()

    async def _fresh(self, game_id: int) -> GameView:
        """The game as saved now: read in the event loop (one short read), or in a thread
        when another thread holds the game's lock."""
        view = self.hub.try_load(game_id)  # SQLite
        if view is None:  # PostgreSQL
            view = await self.hub.load_async(game_id)
        if view is None:
            view = await run_in_threadpool(self.hub.load, game_id)
        return view

    async def _step(self, view: GameView) -> GameView:
        """One CPU step. The levels that decide in well under a millisecond (beginner,
        casual) step in the event loop once this process has made one such decision (the
        first may load or compile the bot); the others, which may wait for a table solve,
        and any step whose game lock is busy, step in a thread."""
        level = view.state.seats[view.state.current_seat].cpu_level
        if not self.hub.service.cpu_tables_ready(view):
            await self._tables_for(view)  # (no pool thread waits for the solver)
        if level in self._warm:
            after = self.hub.try_drive_cpu(view.game_id, view.version)  # SQLite
            if after is None:  # PostgreSQL
                after = await self.hub.drive_cpu_async(view.game_id, view.version)
            if after is not None:
                return after
        after = await run_in_threadpool(self.hub.drive_cpu, view.game_id, view.version)
        if level in INLINE_LEVELS:
            self._warm.add(level)
        return after

    async def _steps(self, game_id: int, version: int | None) -> None:
        failures = 0
        # The kept view, when it is the version this worker was poked with (its own write
        # or a scan that read it): no read needed to begin.
        view = self.hub.service.kept(game_id)
        if view is None or version is None or view.version != version:
            view = None
        while not self._stopping:
            if view is None:
                self._again.discard(game_id)
                try:
                    view = await self._fresh(game_id)
                except FivediceError as error:
                    log.warning("cannot read game %s: %s", game_id, error)
                    return
            if not view.is_cpu_turn:
                self._waiting_for(game_id, waiting=False)
                if game_id in self._again:
                    view = None
                    continue  # it changed while we looked
                self._finishing.add(game_id)
                return
            if not view.has_person and not self.watched(game_id):
                self._waiting_for(game_id, waiting=False)
                return  # paused: nobody plays or watches it (a look or a stream wakes it)
            self._waiting_for(game_id, waiting=True)
            if await self._halted(self.delay):
                return  # the worker stops: `hand_over` tells the others
            try:
                # The step's own answer is the game now (the version check refuses a step
                # on a game someone else moved on): no read before the next step.
                self._stepping[game_id] = view.version + 1  # (its own poke is no news)
                view = await self._step(view)
                failures = 0
            except StaleVersionError:
                view = None
                continue  # someone else moved it on: look again
            except FivediceError as error:
                log.warning("CPU step of game %s refused: %s", game_id, error)
                view = None
                failures += 1
                if failures >= MAX_FAILURES:
                    return
                count_database_retry(CPU_STEP)
                await asyncio.sleep(RETRY_SECONDS)

    async def _tables_for(self, view: GameView) -> None:
        """Awaits the tables of the CPU seat to move, built in this worker's solver thread
        (one build per rule set and level however many games wait for it), under this
        task's permit.

        Raises:
            SolverBusyError: the permit refuses a new table; SolveNotAllowedError.
        """
        level = view.state.seats[view.state.current_seat].cpu_level or ""
        key = (level, view.state.rules)
        build = self._builds.get(key)
        if build is None:
            context = contextvars.copy_context()
            loop = asyncio.get_running_loop()
            prepare = self.hub.service.prepare_cpu
            build = loop.run_in_executor(self._solver, context.run, prepare, view, True)
            self._builds[key] = build
            build.add_done_callback(lambda _done: self._builds.pop(key, None))
        await asyncio.shield(build)

    def _waiting_for(self, game_id: int, *, waiting: bool) -> None:
        """Whether the game's CPU is to move, its step not saved yet (the gauge of CPU moves
        waiting, web/metrics.py)."""
        if waiting and game_id not in self._waiting:
            self._waiting.add(game_id)
            CPU_MOVES_WAITING.inc()
        elif not waiting and game_id in self._waiting:
            self._waiting.discard(game_id)
            CPU_MOVES_WAITING.dec()


def _play_a_turn(levels: frozenset[str]) -> None:
    """One whole turn of a game of these CPU levels, in memory (`CpuDriver.warm_up`)."""
    from fivedice.core.game import GameSettings, Seat
    from fivedice.core.rules import RuleSet
    from fivedice.service.games import LocalGame

    seats = tuple(Seat(f"CPU {number}", level) for number, level in enumerate(sorted(levels)))
    game = LocalGame.start(GameSettings(seats=seats, rules=RuleSet()), seed=1)
    for _ in range(4 * len(seats)):  # (a turn is at most 4 steps: 3 rolls and a box)
        game.cpu_step()
