"""Live rooms over loopback: `bench_web.py --live`.

Each room has two remote humans (Ann, the host, and Bob, who joins by invitation) and one
casual CPU played by the server. Both humans subscribe to the game's event stream
(`GET /api/games/{id}/events`) and play from what it pushes: when the stream (or the answer
to their own last action) shows it is their turn they act over HTTP (roll, hold 1 2, roll,
score the best box). Two scenarios run per database:

- **throughput**: `--busy-rooms` rooms, nobody waits (no thinking time, CPUs at 0 ms pace):
  the actions per second the server sustains, and its CPU time per action;
- **latency**: `--rooms` live rooms (default 200) at a human pace (each human thinks
  `--think-ms` on average before each action, exponentially distributed; CPUs at the server's
  pace `--cpu-delay-ms`): action latency and push latency under that load.

Databases: SQLite with one worker, and PostgreSQL with two workers (the server of
$FIVEDICE_TEST_POSTGRES_URL; without it the benchmark re-runs itself under
scripts/with-postgres.sh, which starts a throwaway cluster; `--no-postgres` skips it).

Figures, per scenario: action latency p50/p99 (request sent → answer read), push latency
p50/p99 (action accepted by the server, i.e. its answer read by the actor → the same version
received on the other human's stream; 0 when the push arrived first), actions per second (all
saved actions: humans' over HTTP plus the server's CPU steps), server CPU milliseconds per
action (user + system time of the uvicorn processes, from /proc/<pid>/stat; the database
server's separately when it can be found), and the machine's load average before and after.
Bounded: `--seconds` of measurement per scenario, `--rooms` ≤ 400; 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import httpx
from bench_web import POSTGRES_ENV, free_port, postgres_database

HERE = Path(__file__).resolve().parent
TICKS = os.sysconf("SC_CLK_TCK")
try:  # the clients parse every event; orjson (if installed) takes less of the shared CPU
    from orjson import loads
except ImportError:
    from json import loads
NO_TIMEOUT = aiohttp.ClientTimeout(total=None, sock_read=None)
WARMUP_SECONDS = 3.0  # played before each measurement
MATCH_LENGTH = 20  # games per room: a room never runs out of moves while it is measured


# -- the server and its CPU time ------------------------------------------------------------


def _descendants(pid: int) -> list[int]:
    """`pid` and every process below it (uvicorn's supervisor and its workers)."""
    found = [pid]
    for current in found:
        try:
            tasks = os.listdir(f"/proc/{current}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                children = Path(f"/proc/{current}/task/{task}/children").read_text().split()
            except OSError:
                continue
            found.extend(int(child) for child in children if int(child) not in found)
    return found


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds of these processes (those that ended count no more)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14, 15)
    return total / TICKS


def load_average() -> list[float]:
    return [round(value, 2) for value in os.getloadavg()]


@contextmanager
def live_server(
    url: str, workers: int, cpu_delay_ms: int, start_seconds: float = 60
) -> Iterator[tuple[str, int]]:
    """`fivedice serve` on a free loopback port: (base URL, supervisor pid); it has
    `start_seconds` to answer."""
    from fivedice.service.games import GameService

    GameService.open(url).store.close()  # migrate once, before the workers start
    port = free_port()
    env = {
        **os.environ,
        "FIVEDICE_DATABASE_URL": url,
        "FIVEDICE_SECRET": uuid.uuid4().hex,
        "FIVEDICE_CPU_DELAY_MS": str(cpu_delay_ms),
        "FIVEDICE_CPU_SCAN_SECONDS": "5",
        "FIVEDICE_STREAMS_PER_CLIENT": "100000",  # every simulated player is at 127.0.0.1
    }
    command = [
        sys.executable, "-m", "fivedice.cli", "serve", "--host", "127.0.0.1",
        "--port", str(port), "--workers", str(workers), "--db", url,
    ]  # fmt: skip
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + start_seconds
        while True:
            try:
                if httpx.get(base + "/openapi.json", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError("the server did not start")
            time.sleep(0.2)
        yield base, process.pid
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def postgres_pids(url: str) -> list[int]:
    """The PostgreSQL server's main process, when this user may see it (else none); its
    children (one per connection) are listed when a measurement starts."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            directory = connection.execute(text("SHOW data_directory")).scalar_one()
        return [int(Path(directory, "postmaster.pid").read_text().split()[0])]
    except Exception:
        return []
    finally:
        engine.dispose()


# -- the clients ------------------------------------------------------------------------------


@dataclass
class Seat:
    name: str
    token: str = ""
    seat: int = -1
    game: dict[str, Any] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    arrivals: dict[int, float] = field(default_factory=dict)

    def see(self, game: dict[str, Any]) -> None:
        if not self.game or game["version"] > self.game["version"]:
            self.game = game
            self.changed.set()


@dataclass
class Figures:
    action_ms: list[float] = field(default_factory=list)
    push_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    start_versions: int = 0
    end_versions: int = 0
    rooms_ready: int = 0
    rooms_made: int = 0  # rooms played in all (a room whose match ended gets a successor)
    client_cpu_seconds: float = 0.0


def next_action(game: dict[str, Any]) -> str:
    if game["rolls_used"] == 0:
        return "roll"
    if game["rolls_used"] == 1 and not any(game["held"]):
        return "hold 1 2"
    if game["rolls_used"] == 1:
        return "roll"
    best = max(game["placements"], key=lambda placement: placement["points"])
    return f"score {best['box']}"


async def stream(client: aiohttp.ClientSession, game_id: str, seat: Seat, figures: Figures) -> None:
    """Follows the game's event stream: every version's arrival time, the newest game.
    A dropped stream reconnects with `Last-Event-ID`, as a browser does (counted as an error)."""
    while True:
        headers = {"Last-Event-ID": str(seat.game["version"])} if seat.game else {}
        try:
            async with client.get(
                f"/api/games/{game_id}/events", headers=headers, timeout=NO_TIMEOUT
            ) as answer:
                version = None
                async for raw in answer.content:
                    if raw.startswith(b"id:"):
                        version = int(raw[3:])
                    elif raw.startswith(b"data:") and version is not None:
                        seat.arrivals.setdefault(version, time.monotonic())
                        seat.see(loads(raw[5:]))
        except (aiohttp.ClientError, TimeoutError) as error:
            figures.errors.append(f"stream: {error!r}"[:100])
            await asyncio.sleep(0.2)


@dataclass
class Measuring:
    """What every player of a client shares: the pace, the measured window (monotonic
    start, end), and where the figures go."""

    think_s: float
    measured: float
    deadline: float
    figures: Figures
    accepted: list[tuple[int, float, Seat]] = field(default_factory=list)


async def play(
    client: aiohttp.ClientSession, game_id: str, me: Seat, other: Seat, run: Measuring
) -> None:
    """One human: acts whenever it is their turn, until the game ends or the time is up;
    the actions sent within the measured window are measured."""
    measured, deadline, figures, think_s = run.measured, run.deadline, run.figures, run.think_s
    rng = random.Random(me.token)
    url = f"/api/games/{game_id}/actions"
    headers = {"Authorization": f"Bearer {me.token}", "Content-Type": "application/json"}
    while time.monotonic() < deadline:
        game = me.game
        if game.get("status") != "in_progress":
            return
        if game["current_seat"] != me.seat:
            me.changed.clear()
            if me.game is game:
                await me.changed.wait()
            continue
        if think_s:
            await asyncio.sleep(rng.expovariate(1 / think_s))
        body = json.dumps({"action": next_action(game), "version": game["version"]})
        started = time.monotonic()
        try:
            async with client.post(url, data=body, headers=headers) as answer:
                status, text = answer.status, await answer.read()
        except (aiohttp.ClientError, TimeoutError) as error:
            figures.errors.append(f"action: {error!r}"[:100])
            await asyncio.sleep(0.2)
            continue
        done = time.monotonic()
        if status != 200:
            figures.errors.append(f"{status} {text[:100]!r}")
            await asyncio.sleep(0.05)
            continue
        after = loads(text)
        if measured <= started and done < deadline:
            figures.action_ms.append(1000 * (done - started))
            run.accepted.append((after["version"], done, other))
        me.see(after)


async def _json(answer: aiohttp.ClientResponse) -> Any:
    if answer.status >= 400:
        raise RuntimeError(f"{answer.status} {(await answer.text())[:200]}")
    return loads(await answer.read())


async def set_up_room(client: aiohttp.ClientSession, number: int) -> tuple[str, Seat, Seat]:
    """`_set_up_room`, tried again (a few times) when the connection fails."""
    for attempt in range(3):
        try:
            return await _set_up_room(client, number)
        except aiohttp.ClientConnectionError:
            if attempt == 2:
                raise
            await asyncio.sleep(0.5)
    raise AssertionError("unreachable")


async def _set_up_room(client: aiohttp.ClientSession, number: int) -> tuple[str, Seat, Seat]:
    """A room of Ann (host), Bob (joins by invitation) and a casual CPU, started."""
    async with client.post(
        "/api/rooms",
        json={
            "players": [
                {"name": "Ann", "kind": "me"},
                {"name": "Bob", "kind": "friend"},
                {"name": "Cora", "kind": "cpu", "level": "casual"},
            ],
            "seed": number,
            "match_length": MATCH_LENGTH,
        },
    ) as made:
        room = await _json(made)
    code, host_key = room["room"]["code"], room["host_key"]
    invitation = room["invitations"][0]["invitation"]
    async with client.post(f"/api/rooms/{code}/join", json={"invitation": invitation}) as joined:
        claimed = await _json(joined)
        room_version, device_key = claimed["room"]["version"], claimed["device_key"]
    async with client.post(
        f"/api/rooms/{code}/start",
        json={"version": room_version},
        headers={"Authorization": f"Bearer {host_key}"},
    ) as started:
        body = await _json(started)
    ann = Seat("Ann", body["tokens"][0]["token"], body["tokens"][0]["seat"])
    async with client.get(
        f"/api/rooms/{code}/seat", headers={"Authorization": f"Bearer {device_key}"}
    ) as bobs:
        token = (await _json(bobs))["tokens"][0]
    bob = Seat("Bob", token["token"], token["seat"])
    return body["room"]["game"], ann, bob


def _cpu_now() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@dataclass
class Slot:
    """One of a client's rooms. A room whose match ends is replaced by a new one in the same
    slot (a fast server finishes a 20-game match in seconds when few rooms share it), so the
    slot never runs out of moves; its actions are counted across the rooms it held."""

    number: int
    game_id: str
    ann: Seat
    bob: Seat
    streams: list[asyncio.Task[None]] = field(default_factory=list)
    earlier: int = 0  # actions of the rooms this slot held before the current one
    rooms_made: int = 1

    def actions(self) -> int:
        return self.earlier + max(self.ann.game["version"], self.bob.game["version"])


async def _open_slot(
    client: aiohttp.ClientSession, number: int, figures: Figures, earlier: int = 0
) -> Slot:
    """A new room, both humans streaming and their first game received."""
    game_id, ann, bob = await set_up_room(client, number)
    slot = Slot(number, game_id, ann, bob, earlier=earlier)
    slot.streams = [
        asyncio.create_task(stream(client, game_id, seat, figures)) for seat in (ann, bob)
    ]
    while not (ann.game and bob.game):
        await asyncio.sleep(0.01)
    # The new room's first version is where its count starts.
    slot.earlier -= max(ann.game["version"], bob.game["version"])
    return slot


async def run_slot(
    client: aiohttp.ClientSession, slots: list[Slot], index: int, run: Measuring
) -> None:
    """Plays the slot's room until the time is up, a new room whenever a match ends."""
    deadline, figures = run.deadline, run.figures
    while time.monotonic() < deadline:
        slot = slots[index]
        await asyncio.gather(
            play(client, slot.game_id, slot.ann, slot.bob, run),
            play(client, slot.game_id, slot.bob, slot.ann, run),
        )
        if time.monotonic() >= deadline:
            return
        number = slot.number + 100_000 * slot.rooms_made  # (a seed no other room has)
        fresh = await _open_slot(client, number, figures, earlier=slot.actions())
        fresh.number, fresh.rooms_made = slot.number, slot.rooms_made + 1
        fresh.streams += slot.streams  # (the old room's streams are cancelled at the end)
        slots[index] = fresh


async def client_main(
    base: str, rooms: range, think_s: float, go_at: Any, seconds: float, ready: Any
) -> dict[str, Any]:
    figures = Figures()
    # One connection per request in flight (keep-alive), none shared by two at once: the
    # streams each hold one, the actions reuse theirs.
    connector = aiohttp.TCPConnector(limit=0, force_close=False)
    async with aiohttp.ClientSession(
        base_url=base, connector=connector, timeout=aiohttp.ClientTimeout(total=60)
    ) as client:
        setting_up = asyncio.Semaphore(8)  # rooms are made a few at a time, not all at once

        async def one_room(number: int) -> Slot:
            async with setting_up:
                return await _open_slot(client, number, figures)

        slots = list(await asyncio.gather(*(one_room(n) for n in rooms)))
        figures.rooms_ready = len(slots)
        ready.put(None)
        while go_at.value == 0:
            await asyncio.sleep(0.01)
        start = go_at.value
        measured = start + WARMUP_SECONDS  # (the first CPU moves load the bots: not measured)
        deadline = measured + seconds
        await asyncio.sleep(max(0.0, start - time.monotonic()))
        run = Measuring(think_s, measured, deadline, figures)
        players = [
            asyncio.create_task(run_slot(client, slots, index, run)) for index in range(len(slots))
        ]
        await asyncio.sleep(max(0.0, measured - time.monotonic()))
        figures.start_versions = sum(slot.actions() for slot in slots)
        cpu_start = _cpu_now()
        await asyncio.sleep(max(0.0, deadline - time.monotonic()))
        figures.client_cpu_seconds = _cpu_now() - cpu_start
        figures.end_versions = sum(slot.actions() for slot in slots)
        figures.rooms_made = sum(slot.rooms_made for slot in slots)
        for task in players:
            task.cancel()
        await asyncio.sleep(0.5)  # let the last pushes arrive
        listeners = [task for slot in slots for task in slot.streams]
        for task in listeners:
            task.cancel()
        await asyncio.gather(*players, *listeners, return_exceptions=True)
        for version, done, other in run.accepted:
            arrived = other.arrivals.get(version)
            if arrived is None:
                figures.errors.append(f"version {version} never reached the other seat")
            else:
                figures.push_ms.append(1000 * max(0.0, arrived - done))
    return figures.__dict__


def _client_process(
    base: str, rooms: range, think_s: float, go_at: Any, seconds: float, ready: Any, out: Any
) -> None:
    try:
        import uvloop

        runner = uvloop.run
    except ImportError:
        runner = asyncio.run
    try:
        out.put(runner(client_main(base, rooms, think_s, go_at, seconds, ready)))
    except BaseException as error:
        ready.put(None)
        out.put({"crash": repr(error)[:300]})


def percentiles(values: list[float]) -> dict[str, float] | None:
    if not values:
        return None
    ordered = sorted(values)

    def at(share: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(share * len(ordered)))], 2)

    return {"p50": at(0.50), "p99": at(0.99), "max": round(ordered[-1], 2)}


