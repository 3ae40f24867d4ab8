"""The JSON API under /api: create a game, read it, act with a seat token, ask for a hint.

Errors always carry a message: 401 (no token, or not a token of this game), 403 (another
seat's token, or not your turn), 404 (unknown game), 409 (illegal action, stale version,
closed game, no hint possible), 422 (malformed body or action text), 503 (database busy;
nothing changed). A refused request never changes a game.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from annotated_types import Ge, Le
from fastapi import APIRouter, Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from fivedice.core.rules import MAX_COLUMNS, MAX_FIXED_SCORE, MAX_ROLLS, MAX_UPPER_TOTAL, PRESETS
from fivedice.strategy.levels import LEVELS
from fivedice.web.hub import MAX_SEED, GameHub, PlayerSpec

router = APIRouter(prefix="/api", tags=["games"])
bearer = HTTPBearer(auto_error=False, description="The seat token returned when the game was made")


def _json_integer(value: object) -> object:
    # The models are strict (no "1" for 1, no 0 for false), but JSON Schema counts 3.0 as an
    # integer, so whole floats pass on to the lax integer check.
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


Level = Literal["beginner", "casual", "strong", "expert"]
assert set(Level.__args__) == set(LEVELS)  # type: ignore[attr-defined]  # one list of levels


class ErrorOut(BaseModel):
    """What went wrong, in words."""

    detail: str


class PlayerIn(BaseModel):
    """A seat: a human, or a CPU of a level."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(min_length=1, max_length=40, examples=["Ann"])
    kind: Literal["human", "cpu"] = "human"
    level: Level | None = Field(default=None, description="CPU level (CPU seats; default casual)")


Points = Annotated[int, Ge(0), Le(MAX_FIXED_SCORE), BeforeValidator(_json_integer)]


class RuleOptionsIn(BaseModel):
    """Rule options that change the preset (each optional; see `fivedice rules`)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    rolls_per_turn: Annotated[int, Ge(1), Le(MAX_ROLLS), BeforeValidator(_json_integer)] | None = (
        None
    )
    upper_bonus: bool | None = None
    upper_bonus_threshold: (
        Annotated[int, Ge(1), Le(MAX_UPPER_TOTAL), BeforeValidator(_json_integer)] | None
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
    rules: str | None = Field(description="the preset these rules are, or null")
    rule_settings: dict[str, Any]
    game_number: int
    match_length: int
    first_player: str
    current_seat: int | None
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
    value: float = Field(description="expected points still to come under optimal play")
    loss: float = Field(description="expected points lost against the best option")
    estimate: bool = Field(
        False,
        description="true for rule sets with several columns, where values are the CPU "
        "expert's estimates rather than exact optima",
    )


class HintOut(BaseModel):
    version: int
    options: list[HintOptionOut]


def hub_of(request: Request) -> GameHub:
    hub: GameHub = request.app.state.hub
    return hub


Hub = Annotated[GameHub, Depends(hub_of)]
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]

_ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorOut, "description": "No such game"},
    422: {"model": ErrorOut, "description": "Malformed request or action text"},
    409: {"model": ErrorOut, "description": "Illegal action, stale version or closed game"},
    503: {"model": ErrorOut, "description": "The database is busy; nothing changed"},
}
_AUTH_ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorOut, "description": "No seat token of this game"},
    403: {"model": ErrorOut, "description": "Another seat's token, or not this seat's turn"},
    **_ERRORS,
}


def _token(credentials: HTTPAuthorizationCredentials | None) -> str | None:
    return credentials.credentials if credentials else None


@router.post(
    "/games",
    status_code=201,
    response_model=NewGameOut,
    responses={422: {"model": ErrorOut, "description": "Settings that cannot be played"}},
)
def create_game(body: NewGameIn, hub: Hub) -> dict[str, Any]:
    """Starts a game; the answer holds a secret token for each human seat."""
    players = [
        PlayerSpec(p.name, (p.level or "casual") if p.kind == "cpu" else None) for p in body.players
    ]
    view = hub.create(
        players,
        rules=body.rules,
        settings=body.set_.model_dump(exclude_none=True),
        first_player=body.first_player,
        match_length=body.match_length,
        seed=body.seed,
        practice=body.practice,
    )
    return {**hub.data(view), "tokens": hub.seat_tokens(view)}


@router.get("/games/{game_id}", response_model=GameOut, responses=_ERRORS)
def get_game(game_id: str, hub: Hub) -> dict[str, Any]:
    """The game as saved now (anyone who knows its id may look)."""
    return hub.data(hub.load(hub.game_id(game_id)))


@router.post(
    "/games/{game_id}/actions",
    response_model=GameOut,
    responses=_AUTH_ERRORS,
)
def post_action(game_id: str, body: ActionIn, hub: Hub, credentials: Credentials) -> dict[str, Any]:
    """Applies an action of the seat to move; `version` must be the game's version."""
    view = hub.act(hub.game_id(game_id), _token(credentials), body.action, body.version)
    return hub.data(view)


@router.post("/games/{game_id}/cpu", response_model=CpuStepOut, responses=_AUTH_ERRORS)
def post_cpu_step(
    game_id: str, body: CpuStepIn, hub: Hub, credentials: Credentials
) -> dict[str, Any]:
    """Lets the CPU seat to move take one action (any seat of the game may ask)."""
    action, view = hub.cpu_step(hub.game_id(game_id), _token(credentials), body.version)
    return {"action": action, "game": hub.data(view)}


@router.get("/games/{game_id}/hint", response_model=HintOut, responses=_AUTH_ERRORS)
def get_hint(game_id: str, hub: Hub, credentials: Credentials) -> dict[str, Any]:
    """The advisor's options for the seat to move, best first (that seat's token only)."""
    view, options = hub.hint(hub.game_id(game_id), _token(credentials))
    return {"version": view.version, "options": options}
