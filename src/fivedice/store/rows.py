"""Rows read back from the database, checked: saved games, listings and results.

The database may have been edited by hand (or by a faulty program), and SQLite keeps
whatever text is put in any column. Every value read here is checked before it is used, and
a row that cannot be what fivedice wrote raises `GameDamagedError` naming the game and what
is wrong with it (its status, its totals, seat 2, action 14, ...), never a traceback. Reading
never writes: a damaged row is left exactly as it is.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum
from typing import Any, TypeVar

from fivedice.core.actions import parse_action
from fivedice.core.errors import N_, FivediceError
from fivedice.core.fairdice import LEGACY_SCHEME, VERIFIABLE_SCHEMES, parse_server_seed
from fivedice.core.game import FirstPlayer, GameKind, GameSettings, Seat
from fivedice.core.names import visible_text
from fivedice.core.record import (
    UNDO,
    ActionEntry,
    GameRecord,
    parse_dice_text,
    rules_from_json,
)
from fivedice.core.rules import Family, RuleSet
from fivedice.store.errors import GameDamagedError

IN_PROGRESS = "in_progress"
FINISHED = "finished"
ABANDONED = "abandoned"
STATUSES = (IN_PROGRESS, FINISHED, ABANDONED)
DAMAGED = "damaged"
"""The status a listing shows for a game whose rows are damaged (never stored)."""
WAITING = "waiting"
"""A room's status until its game starts (then `STARTED`)."""
STARTED = "started"

_T = TypeVar("_T")
_E = TypeVar("_E", bound=Enum)


class Damage(FivediceError):
    """What is wrong with a row (the `damage` of a `GameDamagedError`)."""


def aware(value: datetime) -> datetime:
    """The datetime in UTC (SQLite hands back naive datetimes; everything is stored in UTC)."""
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


UNKNOWN_TIME = datetime(1970, 1, 1, tzinfo=UTC)
"""Shown as the start of a listed game whose start cannot be read."""


def date_in(value: object, column: str) -> datetime:
    # The store reads SQLite's dates as the stored text (see `Store._columns`): a date edited
    # by hand must damage its game only, not every listing.
    if isinstance(value, str):
        with suppress(ValueError):
            value = datetime.fromisoformat(value)
    if not isinstance(value, datetime):
        raise Damage(
            N_("{column} is not a date and time: {value!r}"), column=column, value=_clip(value)
        )
    return aware(value)


@dataclass(frozen=True)
class GameSummary:
    """One line of `fivedice games`.

    `damage` says what is wrong when the game's rows are damaged (then `status` is
    ``"damaged"`` and the fields that could not be read are empty).
    """

    game_id: int
    started: datetime
    players: tuple[str, ...]
    rules: str
    status: str
    actions: int
    totals: tuple[int, ...]
    practice: bool
    cpu_levels: tuple[str | None, ...] = ()
    damage: GameDamagedError | None = None
    kind: str = GameKind.PLAY.value  # 'play' or 'table' (real dice, the app keeps the card)
    dice_commitment: str | None = None
    server_seed: str | None = None
    """Hex, only once the game is over (never listed for a game in progress)."""

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.game_id,
            "started": self.started.isoformat(),
            "players": list(self.players),
            "rules": self.rules,
            "status": self.status,
            "actions": self.actions,
            "totals": list(self.totals),
            "practice": self.practice,
            "kind": self.kind,
            "damage": None if self.damage is None else str(self.damage),
            "dice_commitment": self.dice_commitment,
            "server_seed": self.server_seed,
        }


@dataclass(frozen=True)
class ResultRow:
    """One seat's result in one finished game (of a match), as statistics read it."""

    game_id: int
    game_number: int
    profile: str
    rules: str
    total: int
    rank: int
    seat_count: int
    upper_bonuses: int
    columns: int
    yahtzees: int
    boxes: dict[str, list[int]]
    finished_at: datetime
    kind: str = "play"
    """The game's kind (`GameKind`): "table" for dice typed in at a real table."""


# -- single values ------------------------------------------------------------------------


# Damage is named by table and column (and the row, SQL-like, where it is not the game's
# own): what someone who edits the database needs to find it.


