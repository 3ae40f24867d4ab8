"""Review summaries: each human seat's proficiency in a finished game, kept for statistics.

Why: the statistics show a player's loss per decision over their games; reviewing every game
again for every view would replay and judge thousands of decisions. A summary is written when
a game finishes (and, for games finished before this table existed, the first time the
statistics need it). It is derived data: deleting a row only makes it be computed again.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from fivedice.store.migrations.helpers import owner_key, timestamp

revision = "0011_reviewsummaries"
down_revision: str | None = "0010_commitmentuses"

_COUNTS = (
    "decisions",
    "optimal",
    "keeps",
    "boxes",
    "early",
    "late",
    "longest_run",
    "opening_run",
    "closing_run",
)
_LOSSES = ("loss", "keep_loss", "box_loss", "early_loss", "late_loss")


def upgrade() -> None:
    op.create_table(
        "review_summaries",
        owner_key("game_id", "games"),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("method", sa.Integer, nullable=False),  # the definition's version
        sa.Column("exact", sa.Boolean, nullable=False),  # False: several columns, estimates
        *(sa.Column(name, sa.Integer, nullable=False) for name in _COUNTS),
        *(sa.Column(name, sa.Float, nullable=False) for name in _LOSSES),
        timestamp("created_at"),
    )


def downgrade() -> None:
    op.drop_table("review_summaries")
