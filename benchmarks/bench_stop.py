"""What a gentle stop costs and keeps: SIGTERM to a real `fivedice serve` in the middle of
play, with players acting without pause and each game's event stream open, plus idle
watchers' streams.

Prints, as JSON, for SQLite with one worker (and, with `--postgres`, for PostgreSQL with two
workers, SIGTERM to the worker driving the CPU games): the seconds from the signal to the
exit, the requests open at the signal and how many got an answer, the actions acknowledged,
lost and doubled (against the stored logs), the streams told to move (`retry:` and `moving`)
and the delays they were given, and (PostgreSQL) how long until each CPU game that worker
drove moved on in another worker. Run from the repository root:

    PYTHONPATH=$PWD/src:$PWD .venv/bin/python benchmarks/bench_stop.py [--players N] \\
        [--watchers N] [--seconds S] [--graceful S] [--postgres]

(`--postgres` needs PostgreSQL's binaries: a throwaway cluster is made and removed.)
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import tempfile
import time
from pathlib import Path


def _load() -> float:
    return round(os.getloadavg()[0], 1)


def _summary(players, streams, moment: float, store) -> dict[str, object]:
    from tests.web.stopping_helpers import check_ledgers

    open_then = answered = 0
    for player in players:
        for request in player.requests():
            if request.sent < moment and (request.answered is None or request.answered > moment):
                open_then += 1
                answered += request.error is None and request.status is not None
    acknowledged = check_ledgers(store, players)  # (raises on a lost or doubled action)
    delays = [int(e[0].removeprefix("retry: ")) for s in streams for e in s.endings if e]
    return {
        "requests open at the signal": open_then,
        "of them answered": answered,
        "actions acknowledged": acknowledged,
        "lost": 0,
        "doubled": 0,
        "streams": len(streams),
        "streams refused or broken": sorted({s.error for s in streams if s.error}),
        "players in mid-game at the signal": sum(p.playing_at(moment) for p in players),
        "streams told to move": sum(s.always_told for s in streams),
        "streams with every version once": sum(s.every_version_once for s in streams),
        "retry delays ms (min, median, max)": [
            min(delays),
            statistics.median(delays),
            max(delays),
        ]
        if delays
        else None,
    }


def sqlite_case(args: argparse.Namespace, tmp: Path) -> dict[str, object]:
    from tests.web.stopping_helpers import Serve, Stream, new_player, started

    from fivedice.store import Store

    tmp.mkdir(parents=True, exist_ok=True)
    db = f"sqlite:///{tmp / 'stop.sqlite3'}"
    # (Every watcher comes from 127.0.0.1: the caps per client address are lifted.)
    server = Serve(
        db,
        tmp,
        graceful=args.graceful,
        FIVEDICE_STREAMS_PER_CLIENT=str(2 * (args.players + args.watchers)),
        FIVEDICE_CONNECTIONS_PER_CLIENT=str(4 * (args.players + args.watchers)),
    )
    try:
        players = [new_player(server.base, seed) for seed in range(args.players)]
        streams = [Stream(f"{server.base}/api/games/{p.games[0].id}/events") for p in players]
        streams += [
            Stream(f"{server.base}/api/games/{players[n % len(players)].games[0].id}/events")
            for n in range(args.watchers)
        ]
        threads = [started(s) for s in streams] + [started(p) for p in players]
        time.sleep(args.seconds)
        load = _load()
        moment = time.monotonic()
        took = server.terminate()
        for thread in threads:
            thread.join(timeout=60)
    finally:
        server.close()
    store = Store(db)
    try:
        found = _summary(players, streams, moment, store)
    finally:
        store.close()
    return {"case": "sqlite, 1 worker", "load": load, "exit seconds": round(took, 2), **found}


def postgres_case(args: argparse.Namespace, tmp: Path) -> dict[str, object]:
    from tests.support.postgres import Cluster, postgres_bin
    from tests.web.stopping_helpers import (
        Serve,
        Stream,
        cpu_game,
        drivers_of,
        game_version,
        gone,
        new_player,
        started,
    )

    from fivedice.store import Store

    tmp.mkdir(parents=True, exist_ok=True)
    bin_dir = postgres_bin()
    if bin_dir is None:
        return {"case": "postgresql", "skipped": "PostgreSQL is not installed"}
    cluster = Cluster(bin_dir)
    cluster.start()
    try:
        server = Serve(
            cluster.url,
            tmp,
            workers=2,
            graceful=args.graceful,
            FIVEDICE_STREAMS_PER_CLIENT=str(4 * args.players),
            FIVEDICE_CONNECTIONS_PER_CLIENT=str(8 * args.players),
            FIVEDICE_CPU_DELAY_MS="150",
            FIVEDICE_CPU_SCAN_SECONDS="600",
        )
        try:
            players = [new_player(server.base, seed) for seed in range(args.players)]
            streams = [Stream(f"{server.base}/api/games/{p.games[0].id}/events") for p in players]
            threads = [started(s) for s in streams] + [started(p) for p in players]
            cpu_games = [cpu_game(server.base, seed) for seed in range(100, 110)]
            by_number = {int(game.split("-")[0]): game for game in cpu_games}
            time.sleep(args.seconds)
            drivers = drivers_of(cluster.url)
            workers = server.workers()
            victim = max(workers, key=lambda pid: list(drivers.values()).count(pid))
            its = [by_number[n] for n, pid in drivers.items() if pid == victim and n in by_number]
            before = {game: game_version(server.base, game) for game in its}
            load = _load()
            moment = time.monotonic()
            os.kill(victim, signal.SIGTERM)
            moved: dict[str, float] = {}
            while len(moved) < len(its) and time.monotonic() < moment + 30:
                for game in its:
                    if game not in moved and game_version(server.base, game) > before[game] + 1:
                        moved[game] = time.monotonic() - moment
                time.sleep(0.02)
            while not gone(victim) and time.monotonic() < moment + 60:
                time.sleep(0.02)
            exited = time.monotonic() - moment
            time.sleep(1)
            for player in players:
                player.stop.set()
            server.terminate()
            for thread in threads:
                thread.join(timeout=60)
        finally:
            server.close()
        store = Store(cluster.url)
        try:
            found = _summary(players, streams, moment, store)
        finally:
            store.close()
    finally:
        cluster.remove()
    return {
        "case": "postgresql, 2 workers, SIGTERM to the CPU games' worker",
        "load": load,
        "worker exit seconds": round(exited, 2),
        "CPU games it drove": len(its),
        "moved on in another worker after s (max, median)": [
            round(max(moved.values()), 2),
            round(statistics.median(moved.values()), 2),
        ]
        if moved
        else None,
        "not moved within 30 s": len(its) - len(moved),
        **found,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--watchers", type=int, default=200, help="extra idle streams (SQLite)")
    parser.add_argument("--seconds", type=float, default=3.0, help="of play before the signal")
    parser.add_argument("--graceful", type=int, default=10)
    parser.add_argument("--postgres", action="store_true")
    args = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory(prefix="fivedice-stop-") as tmp:
        results.append(sqlite_case(args, Path(tmp) / "sqlite"))
        if args.postgres:
            results.append(postgres_case(args, Path(tmp) / "pg"))
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
