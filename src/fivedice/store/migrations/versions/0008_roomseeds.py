"""Verifiable dice in rooms: the server seed is drawn (and committed to) when the room is made,
before any friend chooses a client seed; each seat keeps the client seed its player gave.

Why: a game started from a room is created only when the host starts it. If its server seed
were drawn then, the server would already know every client seed and could pick a server seed
that gives it the dice it wants. Drawing it with the room, and showing its commitment in the
waiting room, fixes it before anyone adds a seed.

Rooms made before this revision have no seed: their game gets a fresh one at the start.
"""

from __future__ import annotations

import sqlalchemy as sa

from fivedice.store.migrations.helpers import add_columns, drop_columns

revision = "0003_roomseeds"
down_revision: str | None = "0002_dicecommit"


def upgrade() -> None:
    add_columns("rooms", sa.Column("server_seed", sa.String(64), nullable=True))
    add_columns("room_seats", sa.Column("client_seed", sa.String(256), nullable=True))


def downgrade() -> None:
    drop_columns("room_seats", "client_seed")
    drop_columns("rooms", "server_seed")
