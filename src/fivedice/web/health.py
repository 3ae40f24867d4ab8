"""The load balancer's two questions: `/healthz` (is this worker alive?) and `/readyz` (may
it be sent players?).

- `GET /healthz`: 200 ``{"status": "alive", "worker": <pid>}`` whenever the worker's event
  loop answers. It touches nothing else (no database, no thread): a balancer or a process
  supervisor restarts a worker that stops answering it, and a database outage must not
  make every worker look dead.
- `GET /readyz`: 200 ``{"status": "ready", ...}`` or 503 ``{"status": "not ready", ...}``
  with ``checks``: each of `fivedice.service.readiness` (database, migrations, tables) with
  ``ok`` and a few fixed words. A database that does not answer within `READY_TIMEOUT_SECONDS`
  fails the check (a PostgreSQL host that vanished would otherwise hold the probe for
  minutes). One check runs at a time per worker and its answer is reused for
  `READY_FRESH_SECONDS`, so however often (and however many) clients ask, the database sees
  at most about one query a second from each worker. A worker that is stopping
  (`ReadinessProbe.stop`) is not ready: check ``worker``, "stopping".

Both are answered by `Probes`, the app's outermost middleware, before anything else runs:
no session is started, no rate or quota is counted or applied (a balancer's probes are never
refused with a 429), no body is read. Like every request they do pass the connection caps of
`fivedice.web.server` (a balancer is a trusted proxy: its connections are not capped per
address). They reveal nothing secret: no database address, path or error text, only the
worker's pid. HEAD is answered as GET without the body; other methods get 405.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable

import orjson
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Receive, Scope, Send

from fivedice.service.readiness import DATABASE, MIGRATIONS, Check, Readiness

HEALTH_PATH = "/healthz"
READY_PATH = "/readyz"
WORKER = "worker"  # the check a stopping worker fails
PROBE_PATHS = frozenset({HEALTH_PATH, READY_PATH})
READY_TIMEOUT_SECONDS = 2.0
READY_FRESH_SECONDS = 1.0
RETRY_AFTER_SECONDS = 5


class ReadinessProbe:
    """The readiness of one worker: one check at a time, bounded, its answer reused briefly.

    Args:
        check: the blocking check (run in a thread).
        timeout: how long an answer may take before the database counts as not answering
            (default `READY_TIMEOUT_SECONDS`).
        fresh_for: how long an answer is reused (default `READY_FRESH_SECONDS`).
    """

    def __init__(
        self,
        check: Callable[[], Readiness],
        *,
        timeout: float | None = None,
        fresh_for: float | None = None,
    ) -> None:
        self._check = check
        self._timeout = READY_TIMEOUT_SECONDS if timeout is None else timeout
        self._fresh_for = READY_FRESH_SECONDS if fresh_for is None else fresh_for
        self._running: asyncio.Future[Readiness] | None = None
        self._last: tuple[float, Readiness] | None = None
        self._stopping = False

    def stop(self) -> None:
        """The worker is stopping (SIGTERM): not ready from now on, whatever the checks say,
        so the balancer sends it nothing new while it finishes what it has."""
        self._stopping = True

    async def readiness(self) -> Readiness:
        """The readiness now (or of at most `fresh_for` seconds ago)."""
        if self._stopping:
            return Readiness({WORKER: Check(False, "stopping")})
        last = self._last
        if last is not None and time.monotonic() - last[0] < self._fresh_for:
            return last[1]
        if self._running is None or self._running.done():
            # (A check still running from an earlier probe is awaited, not doubled: a
            # database that hangs holds one thread per worker, never one per probe.)
            self._running = asyncio.ensure_future(run_in_threadpool(self._check))
        try:
            readiness = await asyncio.wait_for(asyncio.shield(self._running), self._timeout)
        except TimeoutError:
            silent = Check(False, f"no answer within {self._timeout:g} s")
            readiness = Readiness(
                {DATABASE: silent, MIGRATIONS: Check(False, "not checked: no database")}
            )
        self._last = (time.monotonic(), readiness)
        return readiness


class Probes:
    """ASGI middleware answering `/healthz` and `/readyz` (see the module docstring);
    everything else goes on to `app`."""

    def __init__(self, app: ASGIApp, probe: ReadinessProbe) -> None:
        self.app = app
        self.probe = probe

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if path not in PROBE_PATHS:
            await self.app(scope, receive, send)
            return
        if scope["method"] not in ("GET", "HEAD"):
            await _answer(send, scope, 405, {"detail": "use GET"}, allow="GET, HEAD")
            return
        if path == HEALTH_PATH:
            await _answer(send, scope, 200, {"status": "alive", "worker": os.getpid()})
            return
        readiness = await self.probe.readiness()
        body = {
            "status": "ready" if readiness.ready else "not ready",
            "worker": os.getpid(),
            "checks": {
                name: {"ok": check.ok, "detail": check.detail}
                for name, check in readiness.checks.items()
            },
        }
        await _answer(send, scope, 200 if readiness.ready else 503, body)


async def _answer(
    send: Send, scope: Scope, status: int, body: object, *, allow: str | None = None
) -> None:
    content = orjson.dumps(body)
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(content)).encode()),
        (b"cache-control", b"no-store"),
        (b"x-content-type-options", b"nosniff"),
    ]
    if status == 503:
        headers.append((b"retry-after", str(RETRY_AFTER_SECONDS).encode()))
    if allow is not None:
        headers.append((b"allow", allow.encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send(
        {"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else content}
    )
