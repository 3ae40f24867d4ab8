"""Texas Hold'em Yahtzee games (table `holdem_games`, migration 0013_holdem).

One row a game: its status and its record's whole text as the service keeps it (the server
seed and every face; the service shows a player only what `fivedice.core.holdem.view_for`
allows). The store only keeps the text: reading and replaying it is the service's.
"""

from __future__ import annotations

from sqlalchemy import insert, select, update

from fivedice.core.errors import N_
from fivedice.store import schema
from fivedice.store.database import Store, utc_now
from fivedice.store.errors import StoreError
from fivedice.store.rows import Damage, text_in, whole_in

__all__ = ["HoldemGameMissingError", "HoldemStore"]


class HoldemGameMissingError(StoreError):
    """No Hold'em game has this id."""


class HoldemStore:
    """Keeps Hold'em games' records in one store (the `HoldemGames` port of the service)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def create(self, text: str, status: str) -> int:
        """Saves a new game's record; its id.

        Raises:
            StoreUnavailableError: nothing was written.
        """
        table = schema.holdem_games
        now = utc_now()
        with self.store._errors(N_("save the new game"), writing=True), self.store.writing() as c:
            result = c.execute(
                insert(table).values(status=status, record=text, created_at=now, updated_at=now)
            )
            key = result.inserted_primary_key
        assert key is not None
        return int(key[0])

    def save(self, game_id: int, text: str, status: str) -> None:
        """Replaces a game's record.

        Raises:
            StoreUnavailableError: nothing was written.
        """
        table = schema.holdem_games
        with self.store._errors(N_("save the action"), writing=True), self.store.writing() as c:
            c.execute(
                update(table)
                .where(table.c.id == game_id)
                .values(status=status, record=text, updated_at=utc_now())
            )

    def load(self, game_id: int) -> str:
        """A game's record text.

        Raises:
            HoldemGameMissingError: no such game. DatabaseDamagedError: not text.
        """
        table = schema.holdem_games
        with self.store._errors(N_("read the game")), self.store._reader.begin() as c:
            row = c.execute(select(table.c.record).where(table.c.id == game_id)).first()
        if row is None:
            raise HoldemGameMissingError(N_("there is no game {game_id}"), game_id=game_id)
        try:
            return text_in(row.record, "holdem_games.record")
        except Damage as error:
            raise self.store._damaged(error) from None

    def ids(self) -> list[int]:
        """Every game's id, newest first."""
        table = schema.holdem_games
        with self.store._errors(N_("list the games")), self.store._reader.begin() as c:
            rows = c.execute(select(table.c.id).order_by(table.c.id.desc())).all()
        try:
            return [whole_in(row.id, "holdem_games.id") for row in rows]
        except Damage as error:
            raise self.store._damaged(error) from None
