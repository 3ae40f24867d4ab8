"""Games at the table: `games.kind` says who rolls, the app ('play') or the players ('table').

Its revision id starts with 0002 because it was written against 0001, beside the web
sessions' migration; it runs after that one.
"""

from __future__ import annotations

import sqlalchemy as sa

from fivedice.store.migrations.helpers import add_columns, drop_columns

revision = "0002_tablegames"
down_revision: str | None = "0002_websessions"


def upgrade() -> None:
    # Every game saved before this revision was rolled by the app.
    add_columns("games", sa.Column("kind", sa.String(8), nullable=False, server_default="play"))


def downgrade() -> None:
    drop_columns("games", "kind")
