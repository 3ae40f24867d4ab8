"""Tutorial progress, kept apart from games and statistics, per owner.

The owner is "" for the local user of the command line and terminal app, and the SHA-256
key of a browser session for a web visitor (never the cookie itself), so one visitor's
progress never shows for another.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from fivedice.store.migrations.helpers import timestamp

revision = "0002_tutorial"
down_revision: str | None = "0002_session"


def upgrade() -> None:
    op.create_table(
        "tutorial_progress",
        sa.Column("owner", sa.String(64), primary_key=True),  # "" or a session's SHA-256
        sa.Column("lesson", sa.String(40), primary_key=True),
        sa.Column("status", sa.String(12), nullable=False),  # done | skipped
        sa.Column("times_done", sa.Integer, nullable=False),
        timestamp("updated_at"),
    )


def downgrade() -> None:
    op.drop_table("tutorial_progress")
