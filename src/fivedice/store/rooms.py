"""Rooms: who sits where before a game starts (tables `rooms`, `room_seats`, `room_claims`).

A room is made when a game has a remote seat: *a friend's* (taken only by its invitation, a
secret per seat checked by the web layer) or *an open one* (anyone with the room's short
code). A remote seat is claimed by the first device that joins it (`room_claims`: one row per
device, with when it joined); more devices of the same player come in with a one-time device
code (`room_seats.device_code` keeps its SHA-256). When the host starts, the game is created
from the seats and each device that holds a seat gets it in the game (table `web_seats`).
Handing a game seat to a CPU raises its generation (`game_seats.generation`: seat tokens
carry it, so the old one is refused) and frees it from every device. The room stays, linked
to its game.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.engine import Connection

from fivedice.core.errors import N_
from fivedice.core.fairdice import commitment_of, new_server_seed
from fivedice.core.names import MAX_NAME_LENGTH
from fivedice.core.record import GameRecord
from fivedice.store import schema
from fivedice.store.database import NewGame, Store, insert_game, use_commitment, utc_now
from fivedice.store.errors import StoreConflictError, StoreError
from fivedice.store.rows import STARTED as STARTED
from fivedice.store.rows import WAITING as WAITING

MAX_DEVICES_PER_SEAT = 8
"""The devices that may hold one room seat (a player's phone, tablet, laptop...): a seat's
holder cannot add claims without end."""
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no I, L, O, 0, 1: read aloud safely
CODE_LENGTH = 6
OPEN = "open"
SEAT_KINDS = ("me", "friend", OPEN, "local", "cpu")
REMOTE_KINDS = ("friend", OPEN)
"""Seats a device other than the host's plays: a friend's (by invitation only) and an open
seat (anyone with the room code)."""
SEAT_TAKEN = N_(
    "{name}'s seat is taken: the device that first opened its invitation holds it. Playing"
    " on another device? Ask that device for a device link."
)


class RoomError(StoreError):
    """A room that cannot do what was asked (unknown code, full, already started)."""


@dataclass(frozen=True)
class RoomSeat:
    seat: int
    kind: str  # me | friend | open | local | cpu
    name: str
    level: str | None
    joined: bool
    game_seat: int | None
    client_seed: str = ""
    """The dice seed the seat's player gave when joining ("" for none)."""


@dataclass(frozen=True)
class Room:
    room_id: int
    code: str
    host_key: str
    status: str
    options: dict[str, Any]
    version: int
    game_id: int | None
    seats: tuple[RoomSeat, ...]
    server_seed: bytes | None = field(default=None, repr=False)
    """The game's secret server seed, drawn with the room (None: a room made before
    verifiable dice in rooms). Never shown before the game is over; `commitment` is."""

    @property
    def started(self) -> bool:
        return self.status == STARTED

    @property
    def commitment(self) -> str | None:
        """The SHA-256 of the server seed: shown in the waiting room before anyone adds a
        client seed, and the same as the game's commitment once it starts."""
        return None if self.server_seed is None else commitment_of(self.server_seed)


def normalize_code(text: str) -> str:
    """A code as typed ("ab3 k7q") in its stored form ("AB3K7Q")."""
    return "".join(text.split()).upper()[: CODE_LENGTH * 2]


class Rooms:
    """Reads and writes rooms in one store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def create(
        self,
        host_key: str,
        options: dict[str, Any],
        seats: list[tuple[str, str, str | None, str]],
        *,
        committed: bytes | None = None,
        forget_before: datetime | None = None,
    ) -> Room:
        """A new waiting room; `seats` are (kind, name, level, client seed). Seats other than
        friends count as joined (the host holds them).

        The game's secret server seed is `committed`, one whose commitment was shown before
        any seed of the host's was chosen (the new-game page, the API's two steps): it is
        recorded as used in the room's transaction (`use_commitment`, dropping uses older
        than `forget_before`), so it makes one room or game only. Without it the seed is
        drawn now (no seed of the host's: its commitment is still shown before any friend
        adds one).

        Raises:
            CommitmentUsedError: `committed` already made a game or a room (nothing saved).
        """
        if (committed is None) != (forget_before is None):
            raise TypeError("Rooms.create: a committed seed needs forget_before, and only it")
        server_seed = new_server_seed() if committed is None else committed
        for _attempt in range(8):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            try:
                with self.store._errors(N_("create the room")), self.store.writing() as db:
                    if committed is not None and forget_before is not None:
                        use_commitment(db, commitment_of(committed), forget_before=forget_before)
                    room_id = db.execute(
                        schema.rooms.insert().values(
                            code=code,
                            host_key=host_key,
                            status=WAITING,
                            options_json=json.dumps(options, sort_keys=True),
                            version=0,
                            game_id=None,
                            created_at=utc_now(),
                            server_seed=server_seed.hex(),
                        )
                    ).inserted_primary_key
                    assert room_id is not None
                    room_id = room_id[0]
                    db.execute(
                        schema.room_seats.insert(),
                        [
                            {
                                "room_id": room_id,
                                "seat": index,
                                "kind": kind,
                                "name": name,
                                "level": level,
                                "joined": kind not in REMOTE_KINDS,
                                "game_seat": None,
                                "client_seed": seed or None,
                            }
                            for index, (kind, name, level, seed) in enumerate(seats)
                        ],
                    )
            except StoreConflictError:
                continue  # the code was taken: draw another
            return self.by_id(int(room_id))
        raise RoomError(N_("could not find a free room code; try again"))

    def _read(self, db: Connection, where: Any) -> Room | None:
        row = db.execute(select(schema.rooms).where(where)).first()
        if row is None:
            return None
        seats = db.execute(
            select(schema.room_seats)
            .where(schema.room_seats.c.room_id == row.id)
            .order_by(schema.room_seats.c.seat)
        )
        return Room(
            int(row.id),
            str(row.code),
            str(row.host_key),
            str(row.status),
            json.loads(row.options_json),
            int(row.version),
            None if row.game_id is None else int(row.game_id),
            tuple(
                RoomSeat(
                    int(s.seat),
                    str(s.kind),
                    str(s.name),
                    s.level,
                    bool(s.joined),
                    None if s.game_seat is None else int(s.game_seat),
                    s.client_seed or "",
                )
                for s in seats
            ),
            _seed_bytes(row.server_seed),
        )

    def by_id(self, room_id: int) -> Room:
        with self.store._errors(N_("read the room")), self.store._reader.begin() as db:
            room = self._read(db, schema.rooms.c.id == room_id)
        if room is None:
            raise RoomError(N_("there is no such room"))
        return room

    def by_code(self, code: str) -> Room:
        """Raises: RoomError: no room has this code."""
        with self.store._errors(N_("read the room")), self.store._reader.begin() as db:
            room = self._read(db, schema.rooms.c.code == normalize_code(code))
        if room is None:
            raise RoomError(N_("no game has the code {code!r}"), code=code)
        return room

    def of_game(self, game_id: int) -> Room | None:
        """The room a game was started from, if any."""
        with self.store._errors(N_("read the room")), self.store._reader.begin() as db:
            return self._read(db, schema.rooms.c.game_id == game_id)

    def claims(self, room_id: int) -> list[tuple[int, str]]:
        """(seat, session key) of every browser that joined a seat."""
        table = schema.room_claims
        with self.store._errors(N_("read the room")), self.store._reader.begin() as db:
            rows = db.execute(
                select(table.c.seat, table.c.session_key).where(table.c.room_id == room_id)
            )
            return [(int(r.seat), str(r.session_key)) for r in rows]

    def join(
        self,
        room_id: int,
        seat: int | None,
        session_key: str,
        name: str | None,
        client_seed: str = "",
    ) -> Room:
        """Claims a seat for a device (a browser session, or an API client, by key):
        `seat` (an invitation's friend seat) or, by the room code, the first *open* seat
        nobody took. The first device claims the seat; an invitation opened by another
        device afterwards is refused (the seat is taken). The device that holds the seat
        may join again: before the start its name and `client_seed` (checked by the
        caller) replace the ones it gave.

        Raises:
            RoomError: no open seat (code), not a friend's seat, the seat is taken, the
                room's host (an invitation is for a friend), or a client seed for a game
                that has started (its dice are fixed).
        """
        with self.store._errors(N_("join the room")), self.store.writing() as db:
            room = self._read(db, schema.rooms.c.id == room_id)
            if room is None:
                raise RoomError(N_("there is no such room"))
            held = _held(db, room_id, session_key)
            if seat is None:
                if held:
                    return room  # this device joined already: joining twice takes no 2nd seat
                if room.started:
                    raise RoomError(N_("this game has started; ask for an invitation link"))
                free = [s for s in room.seats if s.kind == OPEN and not s.joined]
                if not free:
                    raise RoomError(
                        N_("no seat of this game is open to the room code: ask the host for"
                           " an invitation")
                    )  # fmt: skip
                seat = free[0].seat
            target = next((s for s in room.seats if s.seat == seat), None)
            if target is None or target.kind not in REMOTE_KINDS:
                raise RoomError(N_("that is not a seat for a friend"))
            if seat not in held:
                if room.host_key and session_key == room.host_key:
                    raise RoomError(
                        N_("this invitation is for a friend: send it to them; you play your"
                           " own seats")
                    )  # fmt: skip
                # The claim: one statement, so of two devices at once exactly one wins.
                claimed = db.execute(
                    update(schema.room_seats)
                    .where(
                        schema.room_seats.c.room_id == room_id,
                        schema.room_seats.c.seat == seat,
                        schema.room_seats.c.joined.is_(False),
                    )
                    .values(joined=True)
                ).rowcount
                if claimed != 1:
                    raise RoomError(SEAT_TAKEN, name=target.name)
                _add_claim(db, room_id, seat, session_key)
            changes: dict[str, Any] = {}
            if seat not in held:
                changes["joined"] = True  # (set above; the room's version still moves on)
            if name and not room.started:
                changes["name"] = name[:MAX_NAME_LENGTH]
            if client_seed:
                if room.started:
                    raise RoomError(
                        N_("this game has started: its dice are fixed, so a seed can no longer"
                           " be added")
                    )  # fmt: skip
                changes["client_seed"] = client_seed
            if changes:
                _changed_seat(db, room_id, seat, changes)
            if room.started and room.game_id is not None and target.game_seat is not None:
                hold_seat(db, session_key, room.game_id, target.game_seat)
            result = self._read(db, schema.rooms.c.id == room_id)
        assert result is not None
        return result

    def holder_of(self, room_id: int, session_key: str) -> int | None:
        """The room seat a device (by session key) claimed, if any."""
        with self.store._errors(N_("read the room")), self.store._reader.begin() as db:
            held = _held(db, room_id, session_key)
        return min(held) if held else None

    def set_device_code(self, room_id: int, seat: int, code_hash: str) -> None:
        """Makes `code_hash` (the SHA-256 of a one-time code) the seat's one pending device
        code; a code asked for before is void from now on."""
        with self.store._errors(N_("add a device")), self.store.writing() as db:
            db.execute(
                update(schema.room_seats)
                .where(schema.room_seats.c.room_id == room_id, schema.room_seats.c.seat == seat)
                .values(device_code=code_hash)
            )

    def add_device(self, room_id: int, code_hash: str, session_key: str) -> tuple[Room, int]:
        """Gives the seat whose pending device code is `code_hash` to one more device (and
        its game seat, once started); the code is used up.

        Raises:
            RoomError: no seat has this code (a wrong code, or one used or replaced).
        """
        with self.store._errors(N_("add a device")), self.store.writing() as db:
            found = db.execute(
                select(schema.room_seats.c.seat, schema.room_seats.c.game_seat).where(
                    schema.room_seats.c.room_id == room_id,
                    schema.room_seats.c.device_code == code_hash,
                )
            ).first()
            used = (
                0
                if found is None
                else db.execute(
                    update(schema.room_seats)
                    .where(
                        schema.room_seats.c.room_id == room_id,
                        schema.room_seats.c.seat == found.seat,
                        schema.room_seats.c.device_code == code_hash,
                    )
                    .values(device_code=None)
                ).rowcount
            )
            if found is None or used != 1:
                raise RoomError(N_("this device link was used already, or a newer one replaced it"))
            seat = int(found.seat)
            if seat not in _held(db, room_id, session_key):
                _refuse_past_device_cap(db, room_id, seat)
                _add_claim(db, room_id, seat, session_key)
            room = self._read(db, schema.rooms.c.id == room_id)
            assert room is not None
            if room.game_id is not None and found.game_seat is not None:
                hold_seat(db, session_key, room.game_id, int(found.game_seat))
        return room, seat

    def devices(self, room_id: int, seat: int) -> list[tuple[str, datetime | None]]:
        """(session key, when it joined; None: before this was kept) of each device that
        holds a room seat, in the order they joined."""
        table = schema.room_claims
        with self.store._errors(N_("read the room")), self.store._reader.begin() as db:
            rows = db.execute(
                select(table.c.session_key, table.c.created_at).where(
                    table.c.room_id == room_id, table.c.seat == seat
                )
            ).all()
        listed = [(str(r.session_key), r.created_at) for r in rows]
        return sorted(listed, key=lambda item: (item[1] is not None, item[1] or 0, item[0]))

    def set_client_seed(self, room_id: int, seat: int, client_seed: str) -> Room:
        """A seat's own dice seed, given (or changed) before the start by its holder (the
        caller checked who asks).

        Raises:
            RoomError: the game has started (its dice are fixed).
        """
        with self.store._errors(N_("join the room")), self.store.writing() as db:
            room = self._read(db, schema.rooms.c.id == room_id)
            if room is None:
                raise RoomError(N_("there is no such room"))
            if room.started:
                raise RoomError(
                    N_("this game has started: its dice are fixed, so a seed can no longer"
                       " be added")
                )  # fmt: skip
            _changed_seat(db, room_id, seat, {"client_seed": client_seed or None})
            result = self._read(db, schema.rooms.c.id == room_id)
        assert result is not None
        return result

    def start(
        self,
        room_id: int,
        version: int,
        game: NewGame,
        game_seats: dict[int, int | None],
        cpu_seats: dict[int, str],
        host_seats: Sequence[int] = (),
    ) -> tuple[Room, GameRecord]:
        """Saves the room's game and marks the room started with it, in one transaction:
        of several starts at once, one makes the game and the others make nothing.

        `game_seats`: room seat -> game seat (None: left out); `cpu_seats`: room seats that
        became CPUs (unjoined friends), with their level; `host_seats`: the game seats the
        host's browser holds. Every claimed seat goes to the browsers that joined it.

        Raises:
            RoomError: the room changed since `version` (someone joined) or started already.
        """
        with self.store._errors(N_("start the game"), writing=True), self.store.writing() as db:
            # The room is claimed first: a concurrent start waits on its row, then finds it
            # started and rolls back before writing a game.
            done = db.execute(
                update(schema.rooms)
                .where(
                    schema.rooms.c.id == room_id,
                    schema.rooms.c.version == version,
                    schema.rooms.c.status == WAITING,
                )
                .values(status=STARTED, version=version + 1)
            ).rowcount
            if done != 1:
                raise RoomError(N_("the room changed meanwhile (someone joined); look again"))
            record = insert_game(db, game)
            game_id = record.game_id
            assert game_id is not None  # the store always assigns one
            db.execute(
                update(schema.rooms).where(schema.rooms.c.id == room_id).values(game_id=game_id)
            )
            for seat, game_seat in game_seats.items():
                values: dict[str, Any] = {"game_seat": game_seat}
                if seat in cpu_seats:
                    values.update(kind="cpu", level=cpu_seats[seat], joined=True)
                db.execute(
                    update(schema.room_seats)
                    .where(schema.room_seats.c.room_id == room_id, schema.room_seats.c.seat == seat)
                    .values(**values)
                )
            claims = db.execute(
                select(schema.room_claims.c.seat, schema.room_claims.c.session_key).where(
                    schema.room_claims.c.room_id == room_id
                )
            )
            for claim in claims:
                game_seat = game_seats.get(int(claim.seat))
                if game_seat is not None:
                    hold_seat(db, str(claim.session_key), game_id, game_seat)
            room = self._read(db, schema.rooms.c.id == room_id)
            assert room is not None
            if room.host_key:
                for game_seat in sorted(set(host_seats)):
                    hold_seat(db, room.host_key, game_id, game_seat)
        return room, record

    def hand_to_cpu(self, game_id: int, seat: int, level: str) -> None:
        """A game's human seat is played by a CPU from now on (its player left): its
        generation goes up (every token it had is refused from now on), and no browser or
        device holds it any more."""
        with self.store._errors(N_("hand the seat to a CPU")), self.store.writing() as db:
            db.execute(
                update(schema.game_seats)
                .where(schema.game_seats.c.game_id == game_id, schema.game_seats.c.seat == seat)
                .values(cpu_level=level, generation=schema.game_seats.c.generation + 1)
            )
            db.execute(
                delete(schema.web_seats).where(
                    schema.web_seats.c.game_id == game_id, schema.web_seats.c.seat == seat
                )
            )
            in_room = schema.room_seats.c.room_id.in_(
                select(schema.rooms.c.id).where(schema.rooms.c.game_id == game_id)
            )
            room_seats = [
                (int(r.room_id), int(r.seat))
                for r in db.execute(
                    select(schema.room_seats.c.room_id, schema.room_seats.c.seat).where(
                        in_room, schema.room_seats.c.game_seat == seat
                    )
                )
            ]
            for room_id, room_seat in room_seats:
                db.execute(
                    delete(schema.room_claims).where(
                        schema.room_claims.c.room_id == room_id,
                        schema.room_claims.c.seat == room_seat,
                    )
                )
            db.execute(
                update(schema.room_seats)
                .where(in_room, schema.room_seats.c.game_seat == seat)
                .values(kind="cpu", level=level, device_code=None)
            )

    def generations(self, game_id: int) -> dict[int, int]:
        """Each seat's generation in a game (0: never changed hands)."""
        table = schema.game_seats
        with self.store._errors(N_("read the seats")), self.store._reader.begin() as db:
            rows = db.execute(
                select(table.c.seat, table.c.generation).where(table.c.game_id == game_id)
            )
            return {int(r.seat): int(r.generation or 0) for r in rows}