def run_scenario(
    base: str,
    pids: list[int],
    db_pids: list[int],
    rooms: int,
    think_ms: int,
    seconds: float,
    clients: int,
    priority: int = 0,
) -> dict[str, Any]:
    """Sets `rooms` rooms up across `clients` client processes, then measures `seconds`."""
    context = multiprocessing.get_context("spawn")
    go_at = context.Value("d", 0.0)
    ready, out = context.Queue(), context.Queue()
    shares = [range(n, rooms, clients) for n in range(clients)]
    processes = [
        context.Process(
            target=_client_process, args=(base, share, think_ms / 1000, go_at, seconds, ready, out)
        )
        for share in shares
        if len(share)
    ]
    for process in processes:
        process.start()
    for _ in processes:
        ready.get(timeout=300)
    server_pids = _descendants(pids[0])
    db_pids = _descendants(db_pids[0]) if db_pids else []
    if priority:  # the measured processes ahead of unrelated jobs on a shared machine
        for pid in server_pids + db_pids + [process.pid for process in processes]:
            with contextlib.suppress(OSError):
                os.setpriority(os.PRIO_PROCESS, pid, -priority)
            # With the kernel's autogroups (each session shares the CPU equally, whatever
            # the nice values inside it), the session's nice is the one that counts.
            with contextlib.suppress(OSError):
                Path(f"/proc/{pid}/autogroup").write_text(str(-priority))
    load_before = load_average()
    go_at.value = time.monotonic() + 0.5
    time.sleep(0.5 + WARMUP_SECONDS)
    cpu_before, db_before = cpu_seconds(server_pids), cpu_seconds(db_pids)
    each_before = [cpu_seconds([pid]) for pid in server_pids]
    time.sleep(seconds)
    cpu_after, db_after = cpu_seconds(server_pids), cpu_seconds(db_pids)
    if priority:  # the session's share back to normal (it outlives the benchmark)
        for pid in server_pids + db_pids + [process.pid for process in processes]:
            with contextlib.suppress(OSError):
                Path(f"/proc/{pid}/autogroup").write_text("0")
    each = [
        cpu_seconds([pid]) - before for pid, before in zip(server_pids, each_before, strict=True)
    ]
    load_after = load_average()
    results = [out.get(timeout=120) for _ in processes]
    for process in processes:
        process.join(timeout=30)
    crashes = [r["crash"] for r in results if "crash" in r]
    if crashes:
        raise RuntimeError(f"a client crashed: {crashes[0]}")
    actions = sum(r["end_versions"] - r["start_versions"] for r in results)
    action_ms = [x for r in results for x in r["action_ms"]]
    push_ms = [x for r in results for x in r["push_ms"]]
    errors = [e for r in results for e in r["errors"]]
    client_cpu = sum(r["client_cpu_seconds"] for r in results)
    rooms_made = sum(r["rooms_made"] for r in results)
    return {
        "rooms": rooms,
        "rooms_played": rooms_made,  # more than `rooms` when matches ended and were replaced
        "think_ms": think_ms,
        "seconds": seconds,
        "actions": actions,
        "http_actions": len(action_ms),
        "actions_per_second": round(actions / seconds, 1),
        "action_latency_ms": percentiles(action_ms),
        "push_latency_ms": percentiles(push_ms),
        "server_cpu_ms_per_action": round(1000 * (cpu_after - cpu_before) / actions, 3)
        if actions
        else None,
        # How the work fell on the server's processes (supervisor first): the balance.
        "server_cpu_share": [round(x / sum(each), 3) if sum(each) else 0.0 for x in each],
        "client_cpu_ms_per_action": round(1000 * client_cpu / actions, 3) if actions else None,
        # Cores' worth of CPU over the measurement: the server's, the clients'.
        "server_cores": round((cpu_after - cpu_before) / seconds, 2),
        "client_cores": round(client_cpu / seconds, 2),
        "database_cpu_ms_per_action": round(1000 * (db_after - db_before) / actions, 3)
        if actions and db_pids
        else None,
        "errors": len(errors),
        "first_errors": errors[:3],
        "priority": priority,
        "load_average_before": load_before,
        "load_average_after": load_after,
    }


