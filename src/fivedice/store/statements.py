"""The statements of the store's hot paths, built once with SQLAlchemy Core (SQLAlchemy then
reuses their compiled form; `pg_async` compiles them once more for psycopg).

Bound parameters carry prefixes unlike any column's name (`b_` the game's row, `a_` the
action, `n_` the notice): an UPDATE would take a column's name as a value.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    BigInteger,
    ColumnElement,
    DateTime,
    Integer,
    Text,
    and_,
    bindparam,
    cast,
    column,
    exists,
    false,
    func,
    select,
    table,
)
from sqlalchemy.sql import Select

from fivedice.store import schema
from fivedice.store.rows import IN_PROGRESS

LOCK_CLASS = 0x5D1CE  # the first key of every game's advisory lock: fivedice's own space

# A game's row moves to the next version, if it is still at the expected one and in progress.
ADVANCE_GAME = (
    schema.games.update()
    .where(
        schema.games.c.id == bindparam("b_id"),
        schema.games.c.version == bindparam("b_expected"),
        schema.games.c.status == IN_PROGRESS,
    )
    .values(
        version=bindparam("b_version"),
        updated_at=bindparam("b_now"),
        status=bindparam("b_status"),
        totals_json=bindparam("b_totals"),
    )
)
INSERT_ACTION = schema.actions.insert()
# PostgreSQL: the version check, the game's row and the new action in one statement (atomic
# by itself, so it runs in autocommit: no BEGIN and COMMIT round trips). When the version
# check fails the UPDATE changes no row and the INSERT inserts none.
_ADVANCED = ADVANCE_GAME.returning(schema.games.c.id).cte("advanced")
APPEND_IN_ONE = (
    schema.actions.insert()
    .from_select(
        ["game_id", "seq", "seat", "action", "dice", "created_at"],
        select(
            _ADVANCED.c.id,
            # (Names unlike any column's: the UPDATE would take a column's name as a value.)
            bindparam("a_seq", type_=Integer),
            bindparam("a_seat", type_=Integer),
            bindparam("a_action", type_=Text),
            bindparam("a_dice", type_=Text),
            bindparam("a_at", type_=DateTime(timezone=True)),
        ),
    )
    .returning(schema.actions.c.seq)
)
# ... and the action's notice (`notices`) too: sent by PostgreSQL when the statement commits,
# only if the action was saved.
_INSERTED = APPEND_IN_ONE.cte("inserted")
APPEND_AND_NOTIFY = select(
    _INSERTED.c.seq,
    func.pg_notify(bindparam("n_channel", type_=Text), bindparam("n_payload", type_=Text)),
)
NOTIFY = select(
    func.pg_notify(bindparam("n_channel", type_=Text), bindparam("n_payload", type_=Text))
)
_ACTIONS_AFTER = and_(
    schema.actions.c.game_id == schema.games.c.id, schema.actions.c.seq > bindparam("b_after")
)
GAME_TAIL = (
    select(
        schema.games.c.version,
        schema.games.c.status,
        schema.actions.c.seq,
        schema.actions.c.seat,
        schema.actions.c.action,
        schema.actions.c.dice,
    )
    .select_from(schema.games.outerjoin(schema.actions, _ACTIONS_AFTER))
    .where(schema.games.c.id == bindparam("b_id"))
    .order_by(schema.actions.c.seq)
)

# The games in progress with a CPU seat, whether a worker holds the game's CPU lease
# (`pg_lease`: an advisory lock, seen in `pg_locks`; SQLite has one worker and no locks), and
# whether a person has a seat in it (a game of CPUs alone is played only while watched).
_PG_LOCKS = table(
    "pg_locks",
    column("locktype"),
    column("classid"),
    column("objid"),
    column("objsubid"),
    column("granted"),
)
_LEASED = exists().where(
    _PG_LOCKS.c.locktype == "advisory",
    cast(_PG_LOCKS.c.classid, BigInteger) == LOCK_CLASS,
    cast(_PG_LOCKS.c.objid, BigInteger) == schema.games.c.id,
    _PG_LOCKS.c.objsubid == 2,  # (a lock of two keys)
    _PG_LOCKS.c.granted,
)


def _games_with_cpus(leased: ColumnElement[bool]) -> Select[Any]:
    cpus = func.count(schema.game_seats.c.cpu_level)  # (counts the seats with a level)
    return (
        select(
            schema.games.c.id,
            schema.games.c.version,
            leased.label("leased"),
            (func.count() > cpus).label("people"),
        )
        .join(schema.game_seats, schema.game_seats.c.game_id == schema.games.c.id)
        .where(schema.games.c.status == IN_PROGRESS)
        .group_by(schema.games.c.id, schema.games.c.version)
        .having(cpus > 0)
    )


GAMES_WITH_CPUS = _games_with_cpus(false())
GAMES_WITH_CPUS_LEASED = _games_with_cpus(_LEASED)
