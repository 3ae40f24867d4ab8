"""A worker stopping gently: what it does when asked to stop (SIGTERM, SIGINT), in order.

uvicorn, asked to stop, closes the listening socket, lets the answers in flight finish
(`Connection: close` on each) and waits for every connection to close, at most the graceful
timeout (`fivedice serve --graceful-timeout`). Left to itself it would wait the whole timeout
for the event streams (which never finish) and keep driving its CPU games until the app's
shutdown, so other workers would only find them at their next scan. So the moment the
signal arrives this module runs the hooks the app registered (`on_stop`):

- the event streams are told to reconnect (an SSE ``retry:`` line and a ``moving`` event)
  and ended: the browser reconnects within a second, through the balancer to a worker that
  stays, and resumes from its Last-Event-ID (`fivedice.web.live.Live.drain`);
- the CPU games this worker drives are let go and announced, so another worker takes them
  over at once (`fivedice.web.driver.CpuDriver.hand_over`);
- requests still arriving on connections opened before (keep-alive) are served with
  `Connection: close` (`fivedice.web.server.GuardedHttpProtocol`).

One `Stopping` per process (`STOPPING`): a signal is a process's, and a uvicorn worker runs
one app.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any

log = logging.getLogger(__name__)

Hook = Callable[[], None]
SIGNALS = (signal.SIGTERM, signal.SIGINT)
GRACEFUL_TIMEOUT_ENV = "FIVEDICE_GRACEFUL_TIMEOUT"  # set by `fivedice serve` for its workers
EXIT_MARGIN_SECONDS = 5.0
"""After the graceful timeout, the app's own shutdown gets this long; then the process
exits whatever still runs (a thread stuck on a lost connection would otherwise keep it
alive, and a supervisor or systemd waiting for it): a write cut short is not committed and
was not acknowledged, so nothing acknowledged is lost."""


class Stopping:
    """Whether this process is stopping, and what it does when it begins to.

    >>> stopping = Stopping()
    >>> said = []
    >>> remove = stopping.on_stop(lambda: said.append("streams told"))
    >>> stopping.begin(); stopping.begin()  # (once, however often asked)
    >>> said, stopping.begun
    (['streams told'], True)
    """

    def __init__(self) -> None:
        self.begun = False
        self._hooks: list[Hook] = []
        self._deadline: threading.Timer | None = None

    def on_stop(self, hook: Hook) -> Callable[[], None]:
        """Runs `hook` (in the event loop) when the process begins to stop; returns a
        function that unregisters it."""
        self._hooks.append(hook)

        def remove() -> None:
            with contextlib.suppress(ValueError):
                self._hooks.remove(hook)

        return remove

    def begin(self) -> None:
        """The process begins to stop: every hook runs, once (a failing hook is logged and
        does not keep the others from running)."""
        if self.begun:
            return
        self.begun = True
        self.exit_by_deadline()
        for hook in list(self._hooks):
            try:
                hook()
            except Exception:
                log.exception("a stop hook failed")

    def exit_by_deadline(self) -> None:
        """In a `fivedice serve` worker (`$FIVEDICE_GRACEFUL_TIMEOUT` set): makes sure the
        process ends within the graceful timeout and `EXIT_MARGIN_SECONDS` from now (once)."""
        text = os.environ.get(GRACEFUL_TIMEOUT_ENV, "")
        if self._deadline is not None or not text:
            return
        seconds = float(text) + EXIT_MARGIN_SECONDS
        self._deadline = threading.Timer(seconds, _exit_now, args=(seconds,))
        self._deadline.daemon = True
        self._deadline.start()

    def reset(self) -> None:
        """Forgets that stopping began (a test that runs several apps in one process; the
        exit deadline, if any, stands: the process is ending)."""
        self.begun = False

    def watch_signals(self, loop: asyncio.AbstractEventLoop) -> Callable[[], None]:
        """Begins stopping in `loop` as soon as SIGTERM or SIGINT arrives, after the handler
        already installed (uvicorn's, which sets its `should_exit`) has run; returns a
        function that puts the handlers back. Nothing is done outside the main thread (only
        it may set signal handlers; a server run in a thread is stopped by its owner)."""
        if threading.current_thread() is not threading.main_thread():
            return lambda: None
        previous: dict[int, Any] = {}

        def handler(number: int, frame: FrameType | None) -> None:
            before = previous.get(number)
            if callable(before):
                before(number, frame)
            elif before == signal.SIG_DFL:  # nobody else stops the process: as before
                signal.signal(number, signal.SIG_DFL)
                signal.raise_signal(number)
            with contextlib.suppress(RuntimeError):  # the loop is closed already
                loop.call_soon_threadsafe(self.begin)

        for number in SIGNALS:
            previous[number] = signal.signal(number, handler)

        def restore() -> None:
            if threading.current_thread() is not threading.main_thread():
                return
            for number, before in previous.items():
                if signal.getsignal(number) is handler:
                    signal.signal(number, before)

        return restore


def _exit_now(seconds: float) -> None:
    log.error("still running %.0f s after the stop began: exiting now", seconds)
    logging.shutdown()
    os._exit(1)


STOPPING = Stopping()
"""This process's."""
