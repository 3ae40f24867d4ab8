"""Pooled server connections are pinged only after being idle: one round
trip fewer per transaction, and still no error when the server closed a pooled connection."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, text

from fivedice.core.game import GameSettings, Seat
from fivedice.service.games import GameService
from fivedice.store import Store, StoreUnavailableError, database

DATABASES = ("postgresql",)  # the server's connection pool


def _close_every_connection(url: str) -> None:
    """What a server restart does to the pool: every connection of the database closed."""
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
            )
    finally:
        admin.dispose()


@pytest.mark.parametrize("idle_limit", [0.0, 3600.0])
def test_an_idle_connection_closed_by_the_server_is_replaced(db_url, monkeypatch, idle_limit):
    if db_url.startswith("sqlite"):
        pytest.skip("SQLite has no server connections")
    monkeypatch.setattr(database, "PING_AFTER_IDLE_SECONDS", idle_limit)
    store = Store(db_url)
    try:
        service = GameService(store)
        game = service.create_game(GameSettings((Seat("Ann"),)), seed=1)
        _close_every_connection(db_url)
        if idle_limit == 0.0:  # idle long enough: pinged, found closed, replaced
            assert GameService(store).load(game.game_id).version == 0
        else:  # used a moment ago: not pinged, so the closed connection shows (a 503)
            with pytest.raises(StoreUnavailableError):
                GameService(store).load(game.game_id)
            assert GameService(store).load(game.game_id).version == 0  # the pool recovered
    finally:
        store.close()
