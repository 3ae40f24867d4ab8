"""What one client can make a server do: creations, code guesses, sheets and new solves.

Starts `fivedice serve` (one worker, a temporary SQLite file, a private empty strategy cache)
on a free loopback port and, from one client (one loopback address per measure), for
`--seconds` each:

* creates games (`POST /api/games`) and rooms (`POST /api/rooms`) as fast as it is answered:
  how many were made per second, and how many refused (429);
* looks up wrong room codes: how many were answered 404 (a guess checked) per second;
* asks a 60-column Maxi Yatzy sheet (`/sheet.pdf`) three times, and the same with 20 columns
  of rules each (1,200 columns of scores): the server's CPU seconds per answer and the status;
* asks hints on `--rule-sets` rule sets nobody solved: how many were solved (200), refused
  (503) and the server's CPU seconds.

Prints one JSON object. Run it against another checkout with PYTHONPATH (the server is
started with the same environment) to compare:

    PYTHONPATH=src .venv/bin/python benchmarks/bench_rates.py [--seconds 10] [--rule-sets 5]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) of a process and its living descendants."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    family = {pid}
    stats: dict[int, list[str]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                text = (entry / "stat").read_text()
            except OSError:
                continue
            stats[int(entry.name)] = text.rsplit(")", 1)[1].split()
    changed = True
    while changed:
        changed = False
        for child, fields in stats.items():
            if child not in family and int(fields[1]) in family:
                family.add(child)
                changed = True
    for member in family:
        fields = stats.get(member)
        if fields:
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


@contextmanager
def _server(directory: Path) -> Iterator[tuple[str, int]]:
    url = f"sqlite:///{directory / 'bench.sqlite3'}"
    port = _free_port()
    env = {
        **os.environ,
        "FIVEDICE_SECRET": uuid.uuid4().hex,
        "FIVEDICE_CACHE_DIR": str(directory / "cache"),
    }
    env.pop("FIVEDICE_SOLVE_RULES", None)
    command = [
        sys.executable, "-m", "fivedice.cli", "serve", "--host", "127.0.0.1",
        "--port", str(port), "--workers", "1", "--db", url,
    ]  # fmt: skip
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
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
        yield base, process.pid
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _for_seconds(seconds: float, request: Callable[[], int]) -> dict[str, Any]:
    """Makes requests one after another for `seconds`: statuses counted, per second."""
    counts: dict[str, int] = {}
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        status = str(request())
        counts[status] = counts.get(status, 0) + 1
    elapsed = time.monotonic() - started
    return {
        "seconds": round(elapsed, 1),
        "statuses": counts,
        "per_second": {status: round(n / elapsed, 1) for status, n in counts.items()},
    }


def _timed(pid: int, request: Callable[[], httpx.Response]) -> dict[str, Any]:
    before = _cpu_seconds(pid)
    response = request()
    return {"status": response.status_code, "server_cpu_s": round(_cpu_seconds(pid) - before, 3)}


def _hint_on_new_rules(client: httpx.Client, full_house: int) -> int:
    body = {"players": [{"name": "Solo"}], "set": {"full_house": full_house}}
    game = client.post("/api/games", json=body)
    if game.status_code != 201:
        return game.status_code
    data = game.json()
    headers = {"Authorization": f"Bearer {data['tokens'][0]['token']}"}
    rolled = client.post(
        f"/api/games/{data['id']}/actions",
        json={"action": "roll", "version": data["version"]},
        headers=headers,
    )
    if rolled.status_code != 200:
        return rolled.status_code
    return client.get(f"/api/games/{data['id']}/hint", headers=headers).status_code


def _client(base: str, address: str) -> httpx.Client:
    """A client from its own loopback address (each measure is one fresh client)."""
    transport = httpx.HTTPTransport(local_address=address)
    return httpx.Client(base_url=base, timeout=120, transport=transport)


def measure(base: str, pid: int, seconds: float, rule_sets: int) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    with _client(base, "127.0.0.2") as client:
        solo = {"players": [{"name": "Ann"}]}
        figures["games"] = _for_seconds(
            seconds, lambda: client.post("/api/games", json=solo).status_code
        )
    with _client(base, "127.0.0.3") as client:
        room = {"players": [{"name": "Ann", "kind": "me"}, {"name": "Bob"}]}
        figures["rooms"] = _for_seconds(
            seconds, lambda: client.post("/api/rooms", json=room).status_code
        )
    with _client(base, "127.0.0.4") as client:
        figures["wrong_codes"] = _for_seconds(
            seconds, lambda: client.get("/api/rooms/QQQQQQ").status_code
        )
    with _client(base, "127.0.0.5") as client:
        plain = "/sheet.pdf?preset=maxi-yatzy&columns=60"
        figures["sheet_60_columns"] = [_timed(pid, lambda: client.get(plain)) for _ in range(3)]
        wide = plain + "&opt_column_multipliers=" + ",".join(["1"] * 20)
        figures["sheet_60_columns_of_20"] = [
            _timed(pid, lambda: client.get(wide)) for _ in range(3)
        ]
    with _client(base, "127.0.0.6") as client:
        before = _cpu_seconds(pid)
        solves = [_hint_on_new_rules(client, 21 + n) for n in range(rule_sets)]
        figures["new_rule_sets"] = {
            "statuses": solves,
            "solved": solves.count(200),
            "server_cpu_s": round(_cpu_seconds(pid) - before, 1),
        }
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rule-sets", type=int, default=5)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory, _server(Path(directory)) as (base, pid):
        print(json.dumps(measure(base, pid, options.seconds, options.rule_sets), indent=1))


if __name__ == "__main__":
    main()
