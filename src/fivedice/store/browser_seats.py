"""Seats held by web browsers (table `web_seats`, migration 0002_websessions).

A browser keeps one random session cookie; the rows here, keyed by the SHA-256 of that
cookie, say which seats of which games it may act for. Kept on the server so a browser can
hold any number of seats (a cookie holds about 30), and so a request that did not carry the
cookie can never replace them: it simply has no session.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from sqlalchemy import delete, select, update

from fivedice.core.errors import N_
from fivedice.store import schema
from fivedice.store.database import Store, utc_now


def session_key(session: str) -> str:
    """What the database keeps of a session cookie: its SHA-256, never the cookie itself."""
    return hashlib.sha256(session.encode()).hexdigest()


class BrowserSeats:
    """Reads and adds the seats of browser sessions in one store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def add(self, session: str, seats: Iterable[tuple[int, int]]) -> None:
        """Lets a session hold these (game id, seat) pairs; pairs it holds already are kept.

        Raises:
            StoreUnavailableError: the database could not be written; nothing was added.
        """
        key = session_key(session)
        wanted = sorted(set(seats))
        if not wanted:
            return
        table = schema.web_seats
        with self.store._errors(N_("remember the seats")), self.store.writing() as connection:
            held = {
                (int(row.game_id), int(row.seat))
                for row in connection.execute(
                    select(table.c.game_id, table.c.seat).where(
                        table.c.session_key == key,
                        table.c.game_id.in_({game for game, _seat in wanted}),
                    )
                )
            }
            fresh = [pair for pair in wanted if pair not in held]
            if fresh:
                now = utc_now()
                connection.execute(
                    table.insert(),
                    [
                        {"session_key": key, "game_id": game, "seat": seat, "created_at": now}
                        for game, seat in fresh
                    ],
                )

    def add_by_key(self, key: str, seats: Iterable[tuple[int, int]]) -> None:
        """As `add`, for a session known by its key (a room's host)."""
        from fivedice.store.rooms import hold_seat

        wanted = sorted(set(seats))
        if not wanted:
            return
        with self.store._errors(N_("remember the seats")), self.store.writing() as connection:
            for game, seat in wanted:
                hold_seat(connection, key, game, seat)

    def seats_in(self, session: str, game_id: int) -> list[int]:
        """The seats of one game a session holds."""
        table = schema.web_seats
        with self.store._errors(N_("read the seats")), self.store._reader.begin() as connection:
            rows = connection.execute(
                select(table.c.seat)
                .where(table.c.session_key == session_key(session), table.c.game_id == game_id)
                .order_by(table.c.seat)
            )
            return [int(row.seat) for row in rows]

    def games(self, session: str, status: str | None = None) -> list[int]:
        """The games a session holds a seat in (of one status, if given), newest first."""
        table, games = schema.web_seats, schema.games
        query = (
            select(table.c.game_id)
            .join(games, games.c.id == table.c.game_id)
            .where(table.c.session_key == session_key(session))
            .group_by(table.c.game_id)
            .order_by(table.c.game_id.desc())
        )
        if status is not None:
            query = query.where(games.c.status == status)
        with self.store._errors(N_("read the seats")), self.store._reader.begin() as connection:
            return [int(row.game_id) for row in connection.execute(query)]

    def holds_anything(self, session: str) -> bool:
        """Whether anything is kept under a session: a seat, a room it hosts or claimed a
        seat of, tutorial progress. (A read, so that an id nobody ever used costs no write.)"""
        key = session_key(session)
        found = [
            select(schema.web_seats.c.seat).where(schema.web_seats.c.session_key == key),
            select(schema.room_claims.c.seat).where(schema.room_claims.c.session_key == key),
            select(schema.rooms.c.id).where(schema.rooms.c.host_key == key),
            select(schema.tutorial_progress.c.lesson).where(
                schema.tutorial_progress.c.owner == key
            ),
        ]
        with self.store._errors(N_("read the seats")), self.store._reader.begin() as connection:
            return any(connection.execute(query.limit(1)).first() is not None for query in found)

    def move_all(self, old: str, new: str) -> None:
        """Gives everything kept under session `old` to session `new`, in one transaction:
        its seats, the rooms it hosts, its claims on room seats, its tutorial progress.

        What `new` holds already stays; a row both hold is kept once. Afterwards `old`
        holds nothing. (A rotated session: a seat was granted, or an id of an older server.)

        Raises:
            StoreUnavailableError: the database could not be written; nothing was moved.
        """
        old_key, new_key = session_key(old), session_key(new)
        if old_key == new_key:
            return
        moves = (
            (schema.web_seats, "session_key", ("game_id", "seat")),
            (schema.room_claims, "session_key", ("room_id", "seat")),
            (schema.tutorial_progress, "owner", ("lesson",)),
        )
        errors = self.store._errors(N_("remember the seats"), writing=True)
        with errors, self.store.writing() as connection:
            for table, owner, rest in moves:
                held = table.alias("held")
                already = (
                    select(held.c[owner])
                    .where(held.c[owner] == new_key, *(held.c[c] == table.c[c] for c in rest))
                    .exists()
                )
                connection.execute(
                    update(table)
                    .where(table.c[owner] == old_key, ~already)
                    .values({owner: new_key})
                )
                connection.execute(delete(table).where(table.c[owner] == old_key))
            rooms = schema.rooms
            connection.execute(
                update(rooms).where(rooms.c.host_key == old_key).values(host_key=new_key)
            )
