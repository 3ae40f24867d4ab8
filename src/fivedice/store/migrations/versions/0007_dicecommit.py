"""Verifiable dice: each game's dice scheme, secret server seed, commitment and client seeds.

Games saved before keep the legacy scheme (their dice came from the game's seed); their
stored dice are what a replay uses, so they replay exactly as before.

Revision ID: 0002_dicecommit
Revises: 0002_rooms
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_dicecommit"
down_revision: str | None = "0002_rooms"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column(
                "dice_scheme", sa.String(20), nullable=False, server_default="python-random-v0"
            )
        )
        batch.add_column(sa.Column("server_seed", sa.String(64), nullable=True))
        batch.add_column(sa.Column("dice_commitment", sa.String(64), nullable=True))
        batch.add_column(sa.Column("client_seeds_json", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("client_seeds_json")
        batch.drop_column("dice_commitment")
        batch.drop_column("server_seed")
        batch.drop_column("dice_scheme")
