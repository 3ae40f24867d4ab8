"""The score sheet as a PDF (fpdf2), laid out like the pad in the box.

Draws a `fivedice.sheet.model.Sheet`: a title, one row per line of the sheet (box, what it scores,
one cell per game or player and rule-set column), and the rules in words at the foot. Up
to six sheet columns share a page (A4 or Letter); more continue on further pages, each a
whole sheet with its own labels. Portrait when the cells are wide enough to write in,
landscape when several rule-set columns (triple ×1 ×2 ×3) need the room.

The font is DejaVu Sans (Latin, Greek, Cyrillic, and the die faces ⚀-⚅), embedded as a
subset. It is the copy matplotlib ships (a dependency anyway), so a fresh install after
`make play` makes sheets without any system font. A language whose script DejaVu lacks
(Japanese) needs a fallback font for the characters DejaVu has not (Latin stays DejaVu):
`FALLBACK_FONTS` lists where to look for it (Debian's fonts-noto-cjk); when none is
installed, the sheet is refused with a message that says what to install, never printed
with empty boxes for the missing characters.
"""

from __future__ import annotations

import importlib.util
import math
from dataclasses import dataclass
from pathlib import Path

from fpdf import FPDF
from fpdf.enums import Align, MethodReturnValue, XPos, YPos

from fivedice.core.errors import N_
from fivedice.sheet.model import (
    COLUMNS_PER_PAGE,
    Paper,
    Row,
    RowKind,
    Sheet,
    SheetColumn,
    SheetError,
)

FONT = "DejaVu"
MARGIN = 10.0
MIN_CELL_PORTRAIT = 12.0  # mm a handwritten three-digit score needs
MIN_CELL_LANDSCAPE = 9.0
MAX_CELL = 24.0
ROW_HEIGHTS = {
    RowKind.SECTION: 5.5,
    RowKind.BOX: 8.0,
    RowKind.SUM: 8.0,
    RowKind.TICKS: 9.0,
    RowKind.GRAND: 9.5,
}
NOTO_CJK = Path("/usr/share/fonts/opentype/noto")


@dataclass(frozen=True)
class FallbackFont:
    """A font for the characters DejaVu lacks: the regular and bold files (an OpenType
    collection holds several fonts: `index` picks the one for the language)."""

    name: str
    regular: Path
    bold: Path
    index: int = 0


# language -> the fonts that may serve it, first found wins; the name goes into the error.
FALLBACK_FONTS: dict[str, tuple[FallbackFont, ...]] = {
    "ja": (
        FallbackFont(
            "Noto Sans CJK JP",
            NOTO_CJK / "NotoSansCJK-Regular.ttc",
            NOTO_CJK / "NotoSansCJK-Bold.ttc",
            0,  # the collection's first font is the Japanese one
        ),
        FallbackFont(
            "Noto Sans CJK JP",
            NOTO_CJK / "NotoSansCJKjp-Regular.otf",
            NOTO_CJK / "NotoSansCJKjp-Bold.otf",
        ),
    ),
}
SHADE_SECTION = (225, 225, 225)
SHADE_SUM = (244, 244, 244)
SHADE_GRAND = (230, 230, 230)
INK_SOFT = (80, 80, 80)


def font_files() -> tuple[Path, Path]:
    """DejaVu Sans and DejaVu Sans Bold, from matplotlib's font directory.

    Raises:
        SheetError: the files are not there (matplotlib missing or changed).
    """
    spec = importlib.util.find_spec("matplotlib")
    locations = list(spec.submodule_search_locations or []) if spec else []
    for location in locations:
        folder = Path(location) / "mpl-data" / "fonts" / "ttf"
        regular, bold = folder / "DejaVuSans.ttf", folder / "DejaVuSans-Bold.ttf"
        if regular.is_file() and bold.is_file():
            return regular, bold
    raise SheetError(
        N_("the score sheet needs the DejaVu Sans font that matplotlib ships; reinstall fivedice")
    )


