"""A stopping worker's event streams (`Live.drain`): each is told to reconnect elsewhere (an
SSE `retry:` and a `moving` event) before it ends, a stream opened while the worker stops is
told at once, the worker's /readyz says it is stopping, and a stream resumed with
Last-Event-ID sets the browser's delay back.

Read from a real uvicorn server in a thread (SQLite), as the live tests do; the drain is
asked in the server's event loop, as the stop signal asks it."""

from __future__ import annotations

import threading

import httpx
import pytest

from fivedice.web import create_app
from fivedice.web.live import MOVE_RETRY_MS
from fivedice.web.stopping import STOPPING
from tests.web.live_helpers import running, wait_until
from tests.web.support import SECRET


@pytest.fixture
def app(service):
    return create_app(service, SECRET, drive_cpus=False)


def _blocks(response: httpx.Response) -> list[list[str]]:
    """Every block of lines of a stream, to its end (heartbeats included)."""
    blocks: list[list[str]] = []
    block: list[str] = []
    for line in response.iter_lines():
        if line:
            block.append(line)
        elif block:
            blocks.append(block)
            block = []
    return blocks


def _stop(app) -> None:
    """What SIGTERM does to a worker (web/stopping.py), in the server's loop."""
    app.state.live._call_soon(STOPPING.begin)


def _retry(block: list[str]) -> int:
    assert block[0].startswith("retry: ") and block[1] == "event: moving", block
    assert block[2] == "data: " + block[0].removeprefix("retry: ")
    return int(block[0].removeprefix("retry: "))


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_a_stopping_worker_tells_each_stream_to_reconnect_and_is_not_ready(app):
    with running(app) as base:
        game = httpx.post(f"{base}/api/games", json={"players": [{"name": "Ann"}]}).json()
        url = f"{base}/api/games/{game['id']}/events"
        got: dict[int, list[list[str]]] = {}

        def read(number: int) -> None:
            with httpx.stream("GET", url, timeout=30) as response:
                got[number] = _blocks(response)

        readers = [threading.Thread(target=read, args=(n,), daemon=True) for n in range(5)]
        for reader in readers:
            reader.start()
        wait_until(lambda: len(app.state.live.streams) == 5, "five streams open")
        _stop(app)
        for reader in readers:
            reader.join(timeout=30)
        delays = set()
        for blocks in got.values():
            assert [line for line in blocks[0] if line.startswith("id: ")] == ["id: 0"]
            delays.add(_retry(blocks[-1]))  # the last thing each stream said
            assert len(blocks) == 2
        low, high = MOVE_RETRY_MS
        assert all(low <= delay <= high for delay in delays) and len(delays) > 1
        # A stream opened now is told at once, with nothing else (its client goes
        # elsewhere and resumes from its Last-Event-ID there).
        with httpx.stream("GET", url, headers={"Last-Event-ID": "0"}, timeout=30) as response:
            assert response.status_code == 200
            late = _blocks(response)
        assert late[0] == ["retry: 2000"] and len(late) == 2
        _retry(late[1])
        assert app.state.live.streams == set()
        # The balancer's probe hears it is stopping (web/health.py).
        ready = httpx.get(f"{base}/readyz")
        assert ready.status_code == 503 and "stopping" in ready.text
    assert not STOPPING.begun  # (the app's end forgets it: a later server is not stopping)


def test_a_resumed_stream_sets_the_delay_back_and_a_new_one_does_not(app):
    with running(app) as base:
        game = httpx.post(f"{base}/api/games", json={"players": [{"name": "Ann"}]}).json()
        url = f"{base}/api/games/{game['id']}/events"
        for headers, first in (({"Last-Event-ID": "0"}, ["retry: 2000"]), ({}, None)):
            with httpx.stream("GET", url, headers=headers, timeout=30) as response:
                lines = response.iter_lines()
                block = []
                for line in lines:
                    if not line:
                        break
                    block.append(line)
            if first is None:
                assert block[0] == "id: 0" and not any(b.startswith("retry") for b in block)
            else:
                assert block == first


def test_a_stream_subscribed_but_not_yet_sending_is_moved_too(service):
    from fivedice.store.notices import Topic
    from fivedice.web.live import Live

    live = Live(service.store)
    early = live.subscribe((Topic.GAME, 1))  # (its first batch still being read)
    sending = live.subscribe((Topic.GAME, 2))
    live.stream_opened(sending)
    live.drain()
    for sub in (early, sending):
        assert sub.closed and sub.retry_ms is not None
    late = live.subscribe((Topic.ROOM, 3))
    assert late.closed and late.retry_ms is not None
    live.stream_closed(sending)
