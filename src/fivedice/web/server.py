"""Running the app on uvicorn, one process or several workers sharing one listening socket.

Why not plain `uvicorn.run`: with several workers uvicorn binds the socket itself without
naming the TCP protocol, so asyncio in the workers does not switch Nagle's algorithm off on
the connections, and every small response waits ~40 ms for a delayed ACK on keep-alive
connections (measured: 48 ms instead of 3 ms per request on loopback). Setting TCP_NODELAY on
the listening socket fixes it: Linux copies it to every accepted connection.

Why a protocol of our own (`GuardedHttpProtocol`, uvicorn's httptools protocol with limits):
uvicorn never times out a request whose headers are half sent, and accepts connections until
the process runs out of file descriptors; then accepting fails and *every* client waits (with
the usual 1,024-file limit, 1,010 half-sent requests from one address blocked everyone for
40 s). So each worker caps the connections of one client address and its connections in all
(`EdgeLimits`, web/limits.py), answers the excess at once (429 or 503 with Retry-After) and
closes a connection whose request headers do not arrive within the header timeout (slowloris)
or whose body does not arrive within the body timeout.

Stopping gently (SIGTERM: a rolling restart, systemd, a balancer draining a host): see
`fivedice.web.stopping` for the order. Here: the supervisor of several workers closes its
own copy of the listening socket first (else connections would queue on it, accepted by
nobody, until it exits), and each worker answers a request that arrives on a connection
opened before with `Connection: close` instead of dropping the idle connection at once
(uvicorn's way: a request sent on it in the same instant would be lost, unanswered), for
`DRAIN_IDLE_SECONDS` at most, and gives its answers in flight `graceful_timeout` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import ipaddress
import socket
from collections import Counter
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.supervisors import Multiprocess

from fivedice.web.limits import EdgeLimits, client_prefix
from fivedice.web.stopping import GRACEFUL_TIMEOUT_ENV, STOPPING

APP = "fivedice.web:app_from_environment"
PROTOCOL = "fivedice.web.server:GuardedHttpProtocol"

REFUSING_AT_ONCE = 32
"""Refused connections given their 429/503 and a moment to read it; more are reset at once
(a flood must not spend the file descriptors the caps keep free)."""

REFUSAL_LINGER_SECONDS = 2.0  # how long a refused client has to read its answer
MAX_HEADERS = 100  # header lines in one request (431 beyond)
GRACEFUL_TIMEOUT_SECONDS = 10
"""How long a stopping worker lets its answers in flight finish (`--graceful-timeout`): an
action takes milliseconds and a hint waits at most a few seconds for a solve, well within
it, and well below the 30 s deploy/fivedice.service lets systemd wait before SIGKILL."""
WORKER_START_SECONDS = 60
"""How long the supervisor waits for a new worker to serve (and for a worker to answer its
health ping) before it gives up on it."""
DRAIN_IDLE_SECONDS = 1.0
"""How long a stopping worker keeps an idle keep-alive connection open for a request that
may be on its way (answered with `Connection: close`); at most half the graceful timeout."""


def run_server(
    host: str,
    port: int,
    *,
    workers: int = 1,
    proxy_headers: bool = True,
    forwarded_allow_ips: str = "127.0.0.1",
    log_level: str = "warning",
    limits: EdgeLimits | None = None,
    graceful_timeout: int = GRACEFUL_TIMEOUT_SECONDS,
) -> None:
    """Serves the app (the database comes from `$FIVEDICE_DATABASE_URL`) until stopped.

    `limits` reach the workers in `$FIVEDICE_<LIMIT>` variables (each worker reads them).
    SIGTERM or SIGINT stops it gently (`fivedice.web.stopping`): the answers in flight get
    `graceful_timeout` seconds; with several workers SIGTERM to one worker stops that one
    (the supervisor starts another) and SIGHUP to the supervisor replaces them one by one.
    """
    import os

    import uvicorn

    limits = limits or EdgeLimits.from_environment()
    os.environ.update(limits.environment())
    os.environ[GRACEFUL_TIMEOUT_ENV] = str(graceful_timeout)  # (each worker's exit deadline)
    config = uvicorn.Config(
        APP,
        factory=True,
        host=host,
        port=port,
        workers=workers,
        http=PROTOCOL,
        proxy_headers=proxy_headers,
        forwarded_allow_ips=forwarded_allow_ips,
        timeout_keep_alive=limits.keep_alive_timeout,
        log_level=log_level,
        log_config=None,  # (the log is set up by web/logs.py: uvicorn's lines pass through it)
        access_log=False,
        timeout_graceful_shutdown=graceful_timeout,
        # A new worker (SIGHUP's rolling restart, or one replacing a worker that ended) may
        # take a while to serve on a busy host (imports, the CPU players warmed up): uvicorn
        # gives up on it after 5 s and keeps the old one, so the restart would stop halfway.
        timeout_worker_healthcheck=WORKER_START_SECONDS,
    )
    if workers == 1:
        uvicorn.Server(config).run()
        return
    os.environ[SUPERVISOR_ENV] = str(os.getpid())  # (its workers follow it: `follow_supervisor`)
    listener = config.bind_socket()
    listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl+C ends the server quietly
        GentleSupervisor(config, sockets=[listener]).run()


SUPERVISOR_ENV = "FIVEDICE_SUPERVISOR_PID"
_PR_SET_PDEATHSIG = 1  # (linux/prctl.h)


def follow_supervisor() -> None:
    """In a worker of several: asks Linux to send it SIGTERM when its supervisor dies
    (`prctl(PR_SET_PDEATHSIG)`), so that a supervisor killed outright (SIGKILL, a crash)
    leaves no worker behind; the worker then stops as on any SIGTERM. Nothing elsewhere
    (one process, or not Linux)."""
    import ctypes
    import os
    import signal
    import sys

    supervisor = os.environ.get(SUPERVISOR_ENV, "")
    if not supervisor.isdigit() or not sys.platform.startswith("linux"):
        return
    if os.getpid() == int(supervisor):
        return
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
    if os.getppid() != int(supervisor):  # it died before the request was made
        os.kill(os.getpid(), signal.SIGTERM)


class GentleSupervisor(Multiprocess):
    """uvicorn's supervisor of several workers, which closes its own copy of the listening
    socket as soon as it is asked to stop: the workers close theirs as they begin to stop,
    and the socket closes with the last one, so new connections are refused (a balancer
    tries another host at once) instead of waiting in a queue nobody accepts from."""

    def handle_term(self) -> None:
        self._stop_listening()
        super().handle_term()

    def handle_int(self) -> None:
        self._stop_listening()
        super().handle_int()

    def _stop_listening(self) -> None:
        for listener in self.sockets:
            with contextlib.suppress(OSError):
                listener.close()


class _Connections:
    """This worker's open connections: by client address, in all, and those being refused."""

    def __init__(self) -> None:
        self.by_address: Counter[str] = Counter()
        self.total = 0
        self.refusing = 0
        self.served: set[GuardedHttpProtocol] = set()  # every connection not refused


