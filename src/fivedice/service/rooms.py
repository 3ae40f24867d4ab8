"""Rooms: games with friends' seats, checked when made, joined, and started once.

A room waits for its friends; its start saves the game and marks the room started in one
transaction (`fivedice.store.rooms.Rooms.start`), so of several starts at once exactly one
makes a game. Invitations are secrets the front end checks: this module takes the seat an
invitation is for, never the secret.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from fivedice.core.errors import N_
from fivedice.core.fairdice import DiceSeedError, check_client_seed
from fivedice.core.names import check_name, name_key
from fivedice.service.creation import (
    Commitments,
    PlayerSpec,
    commitment_refusal,
    game_settings,
)
from fivedice.service.games import GameService, GameView
from fivedice.service.lookalikes import check_not_like, check_scripts
from fivedice.service.rights import Right, SeatFacts, seat_refusal
from fivedice.store import GameRecord, NewGame
from fivedice.store.browser_seats import session_key
from fivedice.store.rooms import (
    OPEN,
    REMOTE_KINDS,
    Room,
    RoomError,
    Rooms,
    device_cap_refusal,
)
from fivedice.strategy.levels import DEFAULT_LEVEL

FILL_LEVEL = DEFAULT_LEVEL.value
"""The CPU level of a friend's seat nobody joined, when the host fills it at the start."""


@dataclass(frozen=True)
class RoomSeatSpec:
    """A seat of a room as the new-game form or the API names it."""

    kind: str  # me | friend | open | local | cpu
    name: str
    level: str | None = None
    client_seed: str = ""  # the seat's own dice seed (the host's and pass-and-play seats)


@dataclass(frozen=True)
class RoomStart:
    """How a room's seats become a game's: who plays, with which dice seed, where."""

    players: tuple[PlayerSpec, ...]
    client_seeds: tuple[str, ...]  # per game seat: the seed its player gave, or ""
    game_seats: dict[int, int | None]  # room seat -> game seat (None: left out)
    cpus: dict[int, str]  # room seats nobody joined, played by a CPU of this level
    host_seats: tuple[int, ...]  # the game seats the host's browser holds


def device_code_hash(code: str) -> str:
    """What the store keeps of a device code: its SHA-256, never the code."""
    return hashlib.sha256(code.strip().encode()).hexdigest()


def room_seed(options: dict[str, Any], text: str) -> str:
    """A seat's client seed for a room, checked: none at all for a room whose dice come
    from a chosen seed (they are known in advance; a seed would change nothing).

    Raises:
        DiceSeedError: the seed cannot be used (too long, control characters), or the room
            has a chosen seed.
    """
    seed = check_client_seed(text)
    if seed and options.get("seed") is not None:
        raise DiceSeedError(
            N_("a game with a chosen seed takes no client seeds: its dice are known")
        )
    return seed


def room_start(room: Room, *, fill_with_cpus: bool) -> RoomStart:
    """The game a room would start now: joined seats play, seats nobody joined become
    casual CPUs (`fill_with_cpus`) or are left out.

    Raises:
        RoomError: started already, or nobody would be left to play.
    """
    if room.started:
        raise RoomError(N_("this game has started already"))
    players: list[PlayerSpec] = []
    client_seeds: list[str] = []
    game_seats: dict[int, int | None] = {}
    cpus: dict[int, str] = {}
    for seat in room.seats:
        if seat.kind in REMOTE_KINDS and not seat.joined:
            if not fill_with_cpus:
                game_seats[seat.seat] = None
                continue
            cpus[seat.seat] = FILL_LEVEL
            players.append(PlayerSpec(seat.name, FILL_LEVEL))
            client_seeds.append("")
        else:
            players.append(PlayerSpec(seat.name, seat.level if seat.kind == "cpu" else None))
            client_seeds.append(seat.client_seed if seat.kind != "cpu" else "")
        game_seats[seat.seat] = len(players) - 1
    if not any(p.level is None for p in players):
        raise RoomError(N_("nobody has joined yet: wait, or fill the seats with CPUs"))
    host_seats = tuple(
        game_seat
        for s in room.seats
        if s.kind in ("me", "local") and (game_seat := game_seats.get(s.seat)) is not None
    )
    return RoomStart(tuple(players), tuple(client_seeds), game_seats, cpus, host_seats)


