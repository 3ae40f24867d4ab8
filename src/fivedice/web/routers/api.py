"""The JSON API under /api: create a game, read it, act with a seat token, ask for a hint.

Errors always carry a message: 401 (no token, or not a token of this game), 403 (another
seat's token, or not your turn), 404 (unknown game), 409 (illegal action, stale version,
closed game, no hint possible), 422 (malformed body or action text), 503 (database busy;
nothing changed). A refused request never changes a game.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal

from annotated_types import Ge, Le
from fastapi import APIRouter, Depends, Header, Path, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, Strict, ValidationError
from starlette.concurrency import run_in_threadpool

from fivedice.core.errors import N_, FivediceError
from fivedice.core.fairdice import COMMITMENT_HANDLE_LENGTH, MAX_CLIENT_SEED
from fivedice.core.names import MAX_NAME_LENGTH
from fivedice.core.rules import MAX_COLUMNS, MAX_FIXED_SCORE, MAX_ROLLS, MAX_UPPER_TOTAL, PRESETS
from fivedice.service.creation import PlayerSpec
from fivedice.service.games import GameView
from fivedice.service.rights import HAND_OVER_LEVELS, Right
from fivedice.service.rooms import RoomSeatSpec
from fivedice.service.settings import DEFAULT_LEVEL
from fivedice.service.settings import Level as _Level
from fivedice.store.browser_seats import session_key
from fivedice.store.notices import Topic
from fivedice.store.rooms import Room
from fivedice.web.deps import Hub
from fivedice.web.hub import MAX_SEED, GameHub, SeatError, hint_data, hmac_equal, reasons_data
from fivedice.web.limits import EdgeLimits
from fivedice.web.live import Live, Now, Subscription, Watched
from fivedice.web.rates import client_of

router = APIRouter(prefix="/api", tags=["games"])
log = logging.getLogger(__name__)

MAX_UPPER_TOTAL_SIX_DICE = MAX_UPPER_TOTAL * 6 // 5
"""The upper boxes' most with six dice (126); the rule set checks the bound of its dice."""
bearer = HTTPBearer(auto_error=False, description="The seat token returned when the game was made")


def _json_integer(value: object) -> object:
    # The models are strict (no "1" for 1, no 0 for false), but JSON Schema counts 3.0 as an
    # integer, so whole floats pass on to the lax integer check.
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


Level = Annotated[_Level, Strict(False)]
"""A CPU level by name (`strategy.levels.Level`: the one list of levels)."""


class ErrorOut(BaseModel):
    """What went wrong, in words."""

    detail: str


class PlayerIn(BaseModel):
    """A seat: a human, or a CPU of a level."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(min_length=1, max_length=MAX_NAME_LENGTH, examples=["Ann"])
    kind: Literal["human", "cpu"] = "human"
    level: Level | None = Field(default=None, description="CPU level (CPU seats; default casual)")


Points = Annotated[int, Ge(0), Le(MAX_FIXED_SCORE), BeforeValidator(_json_integer)]
ClientSeed = Annotated[str, Field(max_length=MAX_CLIENT_SEED)]
"""A seat's own dice seed, as `core.fairdice` takes it."""


class RuleOptionsIn(BaseModel):
    """Rule options that change the preset (each optional; see `fivedice rules`)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    rolls_per_turn: Annotated[int, Ge(1), Le(MAX_ROLLS), BeforeValidator(_json_integer)] | None = (
        None
    )
    upper_bonus: bool | None = None
    upper_bonus_threshold: (
        Annotated[int, Ge(1), Le(MAX_UPPER_TOTAL_SIX_DICE), BeforeValidator(_json_integer)] | None
    ) = None
    upper_bonus_value: Points | None = None
    full_house: Points | None = None
    small_straight: Points | None = None
    large_straight: Points | None = None
    yahtzee: Points | None = None
    of_a_kind_scores: Literal["all_dice", "matching_dice"] | None = None
    five_of_a_kind_is_full_house: bool | None = None
    straights: Literal["runs", "fixed"] | None = None
    yahtzee_bonus: bool | None = None
    yahtzee_bonus_value: Points | None = None
    yahtzee_bonus_condition: Literal["box_scored", "box_filled"] | None = None
    joker: Literal["forced", "free_choice", "none"] | None = None
    upper_first: bool | None = None
    family: (
        Literal["yahtzee", "yatzy", "maxi_yatzy", "yacht", "yacht_dice", "generala", "kismet"]
        | None
    ) = None
    four_of_a_kind_is_two_pairs: bool | None = None
    fill_order: Literal["free", "forced"] | None = None
    extra_turn_on_yahtzee: bool | None = None
    saved_rolls: bool | None = None
    upper_bonus_tiers: (
        list[Annotated[int, Ge(0), Le(MAX_UPPER_TOTAL_SIX_DICE), BeforeValidator(_json_integer)]]
        | None
    ) = Field(default=None, max_length=16)
    served_bonus: Points | None = None
    ones_in_straights: bool | None = None
    wild_die: bool | None = None
    column_multipliers: (
        list[Annotated[int, Ge(1), Le(100), BeforeValidator(_json_integer)]] | None
    ) = Field(default=None, min_length=1, max_length=MAX_COLUMNS)


class NewGameIn(BaseModel):
    """A new game or match."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, strict=True)
    players: list[PlayerIn] = Field(min_length=1, max_length=8)
    rules: str = Field(
        default="classic",
        pattern="^(" + "|".join(p.name for p in PRESETS) + ")$",
        description="a rule preset",
    )
    set_: RuleOptionsIn = Field(
        default_factory=RuleOptionsIn, alias="set", description="rule options overriding the preset"
    )
    seed: Annotated[int, Ge(0), Le(MAX_SEED), BeforeValidator(_json_integer)] | None = Field(
        default=None, description="for a repeatable game"
    )
    first_player: Literal["first_seat", "highest_die", "highest_sum"] = "first_seat"
    match_length: Annotated[int, Ge(1), Le(100), BeforeValidator(_json_integer)] = 1
    practice: bool = False
    client_seeds: list[ClientSeed] = Field(
        default_factory=list,
        max_length=8,
        description='each seat\'s own dice seed, in seat order ("" for none); not with `seed`;'
        " needs `commitment_handle`",
    )
    commitment_handle: str | None = Field(
        default=None,
        max_length=COMMITMENT_HANDLE_LENGTH,
        description="the handle of a commitment from POST /api/commitments, drawn before the"
        " client seeds were chosen: the game's server seed is the committed one. Required"
        " with client seeds; each handle makes one game",
    )


