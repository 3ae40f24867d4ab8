"""What the tests of a gentle stop share: a real `fivedice serve`, players who act without
pause and keep a ledger of every request, event streams that record how they ended, and the
check of the ledgers against the stored logs."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import psycopg

from fivedice.store import Store
from tests.support.network import free_port
from tests.web.live_helpers import wait_until

SECRET = "the-secret-of-the-gentle-stop-tests"


class Serve:
    """`fivedice serve` in a process of its own (its log in `tmp_path`)."""

    def __init__(
        self, db: str, tmp_path: Path, *, workers: int = 1, graceful: int = 5, **env: str
    ) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.graceful = graceful
        environment = {
            **os.environ,
            "FIVEDICE_SECRET": SECRET,
            "XDG_DATA_HOME": str(tmp_path / "data"),
            # A process that hangs is sent SIGABRT (`terminate`): every thread's stack is logged.
            "PYTHONFAULTHANDLER": "1",
            # Every player comes from 127.0.0.1 and starts game after game.
            "FIVEDICE_RATE_GAMES": "100000/minute",
            **env,
        }
        command = [
            sys.executable, "-m", "fivedice.cli", "serve", "--port", str(self.port),
            "--db", db, "--workers", str(workers), "--graceful-timeout", str(graceful),
        ]  # fmt: skip
        self.log_path = tmp_path / f"serve-{self.port}.log"
        self.log = open(self.log_path, "wb")  # noqa: SIM115
        self.process = subprocess.Popen(command, env=environment, stdout=self.log, stderr=self.log)
        wait_until(self._answers, "the server to start")

    def _answers(self) -> bool:
        assert self.process.poll() is None, self.log_path.read_text()
        try:
            return httpx.get(f"{self.base}/api/games/1-0", timeout=2).status_code == 404
        except httpx.HTTPError:
            return False

    def workers(self) -> list[int]:
        """The worker processes' ids (several workers: the supervisor's children)."""
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        workers = []
        for pid in children.read_text().split():
            with contextlib.suppress(FileNotFoundError):  # (one that just ended)
                if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes():
                    workers.append(int(pid))  # (not multiprocessing's resource tracker)
        return workers

    def terminate(self) -> float:
        """SIGTERM, then waits for the exit: the seconds it took."""
        began = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=self.graceful + 30)
        except subprocess.TimeoutExpired:
            for pid in [*self.workers(), self.process.pid]:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGABRT)  # (faulthandler logs where it hangs)
            time.sleep(2)
            raise AssertionError(f"still running; see {self.log_path}") from None
        return time.monotonic() - began

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=20)
        self.log.close()


def gone(pid: int) -> bool:
    """Whether a process has exited (a zombie not yet reaped counts)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return True
    return state in ("Z", "X")


def next_action(state: dict) -> str:
    """Roll twice, then score the box worth most (a quick, always legal game), in the
    notation the game itself lists (`legal_actions`), as the log keeps it."""
    legal = state["legal_actions"]
    if "roll" in legal and (state["dice"] is None or state["rolls_used"] < 2):
        return "roll"
    best = max(state["placements"], key=lambda p: p["points"])
    for text in (f"score {best['column']}:{best['box']}", f"score {best['box']}"):
        if text in legal:
            return text
    return next(action for action in legal if action.startswith("score"))


@dataclass
class Request:
    """One request a player sent: when, and what came back (a status, or an error)."""

    action: str
    version: int
    sent: float
    status: int | None = None
    error: str | None = None
    answered: float | None = None


RULES = "triple"  # three columns: 117 actions a game, so a game outlasts a few seconds


@dataclass
class Game:
    """One game a player played, every request kept."""

    id: str
    token: str
    requests: list[Request] = field(default_factory=list)

    def acknowledged(self) -> dict[int, str]:
        """The actions answered 200, by the version they were made at."""
        return {r.version: r.action for r in self.requests if r.status == 200}

    def unanswered(self) -> dict[int, str]:
        """The actions sent without an answer (perhaps saved, perhaps not)."""
        return {r.version: r.action for r in self.requests if r.status is None}


