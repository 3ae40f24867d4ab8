"""What one action costs the web server, against the essential work of the same actions.

Starts a real `fivedice serve` (SQLite, one worker) on a free 127.0.0.1 port and plays
`--games` solitaire games at once (one person, a 20-game match each, so a game never runs
out of moves while it is measured; a match that ends is followed by a new one), each over
its own keep-alive connection, acting on its own answers (roll, hold 1 2, roll, score the
best box) with no thinking time, and each with one watcher on the game's event stream
(`GET /api/games/{id}/events`, read to the end of every event). During `--seconds` of
measurement (after a warm-up) it counts the actions answered 200 and reads the server's
CPU time (user + system of the uvicorn processes, /proc/<pid>/stat).

In the same run, in this process, it measures the **essential work** of `--essential-actions`
actions (5,000; the median of three runs):
the pure core applying the same kind of action (its text notation parsed, `core.game.apply`
with seeded dice) plus one durable insert of the action's row per action (SQLite: a fresh
file in WAL mode with `synchronous = NORMAL` and a commit per row, the store's settings;
PostgreSQL: one INSERT through psycopg in autocommit). Printed: server CPU ms per action,
essential ms per action, their ratio, the load generator's own CPU ms per action (counted
apart), actions per second, the events the watchers read, errors, the load average.

`--server-src DIR` serves another tree's `src` (the essential work stays this tree's).
`--postgres` adds the same with two workers on PostgreSQL ($FIVEDICE_TEST_POSTGRES_URL; without
it the benchmark re-runs itself under scripts/with-postgres.sh). `--profile FILE` records the
workers with py-spy (the `dev` extra) during the measured window, in py-spy's `raw` format
(collapsed stacks, one line each with its count of samples); its figures then cost more.

    PYTHONPATH=$PWD/src:$PWD/benchmarks .venv/bin/python benchmarks/bench_actions.py \
        [--games 40] [--seconds 15] [--postgres]

Bounded by `--seconds` (plus a warm-up of 3 s and the essential work, under a second);
127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
from bench_web import POSTGRES_ENV, postgres_database
from bench_web_live import (
    NO_TIMEOUT,
    _descendants,
    cpu_seconds,
    live_server,
    load_average,
    next_action,
)

from fivedice.core.actions import Score

HERE = Path(__file__).resolve().parent
WARMUP_SECONDS = 3.0
MATCH_LENGTH = 20
ESSENTIAL_RUNS = 3  # the essential work's median of this many runs (it is short: noisy)
try:
    from orjson import loads
except ImportError:  # pragma: no cover
    from json import loads


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class Load:
    """The shared counters of the load generator."""

    def __init__(self) -> None:
        self.actions = 0
        self.events = 0
        self.errors: list[str] = []
        self.matches = 0


async def watch(session: aiohttp.ClientSession, game_id: str, load: Load) -> None:
    """One watcher: reads the game's event stream until cancelled."""
    try:
        async with session.get(f"/api/games/{game_id}/events", timeout=NO_TIMEOUT) as answer:
            async for raw in answer.content:
                if raw.startswith(b"data:"):
                    load.events += 1
    except (aiohttp.ClientError, TimeoutError) as error:
        load.errors.append(f"stream: {error!r}"[:100])


async def solitaire(base: str, number: int, load: Load, deadline: float) -> None:
    """One player on one keep-alive connection (and one watcher on another), match after
    match, until the deadline."""
    connector = aiohttp.TCPConnector(limit=1)
    async with (
        aiohttp.ClientSession(base, connector=connector) as session,
        aiohttp.ClientSession(base, timeout=NO_TIMEOUT) as watching,
    ):
        seed = number
        while time.monotonic() < deadline:
            body = {"players": [{"name": "Solo"}], "seed": seed, "match_length": MATCH_LENGTH}
            async with session.post("/api/games", json=body) as made:
                if made.status != 201:
                    load.errors.append(f"create {made.status} {(await made.text())[:80]}")
                    return
                game = loads(await made.read())
            load.matches += 1
            seed += 1_000_000
            watcher = asyncio.create_task(watch(watching, game["id"], load))
            headers = {
                "Authorization": f"Bearer {game['tokens'][0]['token']}",
                "Content-Type": "application/json",
            }
            url = f"/api/games/{game['id']}/actions"
            try:
                while game["status"] == "in_progress" and time.monotonic() < deadline:
                    data = json.dumps({"action": next_action(game), "version": game["version"]})
                    async with session.post(url, data=data, headers=headers) as answer:
                        status, text = answer.status, await answer.read()
                    if status != 200:
                        load.errors.append(f"{status} {text[:100]!r}")
                        return
                    game = loads(text)
                    load.actions += 1
            finally:
                watcher.cancel()