class CommitmentOut(BaseModel):
    """A server seed committed to before any client seed is chosen (step one of two)."""

    commitment: str = Field(
        description="SHA-256 (hex) of the server seed the game will have: check that the"
        " game's dice_commitment is this one"
    )
    handle: str = Field(
        description="send it as commitment_handle to POST /api/games or POST /api/rooms (once)"
    )
    expires: int = Field(description="Unix time (seconds) after which the handle is refused")


class ActionIn(BaseModel):
    """An action in the notation (`roll`, `hold 1 3`, `release 2`, `score chance`)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    action: str = Field(min_length=1, max_length=60, examples=["roll"])
    version: Annotated[int, Ge(0), Le(10**9), BeforeValidator(_json_integer)] = Field(
        description="the game's version the action was made on"
    )


class CpuStepIn(BaseModel):
    """Lets the CPU seat to move take one step."""

    model_config = ConfigDict(extra="forbid", strict=True)
    version: Annotated[int, Ge(0), Le(10**9), BeforeValidator(_json_integer)]


class ColumnOut(BaseModel):
    column: int
    multiplier: int
    boxes: dict[str, int | None]
    upper_total: int
    upper_par: int
    upper_bonus: int
    yahtzee_bonus: int
    total: int


class CardOut(BaseModel):
    columns: list[ColumnOut]
    total: int


class PlayerOut(BaseModel):
    seat: int
    name: str
    kind: Literal["human", "cpu"]
    level: str | None
    card: CardOut
    total: int
    match_total: int
    rank: int


class PlacementOut(BaseModel):
    column: int
    box: str
    points: int
    box_points: int
    upper_bonus: int
    yahtzee_bonus: int
    joker: bool


class FinishedGameOut(BaseModel):
    number: int
    totals: list[int]


class GameOut(BaseModel):
    """A game at one version: everything a client needs to render it and to act."""

    id: str
    version: int
    status: Literal["in_progress", "finished", "abandoned"]
    practice: bool
    dice_commitment: str | None = Field(
        description="SHA-256 (hex) of the secret server seed; null: dice from a known seed"
    )
    server_seed: str | None = Field(
        description="the server seed (hex), revealed once the game is over; null before"
    )
    client_seeds: list[str] = Field(
        default_factory=list,
        description='each seat\'s own dice seed, in seat order ("" for none); mixed into'
        " the dice with the server seed",
    )
    rules: str | None = Field(description="the preset these rules are, or null")
    rule_settings: dict[str, Any]
    game_number: int
    match_length: int
    first_player: str
    current_seat: int | None
    instant_winner: int | None = Field(
        default=None,
        description="the seat that won the game at once (a served Generala), else null",
    )
    is_cpu_turn: bool
    turn_number: int | None
    dice: list[int] | None
    held: list[bool]
    rolls_used: int
    rolls_left: int
    players: list[PlayerOut]
    placements: list[PlacementOut]
    legal_actions: list[str]
    finished_games: list[FinishedGameOut]


class SeatTokenOut(BaseModel):
    seat: int
    name: str
    token: str


class NewGameOut(GameOut):
    """The new game, with the secret token of each human seat."""

    tokens: list[SeatTokenOut]


class CpuStepOut(BaseModel):
    action: str
    game: GameOut


class HintOptionOut(BaseModel):
    kind: Literal["keep", "score"]
    box: str | None
    column: int | None = Field(
        None, description="the box's column, counted from 1 (rule sets with several columns)"
    )
    keep: list[int] | None
    hold: list[int] | None = Field(description="positions to hold for this keep, then roll")
    action: str
    value: float = Field(
        description="expected points still to come under optimal play; with a goal, the "
        "best chance (0 to 1) of reaching it"
    )
    loss: float = Field(
        description="expected points (with a goal: chance) lost against the best option"
    )
    estimate: bool = Field(
        False,
        description="true for rule sets with several columns, where values are the CPU "
        "expert's estimates rather than exact optima",
    )
    goal: int | None = Field(
        None,
        description="with `?goal=`: the final total aimed at (value is then a chance)",
    )
    breakdown: dict[str, float] | None = Field(
        None,
        description="the value split by component: each box's key, 'upper_bonus' and "
        "'yahtzee_bonus' (where the rules have them), summing to the value; null when not at "
        "hand yet (ask again) or not exact (several columns)",
    )
    chances_this_turn: dict[str, float] | None = Field(
        None,
        description="for a keep with a breakdown: each box's chance that this turn ends "
        "scoring it (more than 0 points), playing on optimally",
    )


class ReasonOut(BaseModel):
    component: str = Field(description="a box's key, 'upper_bonus' or 'yahtzee_bonus'")
    points: float = Field(description="the best option's expected points there minus the next's")


class HintOut(BaseModel):
    version: int
    options: list[HintOptionOut]
    reasons: list[ReasonOut] | None = Field(
        None,
        description="why the best option beats the next: the components that make the "
        "difference, gains then losses; null without breakdowns",
    )


def _game_json(hub: GameHub, view: GameView) -> Response:
    """The game as ready-made JSON (the hot endpoints): the same text the event stream sends,
    made once per version, instead of re-validating a `GameOut` for every answer. The
    endpoints keep `response_model=GameOut`, so the schema stays documented (and checked by
    the schema tests)."""
    return Response(hub.json_text(view), media_type="application/json")


Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]

_ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorOut, "description": "No such game"},
    422: {"model": ErrorOut, "description": "Malformed request or action text"},
    409: {"model": ErrorOut, "description": "Illegal action, stale version or closed game"},
    429: {"model": ErrorOut, "description": "Too many requests from this client (Retry-After)"},
    503: {"model": ErrorOut, "description": "The database is busy; nothing changed"},
}
_LIMITS: dict[int | str, dict[str, Any]] = {k: v for k, v in _ERRORS.items() if k in (429, 503)}
_AUTH_ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorOut, "description": "No seat token of this game"},
    403: {"model": ErrorOut, "description": "Another seat's token, or not this seat's turn"},
    **_ERRORS,
}


def _token(credentials: HTTPAuthorizationCredentials | None) -> str | None:
    return credentials.credentials if credentials else None


@router.post("/commitments", status_code=201, response_model=CommitmentOut)
def draw_commitment(hub: Hub) -> dict[str, Any]:
    """Step one of a game with client seeds: the server commits to its seed before you choose
    yours. Send the handle with your seeds to POST /api/games; the game's dice_commitment is
    then this commitment, so the server could not pick its seed to suit your seeds."""
    drawn = hub.commitments.draw()
    return {"commitment": drawn.commitment, "handle": drawn.handle, "expires": drawn.expires}


@router.post(
    "/games",
    status_code=201,
    response_model=NewGameOut,
    responses={
        409: {"model": ErrorOut, "description": "This commitment handle already made a game"},
        422: {
            "model": ErrorOut,
            "description": "Settings that cannot be played; client seeds without a commitment"
            " handle; a handle not drawn here or expired",
        },
        **_LIMITS,
    },
)
def create_game(request: Request, body: NewGameIn, hub: Hub) -> dict[str, Any]:
    """Starts a game; the answer holds a secret token for each human seat.

    With client seeds, draw a commitment first (POST /api/commitments) and send its handle
    as `commitment_handle`. Without client seeds the one step still works: the server seed
    is drawn now, and its commitment is in the answer.

    A game of CPUs alone is one game long, one at a time per client address (a new one
    ends the one before), and its CPUs play only while someone watches it (a stream of
    it open, or a look at it in the last 30 seconds)."""
    players = [
        PlayerSpec(p.name, (p.level or DEFAULT_LEVEL.value) if p.kind == "cpu" else None)
        for p in body.players
    ]
    view = hub.create(
        players,
        rules=body.rules,
        settings=body.set_.model_dump(exclude_none=True),
        first_player=body.first_player,
        match_length=body.match_length,
        seed=body.seed,
        practice=body.practice,
        client_seeds=body.client_seeds,
        handle=body.commitment_handle,
        client=client_of(request.scope),
    )
    return {**hub.data(view), "tokens": hub.seat_tokens(view)}


@router.get("/games/{game_id}", response_model=GameOut, responses=_ERRORS)
def get_game(game_id: str, hub: Hub) -> Response:
    """The game as saved now (anyone who knows its id may look)."""
    return _game_json(hub, hub.look(hub.load(hub.game_id(game_id))))


def _bearer_token(request: Request) -> str | None:
    """The token of an `Authorization: Bearer <token>` header, as `HTTPBearer` reads it."""
    header = request.headers.get("authorization")
    if not header:
        return None
    scheme, _sep, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token:
        return None
    return token


async def _action_body(request: Request) -> ActionIn:
    """The body of `POST .../actions`, checked as FastAPI would check an `ActionIn` body.

    Raises:
        RequestValidationError: not JSON, or not an `ActionIn` (422, "malformed request").
    """
    raw = await request.body()
    try:
        parsed = json.loads(raw)
    except RecursionError:  # (RequestLimits refuses deep JSON first; this if it ever passes)
        raise RequestValidationError(
            [{"type": "json_invalid", "loc": ("body",), "msg": "JSON nested too deep"}]
        ) from None
    except ValueError as error:
        raise RequestValidationError(
            [
                {
                    "type": "json_invalid",
                    "loc": ("body",),
                    "msg": f"JSON decode error: {error}",
                    "input": {},
                }
            ]
        ) from None
    try:
        return ActionIn.model_validate(parsed)
    except ValidationError as error:
        raise RequestValidationError(
            [{**item, "loc": ("body", *item["loc"])} for item in error.errors()]
        ) from None


_ACTION_BODY_DOC = {
    "requestBody": {
        "required": True,
        "content": {"application/json": {"schema": ActionIn.model_json_schema()}},
    },
    "security": [{"HTTPBearer": []}],
}


@router.post(
    "/games/{game_id}/actions",
    response_model=GameOut,
    responses=_AUTH_ERRORS,
    openapi_extra=_ACTION_BODY_DOC,
)
async def post_action(request: Request, game_id: str) -> Response:
    """Applies an action of the seat to move; `version` must be the game's version.

    The hot path of a live game, kept lean: the body is checked by hand (the same `ActionIn`
    model, the same 422), and the action is applied in the event loop (one short write, no
    hop to the thread pool) unless another thread holds the game's lock.
    """
    hub: GameHub = request.app.state.hub
    body = await _action_body(request)
    gid = hub.game_id(game_id)
    token = _bearer_token(request)
    view = hub.try_act(gid, token, body.action, body.version)  # SQLite
    if view is None:  # PostgreSQL: the statement awaited in the loop
        view = await hub.act_async(gid, token, body.action, body.version)
    if view is None:  # a lock a thread holds (a hint, a page), a game to load: in a thread
        view = await run_in_threadpool(hub.act, gid, token, body.action, body.version)
    return Response(hub.json_text(view), media_type="application/json")


@router.post("/games/{game_id}/cpu", response_model=CpuStepOut, responses=_AUTH_ERRORS)
def post_cpu_step(
    game_id: str, body: CpuStepIn, hub: Hub, credentials: Credentials
) -> dict[str, Any]:
    """Lets the CPU seat to move take one action (any seat of the game may ask)."""
    action, view = hub.cpu_step(hub.game_id(game_id), _token(credentials), body.version)
    return {"action": action, "game": hub.data(view)}


@router.get("/games/{game_id}/hint", response_model=HintOut, responses=_AUTH_ERRORS)
def get_hint(
    game_id: str,
    hub: Hub,
    credentials: Credentials,
    goal: Annotated[
        str | None,
        Query(
            max_length=80,
            description="a goal: a final total (300), 'beat 245' or 'beat <player>'; the "
            "options are then ranked by their chance of reaching it",
        ),
    ] = None,
) -> dict[str, Any]:
    """The advisor's options for the seat to move, best first (that seat's token only)."""
    view, hints = hub.hints(hub.game_id(game_id), _token(credentials), goal)
    return {
        "version": view.version,
        "options": [hint_data(hint) for hint in hints],
        "reasons": reasons_data(hints),
    }


# -- the event stream ------------------------------------------------------------------------

HEARTBEAT_SECONDS = 15  # a comment line this often keeps proxies from closing idle streams
PING = b": ping\r\n\r\n"
# A stream resumed with Last-Event-ID may come from a worker that stopped and asked for a
# quick reconnection (`moved`): the browser keeps that delay for later reconnections, so a
# resumed stream sets it back to a few seconds (a server that is down is not asked twice a
# second by every page). 2 s, not more: a stream that breaks later (its host killed, the
# database restarted) is then back within 3 s, the cluster drill's bound
# (tests/cluster/test_cluster_faults.py; with 3 s it measured 3.01–3.07 s).
RESUMED = b"retry: 2000\r\n\r\n"


def moved(retry_ms: int) -> bytes:
    """The end of a stream whose worker stops: reconnect after `retry_ms` (the browser's
    EventSource does so by itself, with Last-Event-ID), and a `moving` event, so that the
    page knows the break is planned and shows no "connection lost" while it lasts.

    >>> moved(700)
    b'retry: 700\\r\\nevent: moving\\r\\ndata: 700\\r\\n\\r\\n'
    """
    return b"retry: %d\r\nevent: moving\r\ndata: %d\r\n\r\n" % (retry_ms, retry_ms)


def _after(last_event_id: str | None, after: int | None) -> int | None:
    """The version a client has seen: `Last-Event-ID` (a reconnect) or `?after=`."""
    if last_event_id is not None:
        text = last_event_id.strip()
        if text.isascii() and text.isdigit() and len(text) <= 10:
            return int(text)
        return 10**12  # not a version of this game: the stream starts with a "reset"
    return after


def _encoded(batch: list[tuple[int, str, str]]) -> bytes:
    """Events as `text/event-stream` text. Each game version is a plain "message" event
    (`id:` the version, `data:` the game's JSON, made once per version and shared by every
    stream and answer); a "reset" is named (see the README)."""
    parts = []
    for version, text, name in batch:
        named = "" if name in ("game", "room") else f"event: {name}\r\n"
        parts.append(f"id: {version}\r\n{named}data: {text}\r\n\r\n")
    return "".join(parts).encode()


Fetch = Callable[[int, int | None, int | None], list[tuple[int, str, str]]]
FetchNow = Callable[[int, int | None, int | None], list[tuple[int, str, str]] | None]
FetchAsync = Callable[[int, int | None, int | None], Awaitable[list[tuple[int, str, str]] | None]]


class EventStream(Response):
    """A `text/event-stream` answer fed by one `Live` subscription.

    Lean on purpose (one per watching page, woken for every version): the events of a
    wake-up are sent in one chunk, fetched in the event loop when memory (or one short read)
    answers, and in a thread only when the game's lock is busy or the log must be replayed.
    A comment line is sent after `HEARTBEAT_SECONDS` without events; the stream ends when
    the client goes away or the server shuts down (`Live.closing`).
    """

    # None, as sse-starlette's: FastAPI then documents the errors of the stream's route (404,
    # 422) as the JSON they are; the stream's own type is set per answer below.
    media_type = None

    def __init__(
        self,
        live: Live,
        sub: Subscription,
        first: list[tuple[int, str, str]],
        after: int | None,
        fetch: Fetch,
        fetch_now: FetchNow,
        fetch_async: FetchAsync | None = None,
        *,
        resumed: bool = False,
    ) -> None:
        self.status_code = 200
        self.background = None
        self.init_headers(
            {
                "Content-Type": "text/event-stream; charset=utf-8",
                "Cache-Control": "no-store",
                "X-Accel-Buffering": "no",
            }
        )
        self._live, self._sub, self._first, self._after = live, sub, first, after
        self._fetch, self._fetch_now, self._fetch_async = fetch, fetch_now, fetch_async
        self._resumed = resumed  # (a reconnection: `RESUMED` first)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        sub, live = self._sub, self._live
        loop = asyncio.get_running_loop()

        gone = False  # the client went away (else the stream ends with a proper end)

        async def listen() -> None:
            nonlocal gone
            while (await receive())["type"] != "http.disconnect":
                pass
            gone = True
            sub.close()

        listener = loop.create_task(listen())
        live.stream_opened(sub)
        try:
            await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
            if self._resumed:
                await send({"type": "http.response.body", "body": RESUMED, "more_body": True})
            batch, last, ident = self._first, self._after, sub.watched[1]
            if not batch:  # (the client has the game now; else: set once the batch is sent)
                sub.sent_version = last
            quiet_since = idle_since = loop.time()
            idle_timeout = _stream_idle_timeout()
            first = True
            while not sub.closed:
                if batch:
                    body = _encoded(batch)
                    await send({"type": "http.response.body", "body": body, "more_body": True})
                    last, quiet_since = batch[-1][0], loop.time()
                    idle_since = quiet_since
                    sub.sent_version = last
                    if not first:
                        sub.sent(len(batch))  # (pushes: the first batch is what was asked)
                first = False
                left = idle_timeout - (loop.time() - idle_since)
                known = await sub.wait(min(HEARTBEAT_SECONDS, max(left, 0.1)))
                batch = []
                if sub.closed:
                    break
                if known == -1:  # nothing new: a heartbeat when it is time for one
                    if loop.time() - idle_since >= idle_timeout:
                        break  # idle too long: it ends (a page's EventSource comes back)
                    if loop.time() - quiet_since >= HEARTBEAT_SECONDS - 0.5:
                        await send({"type": "http.response.body", "body": PING, "more_body": True})
                        quiet_since = loop.time()
                    continue
                if known is not None and last is not None and known <= last:
                    sub.changed_at = None  # (nothing to push: no delay to count)
                    continue  # (heard again through PostgreSQL: sent already)
                try:
                    ready = self._fetch_now(ident, last, known)
                    if ready is None and self._fetch_async is not None:
                        ready = await self._fetch_async(ident, last, known)
                    if ready is None:
                        ready = await run_in_threadpool(self._fetch, ident, last, known)
                except FivediceError as error:
                    # The game could not be read (the database restarted, say): the stream
                    # ends as any stream does, and its client comes back after its retry
                    # with Last-Event-ID (the answer has begun: no error answer is possible).
                    log.warning("event stream of %s ended: %s", sub.watched, error)
                    break
                batch = ready
        except OSError:
            gone = True  # the client went away while we wrote
        finally:
            live.stream_closed(sub)
            live.unsubscribe(sub)
            listener.cancel()
        if not gone:
            end = b"" if sub.retry_ms is None else moved(sub.retry_ms)
            with contextlib.suppress(OSError):
                await send({"type": "http.response.body", "body": end, "more_body": False})


@functools.cache
def _stream_idle_timeout() -> float:
    """How long a stream stays open without an event (`EdgeLimits.stream_idle_timeout`)."""
    return EdgeLimits.from_environment().stream_idle_timeout


async def _stream(
    request: Request,
    watched: Watched,
    fetch: Fetch,
    fetch_now: FetchNow,
    after: int | None,
    fetch_async: FetchAsync | None = None,
) -> EventStream:
    live: Live = request.app.state.live
    sub = live.subscribe(watched)
    resumed = request.headers.get("last-event-id") is not None
    if sub.closed:  # the worker is stopping: the stream only says where to go (`moved`)
        return EventStream(live, sub, [], after, fetch, fetch_now, fetch_async, resumed=resumed)
    try:
        first = fetch_now(watched[1], after, None)
        if first is None and fetch_async is not None:
            first = await fetch_async(watched[1], after, None)
        if first is None:
            first = await run_in_threadpool(fetch, watched[1], after, None)
    except BaseException:
        live.unsubscribe(sub)
        raise
    return EventStream(live, sub, first, after, fetch, fetch_now, fetch_async, resumed=resumed)


_STREAM_DOC: dict[int | str, dict[str, Any]] = {
    200: {
        "content": {"text/event-stream": {}},
        "description": "Server-Sent Events: `id:` the version, `data:` the game as "
        "`GET /api/games/{id}` returns it; comment lines every 15 s as heartbeats",
    },
    404: {"model": ErrorOut, "description": "No such game (or room)"},
    422: {"model": ErrorOut, "description": "Malformed request"},
    429: {"model": ErrorOut, "description": "Too many requests from this client (Retry-After)"},
}


@router.get(
    "/games/{game_id}/events", response_class=EventStream, responses=_STREAM_DOC, status_code=200
)
async def game_events(
    request: Request,
    game_id: str,
    hub: Hub,
    after: Annotated[int | None, Query(ge=0, le=10**9, description="the version seen")] = None,
    last_event_id: Annotated[str | None, Header(max_length=40)] = None,
) -> EventStream:
    """Every new version of the game, as it is saved (anyone who knows its id may watch).

    Without `Last-Event-ID` or `after`, the stream starts with the game now. With them it
    starts with every version after that one, in order, each once.
    """
    gid = hub.game_id(game_id)
    after_version = _after(last_event_id, after)
    stream = await _stream(
        request,
        (Topic.GAME, gid),
        hub.events_since,
        hub.events_now,
        after_version,
        hub.events_async,
    )
    _offer_to_drive(request, hub, gid)
    return stream


def _offer_to_drive(request: Request, hub: GameHub, game_id: int) -> None:
    """A stream opened on a game whose CPU is to move: this worker offers to drive it now.

    Its driver may be gone: when a host is killed, its games' streams come back through the
    balancer to another host within a second or two, well before that host's next scan for
    undriven CPU games (web/driver.py) would notice. The lease decides: a driver still alive
    keeps the game, and the offer costs a few lease round trips."""
    if not request.app.state.drive_cpus:
        return
    kept = hub.service.kept(game_id)
    if kept is not None and kept.is_cpu_turn:
        request.app.state.driver.poke(game_id, kept.version)


# -- rooms -----------------------------------------------------------------------------------

SeatKind = Literal["me", "friend", "open", "local", "cpu"]


class RoomPlayerIn(BaseModel):
    """A seat of a room: the host (`me`), a remote friend (by invitation only), an open seat
    (anyone with the room code), someone at the host's device (`local`), or a CPU."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(min_length=1, max_length=MAX_NAME_LENGTH, examples=["Bob"])
    kind: SeatKind = "friend"
    level: Level | None = Field(default=None, description="CPU level (CPU seats; default casual)")
    client_seed: ClientSeed = Field(
        default="",
        description="the host's or a pass-and-play seat's own dice seed (friends add theirs"
        " when joining)",
    )


