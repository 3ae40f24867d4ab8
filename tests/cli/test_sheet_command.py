"""`fivedice sheet`: blank sheets, a saved game's sheet, and clear refusals of bad options."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from fivedice.core.game import GameSettings, Seat
from fivedice.core.rules import find_ruleset
from fivedice.service.games import GameService
from tests.support.cli import run


def read_pdf(data: bytes) -> tuple[int, str]:
    reader = PdfReader(io.BytesIO(data))
    return len(reader.pages), "\n".join(page.extract_text() for page in reader.pages)


def test_a_blank_sheet_with_names(tmp_path):
    target = tmp_path / "sheet.pdf"
    result = run("sheet", "--players", "Ann, Bob", "--columns", "6", "-o", str(target))
    assert result.exit_code == 0, result.output
    assert str(target) in result.stdout
    pages, text = read_pdf(target.read_bytes())
    assert pages == 1
    assert text.count("Ann") == 3 and text.count("Bob") == 3
    assert "Game 3" in text
    assert "Bonus if the upper total ≥ 63: 35" in text


def test_rules_options_language_and_paper(tmp_path):
    target = tmp_path / "sheet.pdf"
    result = run(
        "sheet",
        "--rules",
        "classic",
        "--set",
        "upper_bonus_threshold=70",
        "--lang",
        "de",
        "--paper",
        "letter",
        "-o",
        str(target),
    )
    assert result.exit_code == 0, result.output
    assert "Spielblock" in result.stdout
    reader = PdfReader(io.BytesIO(target.read_bytes()))
    text = reader.pages[0].extract_text()
    assert "Gesamtsumme" in text and "Dreierpasch" in text
    assert "≥ 70: 35" in text
    assert round(float(reader.pages[0].mediabox.width)) == 612  # Letter


def test_standard_output(tmp_path):
    result = run("sheet", "-o", "-")
    assert result.exit_code == 0
    pages, text = read_pdf(result.stdout_bytes)
    assert pages == 1 and "Game 6" in text


def test_a_saved_match_fills_the_sheet(tmp_path):
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    service = GameService.open(url)
    settings = GameSettings((Seat("Ann"), Seat("Bob")), find_ruleset("classic"), match_length=2)
    view = service.create_game(settings, seed=11)
    for _turn in range(6):  # three turns each: roll, then the first box the dice may go in
        view = service.apply_action(view.game_id, "roll", view.version)
        box = view.state.placements()[0].category.key
        view = service.apply_action(view.game_id, f"score {box}", view.version)
    totals = view.state.totals
    service.store.close()
    target = tmp_path / "game.pdf"
    result = run("sheet", "--game", str(view.game_id), "--db", url, "-o", str(target))
    assert result.exit_code == 0, result.output
    pages, text = read_pdf(target.read_bytes())
    assert pages == 1
    assert "Game 2" in text  # the match's second game: blank columns to finish by hand
    assert f"Match totals: Ann {totals[0]}, Bob {totals[1]}" in text
    grand = next(line for line in text.splitlines() if line.startswith("Grand total"))
    assert grand.split()[-2:] == [str(totals[0]), str(totals[1])]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--paper", "a3"], "the paper is a4 or letter, not 'a3'"),
        (["--columns", "0"], "a sheet has 1 to 60 columns, not 0"),
        (["--players", "A,B,C", "--columns", "2"], "3 players need at least 3 columns"),
        (["--rules", "nope"], "no rule preset is called 'nope'"),
        (["--set", "joker=maybe"], "Joker must be one of"),
        (["--lang", "xx"], "the languages are en, nl, de, ja, fr, es, not 'xx'"),
        (["--game", "999"], "no saved game 999"),
        (["--game", "1", "--players", "Ann"], "--game takes the players and the rules"),
    ],
)
def test_bad_options_are_refused_cleanly(tmp_path, args, words):
    target = tmp_path / "sheet.pdf"
    result = run("sheet", *args, "--db", f"sqlite:///{tmp_path / 'db.sqlite3'}", "-o", str(target))
    assert result.exit_code == 2
    assert words in result.stderr
    assert "Traceback" not in result.output
    assert not target.exists()


def test_output_that_cannot_be_written(tmp_path):
    as_directory = run("sheet", "-o", str(tmp_path))
    assert as_directory.exit_code == 2
    assert "is a directory" in as_directory.stderr
    missing = run("sheet", "-o", str(tmp_path / "nowhere" / "sheet.pdf"))
    assert missing.exit_code == 2
    assert "does not exist" in missing.stderr
    assert not (tmp_path / "nowhere").exists()
