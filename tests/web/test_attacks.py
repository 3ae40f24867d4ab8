"""One client cannot knock the server over, nor take a seat: a real `fivedice serve` (SQLite,
one worker, the common 1,024-file limit) under the attacks of the public edge. The server is
started once for the module; each attack runs over HTTP from its own loopback address
(Linux routes all of 127/8 to loopback), as the rates and caps are per address.

The first test floods from 127.0.0.2 while a player at 127.0.0.1 asks for the game every 0.5 s
on a new connection and is answered within 1 s. Before the limits, 1,010 half-sent requests
or ~1,000 event streams from one address left no file descriptor to accept anyone else (every
request of the player failed), and slowloris connections stayed open as long as they dripped
(benchmarks/attacks.py has the figures). The others: a 20 MB body, JSON 3,000 deep, 80 wrong
room codes, a stranger with a room code, a used invitation, six starts at once, a forged
session id and a handed-over seat's old token (the in-process versions, with more cases, are
in test_limits.py, test_rates.py, test_seat_rights.py, test_rooms.py and test_sessions.py),
60-column PDF sheets 8 at once, and the floods again on PostgreSQL with two workers (each
worker keeps its own caps; marked `postgres`, it needs `scripts/with-postgres.sh`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import resource
import secrets
import socket
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from fivedice.web.guard import SESSION_COOKIE, is_issued_session
from fivedice.web.security import Signer
from tests.support.network import free_port
from tests.web.support import ANN, BOB, FORM, api_room, given_session, started_api_room

pytestmark = pytest.mark.processes

ATTACKER = "127.0.0.2"  # Linux routes all of 127/8 to loopback
HEADER_TIMEOUT = 3.0
ATTACKS = 1100
WORKER_ATTACKS = 600  # per attack on two workers: more than both workers let one address hold
PLAYER_BOUND = 1.0  # seconds: the "answered within 1 s" (idle: ~5 ms)
CLOSE_MARGIN = 4.0  # seconds a closing may come after the header timeout on a loaded machine
# (the attacker's own event loop, juggling 1,100 sockets beside a busy test worker, notices a
# close late; what matters is that nothing is still open at HEADER_TIMEOUT + CLOSE_MARGIN + 1)
SERVER_SECRET = "a-secret-for-this-test-only"
SHEET_RATE = "6/minute"  # (the default 20 would take the test 8–26 s to use up)
RENDERING_MEDIAN_BOUND = 0.2  # seconds: 0.3–0.5 s with 8 renders at once, 20–40 ms one by one
QUICK = 2.0  # seconds: a refusal that reads nothing (measured ~0.04 s; a loaded 2-core machine)


@contextlib.contextmanager
def serving(database_url: str, folder: Path, *options: str):
    """`fivedice serve` with 1,024 files (each process) and a 3 s header timeout, answering;
    yields (port, process). Its output goes to a file in `folder` (a pipe nobody reads
    would fill up and stall the server)."""

    def limit_files() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))

    port = free_port()
    command = [
        sys.executable, "-m", "fivedice.cli", "serve", "--host", "0.0.0.0",
        "--port", str(port), "--db", database_url,
        "--header-timeout", str(HEADER_TIMEOUT), *options,
    ]  # fmt: skip
    env = {**os.environ, "FIVEDICE_SECRET": SERVER_SECRET, "FIVEDICE_RATE_SHEETS": SHEET_RATE}
    with open(folder / "server.log", "wb") as log:
        process = subprocess.Popen(
            command, env=env, preexec_fn=limit_files, stdout=log, stderr=subprocess.STDOUT
        )
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)), hard))
        try:
            try:
                asyncio.run(started_game(port, process))  # (answering)
            except AssertionError:
                raise AssertionError((folder / "server.log").read_text()[-3000:]) from None
            yield port, process
        finally:
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()


@pytest.fixture(scope="module")
def running(tmp_path_factory):
    """The SQLite server (one worker) shared by the module's tests, each attack from its own
    loopback address where the rates are per address; yields (port, process, database)."""
    folder = tmp_path_factory.mktemp("attacks")
    database = folder / "attacks.sqlite3"
    with serving(f"sqlite:///{database}", folder) as (port, process):
        yield port, process, database


@pytest.fixture
def server(running):
    """The running server's (port, process)."""
    port, process, _database = running
    return port, process


