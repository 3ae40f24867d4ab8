"""Hold'em games kept in the store: saved after every action, resumed by another service."""

from __future__ import annotations

import pytest

from fivedice.core.game import Seat
from fivedice.core.holdem import HoldemRules
from fivedice.service.holdem import HoldemService
from fivedice.store import Store
from fivedice.store.holdem import HoldemGameMissingError, HoldemStore


def test_a_game_is_kept_and_resumed_by_another_service(store, db_url):
    first = HoldemService(HoldemStore(store))
    game = first.new_game((Seat("Ann"), Seat("Bot", "casual")), HoldemRules(starting_stack=50))
    first.run_cpus(game)
    first.act(game, 0, "call" if "call" in first.view(game, 0).legal else "check")
    first.run_cpus(game)
    again = Store(db_url)
    try:
        second = HoldemService(HoldemStore(again))
        assert second.latest_unfinished() == game
        assert second.view(game, 0) == first.view(game, 0)
        assert second.export(game) == first.export(game)
    finally:
        again.close()
    with pytest.raises(HoldemGameMissingError):
        HoldemStore(store).load(game + 1)
