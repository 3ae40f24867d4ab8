"""Drill progress in the store: kept per owner, answers move the owner's clock, a reset
forgets one owner only, and a row edited by hand is reported and left as it is."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from fivedice.service.drills import reschedule
from fivedice.store import DatabaseDamagedError, Store
from fivedice.store.browser_seats import session_key
from fivedice.store.drills import DrillStore, NewDrill

BOB = session_key("b" * 43)


def drills_of(store: Store) -> DrillStore:
    drills = DrillStore(store)
    for owner in ("", BOB):
        drills.add(
            owner,
            [NewDrill("builtin:a", '{"x": 1}', 1000), NewDrill("pos:b", "{}", 0, 4.5, "keep 6")],
            harvested_game=7,
        )
    return drills


def test_answers_are_kept_per_owner_and_a_reset_forgets_one_owner(db_url):
    store = Store(db_url)
    drills = drills_of(store)
    missed = drills.answered("", "pos:b", False, reschedule)
    assert (missed.right_in_a_row, missed.times_missed, missed.due) == (0, 1, 1 + 3)
    right = drills.answered("", "builtin:a", True, reschedule)
    assert (right.right_in_a_row, right.times_answered, right.due) == (1, 1, 2 + 8)
    drills.add("", [NewDrill("pos:b", "{}", 0, 9.0, "keep 1")], harvested_game=9)  # kept as it was
    book = DrillStore(Store(db_url)).book("")
    assert (book.answers, book.harvested_game) == (2, 9)
    assert {row.key: row.times_answered for row in book.rows} == {"builtin:a": 1, "pos:b": 1}
    assert next(row for row in book.rows if row.key == "pos:b").source_loss == 4.5
    assert [row.times_answered for row in drills.book(BOB).rows] == [0, 0]
    drills.reset("")
    assert drills.book("").rows == () and drills.book("").answers == 0
    assert len(drills.book(BOB).rows) == 2
    store.close()


@pytest.mark.parametrize(
    ("column", "value", "named"),
    [("right_in_a_row", "'two'", "right_in_a_row"), ("source_loss", "'lots'", "source_loss")],
)
def test_a_damaged_row_is_named_and_left_as_it_is(tmp_path, column, value, named):
    store = Store(f"sqlite:///{tmp_path / 'drills.sqlite3'}")
    drills = drills_of(store)
    with store.engine.begin() as connection:
        connection.execute(text(f"UPDATE drill_positions SET {column} = {value} WHERE owner = ''"))
        before = connection.execute(text("SELECT * FROM drill_positions ORDER BY 1, 2")).all()
    with pytest.raises(DatabaseDamagedError, match=named):
        drills.book("")
    with pytest.raises(DatabaseDamagedError, match=named):
        drills.answered("", "pos:b", True, reschedule)
    with store.engine.connect() as connection:
        after = connection.execute(text("SELECT * FROM drill_positions ORDER BY 1, 2")).all()
    assert after == before
    assert len(drills.book(BOB).rows) == 2  # other owners are fine
    store.close()