def run_database(
    name: str, url: str, workers: int, args: argparse.Namespace, db_pids: list[int]
) -> dict[str, Any]:
    result: dict[str, Any] = {"database": name, "workers": workers}
    if "throughput" in args.scenarios:
        with live_server(url, workers, 0) as (base, pid):
            result["throughput"] = run_scenario(
                base, [pid], db_pids, args.busy_rooms, 0, args.seconds, args.clients, args.priority
            )
    if "latency" in args.scenarios:
        with live_server(url, workers, args.cpu_delay_ms) as (base, pid):
            result["latency"] = run_scenario(
                base,
                [pid],
                db_pids,
                args.rooms,
                args.think_ms,
                args.seconds,
                args.clients,
                args.priority,
            )
    return result


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(
        prog="bench_web.py --live",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--rooms", type=int, default=200, help="live rooms (latency scenario)")
    parser.add_argument("--busy-rooms", type=int, default=32, help="rooms (throughput scenario)")
    parser.add_argument("--think-ms", type=int, default=1000, help="humans' mean thinking time")
    parser.add_argument("--cpu-delay-ms", type=int, default=700, help="CPU pace (latency scenario)")
    parser.add_argument("--seconds", type=float, default=20, help="measured per scenario")
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    parser.add_argument(
        "--priority",
        type=int,
        default=0,
        help="run server, database and clients at this much higher priority (nice -N; root)",
    )
    parser.add_argument(
        "--scenarios",
        default="throughput,latency",
        help="which scenarios to run (comma-separated: throughput, latency)",
    )
    parser.add_argument("--no-postgres", action="store_true")
    parser.add_argument("--no-sqlite", action="store_true")
    args = parser.parse_args(argv)
    if not (
        1 <= args.rooms <= 400
        and 1 <= args.busy_rooms <= 400
        and 0 < args.seconds <= 300
        and 1 <= args.clients <= 8
    ):
        parser.error("--rooms/--busy-rooms 1-400, --seconds up to 300, --clients 1-8")
    postgres = os.environ.get(POSTGRES_ENV)
    if not postgres and not args.no_postgres and not os.environ.get("FIVEDICE_BENCH_NO_RERUN"):
        script = HERE.parent / "scripts" / "with-postgres.sh"
        os.environ["FIVEDICE_BENCH_NO_RERUN"] = "1"
        os.execvp(
            "bash",
            ["bash", str(script), sys.executable, str(HERE / "bench_web.py"), "--live", *argv],
        )
    results = []
    if not args.no_sqlite:
        with tempfile.TemporaryDirectory(prefix="fivedice-bench-") as directory:
            url = f"sqlite:///{Path(directory) / 'bench.sqlite3'}"
            results.append(run_database("sqlite", url, 1, args, []))
    if postgres and not args.no_postgres:
        with postgres_database(postgres) as url:
            results.append(run_database("postgresql", url, 2, args, postgres_pids(url)))
    print(
        json.dumps(
            {
                "benchmark": "live rooms over loopback (2 humans streaming + 1 server CPU each)",
                "cpu_count": os.cpu_count(),
                "clients": args.clients,
                "results": results,
            },
            indent=2,
        )
    )
