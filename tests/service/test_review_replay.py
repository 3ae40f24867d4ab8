"""The replay a review judges: only the actions still in effect, as the game rebuilds itself."""

from __future__ import annotations

from itertools import pairwise

from fivedice.core.rules import CLASSIC
from fivedice.service.games import GameService
from fivedice.service.review import replay_in_effect
from fivedice.service.settings import build_table_settings
from fivedice.store import Store


def table_game_with_undos(tmp_path):
    service = GameService(Store(f"sqlite:///{tmp_path / 'games.sqlite3'}"))
    view = service.create_game(build_table_settings(CLASSIC, ["Ann", "Bob"]))
    steps = [
        "dice 1 1 1 1 1",
        "undo",  # Ann typed the wrong dice
        "dice 3 3 3 5 5",
        "score chance",
        "undo",  # a full house after all
        "score full_house",
        "dice 6 6 6 6 2",
        "score sixes",
        "undo",
        "undo",  # Bob's dice too: two undos in a row go back two actions
        "score fours 12",
    ]
    for step in steps:
        if step == "undo":
            view = service.undo(view.game_id, view.version)
        else:
            view = service.apply_action(view.game_id, step, view.version)
    return service, view


def test_undone_actions_and_their_undos_are_left_out(tmp_path):
    service, view = table_game_with_undos(tmp_path)
    replay = list(replay_in_effect(service.store.load_game(view.game_id).states()))
    notations = [notation for notation, _ in replay]
    assert notations == [None, "dice 3 3 3 5 5", "score full_house", "score fours 12"]
    assert replay[-1][1] == view.state  # the same game the players see


def test_each_action_in_effect_follows_the_state_it_was_taken_in(tmp_path):
    from fivedice.core.actions import parse_action
    from fivedice.core.game import apply

    service, view = table_game_with_undos(tmp_path)
    replay = list(replay_in_effect(service.store.load_game(view.game_id).states()))
    for (_, before), (notation, after) in pairwise(replay):
        assert notation is not None
        assert apply(before, parse_action(notation, CLASSIC.dice)) == after
