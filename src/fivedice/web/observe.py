"""The app's outermost middleware: a request id for every request, its access log line and
its request metrics, and `GET /metrics` (web/metrics.py) for those allowed to read it.

- **Request id.** An incoming ``X-Request-ID`` is kept when it is well formed (1-128 of
  ``A-Z a-z 0-9 . _ : -``: what HAProxy's ``unique-id-format`` or nginx's ``$request_id``
  make), else a new one is made (32 hex digits); it is echoed in the answer's
  ``X-Request-ID`` and carried by every log line of the request (`logs.REQUEST_ID`).
- **Game.** For a path naming a game (``/api/games/<id>``, ``/g/<id>``, ``/t/<id>``) whose
  id this server issued, the store's number of the game is put in `logs.GAME` (never the
  public id, which lets anyone watch the game).
- **Access log.** One line per request at the end of its answer (logger
  ``fivedice.access``): method, route template, status, duration. Never the raw path or the
  query string (invitations and seat tokens travel there). The balancer's probes are
  logged at DEBUG only (one every few seconds per worker would drown the rest).
- **Metrics.** Requests by method, route template and status, and the time to the answer's
  head (an event stream's head is sent at once; its life is not a request's latency).
"""

from __future__ import annotations

import ipaddress
import logging
import re
import time
import uuid
from collections.abc import Callable
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from fivedice.core.errors import FivediceError
from fivedice.web.health import PROBE_PATHS
from fivedice.web.logs import ACCESS_LOGGER, GAME, REQUEST_ID
from fivedice.web.metrics import (
    CONTENT_TYPE,
    METRICS_PATH,
    REQUEST_SECONDS,
    REQUESTS,
    Network,
    scrape,
)

access_log = logging.getLogger(ACCESS_LOGGER)

REQUEST_ID_HEADER = b"x-request-id"
_WELL_FORMED_ID = re.compile(r"[A-Za-z0-9._:\-]{1,128}")
_GAME_PATH = re.compile(r"/(?:api/games|g|t)/([^/]+)")


def request_id_of(scope: Scope) -> str:
    """The request's id: its ``X-Request-ID`` if well formed, else a new one.

    >>> request_id_of({"headers": [(b"x-request-id", b"abc-123")]})
    'abc-123'
    >>> len(request_id_of({"headers": [(b"x-request-id", b"<script>")]}))
    32
    """
    for name, value in scope.get("headers", ()):
        if name == REQUEST_ID_HEADER:
            text = str(value.decode("latin-1"))
            if _WELL_FORMED_ID.fullmatch(text):
                return text
            break
    return uuid.uuid4().hex


def route_of(scope: Scope) -> str:
    """The route template the request matched (``unmatched`` if none)."""
    path = scope.get("path", "")
    if path in PROBE_PATHS or path == METRICS_PATH:
        return str(path)
    route = scope.get("route")
    template = getattr(route, "path", None)
    return template if isinstance(template, str) else "unmatched"


class Observe:
    """ASGI middleware of the module docstring.

    Args:
        app: the app inside.
        game_number: the store's number of a game's public id (raises for an id this
            server did not issue).
        metrics_from: the networks allowed to read `/metrics` (None: everyone).
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        game_number: Callable[[str], int],
        metrics_from: tuple[Network, ...] | None,
    ) -> None:
        self.app = app
        self.game_number = game_number
        self.metrics_from = metrics_from

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = request_id_of(scope)
        id_token = REQUEST_ID.set(request_id)
        game_token = GAME.set(self._game(scope.get("path", "")))
        began = time.perf_counter()
        answered: dict[str, Any] = {"status": 500, "head": None}

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                answered["status"] = message["status"]
                answered["head"] = time.perf_counter() - began
                headers = [
                    (name, value)
                    for name, value in message.get("headers", ())
                    if name.lower() != REQUEST_ID_HEADER
                ]
                headers.append((REQUEST_ID_HEADER, request_id.encode()))
                message = {**message, "headers": headers}
            await send(message)

        try:
            if scope.get("path") == METRICS_PATH:
                await self._metrics(scope, send_with_id)
            else:
                await self.app(scope, receive, send_with_id)
        finally:
            self._account(scope, answered, time.perf_counter() - began)
            GAME.reset(game_token)
            REQUEST_ID.reset(id_token)

    def _game(self, path: str) -> int | None:
        found = _GAME_PATH.match(path)
        if found is None:
            return None
        try:
            return self.game_number(found.group(1))
        except FivediceError:
            return None  # (not an id of this server: its own 404 says so)

    def _account(self, scope: Scope, answered: dict[str, Any], duration: float) -> None:
        route = route_of(scope)
        method = str(scope.get("method", ""))
        status = int(answered["status"])
        head = answered["head"]
        REQUESTS.labels(method, route, str(status)).inc()
        REQUEST_SECONDS.labels(route).observe(duration if head is None else head)
        level = logging.DEBUG if route in PROBE_PATHS else logging.INFO
        if not access_log.isEnabledFor(level):
            return
        fields = {
            "method": method,
            "route": route,
            "status": status,
            "duration_ms": round(duration * 1000, 2),
        }
        # Made directly: `log()` would walk the stack for the caller's file and line first,
        # a third of the line's cost, for a line that is always this one.
        access_log.handle(
            access_log.makeRecord(
                ACCESS_LOGGER, level, __file__, 0, "request", (), None, None, fields
            )
        )

    async def _metrics(self, scope: Scope, send: Send) -> None:
        if scope.get("method") not in ("GET", "HEAD"):
            await _plain(send, 405, b"use GET\n", [(b"allow", b"GET, HEAD")])
            return
        if not self._may_read(scope):
            await _plain(send, 403, b"metrics are not open to this address\n")
            return
        body = scrape()
        await _plain(
            send, 200, b"" if scope["method"] == "HEAD" else body, content_type=CONTENT_TYPE
        )

    def _may_read(self, scope: Scope) -> bool:
        if self.metrics_from is None:
            return True
        client = scope.get("client")
        if not client:
            return False
        try:
            address = ipaddress.ip_address(client[0])
        except ValueError:
            return False
        return any(address in network for network in self.metrics_from)


async def _plain(
    send: Send,
    status: int,
    body: bytes,
    headers: list[tuple[bytes, bytes]] | None = None,
    *,
    content_type: str = "text/plain; charset=utf-8",
) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", content_type.encode()),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-store"),
                *(headers or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