async def exchange(port: int, request: bytes, source: str = "127.0.0.1") -> tuple[int, bytes]:
    """One request on a new connection: (status, body)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    try:
        writer.write(request)
        answer = await reader.read()
    finally:
        writer.close()
    head, _sep, body = answer.partition(b"\r\n\r\n")
    status = head.split(b" ", 2)
    return (int(status[1]) if len(status) > 1 else 0), body  # 0: closed without an answer


async def started_game(port: int, process: subprocess.Popen[bytes]) -> str:
    body = json.dumps({"players": [{"name": "Ann"}]}).encode()
    request = (
        b"POST /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body)
    ) + body
    deadline = time.monotonic() + 120  # (a loaded 2-core machine: ~26 s seen at load 8)
    while True:
        try:
            status, answer = await exchange(port, request)
            assert status == 201, answer
            return str(json.loads(answer)["id"])
        except OSError:
            assert process.poll() is None, "the server stopped"
            assert time.monotonic() < deadline, "the server did not start"
            await asyncio.sleep(0.2)


class Player:
    """Asks for the game every 0.5 s from 127.0.0.1 (a new connection each time, so that a
    server that cannot accept shows); each answer's time, or what went wrong."""

    def __init__(self, port: int, game: str) -> None:
        self.request = f"GET /api/games/{game} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        self.port = port
        self.answers: list[float | str] = []
        self.asked: list[tuple[float, float | str]] = []  # (when asked, its answer)
        self.asking: set[asyncio.Task[None]] = set()
        self.sent = 0  # asks started (each ends with one answer, whatever happens)
        # A connection closed before any answer is asked again at once, as a browser does
        # with a GET, when this is set; `retried` counts those.
        self.retry_unanswered = False
        self.retried = 0

    async def ask(self) -> None:
        started = time.monotonic()
        try:
            status, _body = await asyncio.wait_for(exchange(self.port, self.request.encode()), 30)
            if status == 0 and self.retry_unanswered:  # closed unanswered: asked again at once
                self.retried += 1
                status, _body = await asyncio.wait_for(
                    exchange(self.port, self.request.encode()), 30
                )
            self.answers.append(time.monotonic() - started if status == 200 else str(status))
        except (OSError, TimeoutError) as error:
            self.answers.append(type(error).__name__)
        self.asked.append((started, self.answers[-1]))

    async def play(self) -> None:
        while True:
            self.sent += 1
            task = asyncio.create_task(self.ask())
            self.asking.add(task)
            task.add_done_callback(self.asking.discard)
            await asyncio.sleep(0.5)

    async def stop(self) -> None:
        await asyncio.gather(*self.asking)


async def attacking_connection(port: int, request: bytes, hold: float, drip: bool = False):
    """From 127.0.0.2: sends `request` (a byte a second when `drip`) and waits up to `hold` s.
    Returns (what came: "open", "closed", "reset", a status line's code; after how long)."""
    started = time.monotonic()
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(ATTACKER, 0))
    except OSError:
        return "reset", 0.0
    try:
        pending = list(request) if drip else [request]
        while True:
            if pending:
                piece = pending.pop(0)
                writer.write(bytes([piece]) if drip else piece)
            wait = 1.0 if drip and pending else hold - (time.monotonic() - started)
            try:
                data = await asyncio.wait_for(reader.read(100), max(wait, 0.01))
            except TimeoutError:
                if time.monotonic() - started >= hold:
                    return "open", hold
                continue
            took = time.monotonic() - started
            if data.startswith(b"HTTP/1.1 200"):  # a stream: held open (and still open?)
                while data and time.monotonic() - started < hold:
                    with contextlib.suppress(TimeoutError):
                        data = await asyncio.wait_for(reader.read(1000), 0.2)
                return ("200" if data else "200 closed"), took
            return (data[9:12].decode() if data.startswith(b"HTTP/") else "closed"), took
    except OSError:
        return "reset", time.monotonic() - started
    finally:
        writer.close()