@dataclass
class Player:
    """Solo games played one after the other without pause over one keep-alive connection,
    every request kept.

    An answer of 503 is retried as a browser's page or a balancer would (after a moment);
    a connection lost without an answer is retried once the player has read the game again
    (the action may have been saved; the version check keeps it from being saved twice).
    The player stops when told to, or when the server cannot be reached for 2 s.
    """

    base: str
    seed: int
    games: list[Game] = field(default_factory=list)
    state: dict | None = None
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        with httpx.Client(base_url=self.base, timeout=30) as client:
            while not self.stop.is_set():
                if self.state is None or self.state["status"] != "in_progress":
                    if not self.start(client):
                        return  # the server is gone
                    continue
                if not self._act(client, self.games[-1]):
                    return

    def start(self, client: httpx.Client) -> bool:
        """A new game (tried again for 2 s while the server refuses)."""
        body = {"players": [{"name": "Ann"}], "seed": self.seed + len(self.games), "rules": RULES}
        for _attempt in range(20):
            try:
                made = client.post("/api/games", json=body)
            except httpx.HTTPError:
                made = None
            if made is not None and made.status_code == 201:
                self.state = made.json()
                self.games.append(Game(self.state["id"], self.state["tokens"][0]["token"]))
                return True
            time.sleep(0.1)
        return False

    def _act(self, client: httpx.Client, game: Game) -> bool:
        assert self.state is not None
        action, version = next_action(self.state), self.state["version"]
        request = Request(action, version, time.monotonic())
        game.requests.append(request)
        try:
            answer = client.post(
                f"/api/games/{game.id}/actions",
                json={"action": action, "version": version},
                headers={"Authorization": f"Bearer {game.token}"},
            )
        except httpx.HTTPError as error:
            request.error = type(error).__name__
            return self._read_again(client, game)
        request.status, request.answered = answer.status_code, time.monotonic()
        if answer.status_code == 200:
            self.state = answer.json()
        elif answer.status_code == 503:
            time.sleep(0.05)
        elif answer.status_code == 409:
            return self._read_again(client, game)
        else:
            raise AssertionError(answer.text)
        return True

    def _read_again(self, client: httpx.Client, game: Game) -> bool:
        for _attempt in range(20):
            try:
                answer = client.get(f"/api/games/{game.id}")
            except httpx.HTTPError:
                time.sleep(0.1)
                continue
            if answer.status_code == 200:
                self.state = answer.json()
                return True
            time.sleep(0.1)
        return False

    def requests(self) -> list[Request]:
        """Every request of every game, in order."""
        return [request for game in self.games for request in game.requests]

    def playing_at(self, moment: float) -> bool:
        """Whether the player was in the middle of its games at `moment` (something of
        them was sent or answered after it)."""
        return any(r.sent >= moment or (r.answered or 0) >= moment for r in self.requests())


def new_player(base: str, seed: int) -> Player:
    """A player with its first game made (a stream of it may be opened now)."""
    player = Player(base, seed)
    with httpx.Client(base_url=base, timeout=30) as client:
        assert player.start(client)
    return player