class NewRoomIn(BaseModel):
    """A game with friends' seats: it waits for them, then the host starts it."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, strict=True)
    players: list[RoomPlayerIn] = Field(min_length=1, max_length=8)
    rules: str = Field(default="classic", pattern="^(" + "|".join(p.name for p in PRESETS) + ")$")
    set_: RuleOptionsIn = Field(default_factory=RuleOptionsIn, alias="set")
    seed: Annotated[int, Ge(0), Le(MAX_SEED), BeforeValidator(_json_integer)] | None = None
    first_player: Literal["first_seat", "highest_die", "highest_sum"] = "first_seat"
    match_length: Annotated[int, Ge(1), Le(100), BeforeValidator(_json_integer)] = 1
    practice: bool = False
    commitment_handle: str | None = Field(
        default=None,
        max_length=COMMITMENT_HANDLE_LENGTH,
        description="the handle of a commitment from POST /api/commitments, drawn before the"
        " host chose a seed: the room's server seed (its dice_commitment) is the committed"
        " one. Required with a `client_seed` of a `me` or `local` seat; each handle makes one"
        " room or game",
    )


class RoomSeatOut(BaseModel):
    seat: int
    kind: SeatKind
    name: str
    level: str | None
    joined: bool
    game_seat: int | None = Field(description="the seat's number in the game, once started")
    client_seed: str = Field(
        "", description="the dice seed the seat's player gave (everyone in the room sees it)"
    )


class RoomOut(BaseModel):
    """A room: its code, its seats and who has joined; `game` once started."""

    code: str
    status: Literal["waiting", "started"]
    version: int
    game: str | None = Field(
        description="the game's id once started: only for a key of one of its seats"
    )
    dice_commitment: str | None = Field(
        description="SHA-256 (hex) of the game's secret server seed, drawn with the room"
        " before anyone added a seed; null: dice from a chosen seed"
    )
    seats: list[RoomSeatOut]


class InvitationOut(BaseModel):
    seat: int
    name: str
    invitation: str = Field(description="the seat's secret: whoever has it plays the seat")


class NewRoomOut(BaseModel):
    room: RoomOut
    host_key: str = Field(description="the host's secret (start, hand seats to CPUs)")
    invitations: list[InvitationOut]


class JoinIn(BaseModel):
    """Claim a seat: a friend's by its invitation (the first device only), one more device
    of a seat's player by a device code, or (with neither) the first open seat."""

    model_config = ConfigDict(extra="forbid", strict=True)
    invitation: str | None = Field(default=None, max_length=64)
    device_code: str | None = Field(
        default=None, max_length=64, description="a one-time code from POST .../device-code"
    )
    name: str | None = Field(default=None, min_length=1, max_length=MAX_NAME_LENGTH)
    client_seed: ClientSeed = Field(
        default="",
        description="your own dice seed: mixed into the game's dice, so that nobody - the"
        " server included - chooses them (before the start only)",
    )


