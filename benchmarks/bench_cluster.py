"""Many connected players through HAProxy on a namespace cluster: `bench_cluster.py`.

    PYTHONPATH=$PWD/src:$PWD .venv/bin/python benchmarks/bench_cluster.py \\
        [--players 5000] [--seconds 60] [--action-every 5] [--clients 2] [--faults]

The cluster is tests/cluster/harness.py's (root only): PostgreSQL, three web hosts of
`fivedice serve --workers 2`, HAProxy with deploy/haproxy.cfg, each host a network namespace
of this machine; the players run in `--clients` processes of the root namespace (asyncio,
aiohttp). Players sit two to a game (two humans, no CPU); each keeps the game's event stream
open and acts on their turns after an exponentially drawn thinking time of half
`--action-every`, so that each player acts every `--action-every` seconds on average (a
player acts on one turn of two).

Figures (JSON):
- `idle_streams`: the workers' (and HAProxy's) resident memory with every game made and no
  stream open, then with all `2 × games` streams open and idle; the difference per stream;
- `play`: over `--seconds` after a warm-up: actions acknowledged per second, action latency
  (request sent → answer read) p50/p90/p99/max, push delay (answer read → the same version on
  the other player's stream) p50/p90/p99/max, never-pushed actions, errors and refusals;
- `cpu_share`: CPU time used in the window by the workers, PostgreSQL, HAProxy and the
  clients, as a share of one core (2.0 = the whole 2-core machine), which says what
  saturates; and the machine's load average before and after.
`--faults` instead runs the fault drill (tests/cluster/faults.py: a host SIGKILLed, a rolling
restart, PostgreSQL restarted, `--tables` games of two humans and a CPU) and prints its table
(Markdown on stderr, JSON on stdout).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "src")]

from tests.cluster import faults  # noqa: E402
from tests.cluster.harness import (  # noqa: E402
    HAPROXY_CONFIG,
    HOSTS,
    Cluster,
    default_web_env,
    terminated_as_interrupt,
)
from tests.cluster.players import Crowd  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")
WARMUP_SECONDS = 5.0


def rss_bytes(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            total += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE
        except (OSError, IndexError):
            continue
    return total


def cpu_seconds(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / TICKS


def percentiles(values: list[float]) -> dict[str, float] | None:
    if not values:
        return None
    ordered = sorted(values)

    def at(share: float) -> float:
        return round(1000 * ordered[min(len(ordered) - 1, int(share * len(ordered)))], 1)

    return {"p50_ms": at(0.5), "p90_ms": at(0.9), "p99_ms": at(0.99),
            "max_ms": round(1000 * ordered[-1], 1), "count": len(ordered)}  # fmt: skip


# -- the client processes ---------------------------------------------------------------------


def _client(base: str, tables: int, seed: int, think: float, control: Any, out: Any) -> None:
    """One client process: makes its games, opens its streams when told, plays when told."""
    try:
        import uvloop

        runner: Any = uvloop.run
    except ImportError:
        runner = asyncio.run

    async def main() -> dict[str, Any]:
        # Pages read the game when their stream was silent long: not within a turn here.
        crowd = Crowd(base, tables=tables, cpu=False, think_seconds=think, seed=seed,
                      action_connections=1000, refresh_seconds=30)  # fmt: skip
        try:
            await crowd.make()
            out.put(("made", None))
            await asyncio.to_thread(control.get)  # "open"
            await crowd.open_streams()
            out.put(("open", None))
            window = await asyncio.to_thread(control.get)  # (measured from, until)
            crowd.play()
            start, end = window
            await asyncio.sleep(max(0.0, start - time.monotonic()))
            cpu0 = time.process_time()
            await asyncio.sleep(max(0.0, end - time.monotonic()))
            client_cpu = time.process_time() - cpu0
            await asyncio.sleep(1.0)  # the last pushes of the window arrive
        finally:
            await crowd.stop()
        record = crowd.record
        acks = [a for a in record.acknowledged if start <= a.sent < end]
        pushes = [d for answered, d in record.push_delays() if start <= answered < end]
        return {
            "acknowledged": len(acks),
            "action_s": [
                s for answered, s in crowd.action_latencies if start <= answered - s < end
            ],
            "push_s": [d for d in pushes if d is not None],
            "never_pushed": sum(1 for d in pushes if d is None),
            "refused": record.refused,
            "errors": record.errors[:20],
            "error_count": len(record.errors),
            "stream_gaps": len([g for g in record.gaps if start <= g.start < end]),
            "client_cpu_s": client_cpu,
        }

    try:
        out.put(("done", runner(main())))
    except BaseException as error:  # reported to the parent, which stops
        out.put(("crash", repr(error)[:500]))


def _expect(out: Any, what: str, count: int, timeout: float) -> list[Any]:
    got = []
    for _ in range(count):
        kind, value = out.get(timeout=timeout)
        if kind == "crash":
            raise RuntimeError(f"a client crashed: {value}")
        if kind != what:
            raise RuntimeError(f"expected {what}, got {kind}")
        got.append(value)
    return got


def measure(cluster: Cluster, args: argparse.Namespace) -> dict[str, Any]:
    games = args.players // 2
    think = args.action_every / 2
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    controls = [context.Queue() for _ in range(args.clients)]
    share = [
        games // args.clients + (1 if i < games % args.clients else 0) for i in range(args.clients)
    ]
    clients = [
        context.Process(target=_client, args=(cluster.base_url, n, i + 1, think, controls[i], out))
        for i, n in enumerate(share)
    ]
    for process in clients:
        process.start()
    try:
        _expect(out, "made", args.clients, 600)
        time.sleep(3)
        workers = [pid for i in range(HOSTS) for pid in cluster.worker_pids(i)]
        balancer = [cluster.balancer.popen.pid] if cluster.balancer else []
        before = {"workers": rss_bytes(workers), "haproxy": rss_bytes(balancer)}
        for control in controls:
            control.put("open")
        _expect(out, "open", args.clients, 600)
        time.sleep(5)
        after = {"workers": rss_bytes(workers), "haproxy": rss_bytes(balancer)}
        streams = 2 * games
        idle = {
            "streams": streams,
            "workers_mb_before": round(before["workers"] / 2**20, 1),
            "workers_mb_with_streams": round(after["workers"] / 2**20, 1),
            "worker_kb_per_stream": round(
                (after["workers"] - before["workers"]) / streams / 1024, 1
            ),
            "haproxy_mb_before": round(before["haproxy"] / 2**20, 1),
            "haproxy_mb_with_streams": round(after["haproxy"] / 2**20, 1),
            "haproxy_kb_per_stream": round(
                (after["haproxy"] - before["haproxy"]) / streams / 1024, 1
            ),
        }
        start = time.monotonic() + 1 + WARMUP_SECONDS
        end = start + args.seconds
        load_before = [round(v, 2) for v in os.getloadavg()]
        for control in controls:
            control.put((start, end))
        time.sleep(max(0.0, start - time.monotonic()))
        pg = cluster.postgres_pids()
        counted = {"workers": workers, "postgres": pg, "haproxy": balancer}
        cpu0 = {name: cpu_seconds(pids) for name, pids in counted.items()}
        time.sleep(max(0.0, end - time.monotonic()))
        pg_end = cluster.postgres_pids()  # (backends come and go: those alive at the end)
        cpu1 = {name: cpu_seconds(pids) for name, pids in counted.items()}
        cpu1["postgres"] = cpu_seconds(pg_end) if set(pg_end) == set(pg) else cpu1["postgres"]
        load_after = [round(v, 2) for v in os.getloadavg()]
        results = _expect(out, "done", args.clients, 120)
    finally:
        for process in clients:
            process.join(timeout=30)
            if process.is_alive():
                process.kill()
    seconds = args.seconds
    action_s = [v for r in results for v in r["action_s"]]
    push_s = [v for r in results for v in r["push_s"]]
    acknowledged = sum(r["acknowledged"] for r in results)
    cpu_share = {name: round((cpu1[name] - cpu0[name]) / seconds, 2) for name in counted}
    cpu_share["clients"] = round(sum(r["client_cpu_s"] for r in results) / seconds, 2)
    refused: dict[str, int] = {}
    for r in results:
        for status, count in r["refused"].items():
            refused[str(status)] = refused.get(str(status), 0) + count
    return {
        "players": 2 * games,
        "games": games,
        "action_every_s": args.action_every,
        "seconds": seconds,
        "idle_streams": idle,
        "play": {
            "acknowledged": acknowledged,
            "actions_per_second": round(acknowledged / seconds, 1),
            "actions_per_second_asked": round(2 * games / args.action_every, 1),
            "action": percentiles(action_s),
            "push": percentiles(push_s),
            "never_pushed": sum(r["never_pushed"] for r in results),
            "refused": refused,
            "errors": sum(r["error_count"] for r in results),
            "error_examples": [e for r in results for e in r["errors"]][:5],
            "stream_gaps": sum(r["stream_gaps"] for r in results),
        },
        "cpu_share": cpu_share,
        "cpu_ms_per_action": {
            name: round(1000 * share * seconds / max(1, acknowledged), 2)
            for name, share in cpu_share.items()
        },
        "load_average": {"before": load_before, "after": load_after},
        "targets": {"p99_action_ms": 100, "p99_push_ms": 200},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--action-every", type=float, default=5.0)
    parser.add_argument("--clients", type=int, default=2)
    parser.add_argument("--faults", action="store_true", help="run the fault drill instead")
    parser.add_argument("--tables", type=int, default=8, help="games of the fault drill")
    parser.add_argument("--logs", type=Path, help="keep the hosts' logs in this directory")
    parser.add_argument(
        "--src",
        type=Path,
        default=ROOT / "src",
        help="the fivedice the web hosts run (another tree's src, to compare)",
    )
    parser.add_argument(
        "--leastconn",
        action="store_true",
        help="a copy of deploy/haproxy.cfg without its by-game backend: every request to the"
        " host with the fewest connections",
    )
    parser.add_argument(
        "--cpu-scan-seconds",
        type=float,
        help="with --faults: how often workers look for undriven CPU games (the server's"
        " default: 2)",
    )
    args = parser.parse_args()
    with terminated_as_interrupt(), tempfile.TemporaryDirectory(prefix="fivedice-bench-") as tmp:
        env = default_web_env()
        if args.faults:
            env.update(faults.drill_environment())
            if args.cpu_scan_seconds:
                env["FIVEDICE_CPU_SCAN_SECONDS"] = str(args.cpu_scan_seconds)
        config = HAPROXY_CONFIG
        if args.leastconn:
            config = Path(tmp) / "haproxy-leastconn.cfg"
            by_game = "    use_backend fivedice_by_game if { path_beg /api/games/ }\n"
            assert by_game in HAPROXY_CONFIG.read_text()
            config.write_text(HAPROXY_CONFIG.read_text().replace(by_game, ""))
        with Cluster.build(
            Path(tmp), web_env=env, haproxy_config=config, src=args.src.resolve()
        ) as cluster:
            if args.faults:
                figures, _crowd = asyncio.run(faults.drill(cluster, tables=args.tables))
                print(faults.table_text(figures), file=sys.stderr)
                print(json.dumps(faults.as_json(figures), indent=2))
            else:
                try:
                    figures = measure(cluster, args)
                    by_game = "/api/games/ID by game, the rest leastconn"
                    figures["balance"] = "leastconn" if args.leastconn else by_game
                    print(json.dumps(figures, indent=2))
                finally:
                    if args.logs:
                        args.logs.mkdir(parents=True, exist_ok=True)
                        for log in Path(tmp).glob("*.log"):
                            shutil.copy(log, args.logs / log.name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
