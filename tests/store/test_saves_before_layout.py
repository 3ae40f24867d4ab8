"""A database written by the code before the service/front-end layout (commit b99721d; made by
`data/make_saves_before_layout.py.txt`, dumped as SQL): a finished fair-dice game against a
CPU, an unfinished fair-dice game between two people, a Yatzy practice game that used undo, a
table game, a started room's game and a waiting room, and tutorial progress. Opened by today's
code, every game exports the very record it exported then (now signed), plays on, and the
fair-dice game still verifies."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from fivedice.core.record import parse_record, split_signature
from fivedice.core.verify import verify_record
from fivedice.service.games import GameService
from fivedice.store.rooms import Rooms

DATA = Path(__file__).parent / "data"
EXPECTED = json.loads((DATA / "saves-before-layout.json").read_text(encoding="utf-8"))


@pytest.fixture
def service(tmp_path: Path) -> GameService:
    path = tmp_path / "before.sqlite3"
    with sqlite3.connect(path) as connection:
        connection.executescript((DATA / "saves-before-layout.sql").read_text(encoding="utf-8"))
    return GameService.open(f"sqlite:///{path}")


def test_every_game_exports_the_record_it_exported_before(service):
    listed = {game.game_id for game in service.list_games()}
    assert listed == {int(number) for number in EXPECTED["games"]}
    for number, before in EXPECTED["games"].items():
        view = service.load(int(number))
        assert view.version == before["version"]
        assert list(view.state.totals) == before["totals"]
        assert view.is_over == before["over"]
        # The same record, now with a signature line of its own (split_signature).
        body, signature = split_signature(service.export(int(number)))
        assert body == before["record"] and signature is not None


def test_the_finished_fair_dice_game_still_verifies(service):
    finished = [int(n) for n, before in EXPECTED["games"].items() if before["over"]]
    assert finished
    for game_id in finished:
        verification = service.verify_dice(game_id)
        assert verification.ok and verification.committed and verification.rolls > 0
        # The record as exported then verifies too: nothing in it depends on the code's layout.
        record = parse_record(EXPECTED["games"][str(game_id)]["record"], check=False)
        assert verify_record(record).ok


def test_unfinished_games_play_on_and_replay_to_what_was_saved(service):
    for number, before in EXPECTED["games"].items():
        if before["over"]:
            continue
        game_id = int(number)
        view = service.load(game_id)
        if view.is_cpu_turn:
            _action, after = service.cpu_step(game_id, view.version)
        else:
            action = "roll" if view.state.dice is None else "score chance"
            if view.state.rules.family.value != "classic" and view.state.dice is not None:
                action = "roll"
            try:
                after = service.apply_action(game_id, action, view.version)
            except ValueError:
                after = service.apply_action(game_id, "score chance 20", view.version)
        assert after.version == view.version + 1
        assert service.load(game_id).state == after.state


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_rooms_and_tutorial_progress_read_as_before(service):
    rooms = Rooms(service.store)
    started = rooms.by_code(EXPECTED["rooms"]["started"])
    waiting = rooms.by_code(EXPECTED["rooms"]["waiting"])
    assert started.started and started.game_id is not None
    assert not waiting.started and waiting.game_id is None
    progress = {key: entry.status for key, entry in service.tutorial_progress().items()}
    for key, status in EXPECTED["tutorial"].items():
        assert progress[key] == status
