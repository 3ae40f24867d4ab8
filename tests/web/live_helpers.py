"""Helpers of the live tests: a real uvicorn server in a thread, and an SSE reader."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator

import httpx
import uvicorn

from tests.support.network import free_port

WAIT_SECONDS = 60  # generous: only a hang gets near it (no timing is asserted)


@contextlib.contextmanager
def running(app) -> Iterator[str]:
    """Serves `app` on a free loopback port in a thread; yields its base URL."""
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT_SECONDS
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def events(response: httpx.Response) -> Iterator[dict[str, str]]:
    """The events of an open text/event-stream response (comment lines skipped)."""
    event: dict[str, str] = {}
    for line in response.iter_lines():
        if not line:
            if "data" in event:
                yield event
            event = {}
            continue
        if line.startswith(":"):
            continue
        field, _sep, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        event[field] = event[field] + "\n" + value if field in event else value


def take(stream: Iterator[dict[str, str]], count: int) -> list[dict[str, str]]:
    return [next(stream) for _ in range(count)]


def data(event: dict[str, str]) -> dict:
    return json.loads(event["data"])


def wait_until(predicate, what: str):
    """Calls `predicate` until it returns something true; fails after WAIT_SECONDS."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        result = predicate()
        if result:
            return result
        assert time.monotonic() < deadline, f"waited in vain for {what}"
        time.sleep(0.05)