class JoinOut(BaseModel):
    room: RoomOut
    seat: int
    device_key: str = Field(
        description="this device's secret for its seat (Bearer for GET /seat, /devices,"
        " /seed); the invitation gives nothing once the seat is claimed"
    )


class DeviceCodeOut(BaseModel):
    seat: int
    device_code: str = Field(
        description="a one-time code: POST /join with it adds one more device to the seat"
    )


class DeviceOut(BaseModel):
    number: int
    joined_at: str | None
    this: bool = Field(description="the device whose key asked")


class DevicesOut(BaseModel):
    seat: int
    devices: list[DeviceOut]


class SeedIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seat: Annotated[int, Ge(0), Le(7), BeforeValidator(_json_integer)]
    client_seed: ClientSeed


class StartIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    version: Annotated[int, Ge(0), Le(10**9), BeforeValidator(_json_integer)] = Field(
        description="the room's version the host saw (refused if someone joined since)"
    )
    fill_with_cpus: bool = Field(False, description="seats nobody joined: CPUs, or left out")


class RoomSeatTokensOut(BaseModel):
    room: RoomOut
    tokens: list[SeatTokenOut] = Field(description="game seat tokens, once started")


class HandOverIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    level: Level = Field(
        _Level.CASUAL,
        description="one of " + ", ".join(HAND_OVER_LEVELS) + " (the levels a seat is handed to)",
    )


