"""`fivedice table --plain` read line by line: a 0 is asked about, each box scored is said in
one line, and an undo says what it took back."""

from __future__ import annotations

import io

from fivedice.core.categories import Category
from fivedice.core.rules import CLASSIC
from fivedice.plain.table import run_table_plain
from fivedice.service.games import GameService
from fivedice.service.settings import build_table_settings
from fivedice.store import Store


def transcript(tmp_path, *entries: str) -> tuple[str, GameService]:
    service = GameService(Store(f"sqlite:///{tmp_path / 'table.sqlite3'}"))
    stdout = io.StringIO()
    settings = build_table_settings(CLASSIC, ["Ann", "Bob"])
    code = run_table_plain(
        service, settings, stdin=io.StringIO("".join(f"{e}\n" for e in entries)), stdout=stdout
    )
    assert code == 0
    return stdout.getvalue(), service


def test_a_zero_is_asked_about_and_no_scores_nothing(tmp_path):
    out, service = transcript(tmp_path, "dice 12346", "score yahtzee", "n", "quit")
    assert "Ann> Yahtzee would score 0. Score it anyway? [y/N] Not scored." in out
    state = service.load(1).state
    assert state.cards[0].columns[0].score(Category.YAHTZEE) is None
    assert [e.action for e in service.record(1).actions] == ["dice 1 2 3 4 6"]


def test_a_zero_said_yes_to_is_scored_and_said(tmp_path):
    out, service = transcript(tmp_path, "dice 12346", "score yahtzee", "y", "quit")
    assert "[y/N] Ann: 0 in Yahtzee (total 0)" in out
    assert service.load(1).state.cards[0].columns[0].score(Category.YAHTZEE) == 0


def test_points_typed_as_0_and_scores_above_0_are_not_asked_about(tmp_path):
    out, _service = transcript(
        tmp_path, "score yahtzee 0", "dice 33355", "score full_house", "quit"
    )
    assert "[y/N]" not in out
    assert "Ann: 0 in Yahtzee (total 0)" in out
    assert "Bob: 25 in Full house (total 25)" in out


def test_every_score_says_what_went_where_and_undo_what_it_took_back(tmp_path):
    out, service = transcript(
        tmp_path,
        "dice 22222",
        "score yahtzee",
        "score chance 20",
        "dice 66666",
        "score sixes",  # Ann's extra Yahtzee: its bonus is said too
        "undo",
        "undo",
        "undo",
        "quit",
    )
    said = [line.split("> ")[-1] for line in out.splitlines() if ": " in line and ">" in line]
    assert said == [
        "Ann: 50 in Yahtzee (total 50)",
        "Bob: 20 in Chance (total 20)",
        "Ann: 30 in Sixes, +100 extra-Yahtzee bonus (total 180)",
        "Taken back: Ann's 30 in Sixes, +100 extra-Yahtzee bonus",
        "Taken back: Ann's dice 6 6 6 6 6",
        "Taken back: Bob's 20 in Chance",
    ]
    assert service.load(1).state.totals == (50, 0)


def test_the_cards_are_read_out_on_show_and_at_the_end_only(tmp_path):
    out, _service = transcript(
        tmp_path, "dice 33355", "score full_house", "score chance 22", "show", "quit"
    )
    before_show, after_show = out.split("Ann> \n", 1)  # `show` typed on Ann's second turn
    assert "Upper total" not in before_show
    assert after_show.count("Upper total") == 1
    # Bob's whole turn: one line for the score, two for the next turn.
    bobs_turn = before_show.split("Bob> ", 1)[1]
    assert bobs_turn.splitlines() == [
        "Bob: 22 in Chance (total 22)",
        "Ann's turn 2 of 13.",
        "Enter the dice rolled (e.g. dice 3 3 3 5 5), or the points (score chance 22).",
    ]
