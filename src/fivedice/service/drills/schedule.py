"""The drills' schedule: Leitner boxes counted in answers (see `fivedice.service.drills`).

Pure functions over the stored rows (`fivedice.store.drills.DrillRow`): when an answered
position comes back (`reschedule`) and which position comes next (`pick_next`).
"""

from __future__ import annotations

from collections.abc import Iterable

from fivedice.store.drills import DrillRow

MASTERED = 2
"""Right answers in a row that retire a position."""
AFTER_MISS = 3
"""Other answers before a missed position comes back."""
AFTER_RIGHT = 8
"""Other answers before a position answered right (not yet mastered) comes back."""


def reschedule(row: DrillRow, clock: int, right: bool) -> tuple[int, int]:
    """The schedule (see the module): (right answers in a row, due) after an answer given
    when the owner's clock reached `clock`.

    >>> row = DrillRow("k", "{}", 0, None, None, 1, 1, 0, 9)
    >>> reschedule(row, 10, False), reschedule(row, 10, True)[0]
    ((0, 13), 2)
    """
    if not right:
        return 0, clock + AFTER_MISS
    return row.right_in_a_row + 1, clock + AFTER_RIGHT


def _new_order(row: DrillRow) -> tuple[int, float, str]:
    """New positions: the player's own first, costliest first; then the built-in ones."""
    return (row.rank, -(row.source_loss or 0.0), row.key)


def pick_next(rows: Iterable[DrillRow], clock: int, *, leave_out: str | None = None) -> str | None:
    """The key of the drill to show next (the schedule in the module's docstring), or None
    when every position is mastered. `leave_out`: a key not to show now unless it is the
    only one left (the position just answered)."""
    active = [row for row in rows if row.right_in_a_row < MASTERED]
    if leave_out is not None and len(active) > 1:
        active = [row for row in active if row.key != leave_out]
    seen = [row for row in active if row.times_answered > 0]
    due = [row for row in seen if row.due <= clock]
    if due:
        return min(due, key=lambda row: (row.due, row.rank, row.key)).key
    new = [row for row in active if row.times_answered == 0]
    if new:
        return min(new, key=_new_order).key
    if seen:
        return min(seen, key=lambda row: (row.due, row.rank, row.key)).key
    return None