_ROOM_ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorOut, "description": "No key of this room"},
    404: {"model": ErrorOut, "description": "No room has this code"},
    409: {"model": ErrorOut, "description": "Started already, full, or changed meanwhile"},
    422: {"model": ErrorOut, "description": "Malformed request"},
    429: {"model": ErrorOut, "description": "Too many requests from this client (Retry-After)"},
}


def _host(hub: GameHub, room: Room, credentials: HTTPAuthorizationCredentials | None) -> None:
    if not hmac_equal(_token(credentials) or "", hub.host_key(room)):
        raise SeatError(
            N_("this needs the room's host key: send 'Authorization: Bearer <key>'"), 401
        )


@router.post(
    "/rooms",
    status_code=201,
    response_model=NewRoomOut,
    responses={
        **_ROOM_ERRORS,
        409: {"model": ErrorOut, "description": "This commitment handle already made a game"},
        422: {
            "model": ErrorOut,
            "description": "Settings that cannot be played; a host's seed without a commitment"
            " handle; a handle not drawn here or expired",
        },
    },
)
def create_room(body: NewRoomIn, hub: Hub) -> dict[str, Any]:
    """Makes a room; the answer holds the host key and each friend's seat invitation.

    With a seed of the host's (`client_seed` of a `me` or `local` seat), draw a commitment
    first (POST /api/commitments) and send its handle as `commitment_handle`: the room's
    dice_commitment is then that one. Without, the one step still works (the room draws its
    server seed now; friends add their seeds after seeing its commitment)."""
    room = hub.create_room(
        [
            RoomSeatSpec(
                p.kind,
                p.name.strip(),
                (p.level or DEFAULT_LEVEL.value) if p.kind == "cpu" else None,
                p.client_seed if p.kind in ("me", "local") else "",
            )
            for p in body.players
        ],
        host_session=None,
        options={
            "rules": body.rules,
            "settings": body.set_.model_dump(exclude_none=True),
            "first_player": body.first_player,
            "match_length": body.match_length,
            "seed": body.seed,
            "practice": body.practice,
        },
        handle=body.commitment_handle,
    )
    return {
        "room": hub.room_data(room),
        "host_key": hub.host_key(room),
        "invitations": [
            {"seat": s.seat, "name": s.name, "invitation": hub.invitation(room, s.seat)}
            for s in room.seats
            if s.kind == "friend"
        ],
    }


