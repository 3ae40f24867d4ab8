"""A front end's session (pace, coach, language, move log) saved with a game."""

from __future__ import annotations

import pytest

from fivedice.core.game import GameSettings, Seat
from fivedice.service.games import GameService
from fivedice.store import GameNotFoundError, Store

SOLO = GameSettings((Seat("Ann"),))


def test_a_session_is_saved_replaced_and_read_back(db_url):
    service = GameService(Store(db_url))
    game = service.create_game(SOLO, seed=1)
    assert service.load_session(game.game_id) is None
    first = {"pace": 0.7, "language": "de", "log": [{"kind": "roll", "dice": [1, 2, 3, 4, 5]}]}
    service.save_session(game.game_id, first)
    assert service.load_session(game.game_id) == first
    second = {"pace": 2.5, "language": "nl", "coach": True, "log": []}
    service.save_session(game.game_id, second)  # replaces, never adds a second row
    again = GameService(Store(db_url))
    assert again.load_session(game.game_id) == second
    other = service.create_game(SOLO, seed=2)
    assert service.load_session(other.game_id) is None  # sessions are per game


def test_a_session_of_a_missing_game_is_refused(db_url):
    service = GameService(Store(db_url))
    with pytest.raises(GameNotFoundError):
        service.save_session(12345, {"pace": 1.0})


def test_a_damaged_session_is_dropped_not_raised(db_url):
    from sqlalchemy import update

    from fivedice.store import schema

    service = GameService(Store(db_url))
    game = service.create_game(SOLO, seed=1)
    service.save_session(game.game_id, {"pace": 1.0})
    with service.store.engine.begin() as connection:
        connection.execute(update(schema.game_sessions).values(session_json="{nope"))
    assert service.load_session(game.game_id) is None
    assert service.load(game.game_id).version == 0  # the game itself is untouched