def whole_in(value: object, column: str) -> int:
    # SQLite stores text typed into an INTEGER column as text; booleans are not numbers here.
    if isinstance(value, bool) or not isinstance(value, int):
        raise Damage(N_("{column} is not a whole number: {value!r}"), column=column, value=value)
    return value


def text_in(value: object, column: str) -> str:
    if not isinstance(value, str):
        raise Damage(N_("{column} is not text: {value!r}"), column=column, value=value)
    return value


def _json(text: object, column: str) -> Any:
    try:
        return json.loads(text_in(text, column))
    except (ValueError, RecursionError):
        raise Damage(
            N_("{column} cannot be read: {value!r}"), column=column, value=_clip(text)
        ) from None


def _clip(value: object) -> object:
    return value[:60] + "…" if isinstance(value, str) and len(value) > 60 else value


def _totals(text: object, seat_count: int) -> tuple[int, ...]:
    totals = _json(text, "games.totals_json")
    if (
        not isinstance(totals, list)
        or len(totals) != seat_count
        or any(isinstance(t, bool) or not isinstance(t, int) for t in totals)
    ):
        raise Damage(
            N_("games.totals_json is not a list of {count} whole numbers: {value!r}"),
            count=seat_count,
            value=_clip(text),
        )
    return tuple(totals)


def _status(value: object) -> str:
    if value not in STATUSES:
        raise Damage(
            N_("games.status {value!r} is not one of {statuses}"),
            value=value,
            statuses=", ".join(STATUSES),
        )
    return str(value)


def _member(kind: type[_E], value: object, template: str, names: str) -> _E:
    """The member of the enum `kind` whose value is `value`; `template` says why not, with
    the allowed values as the parameter `names`."""
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(str(member.value) for member in kind)
        raise Damage(template, value=value, **{names: allowed}) from None


def _first_player(value: object) -> FirstPlayer:
    return _member(
        FirstPlayer, value, N_("games.first_player {value!r} is not one of {modes}"), "modes"
    )


def _kind(value: object) -> GameKind:
    return _member(GameKind, value, N_("games.kind {value!r} is not one of {kinds}"), "kinds")


def _checked(game_id: int, read: Callable[[], _T]) -> _T:
    """`read()`, with any error about the values turned into `GameDamagedError(game_id)`."""
    try:
        return read()
    except GameDamagedError:
        raise
    except FivediceError as error:
        raise GameDamagedError(game_id, error) from None
    except (ValueError, TypeError, KeyError, AttributeError, OverflowError) as error:
        raise GameDamagedError(
            game_id,
            Damage(N_("a value cannot be read ({reason})"), reason=visible_text(str(error))),
        ) from None


# -- games --------------------------------------------------------------------------------


def _seats(game: Any, seat_rows: Sequence[Any]) -> tuple[Seat, ...]:
    count = whole_in(game.seat_count, "games.seat_count")
    numbers = [row.seat for row in seat_rows]
    for number in range(count):
        if number not in numbers:
            raise Damage(N_("game_seats has no row for seat={seat}"), seat=number)
    if len(numbers) != count:
        raise Damage(
            N_("game_seats has {count} rows for it, but games.seat_count is {expected}"),
            count=len(numbers),
            expected=count,
        )
    seats = []
    for row in seat_rows:
        where = f"where seat={row.seat!r}"
        level = row.cpu_level
        if level is not None:
            level = text_in(level, f"game_seats.cpu_level {where}")
        try:
            seats.append(Seat(text_in(row.name, f"game_seats.name {where}"), level))
        except FivediceError as error:
            raise Damage(
                N_("{column}: {reason}"), column=f"game_seats.name {where}", reason=error
            ) from None
    return tuple(seats)


def _settings(game: Any, seat_rows: Sequence[Any]) -> GameSettings:
    try:
        rules = rules_from_json(text_in(game.rules_json, "games.rules_json"))
    except FivediceError as error:
        raise Damage(N_("{column}: {reason}"), column="games.rules_json", reason=error) from None
    return GameSettings(
        _seats(game, seat_rows),
        rules,
        _first_player(game.first_player),
        whole_in(game.match_length, "games.match_length"),
        _kind(game.kind),
    )