def _room_seats_of(hub: GameHub, room: Room, key: str) -> tuple[bool, list[int]]:
    """(is host, the room seats it holds) of a room key: the host key holds the host's own
    and pass-and-play seats; a device key the seat its device claimed."""
    if key and hmac_equal(key, hub.host_key(room)):
        return True, [s.seat for s in room.seats if s.kind in ("me", "local")]
    held = hub.rooms.holder_of(room, _device_session(key)) if key else None
    return False, [] if held is None else [held]


def _device_session(device_key: str) -> str:
    """The session an API device is known by (its key is its only secret)."""
    return f"api:{device_key}"


@router.get("/rooms/{code}", response_model=RoomOut, responses=_ROOM_ERRORS)
def get_room(code: str, hub: Hub, credentials: Credentials) -> dict[str, Any]:
    """The room: seats, who has joined and their seeds (no secrets); its game's id only for
    a key of one of its seats (host key or device key)."""
    room = hub.room(code)
    _is_host, held = _room_seats_of(hub, room, _token(credentials) or "")
    return hub.room_data(room, member=bool(held))


@router.post("/rooms/{code}/join", response_model=JoinOut, responses=_ROOM_ERRORS)
def join_room(code: str, body: JoinIn, hub: Hub) -> dict[str, Any]:
    """Claims a seat for a new device key. With an invitation: that friend's seat, if no
    device claimed it yet (409 after that). With a device code: the code's seat (once).
    With neither: the first open seat nobody took, before the start; never a friend's."""
    device_key = secrets.token_urlsafe(24)
    session = _device_session(device_key)
    if body.device_code is not None:
        room, seat = hub.add_device(code, session, body.device_code)
    else:
        room, seat = hub.join_room(
            code, session, invitation=body.invitation, name=body.name,
            client_seed=body.client_seed,
        )  # fmt: skip
    return {"room": hub.room_data(room, member=True), "seat": seat, "device_key": device_key}


