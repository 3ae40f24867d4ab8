"""Tutorial progress (table `tutorial_progress`, migration 0002_tutorial).

One row per owner and lesson that was finished or skipped; nothing else of the tutorial is
saved, so tutorial games never appear among the games, in the statistics or in the high scores.
The owner keeps learners apart: `LOCAL` ("") for the user of the command line and terminal
app, and a browser session's key (`fivedice.store.browser_seats.session_key`, the SHA-256 of
the cookie, never the cookie) for a web visitor, so one visitor's progress never shows for
another on a public server.

Rows are checked as they are read (`fivedice.store.rows`): a row edited by hand into something
fivedice never wrote raises `DatabaseDamagedError` naming the column, and is left as it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select

from fivedice.core.errors import N_
from fivedice.store import schema
from fivedice.store.database import Store, utc_now
from fivedice.store.errors import StoreError
from fivedice.store.rows import Damage, date_in, text_in, whole_in

DONE = "done"
SKIPPED = "skipped"
LOCAL = ""
"""The owner of the local user's progress (command line, plain and terminal app)."""


class ProgressError(StoreError):
    """A lesson state the progress table does not hold."""


@dataclass(frozen=True)
class LessonProgress:
    """Where a lesson stands: done or skipped, how often it was finished, and when."""

    lesson: str
    status: str
    times_done: int
    updated: datetime


class TutorialStore:
    """Reads and writes the tutorial progress of one store, per owner."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def tutorial_progress(self, owner: str) -> dict[str, LessonProgress]:
        """Every lesson with progress of this owner, by lesson key (lessons never started
        are absent).

        Raises:
            DatabaseDamagedError: a row of this owner is not what fivedice wrote.
        """
        table = schema.tutorial_progress
        query = select(*self.store._columns(table)).where(table.c.owner == owner)
        with self.store._errors(N_("read the tutorial progress")), self.store._reader.begin() as c:
            rows = c.execute(query).all()
        found = [self._checked(row) for row in rows]
        return {progress.lesson: progress for progress in found}

    def mark_lesson(self, owner: str, lesson: str, status: str) -> LessonProgress:
        """Records a lesson of this owner as done (counting the times) or skipped; a skip
        never undoes a lesson that was done.

        Raises:
            ProgressError: an unknown status. StoreUnavailableError: nothing was written.
            DatabaseDamagedError: the lesson's row is not what fivedice wrote (it is left).
        """
        if status not in (DONE, SKIPPED):
            raise ProgressError(N_("a lesson is done or skipped, not {status!r}"), status=status)
        table = schema.tutorial_progress
        mine = (table.c.owner == owner, table.c.lesson == lesson)
        now = utc_now()
        with self.store._errors(N_("save the tutorial progress")), self.store.writing() as c:
            row = c.execute(select(*self.store._columns(table)).where(*mine)).first()
            before = self._checked(row) if row is not None else None
            times = before.times_done if before is not None else 0
            if status == DONE:
                times += 1
            elif before is not None and before.status == DONE:
                status = DONE
            values = {"status": status, "times_done": times, "updated_at": now}
            if before is None:
                c.execute(table.insert().values(owner=owner, lesson=lesson, **values))
            else:
                c.execute(table.update().where(*mine).values(**values))
        return LessonProgress(lesson, status, times, now)

    def reset_tutorial(self, owner: str) -> None:
        """Forgets all tutorial progress of this owner (other owners, the games and the
        statistics are not touched)."""
        table = schema.tutorial_progress
        with self.store._errors(N_("reset the tutorial progress")), self.store.writing() as c:
            c.execute(delete(table).where(table.c.owner == owner))

    def _checked(self, row: Any) -> LessonProgress:
        """The progress a row holds, every value checked as `fivedice.store.rows` does."""
        try:
            status = text_in(row.status, "tutorial_progress.status")
            if status not in (DONE, SKIPPED):
                raise ProgressError(
                    N_("a lesson is done or skipped, not {status!r}"), status=status
                )
            return LessonProgress(
                text_in(row.lesson, "tutorial_progress.lesson"),
                status,
                whole_in(row.times_done, "tutorial_progress.times_done"),
                date_in(row.updated_at, "tutorial_progress.updated_at"),
            )
        except (Damage, ProgressError) as error:
            raise self.store._damaged(error) from None