class RoomService:
    """Rooms of one game service: make, read, join and start them."""

    def __init__(self, games: GameService) -> None:
        self.games = games
        self._rooms = Rooms(games.store)

    def create(
        self,
        seats: Sequence[RoomSeatSpec],
        *,
        host_session: str | None,
        options: dict[str, Any],
        handle: str | None = None,
        commitments: Commitments | None = None,
    ) -> Room:
        """A waiting room for a game with friends' seats (checked now, started later).

        Fair dice as in a game made directly (`creation.create_game`): the host's (and
        pass-and-play) seeds need `handle`, a commitment `commitments` drew before they were
        chosen; the room's server seed is then the committed one, and the handle makes this
        one room (marked used in the room's transaction). Without seeds of the host's and
        without a handle, the room draws its seed now: friends add theirs later, after its
        commitment is shown.

        Raises:
            FivediceError: the settings cannot be played (as `creation.game_settings`), or
                a client seed cannot be used.
            CommitmentHandleError: the host's seeds without a handle, or a handle not drawn
                here or expired. DiceSeedError: a handle with a chosen seed.
            CommitmentUsedError: the handle already made a game or a room.
        """
        game_settings(
            [PlayerSpec(s.name, s.level if s.kind == "cpu" else None) for s in seats], **options
        )  # raises if they cannot be played
        seeds = [room_seed(options, s.client_seed) if s.kind != "cpu" else "" for s in seats]
        refusal = commitment_refusal(seeds, handle, options.get("seed"))
        if refusal is not None:
            raise refusal
        host = session_key(host_session) if host_session else ""
        rows = [(s.kind, s.name, s.level, seed) for s, seed in zip(seats, seeds, strict=True)]
        if handle is None:
            return self._rooms.create(host, options, rows)
        if commitments is None:
            raise TypeError("RoomService.create: a handle needs the commitments that drew it")
        return self._rooms.create(
            host,
            options,
            rows,
            committed=commitments.server_seed(handle),
            forget_before=commitments.forget_before(),
        )

    def by_code(self, code: str) -> Room:
        """The room with this code (as typed: spaces and case do not matter).

        Raises:
            RoomError: no room has this code.
        """
        return self._rooms.by_code(code)

    def by_id(self, room_id: int) -> Room:
        """Raises: RoomError: no such room."""
        return self._rooms.by_id(room_id)

    def of_game(self, game_id: int) -> Room | None:
        """The room a game was started from, if any."""
        return self._rooms.of_game(game_id)

    def hand_to_cpu(self, game_id: int, seat: int, level: str) -> None:
        """Records that a game's seat (and its room seat) is played by a CPU of `level`."""
        self._rooms.hand_to_cpu(game_id, seat, level)

    def claims(self, room_id: int) -> list[tuple[int, str]]:
        """(seat, session key) of every browser that joined a seat."""
        return self._rooms.claims(room_id)

    def join(
        self,
        room: Room,
        session: str,
        *,
        by_invitation: bool = False,
        seat: int | None = None,
        name: str | None = None,
        client_seed: str = "",
    ) -> tuple[Room, int]:
        """Claims a seat for a device: the friend's seat an invitation is for
        (`by_invitation`, `seat` as the front end found it; None: not one of this room's),
        or by the room code the first open seat nobody took. The first device to claim a
        seat holds it; the invitation gives nothing after that (another device of the same
        player joins with a device code, `add_device`). The holder may join again to
        change its name or seed before the start.
        `client_seed`: the player's own dice seed, mixed into the game's dice (the room
        committed to its server seed before, so nobody - not the server either - chooses
        the dice).

        Raises:
            RoomError: a wrong invitation, no open seat, the seat is taken, or a name
                taken in the room.
            DiceSeedError: a seed that cannot be used, or one for a room whose dice come
                from a chosen seed.
        """
        client_seed = room_seed(room.options, client_seed)
        if name is not None:
            # The rule every other form applies (a room seat becomes a game seat's name).
            name = check_scripts(check_name(name)) if name.strip() else None
        if name is not None and not room.started:
            # The seat this join takes (by code: the first open one) may keep its own name.
            target = (
                seat
                if by_invitation
                else next((s.seat for s in room.seats if s.kind == OPEN and not s.joined), None)
            )
            others = [s for s in room.seats if s.seat != target]
            if not by_invitation and any(
                s.kind == "friend" and not s.joined and name_key(s.name) == name_key(name)
                for s in others
            ):  # the friend typed the code: their seat is the invitation link's
                raise RoomError(
                    N_(
                        "{name}'s seat is kept for the invitation link the host sent:"
                        " open that link, or choose another name"
                    ),
                    name=name,
                )
            if name_key(name) in {name_key(s.name) for s in others}:
                raise RoomError(N_("{name} is taken in this game; choose another name"), name=name)
            check_not_like(name, [s.name for s in others])
        if by_invitation and seat is None:
            raise RoomError(N_("this invitation is not one of this game's"))
        key = session_key(session)
        after = self._rooms.join(room.room_id, seat, key, name, client_seed)
        if seat is None:
            held = self._rooms.holder_of(room.room_id, key)
            assert held is not None  # (the join claimed one, or refused)
            seat = held
        return after, seat

    def holder_of(self, room: Room, session: str) -> int | None:
        """The room seat a device (browser session or API key) claimed, if any."""
        return self._rooms.holder_of(room.room_id, session_key(session))

    def new_device_code(self, room: Room, session: str) -> tuple[int, str]:
        """A one-time code that gives the seat this device holds to one more device of its
        player (a code asked for before is void). Returns (room seat, code).

        Raises:
            RoomError: this device holds no seat of the room.
        """
        seat = self.holder_of(room, session)
        if seat is None:
            raise RoomError(N_("only a seat's own device can add another device"))
        refusal = device_cap_refusal(len(self.devices(room, seat)))
        if refusal is not None:
            raise refusal
        code = secrets.token_urlsafe(12)
        self._rooms.set_device_code(room.room_id, seat, device_code_hash(code))
        return seat, code

    def add_device(self, room: Room, session: str, code: str) -> tuple[Room, int]:
        """Gives the seat of a device code to this device (once: the code is used up).

        Raises:
            RoomError: a wrong, used or replaced code.
        """
        return self._rooms.add_device(room.room_id, device_code_hash(code), session_key(session))

    def devices(self, room: Room, seat: int) -> list[tuple[str, datetime | None]]:
        """(session key, when it joined) of every device that holds a room seat."""
        return self._rooms.devices(room.room_id, seat)

    def set_client_seed(self, room: Room, seat: int, client_seed: str, facts: SeatFacts) -> Room:
        """A seat's own dice seed, given by its own device before the start.

        Raises:
            SeatRightError: not the seat's own device (`seat_refusal`, `Right.SET_SEED`).
            DiceSeedError: a seed that cannot be used.
        """
        refusal = seat_refusal(Right.SET_SEED, facts)
        if refusal is not None:
            raise refusal
        return self._rooms.set_client_seed(room.room_id, seat, room_seed(room.options, client_seed))

    def generations(self, game_id: int) -> dict[int, int]:
        """Each seat's generation in a game (its tokens carry it; 0: never changed hands)."""
        return self._rooms.generations(game_id)

    def start(self, code: str, version: int, *, fill_with_cpus: bool) -> tuple[Room, GameView]:
        """Starts the game of a waiting room (see `room_start`). The game is saved and the
        room marked started in one transaction: of several starts at once, one makes the
        game and the others are refused having made nothing.

        Raises:
            RoomError: started already, someone joined since `version`, or nobody joined.
            FivediceError: the room's settings can no longer be played.
        """
        room = self._rooms.by_code(code)
        start = room_start(room, fill_with_cpus=fill_with_cpus)
        started: list[Room] = []

        def save(game: NewGame) -> GameRecord:
            after, record = self._rooms.start(
                room.room_id, version, game, start.game_seats, start.cpus, start.host_seats
            )
            started.append(after)
            return record

        settings = game_settings(start.players, **room.options)
        view = self.games.create_game(
            settings,
            seed=room.options.get("seed"),
            practice=bool(room.options.get("practice", False)),
            client_seeds=start.client_seeds,
            server_seed=room.server_seed,
            save=save,
        )
        return started[0], view
