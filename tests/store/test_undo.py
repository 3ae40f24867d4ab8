"""Undo: logged as an entry of its own, replayed by skipping what it took back, and offered
only where it cannot be abused (`fivedice.service.games.undo_refusal`)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from fivedice.cli import app
from fivedice.core.categories import Category
from fivedice.core.dice import ScriptedDice
from fivedice.core.game import GameSettings, Seat
from fivedice.core.record import ActionEntry, GameRecord
from fivedice.service.games import GameService, UndoRefusedError
from fivedice.store import RecordError, StaleVersionError, dice_for, parse_record
from tests.support.players import play_out

SOLO = GameSettings((Seat("Ann"),))


def scripted(monkeypatch, script: dict[int, list[int]]) -> None:
    """The dice of action n are script[n] (the service asks `dice_for(seed, n)`)."""
    monkeypatch.setattr(
        "fivedice.service.view.dice_for", lambda seed, number: ScriptedDice(script.get(number, []))
    )


def log(service: GameService, game_id: int) -> list[str]:
    return [entry.action for entry in service.record(game_id).actions]


def test_undo_takes_back_a_hold_and_is_kept_in_the_log(service):
    view = service.create_game(SOLO, seed=5)
    view = service.apply_action(view.game_id, "roll", 0)
    rolled = view.state
    view = service.apply_action(view.game_id, "hold 1 2", 1)
    assert view.state.turn.held_positions == (1, 2)
    assert service.can_undo(view.game_id) is None
    view = service.undo(view.game_id, 2)
    assert view.version == 3
    assert view.state == rolled
    assert log(service, view.game_id) == ["roll", "hold 1 2", "undo"]
    assert service.load(view.game_id).state == rolled  # rebuilt from the log alike
    assert "3. Ann: undo" in service.export(view.game_id).splitlines()


def test_an_undone_yahtzee_earns_no_extra_yahtzee_bonus_later(service, monkeypatch):
    scripted(monkeypatch, {1: [6] * 5, 5: [5] * 5, 7: [4] * 5})
    game_id = service.create_game(SOLO, seed=1).game_id
    view = service.apply_action(game_id, "roll", 0)
    view = service.apply_action(game_id, "score yahtzee", 1)
    assert view.state.cards[0].columns[0].score(Category.YAHTZEE) == 50
    view = service.undo(game_id, 2)
    assert view.state.cards[0].columns[0].score(Category.YAHTZEE) is None
    view = service.apply_action(game_id, "score chance", 3)
    view = service.apply_action(game_id, "roll", 4)
    view = service.apply_action(game_id, "score yahtzee", 5)
    column = view.state.cards[0].columns[0]
    assert column.score(Category.YAHTZEE) == 50
    assert column.extra_yahtzees == 0  # the undone Yahtzee did not make this one an extra
    assert view.state.totals == (80,)
    # The next five of a kind is the first extra one: exactly one bonus.
    view = service.apply_action(game_id, "roll", 6)
    view = service.apply_action(game_id, "score fours", 7)
    assert view.state.cards[0].columns[0].extra_yahtzees == 1
    assert view.state.totals == (80 + 20 + 100,)
    # The saved log, its export and its replay agree.
    assert service.load(game_id).state == view.state
    record = parse_record(service.export(game_id))
    assert record.rebuild() == view.state


def test_the_dice_after_an_undo_come_from_seed_and_action_number(service):
    game_id = service.create_game(SOLO, seed=77).game_id
    service.apply_action(game_id, "roll", 0)
    service.apply_action(game_id, "hold 1", 1)
    service.undo(game_id, 2)
    view = service.apply_action(game_id, "roll", 3)  # action 4 rolls all five dice again
    assert view.state.dice == dice_for(77, 4).roll(5)
    assert service.record(game_id).actions[3].dice == view.state.dice


def test_undo_is_refused_for_a_roll_a_second_undo_and_a_stale_version(service):
    game_id = service.create_game(SOLO, seed=2).game_id
    view = service.apply_action(game_id, "roll", 0)
    with pytest.raises(UndoRefusedError, match="free re-roll"):
        service.undo(game_id, 1)
    refusal = service.can_undo(game_id)
    assert isinstance(refusal, UndoRefusedError) and "roll" in str(refusal)
    view = service.apply_action(game_id, "score chance", 1)
    view = service.undo(game_id, 2)
    with pytest.raises(UndoRefusedError, match="last action"):
        service.undo(game_id, 3)
    with pytest.raises(StaleVersionError):
        service.undo(game_id, 2)
    assert service.load(game_id).version == 3  # nothing was written by the refusals
    assert service.load(game_id).state == view.state


def test_undo_through_the_action_notation(service):
    game_id = service.create_game(SOLO, seed=2).game_id
    service.apply_action(game_id, "roll", 0)
    before = service.apply_action(game_id, "hold 3", 1)
    view = service.apply_action(game_id, " UNDO ", 2)
    assert view.state.turn.held_positions == ()
    assert before.version == 2 and view.version == 3


def test_undo_is_never_offered_in_a_game_against_others(service):
    # (No seed: a game with a seed of the client's is a practice game.)
    settings = GameSettings((Seat("Ann"), Seat("Bob")))
    game_id = service.create_game(settings).game_id
    service.apply_action(game_id, "roll", 0)
    service.apply_action(game_id, "hold 1", 1)
    with pytest.raises(UndoRefusedError, match="solo and practice"):
        service.undo(game_id, 2)
    settings = GameSettings((Seat("Ann"), Seat("CPU", "casual")))
    game_id = service.create_game(settings).game_id
    service.apply_action(game_id, "roll", 0)
    service.apply_action(game_id, "hold 1", 1)
    with pytest.raises(UndoRefusedError, match="solo and practice"):
        service.undo(game_id, 2)


def test_practice_games_allow_undoing_the_humans_last_move_but_not_the_cpus(service):
    settings = GameSettings((Seat("Ann"), Seat("CPU", "casual")))
    game_id = service.create_game(settings, seed=4, practice=True).game_id
    rolled = service.apply_action(game_id, "roll", 0)
    view = service.apply_action(game_id, "score chance", 1)
    assert view.is_cpu_turn
    view = service.undo(game_id, 2)
    assert view.state == rolled.state and not view.is_cpu_turn
    view = service.apply_action(game_id, "score chance", 3)
    _, view = service.cpu_step(game_id, view.version)
    with pytest.raises(UndoRefusedError, match="CPU"):
        service.undo(game_id, view.version)


def test_no_undo_after_the_game_or_a_game_of_the_match_ended(service):
    view = service.create_game(SOLO, seed=3)
    view = play_out(service, view.game_id)
    assert view.is_over
    with pytest.raises(UndoRefusedError, match="over"):
        service.undo(view.game_id, view.version)
    match = service.create_game(GameSettings((Seat("Ann"),), match_length=2), seed=3)
    full = play_out(service, service.create_game(match.state.settings, seed=3).game_id)
    ended = next(
        entry.seq
        for entry, state in service.record(full.game_id).states()
        if entry is not None and state.game_number == 2
    )
    view = play_out(service, match.game_id, limit=ended)
    assert view.state.game_number == 2 and view.version == ended
    with pytest.raises(UndoRefusedError, match="ended a game"):
        service.undo(match.game_id, ended)


def test_table_games_may_take_back_any_action_in_turn(service):
    from fivedice.service.games import undo_refusal

    record = GameRecord(
        SOLO,
        seed=1,
        actions=(
            ActionEntry(1, 0, "roll", (1, 2, 3, 4, 6)),
            ActionEntry(2, 0, "undo"),
        ),
    )
    target = record.undo_target()
    assert target is None
    record = GameRecord(
        SOLO,
        seed=1,
        actions=(
            ActionEntry(1, 0, "roll", (1, 2, 3, 4, 6)),
            ActionEntry(2, 0, "hold 1"),
            ActionEntry(3, 0, "undo"),
        ),
    )
    target = record.undo_target()
    assert target is not None and target.entry.action == "roll" and target.follows_undo
    assert "last action" in str(undo_refusal(record, target))
    assert undo_refusal(record, target, table=True) is None


def test_records_check_their_undos():
    roll = ActionEntry(1, 0, "roll", (1, 2, 3, 4, 6))
    with pytest.raises(RecordError, match="no action to undo"):
        GameRecord(SOLO, seed=1, actions=(ActionEntry(1, 0, "undo"),)).rebuild()
    with pytest.raises(RecordError, match="rolls no dice"):
        GameRecord(SOLO, seed=1, actions=(roll, ActionEntry(2, 0, "undo", (3,)))).rebuild()
    two = GameSettings((Seat("Ann"), Seat("Bob")))
    with pytest.raises(RecordError, match="takes back"):
        GameRecord(two, seed=1, actions=(roll, ActionEntry(2, 1, "undo"))).rebuild()


def test_export_with_an_undo_replays_on_the_command_line(service, tmp_path):
    game_id = service.create_game(SOLO, seed=9).game_id
    service.apply_action(game_id, "roll", 0)
    service.apply_action(game_id, "score chance", 1)
    service.undo(game_id, 2)
    service.apply_action(game_id, "score ones", 3)
    path = tmp_path / "game.txt"
    path.write_text(service.export(game_id))
    result = CliRunner().invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "3. Ann takes back the last action" in result.output
    assert "The record is valid: 4 actions." in result.output
    state = parse_record(path.read_text()).rebuild()
    column = state.cards[0].columns[0]
    assert column.score(Category.CHANCE) is None and column.score(Category.ONES) is not None