_OPEN = _Connections()


def _last_answers() -> None:
    """The worker begins to stop: every answer in flight is the last of its connection
    (`Connection: close` where its headers are still to be sent; an event stream's
    connection closes when the stream ends), so its client's next request goes elsewhere."""
    for protocol in list(_OPEN.served):
        cycle = protocol.cycle
        if cycle is not None and not cycle.response_complete:
            cycle.keep_alive = False


STOPPING.on_stop(_last_answers)


@functools.cache
def _limits() -> EdgeLimits:
    return EdgeLimits.from_environment()


@functools.cache
def _trusted_networks(
    forwarded_allow_ips: str,
) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] | None:
    """The networks of `--forwarded-allow-ips` (None: every address, "*")."""
    networks = []
    for item in forwarded_allow_ips.split(","):
        item = item.strip()
        if item == "*":
            return None
        with contextlib.suppress(ValueError):  # (uvicorn keeps other names as literals)
            networks.append(ipaddress.ip_network(item, strict=False))
    return tuple(networks)


def is_trusted_proxy(address: str, forwarded_allow_ips: str | list[str]) -> bool:
    """Whether connections from `address` come through a proxy we trust (its forwarded
    address is the client's: the app's limits use that one; the proxy's own connections are
    not capped per address, so the proxy must cap its clients itself).

    >>> is_trusted_proxy("10.0.0.7", "127.0.0.1, 10.0.0.0/8")
    True
    >>> is_trusted_proxy("127.0.0.2", "127.0.0.1")
    False
    """
    if not isinstance(forwarded_allow_ips, str):
        forwarded_allow_ips = ",".join(forwarded_allow_ips)
    networks = _trusted_networks(forwarded_allow_ips)
    if networks is None:
        return True
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