def summary_from_rows(game: Any, seat_rows: Sequence[Any], logged: int | None) -> GameSummary:
    """The listing line of a game; a damaged game is listed with `damage` set.

    Args:
        game: the `games` row; seat_rows: its `game_seats` rows, by seat number.
        logged: how many actions its log holds (None: not counted).
    """
    game_id = int(game.id)
    names = tuple(str(row.name) for row in seat_rows)
    levels = tuple(row.cpu_level if isinstance(row.cpu_level, str) else None for row in seat_rows)
    rules = str(game.rules_key)
    started = UNKNOWN_TIME

    def read() -> GameSummary:
        nonlocal started
        started = date_in(game.created_at, "games.created_at")
        seats = _settings(game, seat_rows).seats
        version = whole_in(game.version, "games.version")
        if logged is not None and logged != version:
            raise _log_length(logged, version)
        parse_dice_text(text_in(game.opening_dice, "games.opening_dice"), "games.opening_dice")
        return GameSummary(
            game_id=game_id,
            started=started,
            players=tuple(seat.name for seat in seats),
            rules=rules,
            status=_status(game.status),
            actions=version,
            totals=_totals(game.totals_json, len(seats)),
            practice=bool(game.practice),
            cpu_levels=tuple(seat.cpu_level for seat in seats),
            kind=_kind(game.kind).value,
            **_listed_dice(game),
        )

    try:
        return _checked(game_id, read)
    except GameDamagedError as damage:
        return GameSummary(
            game_id=game_id,
            started=started,
            players=names,
            rules=rules,
            status=DAMAGED,
            actions=game.version if isinstance(game.version, int) else 0,
            totals=(),
            practice=bool(game.practice),
            cpu_levels=levels,
            damage=damage,
            kind=str(game.kind),
        )


def record_from_rows(game: Any, seat_rows: Sequence[Any], action_rows: Sequence[Any]) -> GameRecord:
    """The record of a saved game, every value checked (the log is not replayed here).

    Raises:
        GameDamagedError: a value cannot be what fivedice wrote (the message says which).
    """
    game_id = int(game.id)

    def read() -> GameRecord:
        settings = _settings(game, seat_rows)
        version = whole_in(game.version, "games.version")
        entries = []
        for expected, row in enumerate(action_rows, start=1):
            seq = whole_in(row.seq, "actions.seq")
            if seq != expected:
                raise Damage(N_("the actions table has no row for seq={seq}"), seq=expected)
            where = f"where seq={seq}"
            seat = whole_in(row.seat, f"actions.seat {where}")
            if not 0 <= seat < len(settings.seats):
                raise Damage(
                    N_("{column} is {seat}, but the game has no such seat"),
                    column=f"actions.seat {where}",
                    seat=seat,
                )
            entries.append(_entry(row, seq, seat, where))
        if len(entries) != version:
            raise _log_length(len(entries), version)
        return GameRecord(
            settings=settings,
            seed=whole_in(game.seed, "games.seed"),
            actions=tuple(entries),
            opening_dice=parse_dice_text(
                text_in(game.opening_dice, "games.opening_dice"), "games.opening_dice"
            ),
            practice=bool(game.practice),
            game_id=game_id,
            started=date_in(game.created_at, "games.created_at"),
            status=_status(game.status),
            totals=_totals(game.totals_json, len(settings.seats)),
            **_dice(game, len(settings.seats)),
        )

    return _checked(game_id, read)


def _dice(game: Any, seat_count: int) -> dict[str, Any]:
    """The `GameRecord` fields of a game's dice columns (none for the legacy scheme)."""
    scheme = text_in(game.dice_scheme, "games.dice_scheme")
    if scheme == LEGACY_SCHEME:
        return {}
    if scheme not in VERIFIABLE_SCHEMES:
        raise Damage(
            N_("games.dice_scheme {value!r} is not one of {schemes}"),
            value=_clip(scheme),
            schemes=", ".join((LEGACY_SCHEME, *VERIFIABLE_SCHEMES)),
        )
    column = "games.server_seed"
    try:
        server_seed = parse_server_seed(text_in(game.server_seed, column))
    except FivediceError as error:
        raise Damage(N_("{column}: {reason}"), column=column, reason=error) from None
    commitment = text_in(game.dice_commitment, "games.dice_commitment")
    seeds = _json(game.client_seeds_json, "games.client_seeds_json")
    if (
        not isinstance(seeds, list)
        or len(seeds) != seat_count
        or not all(isinstance(seed, str) for seed in seeds)
    ):
        raise Damage(
            N_("games.client_seeds_json is not a list of {count} texts: {value!r}"),
            count=seat_count,
            value=_clip(game.client_seeds_json),
        )
    return {
        "dice_scheme": scheme,
        "dice_commitment": commitment,
        "client_seeds": tuple(seeds),
        "server_seed": server_seed,
    }