def test_one_address_cannot_starve_a_player(server):
    port, process = server

    async def attacks():
        game = await started_game(port, process)
        player = Player(port, game)
        player.retry_unanswered = True
        playing = asyncio.create_task(player.play())
        await asyncio.sleep(1.0)

        attacked = time.monotonic()
        half_sent = f"GET /api/games/{game} HTTP/1.1\r\nHost: x\r\nX-Wait: ".encode()
        hold = HEADER_TIMEOUT + CLOSE_MARGIN + 1
        first = await asyncio.gather(
            *(attacking_connection(port, half_sent, hold) for _ in range(ATTACKS))
        )
        stream = f"GET /api/games/{game}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode()
        second = await asyncio.gather(
            *(attacking_connection(port, stream, 3.0) for _ in range(ATTACKS))
        )
        slow = f"GET /api/games/{game} HTTP/1.1\r\nHost: x\r\nX-Slow: {'a' * 40}\r\n\r\n"
        third = await attacking_connection(port, slow.encode(), hold, drip=True)
        await asyncio.sleep(1.0)
        playing.cancel()
        await player.stop()
        during = [answer for asked, answer in player.asked if asked >= attacked]
        return player, during, first, second, third

    player, during, first, second, third = asyncio.run(attacks())

    # Nothing refused or lost: every ask of the player, before and during the attacks, was
    # answered 200 (none refused, reset or left 30 s without an answer; a connection closed
    # unanswered, seen now and then at a load of 12 on two cores, is asked again once, as a
    # browser would, and must then be answered). Neither a count in a time window nor a tight
    # bound: a loaded machine asks less often and answers later, and that starves no one.
    answers = player.answers
    assert len(answers) == player.sent and during, (player.sent, answers)
    assert all(isinstance(took, float) for took in answers), (answers, player.retried)
    assert player.retried <= len(answers) // 4, (answers, player.retried)
    # The half-sent requests the server took were closed at the header timeout; the rest
    # were refused at once (429) or reset, none left open. (A refusal closed at once may be
    # noticed a second or more late by this busy event loop, so what was closed at the
    # header timeout is told apart by time: nothing the server took closes before it.)
    closed = [took for outcome, took in first if outcome == "closed"]
    timed_out = [took for took in closed if took >= HEADER_TIMEOUT - 0.5]
    assert len(timed_out) >= 40, sorted(first)
    late = [took for took in timed_out if took > HEADER_TIMEOUT + CLOSE_MARGIN]
    assert not late, sorted(late)
    assert not [outcome for outcome, _took in first if outcome == "open"]
    assert sum(outcome == "429" for outcome, _took in first) >= 10
    # Of the streams, one address holds at most its share; the rest were told to retry.
    streams = [outcome for outcome, _took in second if outcome == "200"]
    assert 1 <= len(streams) <= 20
    assert sum(outcome == "429" for outcome, _took in second) >= 30
    assert {outcome for outcome, _took in second} <= {"200", "429", "closed", "reset"}
    # The slowloris connection was closed at the header timeout, its headers unfinished.
    outcome, took = third
    assert outcome == "closed" and HEADER_TIMEOUT - 0.5 <= took <= HEADER_TIMEOUT + CLOSE_MARGIN


# -- the rest of the list, each over HTTP against the same server --------------------------


def http(port: int, source: str = "127.0.0.1", **headers: str) -> httpx.Client:
    """A client of the running server that connects from `source` (a loopback address)."""
    return httpx.Client(
        base_url=f"http://127.0.0.1:{port}",
        transport=httpx.HTTPTransport(local_address=source),
        headers=headers,
        timeout=30,
    )


def games_in(database: Path) -> int:
    """How many games the server's database holds."""
    with contextlib.closing(sqlite3.connect(database)) as connection:
        return int(connection.execute("SELECT count(*) FROM games").fetchone()[0])