@dataclass
class Stream:
    """A game's event stream, as a browser's EventSource reads it: told to move (`retry:` and
    a `moving` event, web/live.py), it connects again after that delay with the Last-Event-ID
    of the last version it got; it ends when the server cannot be reached any more."""

    url: str
    ids: list[int] = field(default_factory=list)  # the versions it got, in order
    endings: list[list[str]] = field(default_factory=list)  # each connection's last block
    error: str | None = None  # a connection broken without being told to move
    _answered: bool = False  # (whether the current connection's answer began)
    REFUSALS = 5  # connections refused in a row before it gives up (the server is gone)

    def run(self) -> None:
        refused = 0
        while refused < self.REFUSALS:
            headers = {"Last-Event-ID": str(self.ids[-1])} if self.ids else {}
            self._answered = False
            try:
                ending = self._read(headers)
            except _Refused as refusal:
                self.error = str(refusal)
                return
            except httpx.HTTPError as error:
                if self._answered:  # broken in the middle, without being told to move
                    self.error = type(error).__name__
                    return
                # Not answered: refused, or reset while queued at a socket that was closing
                # (a browser tries again the same way).
                refused += 1
                time.sleep(0.2)
                continue
            refused = 0
            self.endings.append(ending)
            if not _moving(ending):
                return
            time.sleep(int(ending[0].removeprefix("retry: ")) / 1000)

    def _read(self, headers: dict[str, str]) -> list[str]:
        block: list[str] = []
        last: list[str] = []
        with httpx.stream("GET", self.url, headers=headers, timeout=60) as response:
            self._answered = True
            if response.status_code != 200:
                raise _Refused(f"HTTP {response.status_code}")
            for line in response.iter_lines():
                if line:
                    block.append(line)
                    continue
                for item in block:
                    if item.startswith("id: "):
                        self.ids.append(int(item[4:]))
                if block and not block[0].startswith(":"):
                    last = block
                block = []
        return last

    @property
    def always_told(self) -> bool:
        """Whether every connection of it ended with `retry:` and a `moving` event."""
        return bool(self.endings) and all(_moving(ending) for ending in self.endings)

    @property
    def every_version_once(self) -> bool:
        """Whether it got each version once, in order, across its reconnections."""
        return bool(self.ids) and self.ids == list(range(self.ids[0], self.ids[0] + len(self.ids)))


class _Refused(Exception):
    """A stream answered with another status than 200."""


def _moving(block: list[str]) -> bool:
    return len(block) == 3 and block[0].startswith("retry: ") and block[1] == "event: moving"


def started(target: object) -> threading.Thread:
    thread = threading.Thread(target=target.run, daemon=True)  # type: ignore[attr-defined]
    thread.start()
    return thread


def check_ledgers(store: Store, players: list[Player]) -> int:
    """Every action answered 200 is in its game's stored log, once, at its version; the
    log holds nothing else but actions sent without an answer. Returns the actions
    acknowledged."""
    total = 0
    for game in [game for player in players for game in player.games]:
        record = store.load_game(int(game.id.split("-")[0]))
        logged = [entry.action for entry in record.actions]
        acknowledged, unanswered = game.acknowledged(), game.unanswered()
        for version, action in acknowledged.items():
            assert version < len(logged) and logged[version] == action, (game.id, version)
        for version, action in enumerate(logged):
            found = acknowledged.get(version, unanswered.get(version))
            assert found == action, (game.id, version, action)
        total += len(acknowledged)
    return total


def in_flight_answered(players: list[Player], moment: float) -> int:
    """Every request sent before `moment` got an answer (the ones open at the moment, too);
    returns how many were open at the moment."""
    open_then = 0
    for request in [request for player in players for request in player.requests()]:
        if request.sent < moment:
            assert request.error is None, request
            if request.answered is None or request.answered > moment:
                open_then += 1
    return open_then


def drivers_of(url: str) -> dict[int, int]:
    """The worker process driving each CPU game (its advisory-lock lease, web/driver.py)."""
    from fivedice.store.pg_lease import LOCK_CLASS

    with psycopg.connect(url.replace("postgresql+psycopg", "postgresql"), autocommit=True) as db:
        rows = db.execute(
            "SELECT l.objid, a.application_name FROM pg_locks l JOIN pg_stat_activity a"
            " USING (pid) WHERE l.locktype = 'advisory' AND l.classid = %s AND l.granted",
            (LOCK_CLASS,),
        ).fetchall()
    return {int(objid): int(name.rsplit("-", 1)[1]) for objid, name in rows}


def cpu_game(base: str, seed: int) -> str:
    """A game of CPUs alone, made from its own loopback address (a client has one such game
    at a time); the server plays it while someone watches it."""
    source = httpx.HTTPTransport(local_address=f"127.0.3.{seed % 250 + 1}")
    with httpx.Client(transport=source) as client:
        made = client.post(
            f"{base}/api/games",
            json={
                "players": [
                    {"name": "Bot A", "kind": "cpu", "level": "beginner"},
                    {"name": "Bot B", "kind": "cpu", "level": "beginner"},
                ],
                "seed": seed,
            },
        )
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def game_version(base: str, game: str) -> int:
    return int(httpx.get(f"{base}/api/games/{game}", timeout=10).json()["version"])
