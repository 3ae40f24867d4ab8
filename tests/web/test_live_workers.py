"""Two `fivedice serve` processes on one PostgreSQL database (a throwaway cluster):
a stream on worker A sees an action posted to worker B (LISTEN/NOTIFY), and a worker killed
(SIGKILL) in the middle of a CPU turn leaves the game to the other one (advisory lock)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import httpx
import psycopg
import pytest

from tests.support.network import free_port
from tests.web.live_helpers import data, events, take, wait_until


class Worker:
    def __init__(self, url: str, tmp_path, name: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {
            **os.environ,
            "FIVEDICE_SECRET": "the-secret-of-the-two-workers-test",
            "FIVEDICE_CPU_DELAY_MS": "500",
            "FIVEDICE_CPU_SCAN_SECONDS": "0.5",
            "XDG_DATA_HOME": str(tmp_path / name),
        }
        command = [sys.executable, "-m", "fivedice.cli", "serve", "--port", str(self.port),
                   "--db", url]  # fmt: skip
        self.log = open(tmp_path / f"{name}.log", "wb")  # noqa: SIM115
        self.process = subprocess.Popen(command, env=env, stdout=self.log, stderr=self.log)

        def up() -> bool:
            assert self.process.poll() is None, (tmp_path / f"{name}.log").read_text()
            try:
                return httpx.get(f"{self.base}/api/games/1-0", timeout=2).status_code == 404
            except httpx.HTTPError:
                return False

        wait_until(up, f"worker {name} to start")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()


@pytest.fixture
def workers(cluster, tmp_path):
    started = []
    try:
        for name in ("a", "b"):
            started.append(Worker(cluster.url, tmp_path, name))
        yield started
    finally:
        for worker in started:
            worker.stop()


def _act(base, game, headers, action, version):
    answer = httpx.post(
        f"{base}/api/games/{game}/actions",
        json={"action": action, "version": version},
        headers=headers,
    )
    assert answer.status_code == 200, answer.text
    return answer.json()


def _driver_pid(cluster, game_number: int) -> int | None:
    """The OS process id of the worker holding a game's advisory lock (see driver.py)."""
    from fivedice.store.pg_lease import LOCK_CLASS

    url = cluster.url.replace("postgresql+psycopg", "postgresql")
    with psycopg.connect(url, autocommit=True) as connection:
        row = connection.execute(
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a USING (pid)"
            " WHERE l.locktype = 'advisory' AND l.classid = %s AND l.objid = %s AND l.granted",
            (LOCK_CLASS, game_number),
        ).fetchone()
    return int(row[0].rsplit("-", 1)[1]) if row else None


def test_two_workers_share_streams_and_cpus(cluster, workers):
    a, b = workers
    made = httpx.post(
        f"{a.base}/api/games",
        json={"players": [{"name": "Ann"}, {"name": "Cee", "kind": "cpu"}], "seed": 11},
    )
    assert made.status_code == 201, made.text
    game = made.json()
    gid = game["id"]
    ann = {"Authorization": f"Bearer {game['tokens'][0]['token']}"}
    # A stream on worker A sees the action posted to worker B.
    with httpx.stream("GET", f"{a.base}/api/games/{gid}/events", timeout=60) as response:
        stream = events(response)
        assert take(stream, 1)[0]["id"] == "0"
        _act(b.base, gid, ann, "roll", 0)
        (seen,) = take(stream, 1)
        assert seen["id"] == "1" and data(seen) == httpx.get(f"{a.base}/api/games/{gid}").json()
    # Ann ends her turn on B; a CPU turn starts; the worker driving it is killed mid-turn
    # (a CPU turn that ended before the kill could happen is tried again, a turn later).
    game_number = int(gid.split("-")[0])
    state = _act(b.base, gid, ann, "score chance", 1)
    for _attempt in range(5):
        assert state["is_cpu_turn"]
        start = state["version"]
        wait_until(
            lambda start=start: httpx.get(f"{a.base}/api/games/{gid}").json()["version"] > start,
            "the CPU's first step",
        )
        driver = _driver_pid(cluster, game_number)
        state = httpx.get(f"{a.base}/api/games/{gid}").json()
        if driver is not None and state["is_cpu_turn"]:
            break
        state = wait_until(
            lambda: (lambda g: g if not g["is_cpu_turn"] else None)(
                httpx.get(f"{a.base}/api/games/{gid}").json()
            ),
            "Ann's turn",
        )
        state = _act(b.base, gid, ann, "roll", state["version"])
        box = state["placements"][0]
        state = _act(b.base, gid, ann, f"score {box['box']}", state["version"])
    else:
        pytest.fail("no CPU turn could be caught in the middle")
    victim, survivor = (a, b) if driver == a.process.pid else (b, a)
    assert driver == victim.process.pid
    os.kill(victim.process.pid, signal.SIGKILL)
    victim.process.wait(timeout=20)
    # The game goes on: the other worker takes the CPU's turn over and ends it.
    final = wait_until(
        lambda: (lambda g: g if not g["is_cpu_turn"] else None)(
            httpx.get(f"{survivor.base}/api/games/{gid}").json()
        ),
        "the surviving worker to finish the CPU's turn",
    )
    assert final["current_seat"] == 0 and final["players"][1]["total"] > 0
    assert _driver_pid(cluster, game_number) is None  # nobody holds the game now
    # Exactly once: every action of the log is numbered 1..version, none twice.
    url = cluster.url.replace("postgresql+psycopg", "postgresql")
    with psycopg.connect(url) as connection:
        numbers = [
            row[0]
            for row in connection.execute(
                "SELECT seq FROM actions WHERE game_id = %s ORDER BY seq", (game_number,)
            )
        ]
    assert numbers == list(range(1, final["version"] + 1))
    _act(survivor.base, gid, ann, "roll", final["version"])