def _py_spy(path: str, pids: list[int], seconds: float) -> subprocess.Popen[bytes]:
    """py-spy recording the server (the first of `pids`, with its workers) for `seconds`."""
    command = ["py-spy", "record", "--format", "raw", "--output", path, "--nonblocking"]
    command += ["--duration", str(max(1, int(seconds - 1))), "--rate", "200"]
    command += ["--pid", str(pids[0]), "--subprocesses"]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


async def drive(
    base: str, games: int, seconds: float, pids: Callable[[], list[int]], profile: str | None
) -> Any:
    """Plays the games for the warm-up and `seconds`; the figures of the measured window."""
    load = Load()
    start = time.monotonic()
    deadline = start + WARMUP_SECONDS + seconds
    players = [
        asyncio.create_task(solitaire(base, number, load, deadline)) for number in range(games)
    ]
    await asyncio.sleep(WARMUP_SECONDS)
    processes = pids()
    spy = _py_spy(profile, processes, seconds) if profile else None
    server_before, own_before, actions_before = cpu_seconds(processes), _own_cpu(), load.actions
    events_before, measured_at = load.events, time.monotonic()
    await asyncio.sleep(max(0.0, deadline - time.monotonic() - 0.05))
    server_after, own_after, actions_after = cpu_seconds(processes), _own_cpu(), load.actions
    events_after, elapsed = load.events, time.monotonic() - measured_at
    await asyncio.gather(*players, return_exceptions=True)
    if spy is not None:
        await asyncio.to_thread(spy.wait)
    return {
        "actions": actions_after - actions_before,
        "events": events_after - events_before,
        "seconds": elapsed,
        "server_cpu_s": server_after - server_before,
        "client_cpu_s": own_after - own_before,
        "matches": load.matches,
        "errors": load.errors[:10],
        "error_count": len(load.errors),
    }


# -- the essential work ------------------------------------------------------------------------


def essential_seconds(actions: int, insert: Callable[[int, int, str, str], None]) -> float:
    """CPU seconds of `actions` actions of solitaire games: the core applies each (from its
    text) and `insert` stores its row (game, seq, action, dice). The choice of the next
    action, a client's work, is left out of the time."""
    from fivedice.core.dice import RandomDice
    from fivedice.core.game import GameSettings, Seat, apply, new_game
    from fivedice.core.rules import RuleSet

    settings = GameSettings(seats=(Seat("Solo"),), rules=RuleSet(), match_length=MATCH_LENGTH)
    spent = 0.0
    done, game_id = 0, 0
    while done < actions:
        game_id += 1
        dice = RandomDice(random.Random(game_id))
        state = new_game(settings, dice)
        seq = 0
        while not state.is_match_over and done < actions:
            text = _essential_action(state)
            seq += 1
            started = time.process_time()
            after = apply(state, text, dice)
            rolled = "" if after.dice == state.dice else " ".join(map(str, after.dice or ()))
            insert(game_id, seq, text, rolled)
            spent += time.process_time() - started
            state = after
            done += 1
    return spent


def _essential_action(state: Any) -> str:
    """The benchmark's client policy (`next_action`) on a core state."""
    turn = state.turn
    if turn.rolls_used == 0:
        return "roll"
    if turn.rolls_used == 1:
        return "roll" if any(turn.held) else "hold 1 2"
    best = max(state.placements(), key=lambda placement: placement.points)
    return str(Score(best.category, best.column))


ACTION_ROW = (
    "CREATE TABLE actions (game_id INTEGER NOT NULL, seq INTEGER NOT NULL, seat INTEGER NOT"
    " NULL, action VARCHAR(60) NOT NULL, dice VARCHAR(2000) NOT NULL, created_at TIMESTAMP"
    " NOT NULL, PRIMARY KEY (game_id, seq))"
)
INSERT_ROW = "INSERT INTO actions VALUES ({0}, {0}, 0, {0}, {0}, CURRENT_TIMESTAMP)"