def _listed_dice(game: Any) -> dict[str, Any]:
    """The commitment of a listed game, and its server seed once the game is over."""
    if game.dice_scheme not in VERIFIABLE_SCHEMES:
        return {}
    over = game.status != IN_PROGRESS
    return {
        "dice_commitment": text_in(game.dice_commitment, "games.dice_commitment"),
        "server_seed": text_in(game.server_seed, "games.server_seed") if over else None,
    }


def _log_length(count: int, version: int) -> Damage:
    return Damage(
        N_("the actions table holds {count} actions for it, but games.version is {version}"),
        count=count,
        version=version,
    )


# -- results ------------------------------------------------------------------------------


_CARD_KEYS = frozenset(
    frozenset(box.key for box in RuleSet(family=family).boxes) for family in Family
)
"""The box keys of each family's card: a result row holds the boxes of one of them."""


def _boxes(text: object, column: str) -> dict[str, list[int]]:
    boxes = _json(text, column)
    lengths = set()
    fits = isinstance(boxes, dict) and frozenset(boxes) in _CARD_KEYS
    for scores in boxes.values() if fits else ():
        if not isinstance(scores, list) or any(
            isinstance(s, bool) or not isinstance(s, int) for s in scores
        ):
            fits = False
            break
        lengths.add(len(scores))
    if not fits or len(lengths) != 1 or 0 in lengths:
        raise Damage(
            N_("{column} does not hold whole-number scores of every box: {value!r}"),
            column=column,
            value=_clip(text),
        )
    checked: dict[str, list[int]] = boxes
    return checked


def result_from_row(row: Any) -> ResultRow:
    """One stored result, checked.

    Raises:
        GameDamagedError: the result row of that game cannot be read.
    """
    game_id = int(row.game_id)

    def read() -> ResultRow:
        where = f"where game_number={row.game_number!r} and seat={row.seat!r}"
        boxes = _boxes(row.boxes_json, f"results.boxes_json {where}")
        return ResultRow(
            game_id=game_id,
            game_number=whole_in(row.game_number, "results.game_number"),
            profile=text_in(row.profile, "profiles.name"),
            rules=text_in(row.rules_key, "games.rules_key"),
            total=whole_in(row.total, f"results.total {where}"),
            rank=whole_in(row.rank, f"results.rank {where}"),
            seat_count=whole_in(row.seat_count, "games.seat_count"),
            upper_bonuses=whole_in(row.upper_bonuses, f"results.upper_bonuses {where}"),
            columns=len(next(iter(boxes.values()))),
            yahtzees=whole_in(row.yahtzees, f"results.yahtzees {where}"),
            boxes=boxes,
            finished_at=date_in(row.finished_at, f"results.finished_at {where}"),
            kind=text_in(row.kind, "games.kind"),
        )

    return _checked(game_id, read)


def action_entry_from_row(row: Any) -> ActionEntry:
    """One `actions` row, checked like `record_from_rows` checks it (except the seat's range,
    which needs the game's seats: whoever replays the entry checks its turn).

    Raises:
        Damage: the row cannot be what fivedice wrote.
    """
    seq = whole_in(row.seq, "actions.seq")
    where = f"where seq={seq}"
    seat = whole_in(row.seat, f"actions.seat {where}")
    return _entry(row, seq, seat, where)


def _entry(row: Any, seq: int, seat: int, where: str) -> ActionEntry:
    """The entry of an `actions` row whose seq and seat are read: its action and dice checked.

    Raises:
        Damage: the action or the dice cannot be what fivedice wrote.
    """
    column = f"actions.action {where}"
    try:
        text = text_in(row.action, column)
        # An undo is a log entry, not a core action (records.UNDO).
        action = UNDO if text == UNDO else str(parse_action(text, None))
    except FivediceError as error:
        raise Damage(N_("{column}: {reason}"), column=column, reason=error) from None
    column = f"actions.dice {where}"
    return ActionEntry(seq, seat, action, parse_dice_text(text_in(row.dice, column), column))