def sent_whole(port: int, request: bytes, source: str) -> tuple[int, bytes]:
    """Sends all of `request` (in a thread) while reading the answer, as a client that never
    waits would; (status, body). The server answers before the body is in, and the rest of
    what is sent is refused (a reset), so the answer is read as it comes."""
    with socket.create_connection(("127.0.0.1", port), 30, source_address=(source, 0)) as sock:

        def send() -> None:
            with contextlib.suppress(OSError):
                sock.sendall(request)

        sender = threading.Thread(target=send)
        sender.start()
        received = b""
        with contextlib.suppress(OSError):
            while chunk := sock.recv(65536):
                received += chunk
        sender.join(30)
    head, _sep, body = received.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


def test_a_20_mb_json_body_is_refused_at_once_with_a_small_413_and_creates_nothing(running):
    port, _process, database = running
    before = games_in(database)
    body = b'{"players": [{"name": "' + b"x" * (20 * 1024 * 1024) + b'"}]}'
    request = (
        b"POST /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body)
    ) + body
    started = time.monotonic()
    status, answer = sent_whole(port, request, "127.0.0.3")
    took = time.monotonic() - started
    assert status == 413 and len(answer) < 300, answer[:300]
    assert "too large" in json.loads(answer)["detail"]
    assert took < QUICK, took  # measured ~0.04 s: nothing of the 20 MB was parsed
    assert games_in(database) == before


def test_json_nested_3000_deep_is_a_422_not_a_500(running):
    port, process, _database = running
    game = asyncio.run(started_game(port, process))
    deep = b'{"version": 0, "action": ' + b"[" * 3000 + b"]" * 3000 + b"}"
    json_type = {"Content-Type": "application/json"}
    with http(port, "127.0.0.3") as client:
        for path in (f"/api/games/{game}/actions", "/api/games", "/api/rooms"):
            answer = client.post(path, content=deep, headers=json_type)
            assert answer.status_code == 422, (path, answer.text[:300])
            assert "nested" in answer.json()["detail"] and len(answer.content) < 300


def test_80_wrong_room_codes_are_429s_while_another_address_opens_a_right_code(running):
    port, _process, _database = running
    with http(port, ATTACKER) as attacker, http(port) as player:
        room = api_room(player, ANN, {"name": "Cyd", "kind": "open"})
        code = room["room"]["code"]
        answers = [attacker.get(f"/api/rooms/WRONG{n % 10}") for n in range(80)]
        statuses = [answer.status_code for answer in answers]
        assert statuses[:10] == [404] * 10  # the allowance: ten wrong codes a minute
        assert set(statuses[10:]) == {429}
        assert all(1 <= int(answer.headers["Retry-After"]) <= 60 for answer in answers[10:])
        assert attacker.get(f"/api/rooms/{code}").status_code == 429  # even a right one
        # The player's address is not counted with the attacker's: the right code opens.
        assert player.get(f"/api/rooms/{code}").status_code == 200
        joined = player.post(f"/api/rooms/{code}/join", json={"name": "Cyd"})
        assert joined.status_code == 200 and joined.json()["seat"] == 1


def test_a_stranger_with_the_room_code_cannot_take_an_invited_seat(running):
    port, _process, _database = running
    with http(port) as host, http(port, "127.0.0.4") as stranger:
        room = api_room(host, ANN, BOB)
        code = room["room"]["code"]
        assert stranger.get(f"/api/rooms/{code}").status_code == 200  # the code is right
        for body in ({"name": "Mallory"}, {}, {"invitation": "x" * 32}):
            refused = stranger.post(f"/api/rooms/{code}/join", json=body)
            assert refused.status_code in (403, 409), refused.text
            assert "device_key" not in refused.text
        seats = host.get(f"/api/rooms/{code}").json()["seats"]
        assert [seat["joined"] for seat in seats] == [True, False]


