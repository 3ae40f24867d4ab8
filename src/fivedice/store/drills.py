"""Drill progress (tables `drill_owners` and `drill_positions`, migration 0012_drills).

Per owner, as the tutorial's progress (`tutorial_progress.LOCAL` "" for the user of the
command line and terminal app, a browser session's key for a web visitor): the positions
that owner practises (each with its whole position as JSON, so it never depends on a game
row), where each stands in the schedule, and the owner's clock (answers given). The store
only keeps these; what a position is and when it comes back is the service's
(`fivedice.service.drills`). Games are only read here (which finished seats are the
owner's), never written: drills never touch games or statistics.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Table, and_, delete, exists, select
from sqlalchemy.dialects import postgresql as postgresql_dialect
from sqlalchemy.dialects import sqlite as sqlite_dialect

from fivedice.core.errors import N_
from fivedice.store import schema
from fivedice.store.database import Store, utc_now
from fivedice.store.rows import FINISHED, Damage, text_in, whole_in
from fivedice.store.tutorial_progress import LOCAL

__all__ = ["DrillBook", "DrillRow", "DrillStore", "NewDrill", "Schedule"]


@dataclass(frozen=True)
class NewDrill:
    """A position to practise, as first added (the schedule starts it as new)."""

    key: str
    position_json: str
    rank: int
    source_loss: float | None = None
    source_choice: str | None = None


@dataclass(frozen=True)
class DrillRow:
    """A position practised and where it stands.

    Attributes:
        key: the position's key for its owner ("game:12:0:17", "builtin:full-house").
        position_json: the position (the service reads it).
        rank: the order of first showing (lower first).
        source_loss, source_choice: what the choice in the game lost, and what it was.
        right_in_a_row: right answers since the last miss.
        times_answered, times_missed: answers given, and how many were wrong.
        due: the owner's clock (answers given) from which it may come again.
    """

    key: str
    position_json: str
    rank: int
    source_loss: float | None
    source_choice: str | None
    right_in_a_row: int
    times_answered: int
    times_missed: int
    due: int


@dataclass(frozen=True)
class DrillBook:
    """An owner's drills: the clock, the newest game looked at, and every position."""

    answers: int
    harvested_game: int
    rows: tuple[DrillRow, ...]


Schedule = Callable[[DrillRow, int, bool], tuple[int, int]]
"""(row, clock after this answer, right?) -> (right answers in a row, due)."""


