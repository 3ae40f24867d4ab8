"""Column shapes and table changes that several migrations share.

A released migration's schema never changes (existing databases depend on it), so a helper
here is never edited, only added: each names a shape the revisions already use.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op


def serial_id() -> sa.Column[Any]:
    """`id`: the table's own key, numbered by the database."""
    return sa.Column("id", sa.Integer, primary_key=True, autoincrement=True)


def owner_key(name: str, owner: str) -> sa.Column[Any]:
    """A key column that is also a reference to its owner's `id` (`owner_key("game_id",
    "games")`): deleting the owner deletes the row."""
    return sa.Column(
        name, sa.Integer, sa.ForeignKey(f"{owner}.id", ondelete="CASCADE"), primary_key=True
    )


def timestamp(name: str) -> sa.Column[Any]:
    """A required point in time, with its time zone (`created_at`, `updated_at`, ...)."""
    return sa.Column(name, sa.DateTime(timezone=True), nullable=False)


def add_columns(table: str, *columns: sa.Column[Any]) -> None:
    """Adds columns to an existing table (a batch: SQLite rebuilds the table once)."""
    with op.batch_alter_table(table) as batch:
        for column in columns:
            batch.add_column(column)


def drop_columns(table: str, *names: str) -> None:
    """Drops columns of an existing table (a batch: SQLite rebuilds the table once)."""
    with op.batch_alter_table(table) as batch:
        for name in names:
            batch.drop_column(name)
