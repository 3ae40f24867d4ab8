"""What an entry at the table wrote on the card, and what an undo took back."""

from __future__ import annotations

from fivedice.core.categories import Category
from fivedice.core.rules import CLASSIC, find_ruleset
from fivedice.service.games import GameService
from fivedice.service.settings import build_table_settings
from fivedice.service.table import entry_between, last_entry
from fivedice.store import Store
from fivedice.wording.table import last_entry_text, scored_text, zero_question


def new_table(tmp_path, rules=CLASSIC):
    service = GameService(Store(f"sqlite:///{tmp_path / 'games.sqlite3'}"))
    return service, service.create_game(build_table_settings(rules, ["Ann", "Bob"]))


def test_nothing_entered_yet_has_no_last_entry(tmp_path):
    service, view = new_table(tmp_path)
    assert last_entry(service.record(view.game_id)) is None
    assert last_entry_text(None) == ""


def test_a_box_with_its_bonuses_and_the_players_new_total(tmp_path):
    service, view = new_table(tmp_path)
    for step in ("dice 22222", "score yahtzee", "score chance 20", "dice 44444"):
        view = service.apply_action(view.game_id, step, view.version)
    before = view.state
    view = service.apply_action(view.game_id, "score fours", view.version)
    entry = entry_between(before, view.state)
    assert entry is not None
    assert (entry.name, entry.category, entry.points) == ("Ann", Category.FOURS, 20)
    assert (entry.yahtzee_bonus, entry.upper_bonus, entry.total) == (100, 0, 170)
    assert entry.column is None  # a one-column card names no column
    assert scored_text(entry) == "Ann: 20 in Fours, +100 extra-Yahtzee bonus (total 170)"


def test_dice_entered_again_are_the_entry_and_the_line_stays_quiet(tmp_path):
    service, view = new_table(tmp_path)
    view = service.apply_action(view.game_id, "dice 11111", view.version)
    before = view.state
    view = service.apply_action(view.game_id, "dice 3 3 3 5 5", view.version)
    entry = entry_between(before, view.state)
    assert entry is not None and entry.dice == (3, 3, 3, 5, 5) and entry.category is None
    last = last_entry(service.record(view.game_id))
    assert last is not None and not last.taken_back and last_entry_text(last) == ""


def test_an_undo_is_read_back_as_what_it_took_back(tmp_path):
    service, view = new_table(tmp_path)
    view = service.apply_action(view.game_id, "dice 3 3 3 5 5", view.version)
    view = service.apply_action(view.game_id, "score full_house", view.version)
    view = service.undo(view.game_id, view.version)
    last = last_entry(service.record(view.game_id))
    assert last is not None and last.taken_back
    assert last.entry.category is Category.FULL_HOUSE and last.entry.points == 25
    assert last_entry_text(last) == "Taken back: Ann's 25 in Full house"
    view = service.undo(view.game_id, view.version)
    assert last_entry_text(last_entry(service.record(view.game_id))) == (
        "Taken back: Ann's dice 3 3 3 5 5"
    )


def test_on_a_card_of_several_columns_the_column_is_said(tmp_path):
    service, view = new_table(tmp_path, find_ruleset("triple"))
    view = service.apply_action(view.game_id, "dice 3 3 3 5 5", view.version)
    before = view.state
    view = service.apply_action(view.game_id, "score 2:full_house", view.version)
    entry = entry_between(before, view.state)
    assert entry is not None and entry.column == 1
    assert scored_text(entry).startswith("Ann: 25 in Full house (column 2)")
    assert zero_question(Category.YAHTZEE, 2) == (
        "Score 0 in Yahtzee (column 3)? The box is then used up."
    )