def _held(db: Connection, room_id: int, session_key: str) -> set[int]:
    """The room seats a device (by session key) holds."""
    return {
        int(r.seat)
        for r in db.execute(
            select(schema.room_claims.c.seat).where(
                schema.room_claims.c.room_id == room_id,
                schema.room_claims.c.session_key == session_key,
            )
        )
    }


def device_cap_refusal(devices: int) -> RoomError | None:
    """Why a seat held by `devices` devices takes no more (None: it does)."""
    if devices < MAX_DEVICES_PER_SEAT:
        return None
    return RoomError(
        N_("a seat is held by at most {most} devices; this one was not added"),
        most=MAX_DEVICES_PER_SEAT,
    )


def _refuse_past_device_cap(db: Connection, room_id: int, seat: int) -> None:
    """Raises RoomError when the seat has `MAX_DEVICES_PER_SEAT` devices already."""
    claims = schema.room_claims
    held = db.execute(
        select(func.count())
        .select_from(claims)
        .where(claims.c.room_id == room_id, claims.c.seat == seat)
    ).scalar_one()
    refusal = device_cap_refusal(int(held))
    if refusal is not None:
        raise refusal


def _add_claim(db: Connection, room_id: int, seat: int, session_key: str) -> None:
    db.execute(
        schema.room_claims.insert().values(
            room_id=room_id, seat=seat, session_key=session_key, created_at=utc_now()
        )
    )


