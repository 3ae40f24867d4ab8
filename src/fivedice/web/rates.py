"""Per-client rates: costly or guessable requests, counted per client address.

One client must not be able to make the server do unbounded work or guess its way in, so
some requests are counted per client (the address uvicorn gives: `request.client.host`,
taken from `X-Forwarded-For` only when the connection comes from a trusted proxy,
`--forwarded-allow-ips`) in a moving window (the `limits` library, in memory):

* **creations**: `POST /api/games`, the new-game form `POST /games` (a game, or a room when
  a seat is a friend) and a game at the table `POST /table` count as *games*;
  `POST /api/rooms` as *rooms*. Past the rate: 429.
* **wrong room codes**: every answer 404 to a look-up of a room code (`/r/{code}...`,
  `POST /join`, `/api/rooms/{code}...`) counts; past the allowance every look-up of a code
  by that client is 429 until the window frees up (a right code still works for others).
* **new rule sets solved**: a table nobody solved before costs seconds of CPU; each request
  carries a permit (`permitting_new_solves`) that lets a client start only a few per hour,
  the rest 503 (`SolverBusyError`, as when the solver is busy). Tables already solved cost
  nothing and are never counted.
* **seats joined** (`POST /g/ID/join`, `POST /r/CODE/device`, `POST /join`) count as
  *grants*: each rotates the browser's session id, and nobody may do that without end.
* **PDF sheets rendered** (not served from the sheet cache): past the rate, 429.
* **verify pages** (`GET /g/ID/verify`, every roll recomputed from the seeds): past the
  rate, 429.

A refusal says when to ask again (`Retry-After`); the API answers JSON, pages a message page
in the visitor's language. The counts live in each worker's memory: with N workers a client
gets up to N times the rate (and a restart forgets them) — bounded, which is the point.
Each rate is a `limits` string (``"20/minute;200/hour"``: every part must allow) and can be
set by an environment variable (`RATE_ENVIRONMENT`).
"""

from __future__ import annotations

import math
import os
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from dataclasses import dataclass, fields, replace
from typing import Any

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from fivedice.core.errors import N_, FivediceError
from fivedice.core.rules import RuleSet
from fivedice.service.solving import (
    RETRY_AFTER_SECONDS,
    SolveQuotaSpentError,
    permitting_new_solves,
)

__all__ = [
    "RATE_ENVIRONMENT",
    "ClientRates",
    "RateGuard",
    "RateLimitedError",
    "RateSettingError",
    "RateSettings",
    "client_of",
]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class RateLimitedError(FivediceError):
    """Too many requests of one kind from one client: 429 with Retry-After.

    Attributes:
        retry_after: seconds after which the client may ask again.
    """

    def __init__(self, retry_after: int) -> None:
        super().__init__(
            N_("Too many requests from your address; try again in {seconds} seconds."),
            seconds=retry_after,
        )
        self.retry_after = retry_after


class RateSettingError(FivediceError):
    """A rate variable is not a rate such as ``10/minute``."""


@dataclass(frozen=True)
class RateSettings:
    """The rates, per client and worker, as `limits` strings (``"10/minute;60/hour"``)."""

    games: str = "20/minute;300/day"
    """Games (API or form) one client may create."""
    rooms: str = "20/minute;300/day"
    """Rooms one client may open over the API."""
    wrong_codes: str = "10/minute;100/day"
    """Look-ups of room codes that do not exist (404) before look-ups are refused."""
    new_solves: str = "3/hour"
    """Rule sets nobody solved before whose tables one client may have solved."""
    sheets: str = "20/minute"
    """PDF sheets one client may have rendered (sheets served from the cache are free)."""
    grants: str = "30/minute;600/day"
    """Seats one client may join by link or device code (each gives its browser a new
    session id: nobody can rotate one id over and over)."""
    verifies: str = "20/minute;200/hour"
    """Verify pages (`/g/ID/verify`: every roll of the game recomputed) one client may ask."""

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> RateSettings:
        """The defaults, with each rate the environment sets (`RATE_ENVIRONMENT`).

        Raises:
            RateSettingError: a variable is not a rate.
        """
        environ = os.environ if environ is None else environ
        chosen = {
            name: environ[variable].strip()
            for name, variable in RATE_ENVIRONMENT.items()
            if environ.get(variable, "").strip()
        }
        settings = replace(cls(), **chosen)
        settings.items()  # checks them now, not at the first request
        return settings

    def items(self) -> dict[str, list[RateLimitItem]]:
        """Each rate parsed (kind → its windows).

        Raises:
            RateSettingError: a rate is not a `limits` string.
        """
        parsed = {}
        for field in fields(self):
            text = getattr(self, field.name)
            try:
                parsed[field.name] = parse_many(text)
            except ValueError:
                raise RateSettingError(
                    N_("{variable} must be a rate such as {example}, not {value!r}"),
                    variable=RATE_ENVIRONMENT[field.name],
                    example="10/minute",
                    value=text[:40],
                ) from None
        return parsed


RATE_ENVIRONMENT = {
    "games": "FIVEDICE_RATE_GAMES",
    "rooms": "FIVEDICE_RATE_ROOMS",
    "wrong_codes": "FIVEDICE_RATE_WRONG_CODES",
    "new_solves": "FIVEDICE_RATE_NEW_SOLVES",
    "sheets": "FIVEDICE_RATE_SHEETS",
    "grants": "FIVEDICE_RATE_GRANTS",
    "verifies": "FIVEDICE_RATE_VERIFIES",
}
"""The environment variable of each rate."""


_PERMIT_REMEMBERED_SECONDS = 3600.0
_PERMITS_REMEMBERED = 10_000


