"""One client against everyone: the attacks of the public edge, on a real `fivedice serve`.

Starts the server (SQLite, one worker; or PostgreSQL with `--postgres` and `--workers N`)
with the common 1,024-file limit, then, from 127.0.0.2 (Linux routes all of 127/8 to
loopback), runs each attack while a player at 127.0.0.1 asks for the game every 0.5 s on a
new connection; prints JSON: per attack what the attacker got and the player's median and
worst latency, plus the big-body, deep-JSON and huge-header answers and the server's memory
(all its processes).

    .venv/bin/python benchmarks/attacks.py [--src DIR] [--old] [--header-timeout S] [--hold S]
        [--scenarios edge,sheets] [--sheet-seconds S] [--postgres] [--workers N]

Scenarios: `edge` (half-sent requests, event streams, slowloris, big bodies, deep JSON, a
huge header) and `sheets` (the attacker asks for 60-column Maxi Yatzy `/sheet.pdf`s, 8 at a
time, each with other names so that no cache helps, batch after batch for `--sheet-seconds`:
what it got, the server's CPU, the player's latency).

`--src` runs the server from another checkout's `src` (e.g. an export of the commit before
the limits) and `--old` leaves out the options it does not know. `--postgres` uses
`$FIVEDICE_TEST_POSTGRES_URL` (run under `scripts/with-postgres.sh`); every limit is per
worker, so with `--workers 2` one address may hold twice the connections and streams.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ATTACKER = "127.0.0.2"
PLAYER = "127.0.0.1"
FILE_LIMIT = 1024


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(src: Path, port: int, db: str, options: list[str]) -> subprocess.Popen[bytes]:
    def limit_files() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (FILE_LIMIT, FILE_LIMIT))

    env = {**os.environ, "PYTHONPATH": str(src), "FIVEDICE_SECRET": "attacks-benchmark-secret"}
    command = [sys.executable, "-m", "fivedice.cli", "serve", "--host", "0.0.0.0"]
    command += ["--port", str(port), "--db", db, *options]
    return subprocess.Popen(
        command,
        env=env,
        preexec_fn=limit_files,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def processes(pid: int) -> list[int]:
    """`pid` and its descendants (the workers and uvicorn's helpers)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        found.append(todo.pop())
        todo.extend(children.get(found[-1], []))
    return found


def rss_mb(pid: int) -> float:
    """The resident memory of the server's processes, in MB."""
    total = 0.0
    for each in processes(pid):
        try:
            for line in Path(f"/proc/{each}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) / 1024
        except OSError:
            continue
    return total


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds the server's processes have used so far."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for each in processes(pid):
        try:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


async def exchange(
    port: int, request: bytes, *, source: str = PLAYER, timeout: float = 60.0
) -> tuple[int, int, float]:
    """Sends one request on a new connection; (status, answer bytes, seconds)."""
    started = time.monotonic()
    reader, writer = await asyncio.wait_for(
        asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0)), timeout
    )
    try:
        writer.write(request)
        answer = await asyncio.wait_for(read_answer(reader), timeout)
    finally:
        writer.close()
    status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/") else 0
    return status, len(answer), time.monotonic() - started


async def read_answer(reader: asyncio.StreamReader) -> bytes:
    """One whole answer: its head, then Content-Length bytes (else up to the end)."""
    head = await reader.readuntil(b"\r\n\r\n")
    for line in head.split(b"\r\n"):
        name, _sep, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return head + await reader.readexactly(int(value))
    return head + await reader.read()


def get(path: str, extra: bytes = b"") -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n".encode() + extra + b"\r\n"


def post(path: str, body: bytes) -> bytes:
    head = f"POST {path} HTTP/1.1\r\nHost: x\r\n"
    head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    return head.encode() + body


class Player:
    """Asks for the game every 0.5 s from 127.0.0.1, each time on a new connection."""

    def __init__(self, port: int, game: str) -> None:
        self.port, self.game = port, game
        self.latencies: list[tuple[float, float]] = []  # (when asked, seconds; inf: failed)
        self.task: asyncio.Task[None] | None = None

    async def _ask(self) -> None:
        asked = time.monotonic()
        try:
            status, _size, seconds = await exchange(self.port, get(f"/api/games/{self.game}"))
            self.latencies.append((asked, seconds if status == 200 else float("inf")))
        except (OSError, TimeoutError, asyncio.IncompleteReadError):
            self.latencies.append((asked, float("inf")))

    async def _run(self) -> None:
        asks = set()
        while True:
            task = asyncio.create_task(self._ask())
            asks.add(task)
            task.add_done_callback(asks.discard)
            await asyncio.sleep(0.5)

    def start(self) -> None:
        self.task = asyncio.create_task(self._run())

    def during(self, start: float, end: float) -> dict[str, Any]:
        seconds = [s for asked, s in self.latencies if start <= asked <= end]
        finite = [s for s in seconds if s != float("inf")]
        return {
            "asks": len(seconds),
            "failed": len(seconds) - len(finite),
            "worst_s": round(max(seconds), 3) if seconds else None,
            "median_s": round(statistics.median(finite), 4) if finite else None,
        }


