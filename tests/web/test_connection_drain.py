"""What a stopping worker's HTTP protocol (web/server.py) does with the connections it has,
on fake transports: an answer in flight is finished and says `Connection: close`; an idle
keep-alive connection stays open a moment, and a request that comes on it then is answered
(with `Connection: close`) rather than dropped; one that stays idle is closed."""

from __future__ import annotations

import asyncio

import pytest
import uvicorn
from uvicorn.server import ServerState

from fivedice.web.limits import EdgeLimits
from fivedice.web.stopping import STOPPING
from tests.web.protocol_helpers import connect

REQUEST = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"


async def slow_hello(scope, receive, send):
    await asyncio.sleep(0.1)  # (an answer in flight when the stop begins)
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"hi"})


@pytest.fixture
def server():
    config = uvicorn.Config(slow_hello, timeout_graceful_shutdown=1)
    config.load()
    yield config, ServerState()
    STOPPING.reset()


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_a_stopping_worker_answers_what_comes_and_then_closes(server):
    limits = EdgeLimits(keep_alive_timeout=60)

    async def scenario():
        busy = connect(*server, "192.0.2.1", limits)  # a request in flight
        idle = connect(*server, "192.0.2.2", limits)  # kept alive, a request on its way
        quiet = connect(*server, "192.0.2.3", limits)  # kept alive, nothing more comes
        for transport in (busy, idle, quiet):
            transport.protocol.data_received(REQUEST)
        await asyncio.sleep(0.15)  # (all three answered: keep-alive)
        answered = [t.written for t in (busy, idle, quiet)]
        busy.protocol.data_received(REQUEST)
        await asyncio.sleep(0.05)
        for transport in (busy, idle, quiet):  # what uvicorn does when asked to stop
            transport.protocol.shutdown()
        await asyncio.sleep(0.05)
        idle.protocol.data_received(REQUEST)  # arrives while the worker stops
        await asyncio.sleep(0.2)
        still_open = quiet.closed
        await asyncio.sleep(0.35)  # past DRAIN_IDLE_SECONDS (half the graceful timeout)
        return answered, busy, idle, quiet, still_open

    answered, busy, idle, quiet, quiet_closed_early = asyncio.run(scenario())
    assert all(a.startswith(b"HTTP/1.1 200") and b"connection: close" not in a for a in answered)
    for transport in (busy, idle):
        last = transport.written.rsplit(b"HTTP/1.1 ", 1)[1]
        assert last.startswith(b"200") and b"connection: close" in last.lower(), last
        assert transport.closed
    assert STOPPING.begun
    assert not quiet_closed_early and quiet.closed  # (open a moment, then closed)
    assert quiet.written.count(b"HTTP/1.1 ") == 1