def _changed_seat(db: Connection, room_id: int, seat: int, changes: dict[str, Any]) -> None:
    """Writes a room seat's changes and moves the room's version on (its watchers look)."""
    db.execute(
        update(schema.room_seats)
        .where(schema.room_seats.c.room_id == room_id, schema.room_seats.c.seat == seat)
        .values(**changes)
    )
    db.execute(
        update(schema.rooms)
        .where(schema.rooms.c.id == room_id)
        .values(version=schema.rooms.c.version + 1)
    )


def _seed_bytes(text: str | None) -> bytes | None:
    """The stored server seed (hex) as bytes; None if absent or not 32 bytes of hex."""
    try:
        seed = bytes.fromhex(text) if text else None
    except ValueError:
        return None
    return seed if seed is not None and len(seed) == 32 else None


def hold_seat(db: Connection, session_key: str, game_id: int, seat: int) -> None:
    """Lets a browser session (by key) act for a game's seat, unless it does already."""
    table = schema.web_seats
    exists = db.execute(
        select(table.c.seat).where(
            table.c.session_key == session_key, table.c.game_id == game_id, table.c.seat == seat
        )
    ).first()
    if exists is None:
        db.execute(
            table.insert().values(
                session_key=session_key, game_id=game_id, seat=seat, created_at=utc_now()
            )
        )