def test_a_game_abandoned_by_another_worker_reaches_the_streams(cluster, workers):
    """Worker B abandons a game (its status changes, not its version) and notifies
    `a:ID:VERSION`: the stream on worker A gets the "abandoned" event, and A answers with
    the game as abandoned (its cached view of the game was dropped)."""
    from fivedice.service.games import GameService
    from fivedice.store.notices import Notice, Topic

    a, _b = workers
    made = httpx.post(f"{a.base}/api/games", json={"players": [{"name": "Ann"}]})
    assert made.status_code == 201, made.text
    gid = made.json()["id"]
    ann = {"Authorization": f"Bearer {made.json()['tokens'][0]['token']}"}
    _act(a.base, gid, ann, "roll", 0)
    number = int(gid.split("-")[0])
    with httpx.stream("GET", f"{a.base}/api/games/{gid}/events", timeout=60) as response:
        stream = events(response)
        assert take(stream, 1)[0]["id"] == "1"
        other = GameService.open(cluster.url)  # worker B's write and its notification
        try:
            other.abandon(number)
            other.store.notify(Notice(Topic.ENDED, number, 1))
        finally:
            other.store.close()
        (ended,) = take(stream, 1)
    assert ended["event"] == "abandoned" and ended["id"] == "1"
    assert data(ended)["status"] == "abandoned" and data(ended)["server_seed"]
    assert httpx.get(f"{a.base}/api/games/{gid}").json()["status"] == "abandoned"


def test_room_streams_on_both_workers_hear_a_join_made_on_one(cluster, workers):
    # Each worker's watchers share one read of the room per change (SharedReads): the
    # watchers of the worker that did not make the change hear it through PostgreSQL.
    a, b = workers
    made = httpx.post(
        f"{a.base}/api/rooms",
        json={"players": [{"name": "Ann", "kind": "me"}, {"name": "Bob", "kind": "friend"}]},
    )
    assert made.status_code == 201, made.text
    code = made.json()["room"]["code"]
    invitation = made.json()["invitations"][0]["invitation"]
    with (
        httpx.stream("GET", f"{a.base}/api/rooms/{code}/events", timeout=30) as on_a,
        httpx.stream("GET", f"{a.base}/api/rooms/{code}/events", timeout=30) as again_on_a,
        httpx.stream("GET", f"{b.base}/api/rooms/{code}/events", timeout=30) as on_b,
    ):
        streams = [events(response) for response in (on_a, again_on_a, on_b)]
        assert [data(next(stream))["version"] for stream in streams] == [0, 0, 0]
        joined = httpx.post(f"{b.base}/api/rooms/{code}/join", json={"invitation": invitation})
        assert joined.status_code == 200, joined.text
        heard = [data(next(stream)) for stream in streams]
    assert [room["version"] for room in heard] == [1, 1, 1]
    assert all(room["seats"][1]["joined"] for room in heard)