async def hold_connection(port: int, request: bytes, hold: float, drip: bool = False) -> str:
    """One attacking connection: sends `request` (one byte a second when `drip`) and keeps
    it open for `hold` s; what came of it ("open", "closed after N s", a status, "reset")."""
    started = time.monotonic()
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection("127.0.0.1", port, local_addr=(ATTACKER, 0)), hold
        )
    except (OSError, TimeoutError):
        return "connect failed"
    try:
        if drip:
            for byte in request:
                writer.write(bytes([byte]))
                try:
                    data = await asyncio.wait_for(reader.read(200), 1.0)
                except TimeoutError:
                    if time.monotonic() - started > hold:
                        return "open"
                    continue
                return _outcome(data, started)
            return "sent whole"
        writer.write(request)
        deadline = started + hold
        data = await asyncio.wait_for(reader.read(200), max(0.1, deadline - time.monotonic()))
        if data.startswith(b"HTTP/1.1 200"):
            try:  # a stream: is it kept open?
                more = await asyncio.wait_for(reader.read(), max(0.1, deadline - time.monotonic()))
            except TimeoutError:
                return "200 open"
            return "200 then " + _outcome(more, started)
        return _outcome(data, started)
    except TimeoutError:
        return "open"
    except OSError:
        return "reset"
    finally:
        writer.close()


def _outcome(data: bytes, started: float) -> str:
    if data.startswith(b"HTTP/"):
        return data.split(b" ", 2)[1].decode()
    return f"closed after {round(time.monotonic() - started)} s" if not data else "data"


