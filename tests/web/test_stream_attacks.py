"""Many addresses cannot hold every place of a worker with event streams, and idle streams end:
attacks on a real `fivedice serve` (SQLite, one worker, 40 connections) from loopback
addresses only (Linux routes all of 127/8 to loopback: 127.0.N.x are five /24 networks).

Before the caps per network and on all streams, 20 addresses within their own caps held every
connection of the worker and a player asking for their game got 503s.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

import httpx
import pytest

from tests.web.test_attacks import Player, serving

pytestmark = pytest.mark.processes

PREFIXES = 5
ADDRESSES = 4  # per prefix
STREAMS = 4  # per address (within the 20 each address may hold)


def test_prefixes_are_ipv4_slash_24_and_ipv6_slash_64():
    from fivedice.web.limits import client_prefix

    assert client_prefix("127.0.5.9") == client_prefix("127.0.5.200") != client_prefix("127.0.6.9")
    assert client_prefix("2001:db8::1") == client_prefix("2001:db8::ffff:1") == "2001:db8::/64"
    assert client_prefix("2001:db8:0:1::1") != client_prefix("2001:db8::1")
    assert client_prefix("::ffff:10.1.2.3") == "10.1.2.0/24"


def new_game(base: str) -> str:
    made = httpx.post(f"{base}/api/games", json={"players": [{"name": "Ann"}]}, timeout=30)
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


async def stream(port: int, game: str, source: str, hold: float) -> str:
    """Opens an event stream of `game` from `source`: its status, "closed" when it ended
    before `hold` seconds, or "reset"."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    except OSError:
        return "reset"
    try:
        writer.write(f"GET /api/games/{game}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        started = time.monotonic()
        head = await asyncio.wait_for(reader.read(100), hold)
        status = head[9:12].decode() if head.startswith(b"HTTP/") else "closed"
        while status == "200" and time.monotonic() - started < hold:
            with contextlib.suppress(TimeoutError):
                data = await asyncio.wait_for(reader.read(1000), 0.5)
                if not data or data.endswith(b"0\r\n\r\n"):  # (closed, or its last chunk)
                    return "closed"
        return status
    except (OSError, TimeoutError):
        return "reset"
    finally:
        writer.close()


def test_many_networks_of_streams_leave_a_player_served(tmp_path, monkeypatch):
    monkeypatch.setenv("FIVEDICE_STREAMS_PER_PREFIX", "6")
    with serving(f"sqlite:///{tmp_path / 's.sqlite3'}", tmp_path, "--max-connections", "40") as (
        port,
        _process,
    ):
        game = new_game(f"http://127.0.0.1:{port}")

        async def attack() -> tuple[list[str], list[float | str]]:
            sources = [f"127.0.{5 + p}.{1 + a}" for p in range(PREFIXES) for a in range(ADDRESSES)]
            floods = [
                asyncio.create_task(stream(port, game, source, 6.0))
                for source in sources
                for _ in range(STREAMS)
            ]
            await asyncio.sleep(2.0)  # every stream is open (or refused) by now
            player = Player(port, game)
            asking = asyncio.create_task(player.play())
            await asyncio.sleep(2.6)
            asking.cancel()
            await player.stop()
            return await asyncio.gather(*floods), player.answers

        held, answers = asyncio.run(attack())
    assert answers and all(isinstance(answer, float) for answer in answers), answers
    assert held.count("200") < PREFIXES * ADDRESSES * STREAMS  # (the caps refused some)
    assert "429" in held


def test_an_idle_stream_ends(tmp_path, monkeypatch):
    monkeypatch.setenv("FIVEDICE_STREAM_IDLE_TIMEOUT", "2")
    with serving(f"sqlite:///{tmp_path / 'i.sqlite3'}", tmp_path) as (port, _process):
        game = new_game(f"http://127.0.0.1:{port}")
        outcome = asyncio.run(stream(port, game, "127.0.0.1", 20.0))
    assert outcome == "closed"
