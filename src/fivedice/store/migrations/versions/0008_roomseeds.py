"""Verifiable dice in rooms: the server seed is drawn (and committed to) when the room is made,
before any friend chooses a client seed; each seat keeps the client seed its player gave.

Why: a game started from a room is created only when the host starts it. If its server seed
were drawn then, the server would already know every client seed and could pick a server seed
that gives it the dice it wants. Drawing it with the room, and showing its commitment in the
waiting room, fixes it before anyone adds a seed.

Rooms made before this revision have no seed: their game gets a fresh one at the start (as
before).

Revision ID: 0003_roomseeds
Revises: 0002_dicecommit
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_roomseeds"
down_revision: str | None = "0002_dicecommit"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("server_seed", sa.String(64), nullable=True))
    with op.batch_alter_table("room_seats") as batch:
        batch.add_column(sa.Column("client_seed", sa.String(256), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("room_seats") as batch:
        batch.drop_column("client_seed")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("server_seed")