def tally(outcomes: list[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for outcome in outcomes:
        counts[outcome] = counts.get(outcome, 0) + 1
    return dict(sorted(counts.items(), key=lambda item: -item[1]))


async def main(args: argparse.Namespace) -> dict[str, Any]:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    port = free_port()
    options = [] if args.old else ["--header-timeout", str(args.header_timeout)]
    if args.workers > 1:
        options += ["--workers", str(args.workers)]
    with tempfile.TemporaryDirectory() as folder:
        db = f"sqlite:///{Path(folder) / 'attacks.sqlite3'}"
        if args.postgres:
            db = os.environ.get("FIVEDICE_TEST_POSTGRES_URL", "")
            if not db:
                raise SystemExit("--postgres: run under scripts/with-postgres.sh")
        server = start_server(Path(args.src), port, db, options)
        try:
            return await attack(server, port, args)
        finally:
            server.terminate()
            try:
                server.wait(20)
            except subprocess.TimeoutExpired:
                server.kill()


async def attack(server: subprocess.Popen[bytes], port: int, args: argparse.Namespace) -> Any:
    deadline = time.monotonic() + 60
    while True:
        try:
            body = json.dumps({"players": [{"name": "Ann"}]}).encode()
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(post("/api/games", body))
            answer = await read_answer(reader)
            writer.close()
            game = json.loads(answer.split(b"\r\n\r\n", 1)[1])["id"]
            break
        except (OSError, ValueError, IndexError, asyncio.IncompleteReadError):
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit("the server did not start") from None
            await asyncio.sleep(0.3)
    database = "postgresql" if args.postgres else "sqlite"
    results: dict[str, Any] = {"server": f"{database}, {args.workers} worker(s)"}
    results["rss_mb_start"] = round(rss_mb(server.pid), 1)
    player = Player(port, game)
    player.start()
    await asyncio.sleep(1.5)
    results["quiet"] = player.during(0, time.monotonic())
    if "sheets" in args.scenarios:
        results["sheets_8_at_once"] = await sheets(server, port, player, args.sheet_seconds)
        await asyncio.sleep(1.0)
        results["quiet_after_sheets"] = player.during(time.monotonic() - 1.0, time.monotonic())
    if "edge" in args.scenarios:
        await edge(server, port, game, player, results, args)
    results["rss_mb_end"] = round(rss_mb(server.pid), 1)
    if player.task is not None:
        player.task.cancel()
    return results


async def sheets(
    server: subprocess.Popen[bytes], port: int, player: Player, seconds: float
) -> dict[str, Any]:
    """The attacker asks for 60-column Maxi Yatzy PDFs, 8 at once with names never asked
    before (so none is cached), batch after batch for `seconds`; what it got, the server's
    CPU, the player's latency meanwhile."""
    start, cpu_before = time.monotonic(), cpu_seconds(server.pid)
    outcomes: list[str] = []
    batches: list[float] = []
    asked = 0
    last_rendered = start

    async def one(number: int) -> str:
        nonlocal last_rendered
        path = f"/sheet.pdf?preset=maxi-yatzy&columns=60&players=Attacker+{number}"
        try:
            status, size, _seconds = await exchange(port, get(path), source=ATTACKER, timeout=120)
        except (OSError, TimeoutError, asyncio.IncompleteReadError) as error:
            return type(error).__name__
        if status == 200:
            last_rendered = time.monotonic()
        return f"{status}" if status != 200 or size > 1000 else "200 (small)"

    while time.monotonic() - start < seconds:
        began = time.monotonic()
        outcomes += await asyncio.gather(*(one(asked + n) for n in range(8)))
        asked += 8
        batches.append(time.monotonic() - began)
    end = time.monotonic()
    rendered = outcomes.count("200")
    cpu = cpu_seconds(server.pid) - cpu_before
    return {
        "asked": asked,
        "attacker": tally(outcomes),
        "seconds": round(end - start, 1),
        "batch_seconds_median": round(statistics.median(batches), 2),
        "server_cpu_s": round(cpu, 1),
        "server_cpu_s_per_rendered_sheet": round(cpu / rendered, 2) if rendered else None,
        "rendering_seconds": round(last_rendered - start, 1),
        "player_while_rendering": player.during(start, last_rendered),
        "player": player.during(start, end),
    }


async def edge(
    server: subprocess.Popen[bytes],
    port: int,
    game: str,
    player: Player,
    results: dict[str, Any],
    args: argparse.Namespace,
) -> None:
    """Floods of connections, streams and slowloris; big bodies, deep JSON, a huge header."""

    async def phase(name: str, request: bytes, count: int, drip: bool = False) -> None:
        start = time.monotonic()
        outcomes = await asyncio.gather(
            *(hold_connection(port, request, args.hold, drip) for _ in range(count))
        )
        results[name] = {"attacker": tally(list(outcomes))}
        results[name]["player"] = player.during(start, time.monotonic())
        await asyncio.sleep(1.0)

    half = f"GET /api/games/{game} HTTP/1.1\r\nHost: x\r\nX-Waiting: ".encode()
    await phase("half_sent_requests", half, args.count)
    await phase("event_streams", get(f"/api/games/{game}/events"), args.count)
    slow = get(f"/api/games/{game}", b"X-Slow: " + b"a" * 200 + b"\r\n")
    await phase("slowloris", slow, args.slowloris, drip=True)

    start = time.monotonic()
    big = b'{"players": [{"name": "' + b"x" * (20 * 1024 * 1024) + b'"}]}'
    status, size, seconds = await exchange(port, post("/api/games", big))
    results["body_20mb"] = {"status": status, "answer_bytes": size, "seconds": round(seconds, 3)}
    results["body_20mb"]["rss_mb_after"] = round(rss_mb(server.pid), 1)

    async def big_one() -> Any:
        try:
            return (await exchange(port, post("/api/games", big), source=ATTACKER))[:2]
        except (OSError, asyncio.IncompleteReadError) as error:
            return type(error).__name__

    start = time.monotonic()
    eight = await asyncio.gather(*(big_one() for _ in range(8)))
    results["bodies_20mb_8_at_once"] = {
        "answers": [str(answer) for answer in eight],
        "rss_mb_after": round(rss_mb(server.pid), 1),
        "player": player.during(start, time.monotonic()),
    }
    deep = b'{"version": 0, "action": ' + b"[" * 3000 + b"]" * 3000 + b"}"
    routes = {"deep_json_actions": f"/api/games/{game}/actions", "deep_json_games": "/api/games"}
    for name, path in routes.items():
        try:
            status, size, seconds = await exchange(port, post(path, deep))
            results[name] = {"status": status, "answer_bytes": size}
        except (OSError, TimeoutError, asyncio.IncompleteReadError) as error:
            results[name] = {"error": type(error).__name__}
    huge = b"Last-Event-ID: " + b"7" * (10 * 1024 * 1024) + b"\r\n"
    try:
        request = get(f"/api/games/{game}/events", huge)
        status, size, seconds = await exchange(port, request, timeout=10)
        results["last_event_id_10mb"] = {"status": status, "answer_bytes": size}
    except (OSError, TimeoutError, asyncio.IncompleteReadError) as error:
        results["last_event_id_10mb"] = {"error": type(error).__name__}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--src", default=str(Path(__file__).resolve().parent.parent / "src"))
    parser.add_argument("--old", action="store_true", help="the server knows no limit options")
    parser.add_argument("--header-timeout", type=float, default=10.0)
    parser.add_argument("--hold", type=float, default=15.0, help="seconds each attack lasts")
    parser.add_argument("--count", type=int, default=1100)
    parser.add_argument("--slowloris", type=int, default=150)
    parser.add_argument("--scenarios", default="edge,sheets", help="edge, sheets or both")
    parser.add_argument("--sheet-seconds", type=float, default=20.0)
    parser.add_argument("--postgres", action="store_true", help="$FIVEDICE_TEST_POSTGRES_URL")
    parser.add_argument("--workers", type=int, default=1)
    print(json.dumps(asyncio.run(main(parser.parse_args())), indent=2))
