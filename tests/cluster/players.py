"""Players that drive games through the balancer, and what they saw.

Each table is one game of two remote humans and (optionally) one casual CPU played by the
server, made with `POST /api/games` (a match of many games, so a table never runs out of
moves). Each human keeps the game's event stream open (`GET /api/games/{id}/events`,
reconnecting with `Last-Event-ID` as a browser does) and acts over HTTP whenever the newest
game it knows says it is their turn (roll, hold 1 2, roll, score the best box), after a
thinking time drawn from an exponential distribution.

Everything is written down with the monotonic time it happened at, so that a fault's window
can be read afterwards: every **acknowledged** action (answered 200: game, version, action),
every action whose answer was lost (sent, no answer: it may or may not be saved — the version
it named makes a second try harmless), each stream's gaps (from the moment it broke to the
moment a new one answered 200), the first time each version of a game was seen (from a
stream or an answer) and whether the CPU was to move in it, and the delay from an action's
answer to the same version on the other human's stream (the push).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import aiohttp

try:  # the clients parse every event; orjson is a dependency of fivedice
    from orjson import loads
except ImportError:  # pragma: no cover
    from json import loads  # type: ignore[assignment]

NO_TIMEOUT = aiohttp.ClientTimeout(total=None, sock_connect=5, sock_read=None)
ACTION_TIMEOUT = aiohttp.ClientTimeout(total=10)
RETRY_SECONDS = 0.2  # a refused or broken request is tried again this soon
REFRESH_SECONDS = 2.0  # a human who heard nothing this long reads the game (like a page)
MATCH_LENGTH = 100


@dataclass
class Acknowledged:
    game: int  # the game's number (its id before the dash)
    version: int  # the version the action made (its place in the stored log)
    action: str
    sent: float
    answered: float
    listener: int  # the other human's seat, whose stream should bring this version


@dataclass
class Gap:
    """A stream's time without a connection: broken at `start`, answered again at `end`."""

    start: float
    end: float | None = None


@dataclass
class Record:
    """What every player of a crowd writes down (see the module's docstring)."""

    acknowledged: list[Acknowledged] = field(default_factory=list)
    unanswered: list[tuple[int, int, str, float]] = field(default_factory=list)
    refused: dict[int, int] = field(default_factory=dict)  # status -> count
    gaps: list[Gap] = field(default_factory=list)
    first_seen: dict[tuple[int, int], float] = field(default_factory=dict)
    cpu_to_move: dict[tuple[int, int], bool] = field(default_factory=dict)
    ended: dict[int, int] = field(default_factory=dict)  # game -> version it ended at
    arrivals: dict[tuple[int, int, int], float] = field(default_factory=dict)  # game, seat, v
    errors: list[str] = field(default_factory=list)
    surprises: int = 0  # streams that failed in a way the players did not expect

    def saw(self, number: int, game: dict[str, Any]) -> None:
        key = (number, game["version"])
        if key not in self.first_seen:
            self.first_seen[key] = time.monotonic()
            self.cpu_to_move[key] = bool(game["is_cpu_turn"]) and game["status"] == "in_progress"
        if game["status"] != "in_progress":
            self.ended.setdefault(number, game["version"])

    def push_delays(self) -> list[tuple[float, float | None]]:
        """(answered, seconds until the other human's stream brought the version; 0 when it
        came first; None when it never came) for every acknowledged action."""
        delays: list[tuple[float, float | None]] = []
        for ack in self.acknowledged:
            arrived = self.arrivals.get((ack.game, ack.listener, ack.version))
            delays.append(
                (ack.answered, None if arrived is None else max(0.0, arrived - ack.answered))
            )
        return delays

    def refuse(self, status: int) -> None:
        self.refused[status] = self.refused.get(status, 0) + 1


@dataclass
class Human:
    name: str
    seat: int
    token: str
    game: dict[str, Any] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    connected: bool = False
    heard: int | None = None  # the last version the stream brought (its Last-Event-ID)

    def see(self, game: dict[str, Any]) -> None:
        if not self.game or game["version"] > self.game["version"]:
            self.game = game
            self.changed.set()


@dataclass
class Table:
    game_id: str
    humans: list[Human]

    @property
    def number(self) -> int:
        return int(self.game_id.split("-", 1)[0])


def next_action(game: dict[str, Any]) -> str:
    """Roll, hold 1 2, roll, score the box worth most."""
    if game["rolls_used"] == 0:
        return "roll"
    if game["rolls_used"] == 1 and not any(game["held"]):
        return "hold 1 2"
    if game["rolls_used"] < game["rule_settings"]["rolls_per_turn"]:
        return "roll"
    best = max(game["placements"], key=lambda placement: placement["points"])
    return f"score {best['box']}"


