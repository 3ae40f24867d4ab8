"""The printable score sheet: its rows for every rule set, a filled-in game, and the PDF.

The PDFs are read back with pypdf (pages, text); `test_rendered_pages_for_a_person` also
renders a few with pdftoppm into `test-artifacts/` (git-ignored) for a person to look at.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

from fivedice.core.categories import CATEGORIES, LOWER, UPPER
from fivedice.core.dice import ScriptedDice
from fivedice.core.game import GameSettings, Seat, apply, new_game
from fivedice.core.rules import find_ruleset
from fivedice.i18n import set_language
from fivedice.sheet.model import (
    MAX_SHEET_COLUMNS,
    Paper,
    SheetError,
    blank_columns,
    build_sheet,
    game_columns,
    how_to_score,
    match_summary,
    parse_names,
    parse_paper,
)
from fivedice.sheet.pdf import render_pdf
from fivedice.wording.text import box_name

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

# One seat's whole game: a Yahtzee, the upper boxes to exactly 63 (bonus 35), a further
# Yahtzee of sixes placed as a joker in full house (extra-Yahtzee bonus 100), the rest.
SCRIPTED_TURNS = [
    ("11111", "yahtzee", 50),
    ("11123", "ones", 3),
    ("22245", "twos", 6),
    ("33315", "threes", 9),
    ("44412", "fours", 12),
    ("55513", "fives", 15),
    ("66612", "sixes", 18),
    ("66666", "full_house", 25),
    ("33322", "three_of_a_kind", 13),
    ("44441", "four_of_a_kind", 17),
    ("12346", "small_straight", 30),
    ("23456", "large_straight", 40),
    ("65432", "chance", 20),
]
SCRIPTED_TOTAL = 63 + 35 + (50 + 25 + 13 + 17 + 30 + 40 + 20) + 100


def scripted_game(rules_name: str = "classic"):
    rules = find_ruleset(rules_name)
    state = new_game(GameSettings((Seat("Ann"),), rules))
    for dice, box, _points in SCRIPTED_TURNS:
        state = apply(state, "roll", ScriptedDice([int(d) for d in dice]))
        state = apply(state, f"score {box}")
    return state


def pdf_text(data: bytes) -> tuple[int, str]:
    reader = PdfReader(io.BytesIO(data))
    return len(reader.pages), "\n".join(page.extract_text() for page in reader.pages)


def row(sheet, key):
    return next(r for r in sheet.rows if r.key == key)


# -- what goes on the sheet ----------------------------------------------------------------


def test_classic_sheet_has_every_box_and_the_pad_lines():
    sheet = build_sheet(find_ruleset("classic"), blank_columns([], None))
    keys = [r.key for r in sheet.rows]
    for category in CATEGORIES:
        assert category.key in keys
    assert keys.index("sixes") < keys.index("upper_total") < keys.index("upper_bonus")
    assert keys.index("upper_bonus") < keys.index("three_of_a_kind")
    assert keys.index("chance") < keys.index("yahtzee_bonus") < keys.index("lower_total")
    assert keys[-1] == "grand_total"
    assert row(sheet, "upper_bonus").how == "Bonus if the upper total ≥ 63: 35"
    assert "100" in row(sheet, "yahtzee_bonus").how
    assert row(sheet, "threes").how == "Count and add only 3s"
    assert row(sheet, "full_house").how == "Three and two alike: score 25"
    assert row(sheet, "chance").how == "Total of all 5 dice"
    # The pad has six games; every cell starts empty.
    assert [c.note for c in sheet.columns] == [f"Game {n}" for n in range(1, 7)]
    assert all(text == "" for r in sheet.rows for cells in r.cells for text in cells)
    assert any("forced" in line for line in sheet.rules_lines)


def test_the_rule_sets_values_and_variants_are_on_the_sheet():
    rules = find_ruleset(
        "classic-five",
        {
            "upper_bonus_threshold": "70",
            "upper_bonus_value": "50",
            "full_house": "30",
            "of_a_kind_scores": "matching_dice",
            "five_of_a_kind_is_full_house": "on",
        },
    )
    sheet = build_sheet(rules, blank_columns(["Ann"], None))
    assert row(sheet, "upper_bonus").how == "Bonus if the upper total ≥ 70: 50"
    assert row(sheet, "small_straight").how == "Exactly 1-2-3-4-5: score 30"
    assert row(sheet, "large_straight").how == "Exactly 2-3-4-5-6: score 40"
    assert row(sheet, "three_of_a_kind").how == "3 × the face of the three alike"
    assert "five alike" in row(sheet, "full_house").how and "30" in row(sheet, "full_house").how
    # classic-five pays no extra-Yahtzee bonus: no ticks on its sheet.
    assert "yahtzee_bonus" not in [r.key for r in sheet.rows]
    no_bonus = build_sheet(find_ruleset("simple", {"upper_bonus": "off"}), blank_columns([], 1))
    assert "upper_bonus" not in [r.key for r in no_bonus.rows]
    assert how_to_score(find_ruleset("classic"), LOWER[3]) == "Four in a row: score 30"


def test_several_columns_of_the_rules_get_their_factors():
    sheet = build_sheet(find_ruleset("triple"), blank_columns(["Ann", "Bob"], None))
    assert sheet.sub_headings() == ("×1", "×2", "×3")
    assert all(len(cells) == 3 for cells in row(sheet, "ones").cells)
    assert [len(cells) for cells in row(sheet, "grand_total").cells] == [1, 1]
    # One "×" per factor, not "Column total × ×1, ×2, ×3".
    assert row(sheet, "column_times").how == "Column total × 1, 2, 3"


def test_columns_per_player_and_per_game():
    assert [(c.name, c.note) for c in blank_columns(["Ann", "Bob"], None)] == [
        ("Ann", ""),
        ("Bob", ""),
    ]
    assert [(c.name, c.note) for c in blank_columns(["Ann", "Bob"], 4)] == [
        ("Ann", "Game 1"),
        ("Bob", "Game 1"),
        ("Ann", "Game 2"),
        ("Bob", "Game 2"),
    ]
    assert parse_names(" Ann, ,Bob ,") == ["Ann", "Bob"]
    assert parse_paper(" Letter ") is Paper.LETTER


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: blank_columns(["A", "B", "C"], 2), "3 players need at least 3 columns"),
        (lambda: blank_columns([], 0), "1 to 60 columns, not 0"),
        (lambda: blank_columns([], MAX_SHEET_COLUMNS + 1), "not 61"),
        (lambda: parse_paper("a3"), "a4 or letter, not 'a3'"),
        (lambda: parse_names("x" * 41), "at most 40 characters"),
    ],
)
def test_bad_options_are_refused_with_the_reason(call, words):
    with pytest.raises(SheetError) as raised:
        call()
    assert words in str(raised.value)


def test_a_finished_game_fills_in_scores_bonuses_ticks_and_totals():
    state = scripted_game()
    assert state.totals == (SCRIPTED_TOTAL,)
    sheet = build_sheet(state.rules, game_columns(state), summary=match_summary(state))
    for _dice, box, points in SCRIPTED_TURNS:
        assert row(sheet, box).cells == ((str(points),),)
    assert row(sheet, "upper_total").cells == (("63",),)
    assert row(sheet, "upper_bonus").cells == (("35",),)  # exactly at the threshold
    assert row(sheet, "upper_section_total").cells == (("98",),)
    assert row(sheet, "yahtzee_bonus").ticks == ((1,),)
    assert row(sheet, "yahtzee_bonus").cells == (("100",),)
    assert row(sheet, "lower_total").cells == (("295",),)
    assert row(sheet, "grand_total").cells == ((str(SCRIPTED_TOTAL),),)
    assert sheet.summary == f"Totals: Ann {SCRIPTED_TOTAL}"


def test_a_game_in_progress_leaves_open_boxes_and_unknown_bonuses_blank():
    state = new_game(
        GameSettings((Seat("Ann"), Seat("Bob")), find_ruleset("classic"), match_length=2)
    )
    state = apply(state, "roll", ScriptedDice([6, 6, 6, 1, 2]))
    state = apply(state, "score sixes")
    sheet = build_sheet(state.rules, game_columns(state))
    assert [(c.name, c.note) for c in sheet.columns] == [
        ("Ann", "Game 1"),
        ("Bob", "Game 1"),
        ("Ann", "Game 2"),
        ("Bob", "Game 2"),
    ]
    assert row(sheet, "sixes").cells == (("18",), ("",), ("",), ("",))
    assert row(sheet, "ones").cells == (("",),) * 4
    assert row(sheet, "upper_bonus").cells == (("",),) * 4  # not reached, not yet missed
    assert row(sheet, "upper_total").cells[0] == ("18",)
    assert row(sheet, "grand_total").cells == (("18",), ("",), ("",), ("",))


# -- the PDF -------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("rules_name", ["classic", "triple"])
def test_up_to_six_columns_fit_on_one_page(count, rules_name):
    names = [f"Player{n}" for n in range(1, count + 1)]
    sheet = build_sheet(find_ruleset(rules_name), blank_columns(names, None))
    pages, text = pdf_text(render_pdf(sheet, Paper.A4))
    assert pages == 1
    for name in names:
        assert name in text
    for category in CATEGORIES:
        assert box_name(category) in text
    assert "Bonus if the upper total ≥ 63: 35" in text
    assert "Grand total" in text


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_more_columns_continue_on_more_pages_each_a_whole_sheet():
    sheet = build_sheet(find_ruleset("classic"), blank_columns([], 13))
    pages, text = pdf_text(render_pdf(sheet, Paper.LETTER))
    assert pages == 3
    reader = PdfReader(io.BytesIO(render_pdf(sheet, Paper.LETTER)))
    for page in reader.pages:
        assert "Grand total" in page.extract_text()
    assert "Game 13" in text
    width, height = float(reader.pages[0].mediabox.width), float(reader.pages[0].mediabox.height)
    assert (round(width), round(height)) == (612, 792)  # US Letter in points


@pytest.mark.parametrize("language", ["nl", "de"])
def test_the_sheet_speaks_the_language(language):
    try:
        set_language(language)
        sheet = build_sheet(find_ruleset("classic"), blank_columns(["Ann", "Bob"], None))
        names = [box_name(category) for category in CATEGORIES]
    finally:
        set_language("en")
    _pages, text = pdf_text(render_pdf(sheet, Paper.A4))
    for name in names:
        assert name in text
    assert "Grand total" not in text and "How to score" not in text
    assert {"nl": "Eindtotaal", "de": "Gesamtsumme"}[language] in text


def _japanese_font_or_skip() -> None:
    from fivedice.sheet.pdf import FALLBACK_FONTS

    if not any(f.regular.is_file() and f.bold.is_file() for f in FALLBACK_FONTS["ja"]):
        if os.environ.get("CI"):
            pytest.fail("Noto Sans CJK is missing in CI (scripts/system-deps.sh installs it)")
        pytest.skip("Noto Sans CJK is missing (scripts/system-deps.sh installs fonts-noto-cjk)")


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_a_japanese_sheet_holds_japanese_text():
    """Japanese box names come out as text in Noto Sans CJK JP; Latin stays DejaVu Sans."""
    _japanese_font_or_skip()
    try:
        set_language("ja")
        columns = blank_columns(["Ann", "花子"], None)
        sheet = build_sheet(find_ruleset("classic"), columns, language="ja")
        names = [box_name(category) for category in CATEGORIES]
    finally:
        set_language("en")
    assert "スリーカード" in names and "ヤッツィー" in names
    data = render_pdf(sheet, Paper.A4)
    _pages, text = pdf_text(data)
    # pypdf reads the CJK font's two-byte codes with a NUL or a space between the glyphs.
    compact = "".join(text.replace("\x00", "").split())
    for name in names:
        assert name.replace(" ", "") in compact
    assert "花子" in compact and "Ann" in compact
    assert "Grand total" not in text and "How to score" not in text
    reader = PdfReader(io.BytesIO(data))
    fonts = {str(font["/BaseFont"]) for font in reader.pages[0]["/Resources"]["/Font"].values()}
    assert any("NotoSansCJKJP" in font for font in fonts), fonts
    assert any("DejaVuSans" in font for font in fonts), fonts
    if shutil.which("pdftoppm"):  # a picture for a person to look at
        ARTIFACTS.mkdir(exist_ok=True)
        pdf = ARTIFACTS / "sheet-ja-blank.pdf"
        pdf.write_bytes(data)
        target = str(ARTIFACTS / "sheet-ja-blank")
        subprocess.run(["pdftoppm", "-png", "-r", "60", "-singlefile", str(pdf), target],
                       check=True, timeout=60)  # fmt: skip


def test_a_japanese_sheet_without_its_font_is_refused(monkeypatch, tmp_path):
    """No CJK font installed: a clear error in the player's language, never empty boxes."""
    from fivedice.i18n import load_translations
    from fivedice.sheet.pdf import FALLBACK_FONTS, FallbackFont
    from fivedice.wording.text import error_text

    missing = FallbackFont("Noto Sans CJK JP", tmp_path / "none.ttc", tmp_path / "none-b.ttc")
    monkeypatch.setitem(FALLBACK_FONTS, "ja", (missing,))
    try:
        set_language("ja")
        sheet = build_sheet(find_ruleset("classic"), blank_columns(["Ann"], None), language="ja")
    finally:
        set_language("en")
    with pytest.raises(SheetError) as caught:
        render_pdf(sheet, Paper.A4)
    english = str(caught.value)
    assert "Noto Sans CJK JP" in english and "fonts-noto-cjk" in english
    japanese = error_text(caught.value, load_translations("ja").gettext)
    assert japanese != english and "Noto Sans CJK JP" in japanese
    # English, Dutch and the other Latin languages need no such font.
    assert render_pdf(build_sheet(find_ruleset("classic"), blank_columns(["Ann"], None)))


