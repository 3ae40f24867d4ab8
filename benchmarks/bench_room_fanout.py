"""Room streams fanning out: N watchers of one room, one change (a friend joins).

A server (uvicorn, one worker, SQLite, in a child process) serves one room; `--watchers`
clients open its event stream (`GET /api/rooms/{code}/events`) over loopback, spread over
source addresses 127.0.0.2, 127.0.0.3, ... (`--per-address` streams each, so that the
server's limits per client address leave them in). When every stream has the room, a friend
joins, and the benchmark measures:

- `reads`: how many times the server read the room for its streams to tell them of the join
  (`GameHub.room_events_since`, counted in the server process; one per change per worker is
  the aim, one per watcher was the old way);
- `reach_all_s`, `reach_p50_s`: from sending the join until the last watcher (the median
  watcher) received the new version;
- `join_answer_s`: the join's own answer;
- `server_cpu_s`: the server process's CPU time (user + system) from the join until every
  watcher heard it (the clients share the machine: their parsing is in the times above).

Prints one JSON object. Bounded: `--watchers` at most 5,000, 127.0.0.x only, a minute's wait
at most for anything. Run against an older tree with `PYTHONPATH=/that/tree/src`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

WAIT_SECONDS = 60.0
MAX_WATCHERS = 5000


def _raise_file_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def _serve(port: int, database: str, reads: Any, ready: Any) -> None:
    """The server process: the app with its room reads counted in `reads`."""
    import uvicorn

    from fivedice.service.games import GameService
    from fivedice.web import create_app
    from fivedice.web.hub import GameHub

    _raise_file_limit()
    original = GameHub.room_events_since

    def counted(self: GameHub, room_id: int, after: int | None) -> Any:
        with reads.get_lock():
            reads.value += 1
        return original(self, room_id, after)

    GameHub.room_events_since = counted  # type: ignore[method-assign]
    service = GameService.open(f"sqlite:///{database}")
    app = create_app(service, b"bench-room-fanout-secret-0123456789abcdef", cpu_delay_ms=0)
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", backlog=8192, lifespan="on"
    )
    server = uvicorn.Server(config)
    ready.set()
    server.run()


def _cpu_seconds(pid: int) -> float:
    """User + system time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def _wait_up(base: str) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    async with aiohttp.ClientSession() as client:
        while True:
            try:
                async with client.get(f"{base}/api/rooms/NOROOM") as answer:
                    if answer.status in (404, 422, 429):
                        return
            except aiohttp.ClientError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the server did not start")
            await asyncio.sleep(0.1)


async def _measure(
    base: str, watchers: int, per_address: int, reads: Any, server: int
) -> dict[str, Any]:
    timeout = aiohttp.ClientTimeout(total=None, sock_read=None)
    async with (
        aiohttp.ClientSession(timeout=timeout) as api,
        api.post(
            f"{base}/api/rooms",
            json={"players": [{"name": "Ann", "kind": "me"}, {"name": "Bob", "kind": "friend"}]},
        ) as made,
    ):
        room = await made.json()
    code, invitation = room["room"]["code"], room["invitations"][0]["invitation"]
    addresses = (watchers + per_address - 1) // per_address
    sessions = [
        aiohttp.ClientSession(
            timeout=timeout,
            connector=aiohttp.TCPConnector(limit=0, local_addr=(f"127.0.0.{2 + n}", 0)),
        )
        for n in range(addresses)
    ]
    opened = 0
    all_open = asyncio.Event()
    heard: list[float] = []

    async def watch(session: aiohttp.ClientSession) -> None:
        nonlocal opened
        async with session.get(f"{base}/api/rooms/{code}/events") as stream:
            if stream.status != 200:
                raise SystemExit(f"a stream was refused: {stream.status}")
            async for raw in stream.content:
                line = raw.decode().strip()
                if not line.startswith("data:"):
                    continue
                if json.loads(line[5:])["version"] == 0:
                    opened += 1
                    if opened == watchers:
                        all_open.set()
                    continue
                heard.append(time.monotonic())
                return

    try:
        tasks = []
        for number in range(watchers):
            tasks.append(asyncio.ensure_future(watch(sessions[number // per_address])))
            if number % 200 == 199:
                await asyncio.sleep(0.05)  # (connections opened in batches: the backlog)
        await asyncio.wait_for(all_open.wait(), WAIT_SECONDS)
        await asyncio.sleep(0.5)  # every first read done
        with reads.get_lock():
            reads.value = 0
        cpu_before = _cpu_seconds(server)
        async with aiohttp.ClientSession(timeout=timeout) as api:
            sent = time.monotonic()
            async with api.post(
                f"{base}/api/rooms/{code}/join", json={"invitation": invitation}
            ) as joined:
                if joined.status != 200:
                    raise SystemExit(f"the join failed: {joined.status} {await joined.text()}")
                answered = time.monotonic() - sent
        await asyncio.wait_for(asyncio.gather(*tasks), WAIT_SECONDS)
        cpu = _cpu_seconds(server) - cpu_before
        await asyncio.sleep(0.5)  # (a late read would still be counted)
        delays = sorted(moment - sent for moment in heard)
        return {
            "watchers": watchers,
            "source_addresses": addresses,
            "reads": reads.value,
            "reach_all_s": round(delays[-1], 3),
            "reach_p50_s": round(statistics.median(delays), 3),
            "join_answer_s": round(answered, 3),
            "server_cpu_s": round(cpu, 3),
        }
    finally:
        for session in sessions:
            await session.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--watchers", type=int, default=3000)
    parser.add_argument("--per-address", type=int, default=50)
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    watchers = max(1, min(options.watchers, MAX_WATCHERS))
    _raise_file_limit()
    context = multiprocessing.get_context("spawn")
    reads = context.Value("l", 0)
    results = []
    with tempfile.TemporaryDirectory() as folder:
        for run in range(options.runs):
            ready = context.Event()
            port = _free_port()
            database = str(Path(folder) / f"rooms{run}.sqlite3")
            server = context.Process(target=_serve, args=(port, database, reads, ready))
            server.start()
            try:
                ready.wait(WAIT_SECONDS)
                base = f"http://127.0.0.1:{port}"
                asyncio.run(_wait_up(base))
                measured = _measure(base, watchers, options.per_address, reads, server.pid)
                results.append(asyncio.run(measured))
            finally:
                server.terminate()
                server.join(10)
    print(
        json.dumps(
            {
                "benchmark": "room_fanout",
                "python": sys.version.split()[0],
                "runs": results,
                "reads_max": max(r["reads"] for r in results),
                "reach_all_s_median": statistics.median(r["reach_all_s"] for r in results),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
