"""The connection limits of the HTTP protocol `fivedice serve` runs (web/server.py), on fake
transports: caps per address and in all, the header and body timeouts, the header size bound,
a trusted proxy's connections, and the forwarded address the app's limits count."""

from __future__ import annotations

import asyncio

import pytest
import uvicorn
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware
from uvicorn.server import ServerState

from fivedice.web.limits import EdgeLimits, RequestLimits
from fivedice.web.server import is_trusted_proxy
from tests.web.protocol_helpers import connect


async def hello(scope, receive, send):
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"hi"})


@pytest.fixture
def server():
    config = uvicorn.Config(hello, proxy_headers=True, forwarded_allow_ips="10.0.0.1")
    config.load()
    return config, ServerState()


def run(coroutine):
    return asyncio.run(coroutine)


def test_one_address_gets_its_share_of_connections_and_the_excess_a_429(server):
    limits = EdgeLimits(connections_per_client=3, retry_after=9)

    async def scenario():
        mine = [connect(*server, "192.0.2.7", limits) for _ in range(4)]
        other = connect(*server, "192.0.2.8", limits)
        proxy = [connect(*server, "10.0.0.1", limits) for _ in range(5)]
        await asyncio.sleep(0)
        outcome = [t.written[:12] for t in mine], other.written, [t.closed for t in proxy]
        for transport in (*mine, other, *proxy):
            transport.close()
        await asyncio.sleep(0)
        return outcome, mine[3]

    (mine, other, proxy), refused = run(scenario())
    assert mine == [b"", b"", b"", b"HTTP/1.1 429"]
    assert b"retry-after: 9" in refused.written and refused.eof_written
    assert other == b"" and proxy == [False] * 5  # another address, a trusted proxy: served


def test_a_full_worker_answers_503_with_retry_after(server):
    limits = EdgeLimits(max_connections=2)

    async def scenario():
        held = [connect(*server, f"192.0.2.{n}", limits) for n in (1, 2, 3)]
        await asyncio.sleep(0)
        written = held[2].written
        for transport in held:
            transport.close()
        await asyncio.sleep(0)
        again = connect(*server, "192.0.2.4", limits)  # places freed: served again
        await asyncio.sleep(0)
        again.close()
        return written, again.written

    refused, again = run(scenario())
    assert refused.startswith(b"HTTP/1.1 503") and b"retry-after: 5" in refused
    assert again == b""


def test_headers_not_in_within_the_header_timeout_close_the_connection(server):
    limits = EdgeLimits(header_timeout=0.2)

    async def scenario():
        slow = connect(*server, "192.0.2.1", limits)
        slow.protocol.data_received(b"GET / HTTP/1.1\r\nHost: x\r\n")
        await asyncio.sleep(0.1)
        slow.protocol.data_received(b"X-A: 1\r\n")  # a byte now and then does not help
        early = slow.closed
        await asyncio.sleep(0.2)
        return early, slow.closed

    assert run(scenario()) == (False, True)


def test_a_request_in_time_is_served_and_the_next_gets_its_own_time(server):
    limits = EdgeLimits(header_timeout=0.2, keep_alive_timeout=60)

    async def scenario():
        quick = connect(*server, "192.0.2.1", limits)
        await asyncio.sleep(0.15)
        quick.protocol.data_received(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        await asyncio.sleep(0.15)  # past the first timeout: answered and still open
        served, open_after = quick.written, not quick.closed
        await asyncio.sleep(0.15)  # no next request: closed at the timeout
        return served, open_after, quick.closed

    served, open_after, closed = run(scenario())
    assert served.startswith(b"HTTP/1.1 200") and open_after and closed


def test_a_body_not_in_within_the_body_timeout_closes_the_connection(server):
    limits = EdgeLimits(body_timeout=0.2)

    async def scenario():
        slow = connect(*server, "192.0.2.1", limits)
        slow.protocol.data_received(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n1")
        await asyncio.sleep(0.35)
        return slow.closed

    assert run(scenario())


def test_headers_over_their_bound_are_a_431(server):
    limits = EdgeLimits(max_header_bytes=1000)

    async def scenario():
        big = connect(*server, "192.0.2.1", limits)
        big.protocol.data_received(b"GET / HTTP/1.1\r\nX-Big: " + b"a" * 2000 + b"\r\n\r\n")
        many = connect(*server, "192.0.2.1", EdgeLimits())
        many.protocol.data_received(b"GET / HTTP/1.1\r\n" + b"X-A: 1\r\n" * 101 + b"\r\n")
        await asyncio.sleep(0)
        return big.written, big.closed, many.written

    big, closed, many = run(scenario())
    assert big.startswith(b"HTTP/1.1 431") and closed and many.startswith(b"HTTP/1.1 431")


def test_only_the_listed_proxies_are_trusted():
    assert is_trusted_proxy("127.0.0.1", "127.0.0.1,::1")
    assert is_trusted_proxy("::1", "127.0.0.1,::1")
    assert not is_trusted_proxy("127.0.0.2", "127.0.0.1,::1")
    assert is_trusted_proxy("10.1.2.3", "10.0.0.0/8")
    assert is_trusted_proxy("203.0.113.9", "*")
    assert not is_trusted_proxy("not-an-address", "127.0.0.1")


def test_streams_are_counted_by_the_address_a_trusted_proxy_forwarded():
    """uvicorn's proxy headers rewrite the client only for trusted proxies: the streams of
    two people behind the proxy count apart, while a stranger's forwarded-for is ignored."""

    async def stream(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await asyncio.sleep(3600)

    app = ProxyHeadersMiddleware(
        RequestLimits(stream, EdgeLimits(streams_per_client=1)), "10.0.0.1"
    )

    def scope(peer: str, forwarded: str) -> dict:
        return {
            "type": "http",
            "method": "GET",
            "path": "/api/games/abc/events",
            "headers": [(b"x-forwarded-for", forwarded.encode())],
            "client": (peer, 1234),
        }

    async def status(request: dict) -> tuple[asyncio.Task[None], int]:
        sent = []

        async def send(message):
            sent.append(message)

        task = asyncio.create_task(app(request, asyncio.Event().wait, send))
        await asyncio.sleep(0.01)
        return task, sent[0]["status"]

    async def scenario():
        answers = [
            await status(scope("10.0.0.1", "198.51.100.1")),
            await status(scope("10.0.0.1", "198.51.100.2")),  # another person, same proxy
            await status(scope("10.0.0.1", "198.51.100.1")),  # the first one's second
            await status(scope("192.0.2.9", "198.51.100.3")),  # not a proxy: its own address
            await status(scope("192.0.2.9", "198.51.100.4")),  # ... claims to be another
        ]
        for task, _status in answers:
            task.cancel()
        return [code for _task, code in answers]

    assert run(scenario()) == [200, 200, 429, 200, 429]
