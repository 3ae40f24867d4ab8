"""Games saved by the main branch before boxes were data (a SQL dump of its SQLite file:
two classic games, one finished without a seed, one finished with, and an unfinished one on
custom rules) load, replay, list, count in statistics and play on unchanged."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from fivedice.core.record import rules_key
from fivedice.core.rules import CLASSIC, Joker, RuleSet
from fivedice.service.games import GameService

DUMP = Path(__file__).parent / "data" / "main-classic-saves.sql"


def open_saved(tmp_path: Path) -> GameService:
    path = tmp_path / "main.sqlite3"
    with sqlite3.connect(path) as connection:
        connection.executescript(DUMP.read_text(encoding="utf-8"))
    return GameService.open(f"sqlite:///{path}")


def test_games_saved_by_main_load_as_they_were(tmp_path):
    service = open_saved(tmp_path)
    games = {game.game_id: game for game in service.list_games()}
    assert set(games) == {1, 2, 3}
    first, custom, unseeded = (service.load(n) for n in (1, 2, 3))
    assert first.state.rules == CLASSIC and first.is_over
    assert first.state.totals == (24, 48)
    assert unseeded.state.totals == (31, 33) and unseeded.is_over
    assert custom.state.rules == RuleSet(full_house=30, joker=Joker.FREE_CHOICE)
    assert custom.state.totals == (13, 11) and not custom.is_over
    assert rules_key(custom.state.rules) == "custom-27b8d8d831"  # the key main stored
    assert all(card.columns[0].boxes == CLASSIC.boxes for card in first.state.cards)
    stats = {(entry.profile, entry.rules): entry for entry in service.stats()}
    assert stats[("Bob", "classic")].best == 33
    assert list(stats[("Ann", "classic")].box_averages)[:2] == ["ones", "twos"]


def test_an_unfinished_game_saved_by_main_plays_on(tmp_path):
    service = open_saved(tmp_path)
    view = service.load(2)
    assert view.state.dice is not None and view.state.turn.held_positions == (2, 3)
    dice = view.state.dice
    view = service.apply_action(2, "score chance", view.version)
    assert view.state.cards[0].columns[0].score(CLASSIC.box("chance")) == sum(dice)
    assert view.state.current_seat == 1
    assert service.load(2).state == view.state  # saved, and it replays to the same state