def _answer(status: bytes, retry_after: int | None, body: bytes) -> bytes:
    lines = [b"HTTP/1.1 " + status, b"content-type: text/plain; charset=utf-8"]
    if retry_after is not None:
        lines.append(b"retry-after: %d" % retry_after)
    lines += [b"content-length: %d" % len(body), b"connection: close", b"", body]
    return b"\r\n".join(lines)


class GuardedHttpProtocol(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol with the connection limits of `EdgeLimits`.

    - a client address over `connections_per_client` open connections, or its network prefix
      (`client_prefix`: /24, /64) over `connections_per_prefix`, gets a 429, the worker
      over `connection_cap` a 503, both with Retry-After and closed (reset at once when many
      are being refused);
    - the request line and headers must arrive within `header_timeout` of the connection
      (or of the previous response) and be at most `max_header_bytes` (431);
    - the body must arrive within `body_timeout` of the headers.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.limits = _limits()
        self.address: str | None = None  # counted in _OPEN while open
        self.refusing = False
        self.refusal_counted = False
        self.timer: asyncio.TimerHandle | None = None
        self.header_bytes = 0
        self.header_lines = 0
        self.headers_too_large = False
        self.drain_timer: asyncio.TimerHandle | None = None

    # -- opening and closing -----------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        limits = self.limits
        trusted = self.config.proxy_headers and is_trusted_proxy(
            address, self.config.forwarded_allow_ips
        )
        prefix = "net " + client_prefix(address)
        if not trusted and (
            _OPEN.by_address[address] >= limits.connections_per_client
            or _OPEN.by_address[prefix] >= limits.connections_per_prefix
        ):
            self._refuse(transport, b"429 Too Many Requests", b"Too many connections.\n")
            return
        if _OPEN.total >= limits.connection_cap:
            self._refuse(transport, b"503 Service Unavailable", b"Server busy.\n")
            return
        _OPEN.by_address[address] += 1
        _OPEN.by_address[prefix] += 1
        _OPEN.total += 1
        _OPEN.served.add(self)
        self.address = address
        super().connection_made(transport)
        self._await_headers()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_timer()
        self._stop_draining()
        _OPEN.served.discard(self)
        if self.refusing:
            if self.refusal_counted:
                _OPEN.refusing -= 1
                self.refusal_counted = False
            return
        if self.address is not None:
            for key in (self.address, "net " + client_prefix(self.address)):
                _OPEN.by_address[key] -= 1
                if not _OPEN.by_address[key]:
                    del _OPEN.by_address[key]
            _OPEN.total -= 1
            self.address = None
        super().connection_lost(exc)

    def _refuse(self, transport: asyncio.Transport, status: bytes, body: bytes) -> None:
        """Answers a connection over a cap without reading it, and closes it soon."""
        self.refusing = True
        self.transport = transport
        if _OPEN.refusing >= REFUSING_AT_ONCE:
            transport.abort()
            return
        _OPEN.refusing += 1
        self.refusal_counted = True
        transport.write(_answer(status, self.limits.retry_after, body))
        if transport.can_write_eof():
            # Half-close: the client reads the answer, then closes (eof_received); closing
            # with its request unread would reset the connection and lose the answer.
            transport.write_eof()
        self.timer = self.loop.call_later(REFUSAL_LINGER_SECONDS, transport.abort)

    def eof_received(self) -> None:
        if self.refusing:
            self.transport.close()

    # -- reading a request ---------------------------------------------------------------------

    def data_received(self, data: bytes) -> None:
        if self.refusing:
            return  # (a refused client's request is not read)
        super().data_received(data)
        if self.headers_too_large and not self.transport.is_closing():
            self._close_with(b"431 Request Header Fields Too Large", b"Headers too large.\n")

    def on_message_begin(self) -> None:
        self._stop_draining()  # (a request came: it is answered, then the connection closes)
        self.header_bytes = self.header_lines = 0
        self.headers_too_large = False
        super().on_message_begin()

    def on_url(self, url: bytes) -> None:
        if self._count_header_bytes(len(url)):
            super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self.header_lines += 1
        if self.header_lines > MAX_HEADERS:
            self.headers_too_large = True
        if self._count_header_bytes(len(name) + len(value) + 4):
            super().on_header(name, value)

    def _count_header_bytes(self, size: int) -> bool:
        """Counts a part of the request head; False once the head is over its bound."""
        self.header_bytes += size
        if self.header_bytes > self.limits.max_header_bytes:
            self.headers_too_large = True
        return not self.headers_too_large

    def on_headers_complete(self) -> None:
        if self.headers_too_large:
            return  # (answered 431 by data_received)
        self._stop_timer()
        self.timer = self.loop.call_later(self.limits.body_timeout, self._too_slow)
        super().on_headers_complete()
        if STOPPING.begun:  # the last answer on this connection: the client goes elsewhere
            self.cycle.keep_alive = False

    def on_body(self, body: bytes) -> None:
        if not self.headers_too_large:
            super().on_body(body)

    def on_message_complete(self) -> None:
        if self.headers_too_large:
            return
        self._stop_timer()
        if self.cycle.response_complete:  # answered early (a 413): now the next request
            self._await_headers()
        super().on_message_complete()

    def on_response_complete(self) -> None:
        queued = bool(self.pipeline)  # (a queued request's headers are in already)
        super().on_response_complete()
        if not queued and not self.transport.is_closing() and not self.cycle.more_body:
            self._await_headers()
        # (else the body timer runs on: the rest of the body is read and dropped in time)

    # -- stopping --------------------------------------------------------------------------------

    def shutdown(self) -> None:
        """uvicorn stops (it stopped accepting): an answer in flight ends with `Connection:
        close`; an idle connection stays open `DRAIN_IDLE_SECONDS` for a request already on
        its way, answered likewise, then closes."""
        STOPPING.begin()  # (the signal began it already, unless uvicorn was stopped otherwise)
        if self.cycle is not None and not self.cycle.response_complete:
            super().shutdown()
            return
        if self.transport.is_closing() or self.drain_timer is not None:
            return
        linger = min(DRAIN_IDLE_SECONDS, (self.config.timeout_graceful_shutdown or 2.0) / 2)
        self.drain_timer = self.loop.call_later(linger, self._drained)

    def _drained(self) -> None:
        self.drain_timer = None
        if self.cycle is None or self.cycle.response_complete:
            self.transport.close()
        # (else a request came meanwhile: its answer says `Connection: close`)

    def _stop_draining(self) -> None:
        if self.drain_timer is not None:
            self.drain_timer.cancel()
            self.drain_timer = None

    # -- timers ----------------------------------------------------------------------------------

    def _await_headers(self) -> None:
        """The next request's headers must be in within the header timeout."""
        self._stop_timer()
        self.timer = self.loop.call_later(self.limits.header_timeout, self._too_slow)

    def _too_slow(self) -> None:
        """A request's headers or body did not arrive in time: the connection is closed."""
        self.timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def _stop_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _close_with(self, status: bytes, body: bytes) -> None:
        self.transport.write(_answer(status, None, body))
        self.transport.close()
