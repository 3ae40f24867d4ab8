"""Seats held by web browsers, kept on the server behind one opaque session cookie."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from fivedice.store.migrations.helpers import owner_key, timestamp

revision = "0002_websessions"
down_revision: str | None = "0001"


def upgrade() -> None:
    op.create_table(
        "web_seats",
        # SHA-256 (hex) of the browser's session cookie: the database never holds the cookie.
        sa.Column("session_key", sa.String(64), primary_key=True),
        owner_key("game_id", "games"),
        sa.Column("seat", sa.Integer, primary_key=True),
        timestamp("created_at"),
    )
    op.create_index("ix_web_seats_game", "web_seats", ["game_id"])


def downgrade() -> None:
    op.drop_table("web_seats")