def fallback_font(language: str) -> FallbackFont | None:
    """The installed font for the characters of `language` DejaVu lacks (None: DejaVu has
    them all).

    Raises:
        SheetError: the language needs a font that is not installed.
    """
    candidates = FALLBACK_FONTS.get(language, ())
    for font in candidates:
        if font.regular.is_file() and font.bold.is_file():
            return font
    if not candidates:
        return None
    raise SheetError(
        N_(
            "a score sheet in this language needs the {font} font, which is not installed "
            "(on Debian and Ubuntu: apt install fonts-noto-cjk)"
        ),
        font=candidates[0].name,
    )


@dataclass(frozen=True)
class _Geometry:
    """Where things go on one page."""

    width: float
    height: float
    label: float
    how: float
    cell: float
    per_page: int
    landscape: bool


def _page_size(paper: Paper) -> tuple[float, float]:
    return (210.0, 297.0) if paper is Paper.A4 else (215.9, 279.4)


def _geometry(sheet: Sheet, paper: Paper, label_width: float) -> _Geometry:
    short, long = _page_size(paper)
    sub = sheet.sub_columns
    groups = min(COLUMNS_PER_PAGE, len(sheet.columns))
    how = 50.0
    room = short - 2 * MARGIN - label_width - how
    landscape = room / (groups * sub) < MIN_CELL_PORTRAIT
    if landscape:
        how = 62.0
        room = long - 2 * MARGIN - label_width - how
        groups = max(1, min(groups, math.floor(room / (sub * MIN_CELL_LANDSCAPE))))
    cell = min(MAX_CELL, room / (groups * sub))
    # Room to spare (few columns): a wider how-to column, so its words need fewer lines.
    how += min(25.0, room - cell * groups * sub)
    width, height = (long, short) if landscape else (short, long)
    return _Geometry(width, height, label_width, how, cell, groups, landscape)


