"""Texas Hold'em Yahtzee games: one row a game, its whole record as text.

Why a table of its own: a Hold'em game has no score card, boxes or totals, so it shares none
of the score games' tables (and none of their statistics). Its record (seats, rules, seeds,
and every action with the faces it used) replays it exactly, so one text column keeps it;
the status is a column of its own for listings.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from fivedice.store.migrations.helpers import serial_id, timestamp

revision = "0013_holdem"
down_revision: str | None = "0012_drills"


def upgrade() -> None:
    op.create_table(
        "holdem_games",
        serial_id(),
        sa.Column("status", sa.String(20), nullable=False),  # in_progress, finished, abandoned
        sa.Column("record", sa.Text, nullable=False),  # the record as kept (seed and faces)
        timestamp("created_at"),
        timestamp("updated_at"),
    )


def downgrade() -> None:
    op.drop_table("holdem_games")
