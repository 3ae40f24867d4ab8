"""Load on the web API: many games played at once over loopback, several uvicorn workers.

Starts `fivedice serve --workers N` (uvicorn) on a free 127.0.0.1 port
against a fresh database (a temporary SQLite file; and a temporary PostgreSQL database when
$FIVEDICE_TEST_POSTGRES_URL is set, as `make test` sets it), plays `--games` solo games
concurrently through `/api` (each turn: roll, hold, roll, score the best box), and prints one
JSON object per database: p50/p90/p99 latency of an action, actions per second, errors.
Bounded in count (`--games`) and time (`--max-seconds`); loopback only.

    .venv/bin/python benchmarks/bench_web.py [--games 200] [--concurrency 32] [--workers 4]

`--live` measures live rooms instead (see `bench_web_live.py`): two remote humans and one
server-driven CPU per room, both humans subscribed to the game's event stream:

    .venv/bin/python benchmarks/bench_web.py --live [--rooms 200] [--seconds 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

POSTGRES_ENV = "FIVEDICE_TEST_POSTGRES_URL"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def server(url: str, workers: int) -> Iterator[str]:
    """uvicorn with `workers` processes on a free loopback port, on the database `url`."""
    from fivedice.service.games import GameService

    GameService.open(url).store.close()  # migrate once, before the workers start
    port = free_port()
    env = {
        **os.environ,
        "FIVEDICE_DATABASE_URL": url,
        "FIVEDICE_SECRET": uuid.uuid4().hex,  # one secret shared by the workers
    }
    command = [
        sys.executable, "-m", "fivedice.cli", "serve", "--host", "127.0.0.1",
        "--port", str(port), "--workers", str(workers), "--db", url,
    ]  # fmt: skip
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)  # stdout: JSON only
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(base + "/openapi.json", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError("the server did not start")
            time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


async def play_game(
    client: httpx.AsyncClient, seed: int, latencies: list[float], errors: list[str]
) -> None:
    """One solo game: every action's latency goes into `latencies`."""
    response = await client.post("/api/games", json={"players": [{"name": "Bench"}], "seed": seed})
    if response.status_code != 201:
        errors.append(f"create: {response.status_code}")
        return
    game = response.json()
    headers = {"Authorization": f"Bearer {game['tokens'][0]['token']}"}
    url = f"/api/games/{game['id']}/actions"

    async def act(action: str) -> dict[str, Any] | None:
        started = time.perf_counter()
        answer = await client.post(
            url, json={"action": action, "version": game["version"]}, headers=headers
        )
        latencies.append(time.perf_counter() - started)
        if answer.status_code != 200:
            errors.append(f"{action}: {answer.status_code} {answer.text[:80]}")
            return None
        result: dict[str, Any] = answer.json()
        return result

    while game["status"] == "in_progress":
        for action in ("roll", "hold 1 2", "roll"):
            after = await act(action)
            if after is None:
                return
            game = after
        best = max(game["placements"], key=lambda placement: placement["points"])
        after = await act(f"score {best['box']}")
        if after is None:
            return
        game = after


async def run_load(base: str, games: int, concurrency: int, max_seconds: float) -> dict[str, Any]:
    latencies: list[float] = []
    errors: list[str] = []
    limit = asyncio.Semaphore(concurrency)
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)

    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=30) as client:

        async def one(seed: int) -> None:
            async with limit:
                await play_game(client, seed, latencies, errors)

        started = time.perf_counter()
        tasks = [asyncio.create_task(one(seed)) for seed in range(games)]
        done, pending = await asyncio.wait(tasks, timeout=max_seconds)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        elapsed = time.perf_counter() - started
    failed = [task for task in done if task.exception() is not None]
    ordered = sorted(latencies)

    def percentile(share: float) -> float:
        return round(1000 * ordered[min(len(ordered) - 1, int(share * len(ordered)))], 2)

    return {
        "games_started": games,
        "games_unfinished_at_time_limit": len(pending),
        "games_failed": len(failed),
        "actions": len(latencies),
        "errors": len(errors),
        "first_errors": errors[:3] + [repr(task.exception())[:200] for task in failed[:3]],
        "seconds": round(elapsed, 2),
        "actions_per_second": round(len(latencies) / elapsed, 1) if elapsed else None,
        "latency_ms": {
            "p50": percentile(0.50),
            "p90": percentile(0.90),
            "p99": percentile(0.99),
            "max": round(1000 * ordered[-1], 2),
            "mean": round(1000 * statistics.fmean(ordered), 2),
        }
        if ordered
        else None,
    }


@contextmanager
def postgres_database(server_url: str) -> Iterator[str]:
    """A throwaway database on the PostgreSQL server of `server_url`."""
    from sqlalchemy import create_engine, text

    name = f"fivedice_bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(server_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    base, _, _ = server_url.rpartition("/")
    try:
        yield f"{base}/{name}"
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def main() -> None:
    if "--live" in sys.argv[1:]:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from bench_web_live import main as live_main

        live_main([arg for arg in sys.argv[1:] if arg != "--live"])
        return
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=32, help="games in flight at once")
    parser.add_argument("--workers", type=int, default=4, help="uvicorn worker processes")
    parser.add_argument("--max-seconds", type=float, default=180, help="per database")
    args = parser.parse_args()
    if not 1 <= args.games <= 5000 or not 1 <= args.concurrency <= 512:
        parser.error("--games is 1-5000 and --concurrency 1-512")

    results = []
    with tempfile.TemporaryDirectory(prefix="fivedice-bench-") as directory:
        url = f"sqlite:///{Path(directory) / 'bench.sqlite3'}"
        with server(url, args.workers) as base:
            figures = asyncio.run(run_load(base, args.games, args.concurrency, args.max_seconds))
        results.append({"database": "sqlite", **figures})
    postgres = os.environ.get(POSTGRES_ENV)
    if postgres:
        with postgres_database(postgres) as url, server(url, args.workers) as base:
            figures = asyncio.run(run_load(base, args.games, args.concurrency, args.max_seconds))
        results.append({"database": "postgresql", **figures})
    print(
        json.dumps(
            {
                "benchmark": "web API over loopback",
                "games": args.games,
                "concurrency": args.concurrency,
                "workers": args.workers,
                "actions_per_game": 52,
                "cpu_count": os.cpu_count(),
                "results": results,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
