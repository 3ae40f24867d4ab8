"""Seats held by web browsers, kept on the server behind one opaque session cookie.

Revision ID: 0002_websessions
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_websessions"
down_revision: str | None = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "web_seats",
        # SHA-256 (hex) of the browser's session cookie: the database never holds the cookie.
        sa.Column("session_key", sa.String(64), primary_key=True),
        sa.Column(
            "game_id",
            sa.Integer,
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_web_seats_game", "web_seats", ["game_id"])


def downgrade() -> None:
    op.drop_table("web_seats")
