"""The one lifecycle of every table kept in the cache: in memory, else on disk, else built once.

Every table the strategy layer keeps (the solved strategy tables, their moments, breakdowns
and goal tables) goes the same way, here:

1. **In memory** (`DerivedTables`): the last few tables of a kind (least recently used out).
2. **On disk**, in the cache directory: read by the kind's own `load` (None when missing or
   damaged: then built again).
3. **Built once per machine**: under a cross-process lock (`fcntl.flock` on `NAME.lock` beside
   the table): a second process (or thread) asking for the same table waits for the first's
   file and reads it, never building it twice. The build writes a temporary file
   (`NAME.PID.tmp`) renamed into place when complete, so a reader sees no file or the whole
   one; after it the kind's `written` keeps the cache in bounds (`cache.keep_in_bounds`).

A build reports its progress (`BuildProgress`: the fraction done and an estimate of the time
left) to a listener and through the lock file, so a process waiting for another's build shows
that build's progress. It can be cancelled (`CancelToken`, checked between steps): a cancelled
build raises `BuildCancelled` and leaves no file. A temporary file left by a killed process is
removed by the next build of the same table and by `remove_stale_temporaries` (run when the
cache is pruned); one of a build cut short by its process exiting is removed at exit.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import json
import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Generic, TypeVar

from fivedice.core.errors import N_, FivediceError

__all__ = [
    "BuildCancelled",
    "BuildProgress",
    "CancelToken",
    "DerivedTables",
    "ProgressListener",
    "Step",
    "both_steps",
    "build_in_memory",
    "build_progress",
    "load_or_build",
    "remove_stale_temporaries",
    "reporting_builds",
]

log = logging.getLogger(__name__)

T = TypeVar("T")

Step = Callable[[int, int], None]
"""What a build calls between its steps: `step(done, total)` (states, rows, layers...)."""

_POLL_SECONDS = 0.1  # how often a waiting process looks at the lock (and its cancel token)


def both_steps(step: Step, also: Step | None) -> Step:
    """A step telling `step` and, when given, `also` (a caller's raw `progress(done, total)`)."""
    if also is None:
        return step

    def both(done: int, total: int) -> None:
        step(done, total)
        also(done, total)

    return both


class BuildCancelled(FivediceError):
    """A table's build was cancelled (nothing was written)."""

    def __init__(self, kind: str = "") -> None:
        super().__init__(N_("the table's build was cancelled: nothing was saved"))
        self.kind = kind


class CancelToken:
    """Asked between the steps of a build: once `cancel()` is called, the build stops
    (`BuildCancelled`) and leaves no file. Thread-safe (a signal handler or another thread
    cancels, the build's thread checks)."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()


@dataclass(frozen=True)
class BuildProgress:
    """How far a table's build is.

    Attributes:
        kind: what is built (`"strategy"`, `"moments"`, `"breakdown"`, `"goal"`).
        fraction: 0 … 1, never going down.
        seconds_left: an estimate of the time left (None before the first step).
        elapsed: seconds since the build (or the wait for it) started.
        waiting: another process builds it; this one waits for its file.
    """

    kind: str
    fraction: float
    seconds_left: float | None
    elapsed: float
    waiting: bool = False


ProgressListener = Callable[[BuildProgress], None]

_LISTENER: ContextVar[ProgressListener | None] = ContextVar("fivedice_build_listener", default=None)


@contextlib.contextmanager
def reporting_builds(listener: ProgressListener | None) -> Iterator[None]:
    """Builds started in this context (this thread, not those it starts) without a listener
    of their own report to `listener`: a front end shows every build a command causes (a
    hint that solves new rules, computes a breakdown or a goal table) without passing a
    listener through every layer."""
    token = _LISTENER.set(listener)
    try:
        yield
    finally:
        _LISTENER.reset(token)


class _Reporter:
    """Turns a build's `step(done, total)` into `BuildProgress` for the listener and the lock
    file; checks the cancel token at every step."""

    def __init__(
        self,
        kind: str,
        listener: ProgressListener | None,
        cancel: CancelToken | None,
        lock_handle: int | None,
    ) -> None:
        self.kind = kind
        self.listener = listener
        self.cancel = cancel
        self.lock_handle = lock_handle
        self.started = time.monotonic()
        self.fraction = 0.0
        self.first: tuple[float, float] | None = None  # (time, fraction) of the first step
        self.last: BuildProgress = BuildProgress(kind, 0.0, None, 0.0)

    def __call__(self, done: int, total: int) -> None:
        if self.cancel is not None and self.cancel.cancelled:
            raise BuildCancelled(self.kind)
        fraction = min(1.0, max(self.fraction, done / total if total > 0 else 1.0))
        self.fraction = fraction
        now = time.monotonic()
        elapsed = now - self.started
        # The rate is measured from the first step on: the time before it (numba compiling
        # the kernels, the layers' walk) says nothing of the steps to come.
        left = None
        if self.first is None:
            if fraction > 0:
                self.first = (now, fraction)
        elif fraction > self.first[1]:
            rate = (fraction - self.first[1]) / max(now - self.first[0], 1e-9)
            left = (1.0 - fraction) / rate
        self.emit(BuildProgress(self.kind, fraction, left, elapsed))

    def emit(self, progress: BuildProgress) -> None:
        self.last = progress
        if self.lock_handle is not None:
            _write_progress(self.lock_handle, progress)
        if self.listener is not None:
            self.listener(progress)

    def finish(self) -> None:
        if self.fraction < 1.0:
            self.fraction = 1.0
            self.emit(BuildProgress(self.kind, 1.0, 0.0, time.monotonic() - self.started))


def _write_progress(handle: int, progress: BuildProgress) -> None:
    text = json.dumps({"fraction": progress.fraction, "seconds_left": progress.seconds_left})
    with contextlib.suppress(OSError):
        os.ftruncate(handle, 0)
        os.pwrite(handle, text.encode(), 0)


def _lock_path(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


def build_progress(kind: str, path: Path) -> BuildProgress | None:
    """The progress of a build of the table at `path` under way in any process (read from its
    lock file), or None when none is under way (no lock file, or one no process holds: left
    by a killed build)."""
    if _lock_is_free(path):
        return None
    try:
        text = _lock_path(path).read_text()
        data = json.loads(text) if text else {}
        fraction = float(data.get("fraction", 0.0))
        left = data.get("seconds_left")
    except (OSError, ValueError, TypeError, AttributeError):
        return None
    return BuildProgress(kind, fraction, None if left is None else float(left), 0.0, waiting=True)


# -- the lock --------------------------------------------------------------------------------


@contextlib.contextmanager
def _locked(
    path: Path,
    kind: str,
    listener: ProgressListener | None,
    cancel: CancelToken | None,
    wait: float | None,
    on_busy: Callable[[], Exception] | None,
) -> Iterator[int]:
    """Holds the table's lock file (created if needed; removed, still held, when done so the
    directory keeps only tables). A lock file unlinked by its holder while this process waited
    is not the lock any more: it opens the new one. Yields the open lock file's descriptor.

    Raises:
        BuildCancelled: cancelled while waiting.
        the error of `on_busy`: waited `wait` seconds in vain.
    """
    lock_path = _lock_path(path)
    started = time.monotonic()
    while True:
        handle = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            while True:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    pass
                if cancel is not None and cancel.cancelled:
                    raise BuildCancelled(kind) from None
                elapsed = time.monotonic() - started
                if wait is not None and elapsed >= wait:
                    raise (on_busy() if on_busy is not None else BuildCancelled(kind))
                if listener is not None:
                    other = build_progress(kind, path)
                    if other is not None:
                        listener(replace(other, elapsed=elapsed))
                time.sleep(_POLL_SECONDS)
            try:
                same = os.fstat(handle).st_ino == os.stat(lock_path).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
        except BaseException:
            os.close(handle)
            raise
        os.close(handle)  # its holder removed that file when done: try the one there now
    try:
        yield handle
    finally:
        with contextlib.suppress(OSError):
            lock_path.unlink()
        os.close(handle)  # releases the lock


# -- temporary files -----------------------------------------------------------------------

_UNFINISHED: set[Path] = set()
"""Temporary files (and lock files) of builds under way in this process. A build in a
background thread dies with the process when it exits (a terminal game that quits): its file,
maybe hundreds of MB, is removed at exit."""


@atexit.register
def _remove_unfinished() -> None:
    for temporary in list(_UNFINISHED):
        with contextlib.suppress(OSError):
            temporary.unlink()


def _temporaries(path: Path) -> list[Path]:
    return list(path.parent.glob(f"{path.name}.*.tmp"))


def remove_stale_temporaries(directory: Path) -> list[Path]:
    """Removes the temporary files (`NAME.PID.tmp`) no process is writing any more (their
    table's lock is free: the process that wrote it was killed), and lock files no process
    holds. Returns them."""
    removed = []
    for lock in directory.glob("*.lock"):  # a killed build's (a waiter sees it go: reopens)
        if _lock_is_free(lock.with_name(lock.name.removesuffix(".lock"))):
            with contextlib.suppress(OSError):
                lock.unlink()
                removed.append(lock)
    for temporary in directory.glob("*.*.tmp"):
        table = temporary.with_name(temporary.name.rsplit(".", 2)[0])
        if temporary in _UNFINISHED or not _lock_is_free(table):
            continue
        with contextlib.suppress(OSError):
            temporary.unlink()
            removed.append(temporary)
    return removed


def _lock_is_free(path: Path) -> bool:
    lock_path = _lock_path(path)
    if not lock_path.exists():
        return True
    try:
        handle = os.open(lock_path, os.O_RDWR)
    except OSError:
        return True
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(handle)
    return True


# -- one table -----------------------------------------------------------------------------


def load_or_build(
    path: Path,
    load: Callable[[Path], T | None],
    build: Callable[[Path | None, Step], T],
    *,
    kind: str,
    written: Callable[[], object] | None = None,
    listener: ProgressListener | None = None,
    cancel: CancelToken | None = None,
    wait: float | None = None,
    on_busy: Callable[[], Exception] | None = None,
) -> T:
    """The table at `path`: read by `load` if there, else built once under the table's lock.

    Args:
        path: the table's file in the cache directory.
        load: reads the file; None when missing or not valid (then it is built again).
        build: `build(temporary, step)` computes the table, writes it to `temporary` (when
            not None) and returns it, calling `step(done, total)` between its steps.
        kind: the table's kind, for progress and errors.
        written: called after the file is in place (keeps the cache in bounds).
        listener: told the progress of the build, or of another process's build waited for.
        cancel: stops the build, or the wait, between steps (`BuildCancelled`).
        wait: at most this many seconds waiting for another process's lock (None: no bound).
        on_busy: the error raised when `wait` runs out.

    Raises:
        BuildCancelled: cancelled; nothing written.
    """
    found = load(path)
    if found is not None:
        return found
    listener = listener or _LISTENER.get()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        os.close(os.open(_lock_path(path), os.O_RDWR | os.O_CREAT, 0o644))
    except OSError:  # an unwritable cache: built here, only costs a build next time
        return build_in_memory(build, kind=kind, listener=listener, cancel=cancel)
    with _locked(path, kind, listener, cancel, wait, on_busy) as handle:
        found = load(path)  # built meanwhile by the process we waited for?
        if found is not None:
            return found
        for stale in _temporaries(path):  # left by a killed build of this table
            if stale not in _UNFINISHED:
                with contextlib.suppress(OSError):
                    stale.unlink()
        temporary = path.with_name(f"{path.name}.{os.getpid()}-{threading.get_ident()}.tmp")
        reporter = _Reporter(kind, listener, cancel, handle)
        _UNFINISHED.update((temporary, _lock_path(path)))
        try:
            reporter(0, 1)
            table = build(temporary, reporter)
            if cancel is not None and cancel.cancelled:
                raise BuildCancelled(kind)
            os.replace(temporary, path)
        finally:
            _UNFINISHED.difference_update((temporary, _lock_path(path)))
            with contextlib.suppress(FileNotFoundError):
                temporary.unlink()
        reporter.finish()
    if written is not None:
        with contextlib.suppress(OSError):
            written()
    return table


def build_in_memory(
    build: Callable[[Path | None, Step], T],
    *,
    kind: str,
    listener: ProgressListener | None = None,
    cancel: CancelToken | None = None,
) -> T:
    """Builds a table without the cache (`build(None, step)`), with the same progress and
    cancellation as `load_or_build`."""
    reporter = _Reporter(kind, listener or _LISTENER.get(), cancel, None)
    reporter(0, 1)
    table = build(None, reporter)
    if cancel is not None and cancel.cancelled:
        raise BuildCancelled(kind)
    reporter.finish()
    return table


# -- a kind of table: memory, background builds ----------------------------------------------


class DerivedTables(Generic[T]):
    """The tables of one kind held by this process: the last `keep` used in memory (least
    recently used out), built or read through `load_or_build`, and builds started in the
    background for a front end that must not wait (`if_ready`), one at a time.

    Args:
        kind: the tables' kind (`BuildProgress.kind`).
        keep: how many tables stay in memory.
    """

    def __init__(self, kind: str, *, keep: int = 2) -> None:
        self.kind = kind
        self.keep = keep
        self._memory: OrderedDict[Hashable, T] = OrderedDict()
        self._lock = threading.Lock()
        self._key_locks: dict[Hashable, threading.Lock] = {}
        self._background: dict[Hashable, BuildProgress] = {}
        self._failed: dict[Hashable, Exception] = {}

    def at_hand(self, key: Hashable) -> T | None:
        """The table if it is in memory (marked as just used)."""
        with self._lock:
            found = self._memory.get(key)
            if found is not None:
                self._memory.move_to_end(key)
            return found

    def remember(self, key: Hashable, table: T) -> T:
        with self._lock:
            self._memory[key] = table
            self._memory.move_to_end(key)
            while len(self._memory) > self.keep:
                self._memory.popitem(last=False)
        return table

    def forget(self) -> None:
        """Empties the memory (tests; a cache directory emptied under a running process)."""
        with self._lock:
            self._memory.clear()
            self._failed.clear()

    def get(
        self,
        key: Hashable,
        path: Path | None,
        load: Callable[[Path], T | None],
        build: Callable[[Path | None, Step], T],
        *,
        written: Callable[[], object] | None = None,
        listener: ProgressListener | None = None,
        cancel: CancelToken | None = None,
    ) -> T:
        """The table of `key`: from memory, else `load_or_build` (`path` None: built in memory
        only, never read or written). Threads asking for the same key build it once.

        Raises:
            BuildCancelled: cancelled; nothing written.
        """
        if path is None:
            return self.remembered(
                key,
                lambda: build_in_memory(build, kind=self.kind, listener=listener, cancel=cancel),
            )
        return self.remembered(
            key,
            lambda: load_or_build(
                path,
                load,
                build,
                kind=self.kind,
                written=written,
                listener=listener,
                cancel=cancel,
            ),
        )

    def remembered(self, key: Hashable, make: Callable[[], T]) -> T:
        """The table of `key` from memory, else made by `make` (once, whichever threads ask)
        and kept."""
        found = self.at_hand(key)
        if found is not None:
            return found
        with self._lock:
            key_lock = self._key_locks.setdefault(key, threading.Lock())
        with key_lock:
            found = self.at_hand(key)
            if found is not None:
                return found
            return self.remember(key, make())

    def if_ready(
        self,
        key: Hashable,
        path: Path,
        get: Callable[[ProgressListener], T],
        *,
        quick: Callable[[], bool] | None = None,
        before_start: Callable[[], None] | None = None,
    ) -> T | None:
        """The table if it is at hand (in memory, or on disk and `quick` to read); else None,
        and `get` builds it in a background thread (one at a time per kind), so that a front
        end never waits. `before_start` may refuse the start (raises, nothing started).

        A background failure (not allowed, busy, a full cache) is logged, not raised in the
        thread: the next request that waits for the table says it.
        """
        found = self.at_hand(key)
        if found is not None:
            return found
        if (quick() if quick is not None else path.exists()) and not _lock_path(path).exists():
            return get(lambda _progress: None)
        with self._lock:
            if self._background:
                return None
            if before_start is not None:
                before_start()
            self._background[key] = BuildProgress(self.kind, 0.0, None, 0.0)
            self._failed.pop(key, None)
        threading.Thread(
            target=self._prepare, args=(key, get), daemon=True, name=f"build-{self.kind}"
        ).start()
        return None

    def _prepare(self, key: Hashable, get: Callable[[ProgressListener], T]) -> None:
        def listen(progress: BuildProgress) -> None:
            with self._lock:
                self._background[key] = progress

        try:
            get(listen)
        except Exception as error:  # said by the next request that waits for it
            log.info("background build of a %s table failed: %s", self.kind, error)
            with self._lock:
                self._failed[key] = error
        finally:
            with self._lock:
                self._background.pop(key, None)

    def progress(self, key: Hashable, path: Path | None = None) -> BuildProgress | None:
        """The progress of the table's build under way in the background of this process, else
        of a build of its file in another process, else None."""
        with self._lock:
            found = self._background.get(key)
        if found is not None:
            return found
        return None if path is None else build_progress(self.kind, path)

    def building(self) -> bool:
        """Whether a background build of this kind is under way in this process."""
        with self._lock:
            return bool(self._background)