def test_a_used_invitation_joins_nobody_else_nor_the_host(running):
    port, _process, _database = running
    with http(port) as host, http(port, "127.0.0.4") as bob, http(port, "127.0.0.5") as eve:
        room = api_room(host, ANN, BOB)
        code, invitation = room["room"]["code"], room["invitations"][0]["invitation"]
        claimed = bob.post(f"/api/rooms/{code}/join", json={"invitation": invitation})
        assert claimed.status_code == 200 and claimed.json()["seat"] == 1
        for other in (eve, host):
            again = other.post(f"/api/rooms/{code}/join", json={"invitation": invitation})
            assert again.status_code == 409 and "device_key" not in again.text
        # The invitation is no key to the seat either (before the start and after it).
        as_key = {"Authorization": f"Bearer {invitation}"}
        assert eve.get(f"/api/rooms/{code}/seat", headers=as_key).status_code == 401
        host_key = {"Authorization": f"Bearer {room['host_key']}"}
        version = host.get(f"/api/rooms/{code}", headers=host_key).json()["version"]
        started = host.post(f"/api/rooms/{code}/start", json={"version": version}, headers=host_key)
        assert started.status_code == 200
        assert [token["seat"] for token in started.json()["tokens"]] == [0]  # the host's own
        assert host.get(f"/api/rooms/{code}/seat", headers=as_key).status_code == 401
        device = {"Authorization": f"Bearer {claimed.json()['device_key']}"}
        held = bob.get(f"/api/rooms/{code}/seat", headers=device).json()["tokens"]
        assert [token["seat"] for token in held] == [1]


def test_six_simultaneous_starts_of_one_room_make_one_game(running):
    port, _process, database = running
    with http(port) as host:
        room = api_room(host, ANN, {"name": "Bob"})
    code, version = room["room"]["code"], room["room"]["version"]
    host_key = {"Authorization": f"Bearer {room['host_key']}"}
    before = games_in(database)
    barrier = threading.Barrier(6)

    def start() -> httpx.Response:
        with http(port) as client:
            body = {"version": version, "fill_with_cpus": True}
            barrier.wait(30)
            return client.post(f"/api/rooms/{code}/start", json=body, headers=host_key)

    with ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(lambda _n: start(), range(6)))
    assert sorted(answer.status_code for answer in answers) == [200, 409, 409, 409, 409, 409]
    assert games_in(database) == before + 1


def test_a_forged_session_id_is_replaced_and_grants_nothing(running):
    port, _process, _database = running
    origin = f"http://127.0.0.1:{port}"
    forged = secrets.token_urlsafe(24) + "." + "0" * 32  # the shape of an issued id
    signer = Signer(SERVER_SECRET.encode())
    with http(port, "127.0.0.6", Origin=origin) as victim:
        victim.cookies.set(SESSION_COOKIE, forged)
        page = victim.get("/rules")
        given = given_session(page)
        assert given is not None and given != forged and is_issued_session(signer, given)
        # The victim plays on with the replaced id (its browser keeps the new cookie) ...
        token = re.search(r'<meta name="csrf-token" content="([^"]*)"', page.text).group(1)
        made = victim.post("/games", data={**FORM, "csrf_token": token})
        assert made.status_code == 303, made.text[:300]
        game = made.headers["location"].rsplit("/", 1)[1]
        assert game in victim.get("/resume").text
    # ... and whoever planted the forged id gets a new one of their own and nothing else.
    with http(port, "127.0.0.7") as planter:
        planter.cookies.set(SESSION_COOKIE, forged)
        listed = planter.get("/resume")
        assert given_session(listed) not in (None, forged, given)
        assert game not in listed.text


def test_a_handed_over_seats_old_token_is_refused(running):
    port, _process, _database = running
    with http(port) as client:
        _code, game, host, _ann, _device, bob = started_api_room(client)
        assert client.get(f"/api/games/{game}/hint", headers=bob).status_code == 403  # not his turn
        handed = client.post(
            f"/api/games/{game}/seats/1/cpu", json={"level": "casual"}, headers=host
        )
        assert handed.status_code == 200 and handed.json()["players"][1]["kind"] == "cpu"
        for answer in (
            client.get(f"/api/games/{game}/hint", headers=bob),
            client.post(f"/api/games/{game}/actions", json={"action": "roll", "version": 0},
                        headers=bob),
        ):  # fmt: skip
            assert answer.status_code == 401, answer.text