def test_a_filled_sheet_holds_the_scores_and_totals():
    state = scripted_game()
    sheet = build_sheet(state.rules, game_columns(state), summary=match_summary(state))
    pages, text = pdf_text(render_pdf(sheet, Paper.A4))
    assert pages == 1
    lines = text.splitlines()
    for category in UPPER:
        points = dict((box, p) for _d, box, p in SCRIPTED_TURNS)[category.key]
        assert any(
            line.startswith(box_name(category)) and line.endswith(f" {points}") for line in lines
        )
    assert any(
        line.startswith("Grand total") and line.endswith(str(SCRIPTED_TOTAL)) for line in lines
    )
    assert f"Totals: Ann {SCRIPTED_TOTAL}" in text
    assert "✓" in text


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_rendered_pages_for_a_person(tmp_path):
    """pdftoppm renders the sheets (English blank, German triple, a filled game) to PNGs."""
    if shutil.which("pdftoppm") is None:
        if os.environ.get("CI"):
            pytest.fail("pdftoppm is missing in CI (scripts/system-deps.sh installs poppler-utils)")
        pytest.skip("pdftoppm is missing (scripts/system-deps.sh installs poppler-utils)")
    from PIL import Image

    state = scripted_game()
    try:
        set_language("de")
        german = build_sheet(find_ruleset("triple"), blank_columns(["Anna", "Bernd"], 4))
    finally:
        set_language("en")
    sheets = {
        "sheet-en-blank": build_sheet(find_ruleset("classic"), blank_columns([], None)),
        "sheet-de-triple": german,
        "sheet-en-filled": build_sheet(
            state.rules, game_columns(state), summary=match_summary(state)
        ),
    }
    ARTIFACTS.mkdir(exist_ok=True)
    for name, sheet in sheets.items():
        pdf = tmp_path / f"{name}.pdf"
        pdf.write_bytes(render_pdf(sheet, Paper.A4))
        subprocess.run(
            ["pdftoppm", "-png", "-r", "60", "-singlefile", str(pdf), str(ARTIFACTS / name)],
            check=True,
            timeout=60,
        )
        with Image.open(ARTIFACTS / f"{name}.png") as image:
            grey = image.convert("L")
            dark = sum(grey.histogram()[:128])
            assert dark > 2000, f"{name} looks empty"
            portrait = image.height > image.width
        assert portrait == (name != "sheet-de-triple")


@pytest.mark.parametrize("text", ["a\x1b[31m, Bob", "Ann, a\rb", "\u202eevil", "Ann,\x00"])
def test_sheet_names_follow_the_one_rule_for_names(text):
    """The sheet is one more place a name is entered and printed;
    a control character, line break or direction mark is refused as everywhere else."""
    with pytest.raises(ValueError, match="control characters"):
        parse_names(text)


def test_sheet_names_with_a_control_character_are_refused_on_the_page_and_the_cli(tmp_path):
    from typer.testing import CliRunner

    from fivedice.cli import app

    out = tmp_path / "sheet.pdf"
    result = CliRunner().invoke(app, ["sheet", "--players", "Ann,a\x1b[31mb", "-o", str(out)])
    assert result.exit_code != 0 and "control characters" in result.output
    assert "Traceback" not in result.output and not out.exists()
