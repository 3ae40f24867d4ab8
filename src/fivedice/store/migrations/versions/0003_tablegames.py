"""Games at the table: `games.kind` says who rolls, the app ('play') or the players ('table').

Revision ID: 0002_tablegames
Revises: 0002_websessions (written against 0001; chained after the web sessions' migration
when both met on one branch)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_tablegames"
down_revision: str | None = "0002_websessions"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Every game saved before this revision was rolled by the app.
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("kind", sa.String(8), nullable=False, server_default="play"))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("kind")