def sqlite_essential(actions: int) -> float:
    with tempfile.TemporaryDirectory() as directory:
        connection = sqlite3.connect(Path(directory) / "essential.db", isolation_level=None)
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute("PRAGMA synchronous = NORMAL")
        connection.execute(ACTION_ROW)
        statement = INSERT_ROW.format("?")

        def insert(game_id: int, seq: int, action: str, dice: str) -> None:
            connection.execute("BEGIN")
            connection.execute(statement, (game_id, seq, action, dice))
            connection.execute("COMMIT")

        try:
            return essential_seconds(actions, insert)
        finally:
            connection.close()


def postgres_essential(url: str, actions: int) -> float:
    import psycopg

    plain = url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(plain, autocommit=True) as connection:
        connection.execute("DROP TABLE IF EXISTS essential_actions")
        connection.execute(ACTION_ROW.replace("TABLE actions", "TABLE essential_actions"))
        statement = INSERT_ROW.replace("actions", "essential_actions").format("%s")

        def insert(game_id: int, seq: int, action: str, dice: str) -> None:
            connection.execute(statement, (game_id, seq, action, dice), prepare=True)

        try:
            return essential_seconds(actions, insert)
        finally:
            connection.execute("DROP TABLE essential_actions")


# -- one database ------------------------------------------------------------------------------


def run(name: str, url: str, workers: int, args: argparse.Namespace) -> dict[str, Any]:
    os.environ.setdefault("FIVEDICE_RATE_GAMES", "100000/minute")
    load_before = load_average()
    with live_server(url, workers, 0, start_seconds=300) as (base, supervisor):
        figures = asyncio.run(
            drive(base, args.games, args.seconds, lambda: _descendants(supervisor), args.profile)
        )
    actions = max(1, figures["actions"])
    count = args.essential_actions
    essential = statistics.median(
        sqlite_essential(count) if name == "sqlite" else postgres_essential(url, count)
        for _ in range(ESSENTIAL_RUNS)
    )
    server_ms = 1000 * figures["server_cpu_s"] / actions
    essential_ms = 1000 * essential / count
    return {
        "database": name,
        "workers": workers,
        "games": args.games,
        "seconds": round(figures["seconds"], 2),
        "actions": figures["actions"],
        "actions_per_s": round(figures["actions"] / figures["seconds"], 1),
        "events_read": figures["events"],
        "server_cpu_ms_per_action": round(server_ms, 3),
        "essential_ms_per_action": round(essential_ms, 3),
        "ratio": round(server_ms / essential_ms, 2),
        "client_cpu_ms_per_action": round(1000 * figures["client_cpu_s"] / actions, 3),
        "matches_started": figures["matches"],
        "errors": figures["error_count"],
        "first_errors": figures["errors"],
        "load_average": {"before": load_before, "after": load_average()},
    }


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--essential-actions", type=int, default=5_000)
    parser.add_argument("--postgres", action="store_true", help="also PostgreSQL, two workers")
    parser.add_argument("--no-sqlite", action="store_true")
    parser.add_argument(
        "--server-src", metavar="DIR", help="the server runs this tree's src (e.g. an older one)"
    )
    parser.add_argument("--profile", metavar="FILE", help="py-spy the workers into FILE")
    args = parser.parse_args(argv)
    if not 1 <= args.games <= 400 or not 0 < args.seconds <= 300:
        parser.error("--games 1..400, --seconds up to 300")
    postgres = os.environ.get(POSTGRES_ENV)
    if args.postgres and not postgres:
        script = HERE.parent / "scripts" / "with-postgres.sh"
        raise SystemExit(
            subprocess.call(["bash", str(script), sys.executable, __file__, *argv], cwd=HERE.parent)
        )
    if args.server_src:  # (this process keeps the modules it imported: the essential work)
        os.environ["PYTHONPATH"] = str(Path(args.server_src).resolve())
    results = []
    if not args.no_sqlite:
        with tempfile.TemporaryDirectory() as directory:
            url = f"sqlite:///{directory}/bench.db"
            results.append(run("sqlite", url, 1, args))
    if args.postgres and postgres:
        with postgres_database(postgres) as url:
            results.append(run("postgresql", url, 2, args))
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main(sys.argv[1:])
