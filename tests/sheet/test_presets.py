"""The printable sheet and `fivedice rules` for Yatzy and Maxi Yatzy: the rows are the rule
set's boxes, each described from its kind and parameters, and a played game fills them."""

from __future__ import annotations

import io

from pypdf import PdfReader
from typer.testing import CliRunner

from fivedice.cli import app
from fivedice.core.dice import ScriptedDice
from fivedice.core.game import GameSettings, Seat, apply, new_game
from fivedice.core.rules import find_ruleset
from fivedice.sheet.model import blank_columns, build_sheet, game_columns
from fivedice.sheet.pdf import render_pdf

runner = CliRunner()


def test_sheet_rows_are_the_boxes_of_maxi_yatzy():
    rules = find_ruleset("maxi-yatzy")
    sheet = build_sheet(rules, blank_columns(["Ann", "Bob"]))
    box_rows = [row.key for row in sheet.rows if row.key in {b.key for b in rules.boxes}]
    assert box_rows == [box.key for box in rules.boxes]
    how = {row.key: row.how for row in sheet.rows}
    assert how["castle"] == "3 dice of one face and 3 of another: the sum of those dice"
    assert how["full_straight"] == "Exactly 1-2-3-4-5-6: 21"
    assert how["maxi_yatzy"] == "All 6 dice the same face: 100"
    assert "yahtzee_bonus" not in how  # no extra-Yatzy bonus in this preset
    assert "Bonus if the upper total ≥ 84: 100" in how.values()
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(render_pdf(sheet))).pages)
    assert "Three pairs" in text and "Tower" in text


def test_sheet_rows_of_kismet_and_generala():
    kismet = find_ruleset("kismet")
    sheet = build_sheet(kismet, blank_columns(["Ann"]))
    how = {row.key: row.how for row in sheet.rows}
    assert [row.key for row in sheet.rows if kismet.has_box(row.key)] == [
        box.key for box in kismet.boxes
    ]
    assert "35 at 63, 55 at 71, 75 at 78" in how["upper_bonus"]
    assert how["kismet"] == "All 5 dice the same face: the sum of the dice + 50"
    assert how["flush"].startswith("All dice of one colour of pips")
    generala = find_ruleset("generala")
    how = {row.key: row.how for row in build_sheet(generala, blank_columns(["Ann"])).rows}
    assert how["full"].endswith("(5 more when made on the first roll of the turn)")
    assert "upper_bonus" not in how
    state = new_game(GameSettings(seats=(Seat("Ann"),), rules=kismet))
    for box, dice in (("sixes", [6] * 5), ("fives", [5] * 5), ("fours", [4, 4, 4, 1, 2])):
        state = apply(state, "roll", ScriptedDice(dice))
        state = apply(state, f"score {box}")
    rows = {row.key: row.cells for row in build_sheet(kismet, game_columns(state)).rows}
    assert rows["upper_bonus"] == (("35",),)  # 30 + 25 + 12 = 67: the tier of 63


def test_a_yatzy_game_fills_the_sheet():
    rules = find_ruleset("yatzy")
    state = new_game(GameSettings(seats=(Seat("Ann"),), rules=rules))
    state = apply(state, "roll", ScriptedDice([2, 2, 5, 5, 6]))
    state = apply(state, "score two_pairs")
    sheet = build_sheet(rules, game_columns(state))
    row = next(row for row in sheet.rows if row.key == "two_pairs")
    assert row.cells == (("14",),)


def test_rules_command_describes_the_preset_boxes():
    result = runner.invoke(app, ["rules", "--rules", "yatzy", "--set", "fill_order=forced"])
    assert result.exit_code == 0
    out = result.output
    assert "One pair: two dice of one face: their sum (the highest pair)." in out
    assert "Small straight: exactly 1-2-3-4-5: 15." in out
    assert "Forced order" in out
    result = runner.invoke(app, ["--lang", "nl", "rules", "--rules", "maxi-yatzy"])
    assert "Zes dobbelstenen" in result.output and "Kasteel" in result.output