class _Drawer:
    """Draws the pages of one sheet."""

    def __init__(self, sheet: Sheet, paper: Paper) -> None:
        self.sheet = sheet
        regular, bold = font_files()
        pdf = FPDF(unit="mm", format="A4" if paper is Paper.A4 else "Letter")
        pdf.add_font(FONT, "", str(regular))
        pdf.add_font(FONT, "B", str(bold))
        fallback = fallback_font(sheet.language)
        if fallback is not None:
            for style, path in (("", fallback.regular), ("B", fallback.bold)):
                pdf.add_font("fallback", style, str(path), collection_font_number=fallback.index)
            pdf.set_fallback_fonts(["fallback"], exact_match=False)
        pdf.set_auto_page_break(False)
        pdf.set_margins(MARGIN, MARGIN, MARGIN)
        pdf.set_title(f"fivedice · {sheet.title}")
        pdf.set_creator("fivedice")
        pdf.set_lang(sheet.language)
        self.pdf = pdf
        self.page_start = 0  # the index in the whole sheet of the page's first column
        labels = [row.label for row in sheet.rows] + [sheet.headings[0]]
        pdf.set_font(FONT, "B", 8.5)
        widest = max(pdf.get_string_width(label) for label in labels)
        self.geometry = _geometry(sheet, paper, min(44.0, max(30.0, widest + 3.0)))

    # -- text helpers ------------------------------------------------------------------------

    def _fit(self, text: str, width: float, style: str, size: float, smallest: float) -> float:
        """The largest font size (down to `smallest`) at which `text` fits on one line."""
        pdf = self.pdf
        while size > smallest:
            pdf.set_font(FONT, style, size)
            if pdf.get_string_width(text) <= width:
                return size
            size -= 0.5
        pdf.set_font(FONT, style, smallest)
        return smallest

    def _shorten(self, text: str, width: float) -> str:
        """`text` cut with an ellipsis to fit `width` in the current font."""
        pdf = self.pdf
        if pdf.get_string_width(text) <= width:
            return text
        while text and pdf.get_string_width(text + "…") > width:
            text = text[:-1]
        return text + "…"

    def _lines(self, text: str, width: float, line: float) -> list[str]:
        """`text` broken into lines of `width` in the current font."""
        lines = self.pdf.multi_cell(width, line, text, dry_run=True, output=MethodReturnValue.LINES)
        assert isinstance(lines, list)  # what output=LINES returns
        return [str(part) for part in lines]

    def _wrapped(self, text: str, width: float, height: float) -> None:
        """Up to three lines of small text, vertically centred in a box of `height`."""
        pdf = self.pdf
        x, y = pdf.get_x(), pdf.get_y()
        for size in (7.0, 6.5, 6.0, 5.5, 5.0):
            pdf.set_font(FONT, "", size)
            line = size * 0.42
            lines = self._lines(text, width, line)
            if len(lines) * line <= height - 0.6:
                break
        top = y + (height - len(lines) * line) / 2
        for number, part in enumerate(lines):
            pdf.set_xy(x, top + number * line)
            pdf.cell(width, line, part, align=Align.L)

    # -- the page ------------------------------------------------------------------------------

    def draw(self) -> bytes:
        per_page = self.geometry.per_page
        columns = self.sheet.columns
        for start in range(0, len(columns), per_page):
            self.page_start = start
            self._page(columns[start : start + per_page])
        return bytes(self.pdf.output())

    def _page(self, columns: tuple[SheetColumn, ...]) -> None:
        pdf, geo, sheet = self.pdf, self.geometry, self.sheet
        pdf.add_page(orientation="L" if geo.landscape else "P")
        pdf.set_draw_color(0, 0, 0)
        pdf.set_text_color(0, 0, 0)
        # Title and the rule set's name.
        pdf.set_xy(MARGIN, MARGIN)
        pdf.set_font(FONT, "B", 15)
        pdf.cell(0, 7, f"fivedice · {sheet.title}", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        pdf.set_font(FONT, "", 8.5)
        pdf.cell(0, 4.5, sheet.rules_title, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        if sheet.summary:
            pdf.set_font(FONT, "B", 8.5)
            pdf.cell(0, 4.5, sheet.summary, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        top = pdf.get_y() + 2.0
        footer_height = self._footer(dry_run=True)
        header_height = 10.0 + (5.0 if sheet.sub_columns > 1 else 0.0)
        room = geo.height - MARGIN - footer_height - 3.0 - top - header_height
        natural = sum(ROW_HEIGHTS[row.kind] for row in sheet.rows)
        scale = min(1.15, room / natural)
        y = self._header(columns, top, header_height)
        for row in sheet.rows:
            height = ROW_HEIGHTS[row.kind] * scale
            self._row(row, columns, y, height)
            y += height
        self._group_lines(columns, top, y)
        pdf.set_xy(MARGIN, geo.height - MARGIN - footer_height)
        self._footer(dry_run=False)

    def _cell_x(self, group: int, sub: int) -> float:
        geo = self.geometry
        return MARGIN + geo.label + geo.how + (group * self.sheet.sub_columns + sub) * geo.cell

    def _header(self, columns: tuple[SheetColumn, ...], top: float, height: float) -> float:
        pdf, geo, sheet = self.pdf, self.geometry, self.sheet
        group_width = geo.cell * sheet.sub_columns
        name_height = 10.0
        pdf.set_fill_color(*SHADE_SECTION)
        pdf.rect(MARGIN, top, geo.label + geo.how, height, style="DF")
        pdf.set_font(FONT, "B", 8.5)
        pdf.set_xy(MARGIN + 1.0, top)
        pdf.cell(geo.label - 1.0, height, sheet.headings[0])
        pdf.set_xy(MARGIN + geo.label, top)
        pdf.cell(geo.how, height, sheet.headings[1])
        for index, column in enumerate(columns):
            x = self._cell_x(index, 0)
            pdf.rect(x, top, group_width, name_height, style="DF")
            inner = group_width - 1.5
            if column.name:
                size = self._fit(column.name, inner, "B", 10.0, 6.0)
                pdf.set_font(FONT, "B", size)
                name = self._shorten(column.name, inner)
                pdf.set_xy(x, top + (1.0 if column.note else 2.5))
                pdf.cell(group_width, 5.0, name, align=Align.C)
            if column.note:
                pdf.set_font(FONT, "", 7.0)
                pdf.set_xy(x, top + (5.5 if column.name else 2.5))
                pdf.cell(group_width, 4.0, self._shorten(column.note, inner), align=Align.C)
            for sub, heading in enumerate(sheet.sub_headings()):
                sx = self._cell_x(index, sub)
                pdf.rect(sx, top + name_height, geo.cell, height - name_height, style="DF")
                pdf.set_font(FONT, "B", 8.0)
                pdf.set_xy(sx, top + name_height)
                pdf.cell(geo.cell, height - name_height, heading, align=Align.C)
        return top + height

    def _row(self, row: Row, columns: tuple[SheetColumn, ...], y: float, height: float) -> None:
        pdf, geo, sheet = self.pdf, self.geometry, self.sheet
        total_width = geo.label + geo.how + len(columns) * sheet.sub_columns * geo.cell
        if row.kind is RowKind.SECTION:
            pdf.set_fill_color(*SHADE_SECTION)
            pdf.rect(MARGIN, y, total_width, height, style="DF")
            pdf.set_font(FONT, "B", 8.5)
            pdf.set_xy(MARGIN + 1.0, y)
            pdf.cell(total_width - 2.0, height, row.label.upper())
            return
        shade = {RowKind.SUM: SHADE_SUM, RowKind.GRAND: SHADE_GRAND, RowKind.TICKS: SHADE_SUM}
        if row.kind in shade:
            pdf.set_fill_color(*shade[row.kind])
            pdf.rect(MARGIN, y, geo.label + geo.how, height, style="DF")
        else:
            pdf.rect(MARGIN, y, geo.label + geo.how, height)
        pdf.line(MARGIN + geo.label, y, MARGIN + geo.label, y + height)
        style = "B" if row.kind is not RowKind.SUM else ""
        size = self._fit(
            row.label, geo.label - 2.0, "B", 9.5 if row.kind is RowKind.GRAND else 8.5, 6.0
        )
        pdf.set_font(FONT, style, size)
        pdf.set_xy(MARGIN + 1.0, y)
        pdf.cell(geo.label - 2.0, height, self._shorten(row.label, geo.label - 2.0))
        pdf.set_text_color(*INK_SOFT)
        pdf.set_xy(MARGIN + geo.label + 1.0, y)
        self._wrapped(row.how, geo.how - 2.0, height)
        pdf.set_text_color(0, 0, 0)
        for index in range(len(columns)):
            self._cells(row, index, y, height)

    def _cells(self, row: Row, index: int, y: float, height: float) -> None:
        """The cells of sheet column `index` of this page in one row."""
        pdf, geo, sheet = self.pdf, self.geometry, self.sheet
        position = self.page_start + index  # the column's index in the whole sheet
        texts = row.cells[position] if position < len(row.cells) else ()
        if row.kind is RowKind.GRAND:
            x = self._cell_x(index, 0)
            width = geo.cell * sheet.sub_columns
            pdf.rect(x, y, width, height)
            pdf.set_font(FONT, "B", 11.0)
            pdf.set_xy(x, y)
            pdf.cell(width, height, texts[0] if texts else "", align=Align.C)
            return
        for sub in range(sheet.sub_columns):
            x = self._cell_x(index, sub)
            text = texts[sub] if sub < len(texts) else ""
            pdf.rect(x, y, geo.cell, height)
            if row.kind is RowKind.TICKS:
                ticks = row.ticks[position][sub] if position < len(row.ticks) else 0
                self._ticks(x, y, height, ticks, text)
                continue
            if text:
                pdf.set_font(FONT, "B" if row.kind is RowKind.SUM else "", 10.0)
                pdf.set_xy(x, y)
                pdf.cell(geo.cell, height, text, align=Align.C)

    def _ticks(self, x: float, y: float, height: float, ticks: int, text: str) -> None:
        """Small squares to tick, one per extra Yahtzee, and the bonus points they earn."""
        pdf, geo = self.pdf, self.geometry
        side = min(2.6, height / 3)
        room = geo.cell - 1.6
        fits = max(1, math.floor((room + 0.6) / (side + 0.6)))
        squares = min(fits, max(3, ticks))
        for number in range(squares):
            sx = x + 0.8 + number * (side + 0.6)
            pdf.rect(sx, y + 0.8, side, side)
            if number < ticks:
                pdf.set_font(FONT, "B", side * 2.6)
                pdf.set_xy(sx, y + 0.8)
                pdf.cell(side, side, "✓", align=Align.C)
        if ticks > squares:
            pdf.set_font(FONT, "", 6.0)
            pdf.set_xy(x, y + 0.6)
            pdf.cell(geo.cell - 0.8, side, f"×{ticks}", align=Align.R)
        if text:
            pdf.set_font(FONT, "", 9.0)
            pdf.set_xy(x, y + side + 1.0)
            pdf.cell(geo.cell - 0.8, height - side - 1.0, text, align=Align.R)

    def _group_lines(self, columns: tuple[SheetColumn, ...], top: float, bottom: float) -> None:
        """Heavier lines between the games or players when each has several columns."""
        pdf, sheet = self.pdf, self.sheet
        if sheet.sub_columns == 1:
            return
        pdf.set_line_width(0.6)
        for index in range(len(columns) + 1):
            x = self._cell_x(index, 0)
            pdf.line(x, top, x, bottom)
        pdf.set_line_width(0.2)

    def _footer(self, *, dry_run: bool) -> float:
        """The rules in words at the foot of the page (two columns in landscape).

        Returns its height; draws it from the current position unless `dry_run`.
        """
        pdf, geo, sheet = self.pdf, self.geometry, self.sheet
        halves = 2 if geo.landscape else 1
        gap = 6.0
        width = (geo.width - 2 * MARGIN - gap * (halves - 1)) / halves
        line = 2.9
        # A no-break space keeps the bullet with its text: a line without spaces (Japanese)
        # would otherwise leave the bullet alone on a line of its own.
        parts = [(sheet.rules_title, "B")] + [(f"•\u00a0{text}", "") for text in sheet.rules_lines]
        blocks: list[tuple[str, list[str]]] = []
        for text, style in parts:
            pdf.set_font(FONT, style, 7.0 if style else 6.5)
            lines = self._lines(text, width, line)
            blocks.append((style, lines))
        total = sum(len(lines) for _style, lines in blocks)
        limit = math.ceil(total / halves)
        top = pdf.get_y()
        used = [0] * halves  # lines per column; a block never splits
        column = 0
        for style, lines in blocks:
            if used[column] and used[column] + len(lines) > limit and column + 1 < halves:
                column += 1
            if not dry_run:
                pdf.set_font(FONT, style, 7.0 if style else 6.5)
                for number, part in enumerate(lines):
                    pdf.set_xy(
                        MARGIN + column * (width + gap), top + (used[column] + number) * line
                    )
                    pdf.cell(width, line, part)
            used[column] += len(lines)
        return max(used) * line


def render_pdf(sheet: Sheet, paper: Paper = Paper.A4) -> bytes:
    """The sheet as the bytes of a PDF file.

    Raises:
        SheetError: the font is missing.
    """
    drawer = _Drawer(sheet, paper)
    return drawer.draw()