class Crowd:
    """`tables` games played through `base_url` until `stop()`."""

    def __init__(
        self,
        base_url: str,
        *,
        tables: int,
        cpu: bool = True,
        think_seconds: float = 0.3,
        seed: int = 1,
        record: Record | None = None,
        action_connections: int = 100,
        refresh_seconds: float = REFRESH_SECONDS,
    ) -> None:
        self.base_url = base_url
        self.count = tables
        self.cpu = cpu
        self.think_seconds = think_seconds
        self.refresh_seconds = refresh_seconds
        self.seed = seed
        self.record = record or Record()
        self.tables: list[Table] = []
        self.action_latencies: list[tuple[float, float]] = []  # (answered, seconds)
        self.stopping = False
        self.playing = True  # (False: nobody acts any more, see `stop_playing`)
        self._tasks: list[asyncio.Task[None]] = []
        # Streams each hold a connection of their own; actions share a bounded pool of
        # keep-alive connections (as many pages' short requests share a proxy's).
        self._streams = aiohttp.ClientSession(
            base_url=base_url, connector=aiohttp.TCPConnector(limit=0), timeout=NO_TIMEOUT
        )
        self._actions = aiohttp.ClientSession(
            base_url=base_url,
            connector=aiohttp.TCPConnector(limit=action_connections),
            timeout=ACTION_TIMEOUT,
        )

    async def _json(self, method: str, path: str, **options: Any) -> tuple[int, Any]:
        async with self._actions.request(method, path, **options) as answer:
            body = await answer.read()
            return answer.status, loads(body) if body else None

    async def _make_table(self, number: int) -> Table:
        players: list[dict[str, Any]] = [{"name": "Ann"}, {"name": "Bob"}]
        if self.cpu:
            players.append({"name": "Cora", "kind": "cpu", "level": "casual"})
        body = {"players": players, "seed": self.seed * 100_000 + number,
                "match_length": MATCH_LENGTH}  # fmt: skip
        for _attempt in range(50):
            with contextlib.suppress(aiohttp.ClientError, TimeoutError):
                status, made = await self._json("POST", "/api/games", json=body)
                if status == 201:
                    tokens = made["tokens"]
                    humans = [
                        Human(p["name"], t["seat"], t["token"])
                        for p, t in zip(players, tokens, strict=False)
                    ]
                    return Table(made["id"], humans)
                self.record.errors.append(f"making a game: {status} {str(made)[:100]}")
            await asyncio.sleep(RETRY_SECONDS)
        raise RuntimeError("no game could be made through the balancer")

    async def start(self, making_at_once: int = 16) -> None:
        """Makes the tables and opens every stream (see `make` and `open_streams`)."""
        await self.make(making_at_once)
        await self.open_streams()

    async def make(self, making_at_once: int = 16) -> None:
        """Makes the tables, `making_at_once` requests at a time."""
        gate = asyncio.Semaphore(making_at_once)

        async def one(number: int) -> Table:
            async with gate:
                return await self._make_table(number)

        self.tables = list(await asyncio.gather(*(one(n) for n in range(self.count))))

    async def open_streams(self, opening_at_once: int = 200) -> None:
        """Opens every human's stream and waits until each has brought its first event."""
        pairs = [(table, human) for table in self.tables for human in table.humans]
        for first in range(0, len(pairs), opening_at_once):  # a few hundred at a time
            batch = pairs[first : first + opening_at_once]
            for table, human in batch:
                self._tasks.append(asyncio.create_task(self._stream(table, human)))
            while not all(human.game for _table, human in batch):
                await asyncio.sleep(0.05)

    def play(self) -> None:
        """Every human starts acting on their turns."""
        for table in self.tables:
            for index, human in enumerate(table.humans):
                other = table.humans[1 - index]
                playing = self._play(table, human, other)
                self._tasks.append(asyncio.create_task(playing, name=f"play-{human.token}"))

    async def stop_playing(self) -> None:
        """Nobody acts any more; the streams stay open (the last pushes still arrive).

        Each player also sees `playing` turn False: on Python 3.11 `asyncio.wait_for` may
        swallow a cancellation that comes as its wait ends, and a player that went on would
        keep this gather waiting for good (a drill that never ended, once)."""
        self.playing = False
        playing = [task for task in self._tasks if task.get_name().startswith("play-")]
        for task in playing:
            task.cancel()
        await asyncio.gather(*playing, return_exceptions=True)

    async def stop(self) -> None:
        self.stopping = True
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._streams.close()
        await self._actions.close()

    async def _stream(self, table: Table, human: Human) -> None:
        """Follows the game's event stream as a browser's EventSource does: every event's
        version and game; reconnects with `Last-Event-ID` after the server's `retry:` (or
        RETRY_SECONDS) when the stream ends or breaks, the time without one being a gap."""
        record, number = self.record, table.number
        gap: Gap | None = None
        retry = RETRY_SECONDS
        while not self.stopping:
            # The last version the stream itself brought, as EventSource sends it (not one
            # learnt from an answer or a read: the versions between would never be pushed).
            headers = {"Last-Event-ID": str(human.heard)} if human.heard is not None else {}
            try:
                async with self._streams.get(
                    f"/api/games/{table.game_id}/events", headers=headers
                ) as answer:
                    if answer.status != 200:
                        record.refuse(answer.status)
                        raise aiohttp.ClientResponseError(
                            answer.request_info, (), status=answer.status
                        )
                    human.connected = True
                    if gap is not None:
                        gap.end = time.monotonic()
                        gap = None
                    event: dict[bytes, bytes] = {}
                    async for raw in answer.content:
                        line = raw.rstrip(b"\r\n")
                        if line:
                            if not line.startswith(b":"):  # (a comment: the heartbeat)
                                name, _colon, value = line.partition(b":")
                                event[name] = value[1:] if value.startswith(b" ") else value
                            continue
                        if b"retry" in event:
                            retry = int(event[b"retry"]) / 1000
                        kind = event.get(b"event", b"message")
                        if b"data" in event and b"id" in event and kind != b"moving":
                            # a version (also "reset" and "abandoned": the game as it is)
                            version = int(event[b"id"])
                            human.heard = version
                            now = time.monotonic()
                            record.arrivals.setdefault((number, human.seat, version), now)
                            game = loads(event[b"data"])
                            record.saw(number, game)
                            human.see(game)
                        event = {}
                    raise aiohttp.ServerDisconnectedError()  # the stream ended: reconnect
            except (aiohttp.ClientError, TimeoutError, ValueError) as error:
                human.connected = False
                if gap is None and not self.stopping:
                    gap = Gap(time.monotonic())
                    record.gaps.append(gap)
                    record.errors.append(f"stream: {error!r}"[:120])
                await asyncio.sleep(retry)
                retry = RETRY_SECONDS
            except Exception as error:  # a surprise is written down, never a silent end
                record.errors.append(f"stream failed: {error!r}"[:120])
                record.surprises += 1
                await asyncio.sleep(RETRY_SECONDS)

    async def _refresh(self, table: Table, human: Human) -> None:
        with contextlib.suppress(aiohttp.ClientError, TimeoutError, ValueError):
            status, game = await self._json("GET", f"/api/games/{table.game_id}")
            if status == 200:
                self.record.saw(table.number, game)
                human.see(game)

    async def _play(self, table: Table, me: Human, other: Human) -> None:
        record, number = self.record, table.number
        rng = random.Random(f"{self.seed}-{me.token}")
        url = f"/api/games/{table.game_id}/actions"
        headers = {"Authorization": f"Bearer {me.token}", "Content-Type": "application/json"}
        while not self.stopping and self.playing:
            game = me.game
            if game.get("status") != "in_progress":
                return
            if game["current_seat"] != me.seat:
                me.changed.clear()
                if me.game is game:
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(self.refresh_seconds):
                            await me.changed.wait()
                    if me.game is game:  # nothing heard: read it, as a page does
                        await self._refresh(table, me)
                continue
            if self.think_seconds:
                await asyncio.sleep(rng.expovariate(1 / self.think_seconds))
            action, version = next_action(game), game["version"]
            body = json.dumps({"action": action, "version": version})
            sent = time.monotonic()
            try:
                async with self._actions.post(url, data=body, headers=headers) as answer:
                    status, text = answer.status, await answer.read()
            except (aiohttp.ClientError, TimeoutError) as error:
                # Sent, no answer: maybe saved, maybe not; the game is read again, and a
                # second try names the same version (refused with 409 if it was saved).
                record.unanswered.append((number, version + 1, action, sent))
                record.errors.append(f"action: {error!r}"[:120])
                await asyncio.sleep(RETRY_SECONDS)
                await self._refresh(table, me)
                continue
            answered = time.monotonic()
            if status != 200:
                record.refuse(status)
                if status >= 500 or status == 429:
                    await asyncio.sleep(RETRY_SECONDS)
                await self._refresh(table, me)
                continue
            after = loads(text)
            record.acknowledged.append(
                Acknowledged(number, after["version"], action, sent, answered, other.seat)
            )
            self.action_latencies.append((answered, answered - sent))
            record.saw(number, after)
            me.see(after)