class ClientRates:
    """Counts of each kind of request per client, in a moving window (this worker only)."""

    def __init__(self, settings: RateSettings | None = None) -> None:
        self.settings = settings or RateSettings()
        self._items = self.settings.items()
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._permitted: OrderedDict[tuple[str, RuleSet], float] = OrderedDict()
        self._permitted_lock = threading.Lock()
        self._taking = threading.Lock()
        """Held from a check to its count: requests served in threads (a sheet, a solve)
        would otherwise all pass the check before any counts, and a client sending 40 at
        once would be let through 40 times whatever its rate."""

    def allows(self, kind: str, client: str) -> bool:
        """Whether one more request of this kind would be within every window (not counted)."""
        return all(self._limiter.test(item, kind, client) for item in self._items[kind])

    def retry_after(self, kind: str, client: str) -> int:
        """Seconds until the client may make a request of this kind again (at least 1)."""
        now = time.time()
        wait = 1.0
        for item in self._items[kind]:
            if not self._limiter.test(item, kind, client):
                stats = self._limiter.get_window_stats(item, kind, client)
                wait = max(wait, stats.reset_time - now)
        return max(1, math.ceil(wait))

    def check(self, kind: str, client: str) -> None:
        """Refuses a client that has used up this kind's rate (counts nothing).

        Raises:
            RateLimitedError: with the seconds until the window frees up.
        """
        if not self.allows(kind, client):
            raise RateLimitedError(self.retry_after(kind, client))

    def count(self, kind: str, client: str) -> None:
        """Counts one request of this kind (whether or not it was within the rate)."""
        for item in self._items[kind]:
            self._limiter.hit(item, kind, client)

    def take(self, kind: str, client: str) -> None:
        """Counts one request of this kind, refused if the rate is used up (then not counted).

        Raises:
            RateLimitedError: the rate is used up.
        """
        with self._taking:
            self.check(kind, client)
            self.count(kind, client)

    def solve_permit(self, client: str) -> Callable[[RuleSet], None]:
        """The permit of this client's requests to start solving new rule sets.

        Rules this client was permitted within the last hour pass again without counting (a
        second game on rules whose table is still being solved is not a second rule set).
        """

        def permit(rules: RuleSet) -> None:
            key = (client, rules)
            now = time.monotonic()
            with self._permitted_lock:
                given = self._permitted.get(key)
                if given is not None and now - given < _PERMIT_REMEMBERED_SECONDS:
                    return
            try:
                self.take("new_solves", client)
            except RateLimitedError as refusal:
                raise SolveQuotaSpentError(refusal.retry_after) from None
            with self._permitted_lock:
                self._permitted.pop(key, None)
                self._permitted[key] = now
                while len(self._permitted) > _PERMITS_REMEMBERED:
                    self._permitted.popitem(last=False)

        return permit

    def server_permit(self, rules: RuleSet) -> None:
        """The permit of the server's own work (the CPU driver's steps, the table builds
        they wait for): only rules some client was permitted within the last hour, so a
        game's CPU solves what its creator's permit paid for, and nothing else - not after
        a restart (a person's request carries their own permit again).

        Raises:
            SolveQuotaSpentError: no client was permitted these rules.
        """
        now = time.monotonic()
        with self._permitted_lock:
            if any(
                key[1] == rules and now - given < _PERMIT_REMEMBERED_SECONDS
                for key, given in self._permitted.items()
            ):
                return
        raise SolveQuotaSpentError(RETRY_AFTER_SECONDS)


def client_of(scope: Scope) -> str:
    """The client's address (uvicorn's: the forwarded one only from a trusted proxy)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


_CREATIONS = {
    ("POST", "/api/games"): "games",
    ("POST", "/games"): "games",
    ("POST", "/table"): "games",
    ("POST", "/api/rooms"): "rooms",
}
_GRANT = re.compile(r"^/(?:g/[^/]+/join|r/[^/]+/device|join)$")
"""The pages that give a browser a seat it did not make (a link's seat, a device code,
an invitation or open seat by room code): POSTs of them count as *grants*."""
_VERIFY = re.compile(r"^/g/[^/]+/verify$")
_CODE_LOOKUP = re.compile(r"^/(?:r|api/rooms)/[^/]+(?:/.*)?$")


def is_code_lookup(method: str, path: str) -> bool:
    """Whether a request names a room code (so a 404 means a wrong code)."""
    return (method == "POST" and path == "/join") or bool(_CODE_LOOKUP.match(path))


class RateGuard:
    """ASGI middleware: counts creations and wrong room codes per client, and gives each
    request the client's permit for new solves.

    Placed inside `PageGuard`, so a refused form has passed the origin checks and a refusal
    page knows the visitor's session and language.
    """

    def __init__(
        self, app: ASGIApp, rates: ClientRates, refuse: Callable[[Scope, FivediceError], Any]
    ) -> None:
        self.app = app
        self.rates = rates
        self.refuse = refuse

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = client_of(scope)
        method, path = scope["method"], scope["path"]
        creation = _CREATIONS.get((method, path))
        if creation is None and method == "POST" and _GRANT.match(path):
            creation = "grants"
        if creation is None and method == "GET" and _VERIFY.match(path):
            creation = "verifies"
        looks_up = is_code_lookup(method, path)
        try:
            if creation is not None:
                self.rates.take(creation, client)
            if looks_up:
                self.rates.check("wrong_codes", client)
        except RateLimitedError as refusal:
            response = self.refuse(scope, refusal)
            await response(scope, receive, send)
            return
        status = 0

        async def noting_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        with permitting_new_solves(self.rates.solve_permit(client)):
            await self.app(scope, receive, noting_status if looks_up else send)
        if looks_up and status == 404:
            self.rates.count("wrong_codes", client)