def _holder(hub: GameHub, room: Room, credentials: HTTPAuthorizationCredentials | None) -> int:
    """The room seat a device key holds.

    Raises:
        SeatError: 401, not a device key of this room.
    """
    _is_host, held = _room_seats_of(hub, room, _token(credentials) or "")
    if _is_host or not held:
        raise SeatError(N_("this needs a device key of this room's seat"), 401)
    return held[0]


@router.post("/rooms/{code}/device-code", response_model=DeviceCodeOut, responses=_ROOM_ERRORS)
def new_device_code(code: str, hub: Hub, credentials: Credentials) -> dict[str, Any]:
    """A one-time code that adds one more device to the seat of this device key (a code
    asked for before is void)."""
    room = hub.room(code)
    _holder(hub, room, credentials)
    seat, device_code = hub.rooms.new_device_code(room, _device_session(_token(credentials) or ""))
    return {"seat": seat, "device_code": device_code}


@router.get("/rooms/{code}/devices", response_model=DevicesOut, responses=_ROOM_ERRORS)
def devices(code: str, hub: Hub, credentials: Credentials) -> dict[str, Any]:
    """The devices that hold the seat of this device key, in the order they joined."""
    room = hub.room(code)
    seat = _holder(hub, room, credentials)
    here = session_key(_device_session(_token(credentials) or ""))
    return {
        "seat": seat,
        "devices": [
            {
                "number": number,
                "joined_at": since.isoformat() if since else None,
                "this": key == here,
            }
            for number, (key, since) in enumerate(hub.rooms.devices(room, seat), start=1)
        ],
    }


