"""Expiry: rooms never started and games never played are deleted after a while.

Anyone may open a room or start a game; most abandoned ones would otherwise stay forever (and
keep their codes taken). A waiting room is deleted when it was made `room_age` ago and nobody
started it; a game when it is in progress with no action at all (version 0) and was made
`game_age` ago (`updated_at`: every action bumps it). A game with any action, a finished or
abandoned game and a started room are never touched. A deleted room's code then reads like a
code that never existed.

One transaction per call, on SQLite and PostgreSQL alike; the rows chosen are locked first
(`FOR UPDATE` on PostgreSQL; SQLite's write lock holds the whole database), so a game that
gets its first action or a room that is started meanwhile is either kept or refuses that
action as a game that is gone, never half deleted. At most `batch` games and `batch` rooms
per call (bounded statements); a caller repeats while a call deletes a full batch.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.engine import Connection

from fivedice.store import schema
from fivedice.store.rows import IN_PROGRESS, WAITING

__all__ = ["DEFAULT_BATCH", "Expired", "delete_expired"]

DEFAULT_BATCH = 500


@dataclass(frozen=True)
class Expired:
    """What one call deleted."""

    game_ids: tuple[int, ...] = ()
    room_ids: tuple[int, ...] = ()


def delete_expired(
    db: Connection,
    *,
    games_made_before: datetime,
    rooms_made_before: datetime,
    batch: int = DEFAULT_BATCH,
) -> tuple[Expired, bool]:
    """Deletes games never played made before `games_made_before` (with their seats, and
    the rooms they were started from) and rooms never started made before
    `rooms_made_before`.

    Returns:
        What was deleted, and whether a full batch was (call again for the rest).

    In the writing transaction `db` (`Store.delete_expired` opens it and names its errors).
    """
    games, rooms = schema.games, schema.rooms
    game_ids = list(
        db.execute(
            select(games.c.id)
            .where(
                games.c.status == IN_PROGRESS,
                games.c.version == 0,
                games.c.updated_at < games_made_before,
            )
            .order_by(games.c.id)
            .limit(batch)
            .with_for_update()
        ).scalars()
    )
    room_ids = list(
        db.execute(
            select(rooms.c.id)
            .where(rooms.c.status == WAITING, rooms.c.created_at < rooms_made_before)
            .order_by(rooms.c.id)
            .limit(batch)
            .with_for_update()
        ).scalars()
    )
    full = len(game_ids) == batch or len(room_ids) == batch
    if game_ids:  # the rooms these games were started from go with them
        room_ids += db.execute(select(rooms.c.id).where(rooms.c.game_id.in_(game_ids))).scalars()
    if room_ids:
        _delete_rooms(db, room_ids)
    if game_ids:
        _delete_games(db, game_ids)
    return Expired(tuple(game_ids), tuple(sorted(set(room_ids)))), full


def _delete_rooms(db: Connection, room_ids: list[int]) -> None:
    for table in (schema.room_claims, schema.room_seats):
        db.execute(delete(table).where(table.c.room_id.in_(room_ids)))
    db.execute(delete(schema.rooms).where(schema.rooms.c.id.in_(room_ids)))


def _delete_games(db: Connection, game_ids: list[int]) -> None:
    for table in (
        schema.web_seats,
        schema.game_sessions,
        schema.results,
        schema.actions,
        schema.game_seats,
    ):
        db.execute(delete(table).where(table.c.game_id.in_(game_ids)))
    db.execute(delete(schema.games).where(schema.games.c.id.in_(game_ids)))
