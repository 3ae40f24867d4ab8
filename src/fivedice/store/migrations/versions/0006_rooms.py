"""Rooms: a game's seats before it starts (who plays where, invitations, who has joined)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from fivedice.store.migrations.helpers import owner_key, serial_id, timestamp

revision = "0002_rooms"
down_revision: str | None = "0002_tutorial"


def upgrade() -> None:
    op.create_table(
        "rooms",
        serial_id(),
        sa.Column("code", sa.String(6), nullable=False, unique=True),
        # SHA-256 (hex) of the host's browser session (empty for rooms made over the API).
        sa.Column("host_key", sa.String(64), nullable=False),
        sa.Column("status", sa.String(8), nullable=False),  # waiting | started
        sa.Column("options_json", sa.Text, nullable=False),  # rules, seed, match length...
        sa.Column("version", sa.Integer, nullable=False),  # bumped by every join and the start
        sa.Column(
            "game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=True
        ),
        timestamp("created_at"),
    )
    op.create_index("ix_rooms_game", "rooms", ["game_id"])
    op.create_table(
        "room_seats",
        owner_key("room_id", "rooms"),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),  # me | friend | local | cpu
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("level", sa.String(20), nullable=True),
        sa.Column("joined", sa.Boolean, nullable=False),
        sa.Column("game_seat", sa.Integer, nullable=True),  # its seat in the game, once started
    )
    op.create_table(
        "room_claims",
        owner_key("room_id", "rooms"),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("session_key", sa.String(64), primary_key=True),
    )


def downgrade() -> None:
    op.drop_table("room_claims")
    op.drop_table("room_seats")
    op.drop_index("ix_rooms_game", "rooms")
    op.drop_table("rooms")