def test_sheets_asked_eight_at_once_keep_to_the_rate_and_the_player_is_answered(running):
    """60-column Maxi Yatzy PDFs (~0.4 s of CPU each, none cached: other names each time),
    8 at once from one address, batch after batch. Before, every one was rendered, 8 threads
    at a time, and the player waited 0.3–0.5 s per request while they ran (worst 1.2–1.4 s);
    now the address gets its rate (6 a minute here), rendered one at a time (~20–40 ms for
    the player meanwhile), and then 429s."""
    port, process, _database = running

    async def attack() -> tuple[list[tuple[float, float | str]], list[int], float, float]:
        game = await started_game(port, process)
        player = Player(port, game)
        playing = asyncio.create_task(player.play())
        await asyncio.sleep(0.5)
        statuses: list[int] = []
        rendered = [time.monotonic()]

        async def sheet(path: str) -> int:
            request = f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            status, _body = await exchange(port, request.encode(), source=ATTACKER)
            if status == 200:
                rendered.append(time.monotonic())
            return status

        for batch in range(2):  # 16 sheets: more than the 6 a minute
            statuses += await asyncio.gather(
                *(
                    sheet(f"/sheet.pdf?preset=maxi-yatzy&columns=60&players=Sheet+{batch}+{n}")
                    for n in range(8)
                )
            )
        await asyncio.sleep(0.5)
        playing.cancel()
        await player.stop()
        return player.asked, statuses, rendered[0], rendered[-1]

    asked, statuses, first, last = asyncio.run(attack())
    assert statuses.count(200) == 6 and statuses.count(429) == 10, statuses
    answers = [answer for _when, answer in asked]
    assert len(answers) >= 4
    assert all(isinstance(took, float) and took < PLAYER_BOUND for took in answers), answers
    while_rendering = [took for when, took in asked if first <= when <= last - 0.2]
    assert len(while_rendering) >= 3, (asked, first, last)
    assert statistics.median(while_rendering) < RENDERING_MEDIAN_BOUND, while_rendering


@pytest.mark.postgres
def test_two_workers_on_postgresql_each_keep_the_limits(postgres_databases, tmp_path):
    """`--workers 2` on PostgreSQL: each worker caps one address (50 connections, 20
    streams), so the attacker holds at most twice that, and the player is answered within
    1 s throughout (before the limits: all 1,100 half-sent requests held open, 1,001 streams
    refused with 503 and a player request lost; benchmarks/README.md)."""
    url = postgres_databases.create()
    try:
        with serving(url, tmp_path, "--workers", "2") as (port, process):

            async def attacks():
                game = await started_game(port, process)
                player = Player(port, game)
                playing = asyncio.create_task(player.play())
                await asyncio.sleep(1.0)
                half_sent = f"GET /api/games/{game} HTTP/1.1\r\nHost: x\r\nX-Wait: ".encode()
                hold = HEADER_TIMEOUT + CLOSE_MARGIN + 1
                first = await asyncio.gather(
                    *(attacking_connection(port, half_sent, hold) for _ in range(WORKER_ATTACKS))
                )
                stream = f"GET /api/games/{game}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode()
                second = await asyncio.gather(
                    *(attacking_connection(port, stream, 3.0) for _ in range(WORKER_ATTACKS))
                )
                await asyncio.sleep(1.0)
                playing.cancel()
                await player.stop()
                return player.answers, first, second

            answers, first, second = asyncio.run(attacks())
    finally:
        postgres_databases.drop(url)

    assert len(answers) >= 12
    assert all(isinstance(took, float) and took < PLAYER_BOUND for took in answers), answers
    held = [took for outcome, took in first if outcome == "closed" and took >= 1.0]
    assert 40 <= len(held) <= 2 * 50, sorted(first)
    assert all(HEADER_TIMEOUT - 0.5 <= took <= HEADER_TIMEOUT + CLOSE_MARGIN for took in held)
    assert not [outcome for outcome, _took in first if outcome == "open"]
    streams = [outcome for outcome, _took in second if outcome == "200"]
    assert 1 <= len(streams) <= 2 * 20
    assert sum(outcome == "429" for outcome, _took in second) >= 30
