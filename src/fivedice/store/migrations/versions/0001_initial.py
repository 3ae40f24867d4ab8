"""The first schema: profiles, games, seats, the action log and per-game results."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from fivedice.store.migrations.helpers import owner_key, serial_id, timestamp

revision = "0001"
down_revision: str | None = None


def upgrade() -> None:
    op.create_table(
        "profiles",
        serial_id(),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(40), nullable=False, unique=True),
        timestamp("created_at"),
    )
    op.create_table(
        "games",
        serial_id(),
        timestamp("created_at"),
        timestamp("updated_at"),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("rules_json", sa.Text, nullable=False),
        sa.Column("rules_key", sa.String(40), nullable=False),
        sa.Column("first_player", sa.String(20), nullable=False),
        sa.Column("match_length", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("practice", sa.Boolean, nullable=False),
        sa.Column("seat_count", sa.Integer, nullable=False),
        sa.Column("opening_dice", sa.String(2000), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("totals_json", sa.Text, nullable=False),
    )
    op.create_index("ix_games_status", "games", ["status"])
    op.create_table(
        "game_seats",
        owner_key("game_id", "games"),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("cpu_level", sa.String(20), nullable=True),
        sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id"), nullable=True),
    )
    op.create_table(
        "actions",
        owner_key("game_id", "games"),
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.String(60), nullable=False),
        sa.Column("dice", sa.String(2000), nullable=False),
        timestamp("created_at"),
    )
    op.create_table(
        "results",
        owner_key("game_id", "games"),
        sa.Column("game_number", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id"), nullable=True),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("upper_bonuses", sa.Integer, nullable=False),
        sa.Column("yahtzees", sa.Integer, nullable=False),
        sa.Column("boxes_json", sa.Text, nullable=False),
        timestamp("finished_at"),
    )
    op.create_index("ix_results_profile", "results", ["profile_id"])


def downgrade() -> None:
    op.drop_table("results")
    op.drop_table("actions")
    op.drop_table("game_seats")
    op.drop_table("games")
    op.drop_table("profiles")
