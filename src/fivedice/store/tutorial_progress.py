"""Tutorial progress (table `tutorial_progress`, migration 0002_tutorial).

One row per lesson that was finished or skipped; nothing else of the tutorial is saved, so
tutorial games never appear among the games, in the statistics or in the high scores.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select

from fivedice.core.errors import N_
from fivedice.store import schema
from fivedice.store.database import Store, _now
from fivedice.store.errors import StoreError
from fivedice.store.rows import aware

DONE = "done"
SKIPPED = "skipped"


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
    """Reads and writes the tutorial progress of one store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def tutorial_progress(self) -> dict[str, LessonProgress]:
        """Every lesson with progress, by lesson key (lessons never started are absent)."""
        table = schema.tutorial_progress
        with self.store._errors(N_("read the tutorial progress")), self.store._reader.begin() as c:
            rows = c.execute(select(table)).all()
        return {
            str(row.lesson): LessonProgress(
                str(row.lesson), str(row.status), int(row.times_done), aware(row.updated_at)
            )
            for row in rows
        }

    def mark_lesson(self, lesson: str, status: str) -> LessonProgress:
        """Records a lesson as done (counting the times) or skipped; a skip never undoes a
        lesson that was done.

        Raises:
            ProgressError: an unknown status. StoreUnavailableError: nothing was written.
        """
        if status not in (DONE, SKIPPED):
            raise ProgressError(N_("a lesson is done or skipped, not {status!r}"), status=status)
        table = schema.tutorial_progress
        now = _now()
        with self.store._errors(N_("save the tutorial progress")), self.store.writing() as c:
            row = c.execute(select(table).where(table.c.lesson == lesson)).first()
            times = int(row.times_done) if row is not None else 0
            if status == DONE:
                times += 1
            elif row is not None and row.status == DONE:
                status = DONE
            values = {"status": status, "times_done": times, "updated_at": now}
            if row is None:
                c.execute(table.insert().values(lesson=lesson, **values))
            else:
                c.execute(table.update().where(table.c.lesson == lesson).values(**values))
        return LessonProgress(lesson, status, times, now)

    def reset_tutorial(self) -> None:
        """Forgets all tutorial progress (the games and statistics are not touched)."""
        with self.store._errors(N_("reset the tutorial progress")), self.store.writing() as c:
            c.execute(delete(schema.tutorial_progress))