@router.post("/rooms/{code}/seed", response_model=RoomOut, responses=_ROOM_ERRORS)
def set_seed(code: str, body: SeedIn, hub: Hub, credentials: Credentials) -> dict[str, Any]:
    """A seat's own dice seed, before the start: only the seat's own key (a device key for
    a friend's or open seat, the host key for the host's own and pass-and-play seats)."""
    room = hub.room(code)
    key = _token(credentials) or ""
    if not key:
        raise SeatError(
            N_("this needs a key of this room: send 'Authorization: Bearer <key>'"), 401
        )
    _is_host, held = _room_seats_of(hub, room, key)
    after = hub.set_client_seed(room, body.seat, body.client_seed, holds_seat=body.seat in held)
    return hub.room_data(after, member=True)


@router.get("/rooms/{code}/seat", response_model=RoomSeatTokensOut, responses=_ROOM_ERRORS)
def room_seat(code: str, hub: Hub, credentials: Credentials) -> dict[str, Any]:
    """The game seat tokens a key holds, once the game started: a device key's seat, or
    the host's own and pass-and-play seats (an invitation is no key)."""
    room = hub.room(code)
    _is_host, held = _room_seats_of(hub, room, _token(credentials) or "")
    if not held:
        raise SeatError(N_("this is not a key of this room"), 401)
    tokens = []
    if room.game_id is not None:
        for s in room.seats:
            if s.seat in held and s.game_seat is not None:
                token = hub.seat_token(room.game_id, s.game_seat)
                tokens.append({"seat": s.game_seat, "name": s.name, "token": token})
    return {"room": hub.room_data(room, member=True), "tokens": tokens}


@router.post("/rooms/{code}/start", response_model=RoomSeatTokensOut, responses=_ROOM_ERRORS)
def start_room(code: str, body: StartIn, hub: Hub, credentials: Credentials) -> dict[str, Any]:
    """Starts the game (host key): joined seats play; the others become CPUs or are left out."""
    _host(hub, hub.room(code), credentials)
    room, view = hub.start_room(code, body.version, fill_with_cpus=body.fill_with_cpus)
    tokens = [
        {
            "seat": s.game_seat,
            "name": s.name,
            "token": hub.seat_token(view.game_id, s.game_seat),
        }
        for s in room.seats
        if s.kind in ("me", "local") and s.game_seat is not None
    ]
    return {"room": hub.room_data(room, member=True), "tokens": tokens}


@router.get(
    "/rooms/{code}/events", response_class=EventStream, responses=_STREAM_DOC, status_code=200
)
async def room_events(
    request: Request,
    code: str,
    hub: Hub,
    last_event_id: Annotated[str | None, Header(max_length=40)] = None,
) -> EventStream:
    """The room as it changes (joins, the start): `id:` its version, `data:` as GET returns."""
    room = await run_in_threadpool(hub.room, code)
    live: Live = request.app.state.live

    def fetch(ident: int, seen: int | None, known: int | None) -> list[tuple[int, str, str]]:
        return hub.room_events_since(ident, seen)

    def later(ident: int, seen: int | None, known: int | None) -> None:
        return None  # (the shared read below answers)

    async def read() -> Now:
        now = await run_in_threadpool(hub.room_events_since, room.room_id, None)
        return now[0][0], now[0][1]

    async def shared(ident: int, seen: int | None, known: int | None) -> list[tuple[int, str, str]]:
        # Every watcher of the room in this worker wakes for a change: one read serves all.
        return _room_events(await live.reads.now((Topic.ROOM, ident), known, read), seen)

    return await _stream(
        request, (Topic.ROOM, room.room_id), fetch, later, _after(last_event_id, None), shared
    )


def _room_events(now: Now, seen: int | None) -> list[tuple[int, str, str]]:
    """What a room stream that has seen version `seen` sends, given the room `now`: nothing,
    the room, or (a version the room never had) a "reset" with the room now."""
    version, text = now
    if seen is not None and version == seen:
        return []
    return [(version, text, "room" if seen is None or seen < version else "reset")]


@router.post("/games/{game_id}/seats/{seat}/cpu", response_model=GameOut, responses=_ROOM_ERRORS)
def hand_to_cpu(
    game_id: str,
    seat: Annotated[int, Path(ge=0, le=7)],
    body: HandOverIn,
    hub: Hub,
    credentials: Credentials,
) -> dict[str, Any]:
    """The room's host hands a seat to a CPU (from now on), between that seat's turns and
    to a level of `HAND_OVER_LEVELS`; the seat's old token is refused from then on."""
    gid = hub.game_id(game_id)
    room = hub.rooms.of_game(gid)
    if room is None:
        raise SeatError(N_("only games started from a room have a host"), 403)
    _host(hub, room, credentials)
    held = [
        s.game_seat for s in room.seats if s.kind in ("me", "local") and s.game_seat is not None
    ]
    return hub.data(hub.hand_to_cpu(gid, seat, body.level, held=held, is_host=True))


@router.post("/games/{game_id}/leave", response_model=GameOut, responses=_AUTH_ERRORS)
def leave_game(game_id: str, hub: Hub, credentials: Credentials) -> dict[str, Any]:
    """The seat of this token leaves the game: a casual CPU plays it from now on, and the
    token is refused from then on (a friend's or open seat of a room's game; the host
    abandons or hands their seat over instead)."""
    gid = hub.game_id(game_id)
    view = hub.load(gid)
    seat = hub.check_member(view, _token(credentials))
    room = hub.rooms.of_game(gid)
    if room is None:
        raise SeatError(N_("only games started from a room can be left"), 403)
    is_host = any(s.kind in ("me", "local") and s.game_seat == seat for s in room.seats)
    after = hub.hand_to_cpu(
        gid, seat, DEFAULT_LEVEL.value, right=Right.LEAVE, held=[seat], is_host=is_host
    )
    return hub.data(after)
