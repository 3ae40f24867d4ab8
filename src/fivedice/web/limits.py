"""Limits that keep everyone served: what one client may ask of the server at the app level.

A server on the open internet meets clients that send what no page ever does: bodies of
megabytes, JSON nested thousands deep, a thousand event streams. `RequestLimits` (the
outermost middleware of the app) answers them before any route reads or parses anything:

- every request body is bounded (`EdgeLimits.max_body_bytes`, 64 kB: the largest body a
  page or the API sends is about 1 kB): a `Content-Length` over it is a 413 at once, a chunked
  body is counted while it arrives and refused as soon as it passes the bound, so no more
  than that is ever held. The 413 closes lingering, as nginx does: its answer is sent, then
  what the client goes on sending is read and dropped (up to `LINGER_BYTES` and
  `LINGER_SECONDS`) before the connection closes, so a client that sends its whole body
  before it reads (Python's urllib) reads the 413 instead of a reset; a client that waits
  for `100 Continue` gets none and is closed at once;
- JSON sent to the API may nest at most `MAX_JSON_DEPTH` deep (a game's action is 2 deep):
  deeper is a 422 before `json.loads` (whose recursion would end in a 500);
- one client address may hold `streams_per_client` event streams at once (per worker), one
  network prefix (an IPv4 /24, an IPv6 /64: `client_prefix`) `streams_per_prefix`, and all
  clients together at most three quarters of the worker's connections (`stream_cap`), so
  ordinary requests always find a place; the next stream is a 429 (503 for the worker's
  cap) with Retry-After. A stream with no event for `stream_idle_timeout` seconds ends
  (a browser's EventSource reconnects at once, from the version it has). Behind a reverse
  proxy the address is the one the trusted proxy forwarded (uvicorn's proxy headers rewrite
  `scope["client"]` only for the addresses of `--forwarded-allow-ips`).

The connection-level limits (connections per address, the global cap, header and body read
timeouts, header size) live in the HTTP protocol of web/server.py; both read `EdgeLimits`,
which `fivedice serve` passes to its workers in environment variables.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import ipaddress
import json
import os
import re
import resource
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from fivedice.web.guard import LANG_COOKIE, read_body, replay_body
from fivedice.web.wording import gettext_for, pick_language

MAX_JSON_DEPTH = 32
"""How deep JSON sent to the API may nest (the deepest body the API takes is 4 deep)."""

ERRORS_SHOWN = 20
"""Validation problems listed in a 422 (a body can be wrong in thousands of places)."""

_FIELD_NAME = re.compile(r"[a-z_][a-z0-9_]{0,31}")  # a place's part not like it: the client's
_TYPE_CHARS = 32
_MESSAGE_CHARS = 160
_STREAM_PATH = re.compile(r"/api/(?:games|rooms)/[^/]+/events")
_JSON_TOKENS = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]')  # strings are skipped whole
_OPENERS = frozenset(b"[{")

ENV_PREFIX = "FIVEDICE_"


@dataclass(frozen=True)
class EdgeLimits:
    """What one client may hold or send; `fivedice serve` options and environment variables.

    Attributes:
        max_body_bytes: the largest request body (413 beyond it, before it is parsed).
        streams_per_client: open event streams per client address and worker (429 beyond).
        streams_per_prefix: open event streams per network prefix (`client_prefix`) and
            worker (429 beyond).
        connections_per_prefix: open connections per network prefix and worker (429).
        stream_idle_timeout: seconds an event stream stays open without sending an event.
        connections_per_client: open connections per client address and worker (a trusted
            proxy's own address is not capped: the proxy must cap its clients itself).
        max_connections: open connections per worker; beyond it a 503 with Retry-After.
            0: derived from the process's file limit (`default_max_connections`).
        header_timeout: seconds a client has to send a request's headers (slowloris).
        body_timeout: seconds a client has to send a request's body once its headers came.
        keep_alive_timeout: seconds an idle keep-alive connection stays open.
        max_header_bytes: the largest request line plus headers (431 beyond it).
        retry_after: the Retry-After of a 429 or 503 from these limits, in seconds.
    """

    max_body_bytes: int = 64 * 1024
    streams_per_client: int = 20
    connections_per_client: int = 50
    streams_per_prefix: int = 60
    connections_per_prefix: int = 150
    stream_idle_timeout: float = 600.0
    max_connections: int = 0
    header_timeout: float = 10.0
    body_timeout: float = 30.0
    keep_alive_timeout: int = 5
    max_header_bytes: int = 16 * 1024
    retry_after: int = 5

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if value < 0 or (value == 0 and field.name != "max_connections"):
                raise ValueError(f"{field.name} must be positive, not {value}")

    @property
    def connection_cap(self) -> int:
        """`max_connections`, or the one derived from the file limit when it is 0."""
        return self.max_connections or default_max_connections()

    @property
    def stream_cap(self) -> int:
        """The most event streams of all clients per worker: three quarters of its
        connections, so that a quarter is always left for ordinary requests."""
        return max(1, self.connection_cap * 3 // 4)

    def environment(self) -> dict[str, str]:
        """These limits as the environment variables `from_environment` reads."""
        return {
            ENV_PREFIX + field.name.upper(): str(getattr(self, field.name))
            for field in dataclasses.fields(self)
        }

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> EdgeLimits:
        """The limits of `$FIVEDICE_<FIELD>` variables (e.g. `FIVEDICE_HEADER_TIMEOUT=10`),
        the defaults for those not set.

        Raises:
            ValueError: a variable that is not a positive number.
        """
        environ = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for field in dataclasses.fields(cls):
            text = environ.get(ENV_PREFIX + field.name.upper())
            if text:
                kind = float if field.type in ("float", float) else int
                try:
                    values[field.name] = kind(text)
                except ValueError:
                    raise ValueError(f"{ENV_PREFIX}{field.name.upper()}={text!r}") from None
        return cls(**values)


@functools.lru_cache(maxsize=65_536)  # (every request asks it of its client's address)
def client_prefix(address: str) -> str:
    """The network a client address belongs to for the caps: its IPv4 /24 or IPv6 /64 (an
    IPv4 address mapped into IPv6 counts as IPv4); anything else as itself.

    >>> client_prefix("203.0.113.7"), client_prefix("2001:db8:1:2:3:4:5:6")
    ('203.0.113.0/24', '2001:db8:1:2::/64')
    """
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        parsed = parsed.ipv4_mapped
    bits = 24 if parsed.version == 4 else 64
    return str(ipaddress.ip_network(f"{parsed}/{bits}", strict=False))


def default_max_connections(file_limit: int | None = None) -> int:
    """Connections a worker keeps open at most: its file limit less room for the database,
    logs and the connections being refused (an eighth, at least 64), so that accepting never
    fails for want of a file descriptor (then every client would wait, not just the excess).

    >>> default_max_connections(1024)
    896
    >>> default_max_connections(256)
    192
    """
    if file_limit is None:
        file_limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        if file_limit == resource.RLIM_INFINITY:
            file_limit = 65536
    return max(16, file_limit - max(64, file_limit // 8))


def json_depth_exceeds(body: bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether JSON text nests deeper than `limit` (strings' brackets do not count).

    Cheap: a body with no more than `limit` brackets is not even scanned.

    >>> json_depth_exceeds(b'{"a": [1, {"b": "[[[[["}]}', limit=3)
    False
    >>> json_depth_exceeds(b"[" * 4, limit=3)
    True
    """
    if body.count(b"[") + body.count(b"{") <= limit:
        return False
    depth = 0
    for match in _JSON_TOKENS.finditer(body):
        token = match.group()
        if token[0] in _OPENERS:
            depth += 1
            if depth > limit:
                return True
        elif token[0] != 0x22:  # a closing bracket (0x22 is a string's quote)
            depth -= 1
    return False


def quiet_errors(errors: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Validation problems that never echo the input: type, place and a short message.

    pydantic's `input` and `ctx` (a copy of what was sent, megabytes if the body was) are
    dropped; a place's part that does not look like a field name of ours (a client's own key
    of any length and characters) is shown as "…".
    At most `ERRORS_SHOWN` problems are listed.

    >>> quiet_errors([{"type": "t", "loc": ("body", "<b>", 0), "msg": "m", "input": "secret"}])
    [{'type': 't', 'loc': ['body', '…', 0], 'msg': 'm'}]
    """
    quiet: list[dict[str, Any]] = []
    for item in errors:
        if len(quiet) == ERRORS_SHOWN:
            break
        loc = [
            part if isinstance(part, int) or _FIELD_NAME.fullmatch(str(part)) else "…"
            for part in item.get("loc", ())
        ]
        quiet.append(
            {
                "type": _cut(str(item.get("type", "")), _TYPE_CHARS),
                "loc": loc,
                "msg": _cut(str(item.get("msg", "")), _MESSAGE_CHARS),
            }
        )
    return quiet


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


LINGER_BYTES = 4 * 1024 * 1024
"""How much of a refused body is still read (and dropped) before the connection closes."""
LINGER_SECONDS = 5.0
"""How long a refused body is still read before the connection closes (nginx: 5 s)."""


class RequestLimits:
    """The middleware of the module docstring: body bound, JSON depth, streams per client."""

    def __init__(self, app: ASGIApp, limits: EdgeLimits | None = None) -> None:
        self.app = app
        self.limits = limits or EdgeLimits()
        self.streams: Counter[str] = Counter()  # open event streams per address and prefix
        self.stream_total = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        is_api = path.startswith("/api/")
        length = _content_length(scope)
        if length is not None and length > self.limits.max_body_bytes:
            await self._too_large(scope, send, is_api, receive)
            return
        if length or _header(scope, b"transfer-encoding") is not None:
            body, too_large = await read_body(receive, self.limits.max_body_bytes)
            if too_large:
                await self._too_large(scope, send, is_api, receive)
                return
            if is_api and json_depth_exceeds(body):
                detail = f"malformed request: body: JSON nested more than {MAX_JSON_DEPTH} deep"
                await _answer(send, 422, _json(detail), b"application/json")
                return
            receive = replay_body(body, receive)
        if scope.get("method") == "GET" and _STREAM_PATH.fullmatch(path):
            await self._stream(scope, receive, send)
            return
        await self.app(scope, receive, send)

    async def _stream(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        address = str(client[0]) if client else ""
        prefix = "net " + client_prefix(address)
        limits = self.limits
        status, detail = 0, ""
        if self.streams[address] >= limits.streams_per_client:
            status, detail = 429, f"from this address (at most {limits.streams_per_client})"
        elif self.streams[prefix] >= limits.streams_per_prefix:
            status, detail = 429, f"from this network (at most {limits.streams_per_prefix})"
        elif self.stream_total >= limits.stream_cap:
            status, detail = 503, "on this server now"
        if status:
            text = f"too many event streams {detail}; close one, or try again later"
            headers = [(b"retry-after", str(limits.retry_after).encode())]
            await _answer(send, status, _json(text), b"application/json", headers)
            return
        self.streams[address] += 1
        self.streams[prefix] += 1
        self.stream_total += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.stream_total -= 1
            for key in (address, prefix):
                self.streams[key] -= 1
                if not self.streams[key]:
                    del self.streams[key]

    async def _too_large(
        self, scope: Scope, send: Send, is_api: bool, receive: Receive | None = None
    ) -> None:
        limit = self.limits.max_body_bytes
        if is_api:
            body, media = (
                _json(f"request body too large (at most {limit} bytes)"),
                b"application/json",
            )
        else:
            # A page visitor reads it in their language (the words of the form guard's refusal).
            connection = HTTPConnection(scope)
            language = pick_language(
                connection.cookies.get(LANG_COOKIE), connection.headers.get("accept-language")
            )
            body = gettext_for(language)("the form is too large").encode()
            media = b"text/plain; charset=utf-8"
        waits = (_header(scope, b"expect") or b"").lower() == b"100-continue"
        if receive is None or waits:
            await _answer(send, 413, body, media)
            return
        await _answer(send, 413, body, media, done=False)
        await _linger(receive)
        await send({"type": "http.response.body", "body": b"", "more_body": False})


def _json(detail: str) -> bytes:
    return json.dumps({"detail": detail}).encode()


async def _answer(
    send: Send,
    status: int,
    body: bytes,
    media_type: bytes,
    headers: list[tuple[bytes, bytes]] | None = None,
    *,
    done: bool = True,
) -> None:
    """A small whole answer (what is left of an unread body, uvicorn reads and drops);
    `done=False`: its last (empty) part is still to be sent."""
    start: Message = {
        "type": "http.response.start",
        "status": status,
        "headers": [
            (b"content-type", media_type),
            (b"content-length", str(len(body)).encode()),
            *(headers or []),
        ],
    }
    await send(start)
    await send({"type": "http.response.body", "body": body, "more_body": not done})


async def _linger(receive: Receive) -> None:
    """Reads and drops what the client still sends of its body, up to LINGER_BYTES and
    LINGER_SECONDS (the lingering close of nginx)."""
    read = 0
    deadline = asyncio.get_running_loop().time() + LINGER_SECONDS
    while read <= LINGER_BYTES:
        left = deadline - asyncio.get_running_loop().time()
        if left <= 0:
            return
        try:
            message = await asyncio.wait_for(receive(), left)
        except TimeoutError:
            return
        if message["type"] != "http.request":
            return
        read += len(message.get("body", b""))
        if not message.get("more_body", False):
            return


def _header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value)
    return None


def _content_length(scope: Scope) -> int | None:
    """The declared body length; a value that is not a plain number counts as too large."""
    value = _header(scope, b"content-length")
    if value is None:
        return None
    text = value.strip()
    if not text.isdigit() or len(text) > 18:
        return 1 << 62
    return int(text)
