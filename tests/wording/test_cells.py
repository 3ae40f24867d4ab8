"""Text measured in terminal cells: a Japanese character takes two, so widths, cuts and
padding computed with `len()` would be wrong."""

from __future__ import annotations

from rich.cells import cell_len

from fivedice.wording.cells import fit_cells, pad_cells, text_width


def test_width_counts_double_width_characters_twice():
    assert text_width("Chance") == 6
    assert text_width("チャンス") == 8
    assert text_width("1の目") == 5
    assert text_width("Ann（達人）") == 11


def test_fit_never_exceeds_the_cells():
    assert fit_cells("Chance", 10) == "Chance"
    assert fit_cells("Small straight", 10) == "Small str…"
    assert fit_cells("スモールストレート", 10) == "スモール…"
    for cells in range(0, 20):
        for text in ("スモールストレート", "CPU 1（達人）", "Ann", "ヤッツィーボーナス"):
            cut = fit_cells(text, cells)
            assert cell_len(cut) <= cells
            assert cut == text or cut.endswith("…") or cut == ""


def test_pad_lines_up_by_cells():
    rows = ["1の目", "チャンス", "Chance", "スモールストレート"]
    padded = [pad_cells(row, 18) + "|" for row in rows]
    assert {cell_len(row) for row in padded} == {19}
    assert pad_cells("5", 4, ">") == "   5"
    assert pad_cells("キープ", 8, "^") == " キープ "
    assert pad_cells("スモールストレート", 4) == "スモールストレート"  # too wide: whole
