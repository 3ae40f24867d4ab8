"""Seats that stay theirs: a generation per game seat, a one-time device code per room seat,
and when each device joined a seat.

Why: a seat token was HMAC(secret, "game:seat") for ever, so a seat handed to a CPU kept
accepting its old player's token. A seat's token now carries its generation (0: the token
shape of every game saved before, which keeps working); handing the seat over raises it, and
the old token is refused. A friend's seat is claimed by the first device that opens its
invitation; another device of the same player joins with a one-time code (only its SHA-256
is kept) that the seat's holder asks for on their page.
"""

from __future__ import annotations

import sqlalchemy as sa

from fivedice.store.migrations.helpers import add_columns, drop_columns

revision = "0004_seatrights"
down_revision: str | None = "0003_roomseeds"


def upgrade() -> None:
    add_columns(
        "game_seats", sa.Column("generation", sa.Integer, nullable=False, server_default="0")
    )
    add_columns("room_seats", sa.Column("device_code", sa.String(64), nullable=True))
    add_columns("room_claims", sa.Column("created_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    drop_columns("room_claims", "created_at")
    drop_columns("room_seats", "device_code")
    drop_columns("game_seats", "generation")