class DrillStore:
    """Reads and writes the drill progress of one store, per owner."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def book(self, owner: str) -> DrillBook:
        """Every position of this owner (oldest rank first), and the owner's clock.

        Raises:
            DatabaseDamagedError: a row of this owner is not what fivedice wrote.
        """
        owners, positions = schema.drill_owners, schema.drill_positions
        with self.store._errors(N_("read the drills")), self.store._reader.begin() as c:
            head = c.execute(
                select(owners.c.answers, owners.c.harvested_game).where(owners.c.owner == owner)
            ).first()
            rows = c.execute(
                select(*self.store._columns(positions))
                .where(positions.c.owner == owner)
                .order_by(positions.c.rank, positions.c.key)
            ).all()
        try:
            answers = whole_in(head.answers, "drill_owners.answers") if head else 0
            harvested = whole_in(head.harvested_game, "drill_owners.harvested_game") if head else 0
            return DrillBook(answers, harvested, tuple(self._checked(row) for row in rows))
        except Damage as error:
            raise self.store._damaged(error) from None

    def add(self, owner: str, drills: Sequence[NewDrill], harvested_game: int) -> None:
        """Adds positions the owner does not have yet (those it has keep their progress), and
        notes the newest game looked at.

        Raises:
            StoreUnavailableError: nothing was written.
        """
        positions = schema.drill_positions
        now = utc_now()
        with self.store._errors(N_("save the drills"), writing=True), self.store.writing() as c:
            had = {
                row.key
                for row in c.execute(select(positions.c.key).where(positions.c.owner == owner))
            }
            fresh = [drill for drill in drills if drill.key not in had]
            if fresh:  # (another tab may add the same ones at the same moment: kept once)
                _insert_new(
                    c,
                    positions,
                    ["owner", "key"],
                    [
                        {
                            "owner": owner,
                            "key": drill.key,
                            "position_json": drill.position_json,
                            "source_loss": drill.source_loss,
                            "source_choice": drill.source_choice,
                            "rank": drill.rank,
                            "right_in_a_row": 0,
                            "times_answered": 0,
                            "times_missed": 0,
                            "due": 0,
                            "updated_at": now,
                        }
                        for drill in fresh
                    ],
                )
            self._set_owner(c, owner, harvested_game=harvested_game)

    def answered(self, owner: str, key: str, right: bool, schedule: Schedule) -> DrillRow:
        """Records an answer to a position: the owner's clock moves on by one, and the
        position is rescheduled by `schedule` (in the same transaction).

        Raises:
            StoreUnavailableError: nothing was written. DrillMissingError: no such position.
        """
        owners, positions = schema.drill_owners, schema.drill_positions
        mine = (positions.c.owner == owner, positions.c.key == key)
        with self.store._errors(N_("save the drills"), writing=True), self.store.writing() as c:
            found = c.execute(select(*self.store._columns(positions)).where(*mine)).first()
            if found is None:
                from fivedice.store.errors import StoreError

                raise StoreError(N_("there is no drill {key!r}"), key=key)
            try:
                row = self._checked(found)
            except Damage as error:
                raise self.store._damaged(error) from None
            head = c.execute(select(owners.c.answers).where(owners.c.owner == owner)).first()
            clock = (int(head.answers) if head else 0) + 1
            in_a_row, due = schedule(row, clock, right)
            values = {
                "right_in_a_row": in_a_row,
                "due": due,
                "times_answered": row.times_answered + 1,
                "times_missed": row.times_missed + (0 if right else 1),
                "updated_at": utc_now(),
            }
            c.execute(positions.update().where(*mine).values(**values))
            self._set_owner(c, owner, answers=clock)
        return DrillRow(
            row.key,
            row.position_json,
            row.rank,
            row.source_loss,
            row.source_choice,
            in_a_row,
            row.times_answered + 1,
            row.times_missed + (0 if right else 1),
            due,
        )

    def reset(self, owner: str) -> None:
        """Forgets every drill of this owner (other owners, games and statistics stay)."""
        owners, positions = schema.drill_owners, schema.drill_positions
        with self.store._errors(N_("save the drills"), writing=True), self.store.writing() as c:
            c.execute(delete(positions).where(positions.c.owner == owner))
            c.execute(delete(owners).where(owners.c.owner == owner))

    def owned_seats(self, owner: str, after_game: int) -> list[tuple[int, int]]:
        """The (game id, seat) pairs of finished games after `after_game` that are the
        owner's, oldest game first: for a browser session, the seats it holds; for the local
        user, every human seat that no browser holds."""
        games, seats, held = schema.games, schema.game_seats, schema.web_seats
        finished = and_(games.c.status == FINISHED, games.c.id > after_game)
        if owner == LOCAL:
            by_browser = exists().where(
                held.c.game_id == seats.c.game_id, held.c.seat == seats.c.seat
            )
            query = (
                select(seats.c.game_id, seats.c.seat)
                .join(games, games.c.id == seats.c.game_id)
                .where(finished, seats.c.cpu_level.is_(None), ~by_browser)
            )
        else:
            query = (
                select(held.c.game_id, held.c.seat)
                .join(games, games.c.id == held.c.game_id)
                .where(finished, held.c.session_key == owner)
            )
        with self.store._errors(N_("read the drills")), self.store._reader.begin() as c:
            pairs = [(int(row[0]), int(row[1])) for row in c.execute(query)]
        return sorted(pairs)

    def _set_owner(self, c: Any, owner: str, **values: int) -> None:
        owners = schema.drill_owners
        now = utc_now()
        start = {"owner": owner, "answers": 0, "harvested_game": 0, "updated_at": now}
        _insert_new(c, owners, ["owner"], [start])
        c.execute(owners.update().where(owners.c.owner == owner).values(updated_at=now, **values))

    def _checked(self, row: Any) -> DrillRow:
        """The drill a row holds, every value checked as `fivedice.store.rows` does."""
        loss = row.source_loss
        if loss is not None and (isinstance(loss, bool) or not isinstance(loss, int | float)):
            raise Damage(
                N_("{column} is not a number: {value!r}"), column="source_loss", value=loss
            )
        choice = row.source_choice
        return DrillRow(
            text_in(row.key, "drill_positions.key"),
            text_in(row.position_json, "drill_positions.position_json"),
            whole_in(row.rank, "drill_positions.rank"),
            None if loss is None else float(loss),
            None if choice is None else text_in(choice, "drill_positions.source_choice"),
            whole_in(row.right_in_a_row, "drill_positions.right_in_a_row"),
            whole_in(row.times_answered, "drill_positions.times_answered"),
            whole_in(row.times_missed, "drill_positions.times_missed"),
            whole_in(row.due, "drill_positions.due"),
        )


def _insert_new(c: Any, table: Table, keys: list[str], rows: list[dict[str, Any]]) -> None:
    """Inserts the rows whose `keys` are not taken yet (SQLite and PostgreSQL do nothing on
    the conflict; PostgreSQL waits for the other transaction, then sees its row)."""
    dialect = c.dialect.name
    if dialect in ("sqlite", "postgresql"):
        module = sqlite_dialect if dialect == "sqlite" else postgresql_dialect
        c.execute(module.insert(table).on_conflict_do_nothing(index_elements=keys), rows)
    else:
        c.execute(table.insert(), rows)
