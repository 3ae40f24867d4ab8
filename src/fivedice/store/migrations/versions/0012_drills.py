"""Drill progress: the positions a player practises, and where each stands, per owner.

Why: the drills ("Practice") take positions from the player's own costliest decisions and a
built-in set, and bring a missed one back until it is answered right twice in a row. That
progress is the player's own, kept apart from games and statistics (nothing here refers to
a game row: deleting a game leaves its drill, which carries its whole position). The owner
is "" for the local user of the command line and terminal app, and the SHA-256 key of a
browser session for a web visitor (never the cookie), as for the tutorial's progress.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from fivedice.store.migrations.helpers import timestamp

revision = "0012_drills"
down_revision: str | None = "0011_reviewsummaries"


def upgrade() -> None:
    op.create_table(
        "drill_owners",
        sa.Column("owner", sa.String(64), primary_key=True),  # "" or a session's SHA-256
        sa.Column("answers", sa.Integer, nullable=False),  # the owner's clock: answers given
        sa.Column("harvested_game", sa.Integer, nullable=False),  # newest game id looked at
        timestamp("updated_at"),
    )
    op.create_table(
        "drill_positions",
        sa.Column("owner", sa.String(64), primary_key=True),
        sa.Column("key", sa.String(60), primary_key=True),  # "game:12:0:17", "builtin:..."
        sa.Column("position_json", sa.Text, nullable=False),  # rules, card, dice, rolls left
        sa.Column("source_loss", sa.Float, nullable=True),  # points lost in the game
        sa.Column("source_choice", sa.String(60), nullable=True),  # what was played then
        sa.Column("rank", sa.Integer, nullable=False),  # order of first showing
        sa.Column("right_in_a_row", sa.Integer, nullable=False),
        sa.Column("times_answered", sa.Integer, nullable=False),
        sa.Column("times_missed", sa.Integer, nullable=False),
        sa.Column("due", sa.Integer, nullable=False),  # the owner's clock when it is due
        timestamp("updated_at"),
    )


def downgrade() -> None:
    op.drop_table("drill_positions")
    op.drop_table("drill_owners")
