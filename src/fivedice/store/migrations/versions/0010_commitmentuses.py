"""Commitments drawn before the client seeds: each makes one game.

Why: a game made directly (the API's two-step, the new-game page) gets its server seed from a
commitment the client saw before it chose its seed. The commitment's handle is stateless
(an HMAC under the server's secret), so the store keeps which commitments already made a
game: a handle sent twice would let a client replay dice it already knows.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from fivedice.store.migrations.helpers import timestamp

revision = "0010_commitmentuses"
down_revision: str | None = "0004_seatrights"


def upgrade() -> None:
    op.create_table(
        "used_commitments",
        sa.Column("commitment", sa.String(64), primary_key=True),  # SHA-256, hex
        timestamp("used_at"),
    )
    op.create_index("ix_used_commitments_used_at", "used_commitments", ["used_at"])


def downgrade() -> None:
    op.drop_index("ix_used_commitments_used_at", "used_commitments")
    op.drop_table("used_commitments")
