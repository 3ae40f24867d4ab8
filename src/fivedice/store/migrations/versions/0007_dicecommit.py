"""Verifiable dice: each game's dice scheme, secret server seed, commitment and client seeds.

Games saved before keep the legacy scheme (their dice came from the game's seed); their
stored dice are what a replay uses, so they replay exactly as they were played.
"""

from __future__ import annotations

import sqlalchemy as sa

from fivedice.store.migrations.helpers import add_columns, drop_columns

revision = "0002_dicecommit"
down_revision: str | None = "0002_rooms"


def upgrade() -> None:
    add_columns(
        "games",
        sa.Column("dice_scheme", sa.String(20), nullable=False, server_default="python-random-v0"),
        sa.Column("server_seed", sa.String(64), nullable=True),
        sa.Column("dice_commitment", sa.String(64), nullable=True),
        sa.Column("client_seeds_json", sa.Text, nullable=True),
    )


def downgrade() -> None:
    drop_columns("games", "client_seeds_json", "dice_commitment", "server_seed", "dice_scheme")
