"""Session settings of a front end, saved with the game (pace, coach, language, move log)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from fivedice.store.migrations.helpers import owner_key, timestamp

revision = "0002_session"
down_revision: str | None = "0002_tablegames"


def upgrade() -> None:
    op.create_table(
        "game_sessions",
        owner_key("game_id", "games"),
        sa.Column("session_json", sa.Text, nullable=False),
        timestamp("updated_at"),
    )


def downgrade() -> None:
    op.drop_table("game_sessions")
