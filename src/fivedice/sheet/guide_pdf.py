"""The strategy guide as a printable PDF (fpdf2): the guide's words (`wording.guide.GuideText`)
on one or two pages, with the score sheet's fonts (DejaVu Sans, and the Japanese fallback
font where the language needs it: `sheet.pdf.fallback_font`).
"""

from __future__ import annotations

from fpdf import FPDF
from fpdf.enums import WrapMode, XPos, YPos

from fivedice.i18n import current_language
from fivedice.sheet.model import Paper
from fivedice.sheet.pdf import FONT, fallback_font, font_files
from fivedice.wording.guide import GuideLine, GuideText

__all__ = ["render_guide_pdf"]

MARGIN = 14.0
# Japanese has no spaces between words: its lines break between any two characters.
CHARACTER_WRAP = frozenset({"ja"})
NUMBER_WIDTH = 8.0
WORTH_WIDTH = 38.0


def render_guide_pdf(text: GuideText, paper: Paper = Paper.A4) -> bytes:
    """The guide as PDF bytes, in the language it was put into words in.

    Raises:
        SheetError: the language needs a font that is not installed.
    """
    language = current_language()
    pdf = FPDF(unit="mm", format="A4" if paper is Paper.A4 else "Letter")
    regular, bold = font_files()
    pdf.add_font(FONT, "", str(regular))
    pdf.add_font(FONT, "B", str(bold))
    fallback = fallback_font(language)
    if fallback is not None:
        for style, path in (("", fallback.regular), ("B", fallback.bold)):
            pdf.add_font("fallback", style, str(path), collection_font_number=fallback.index)
        pdf.set_fallback_fonts(["fallback"], exact_match=False)
    pdf.set_margins(MARGIN, MARGIN, MARGIN)
    pdf.set_auto_page_break(True, MARGIN)
    pdf.set_title(f"fivedice · {text.title}")
    pdf.set_creator("fivedice")
    pdf.set_lang(language)
    pdf.add_page()
    wrap = WrapMode.CHAR if language in CHARACTER_WRAP else WrapMode.WORD
    width = pdf.w - 2 * MARGIN
    pdf.set_font(FONT, "B", 16)
    pdf.cell(width, 9, text.title, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_font(FONT, "", 8.5)
    pdf.multi_cell(
        width, 4.2, text.summary, align="L", wrapmode=wrap, new_x=XPos.LMARGIN, new_y=YPos.NEXT
    )
    pdf.multi_cell(
        width, 4.2, text.worth_note, align="L", wrapmode=wrap, new_x=XPos.LMARGIN, new_y=YPos.NEXT
    )
    _section(pdf, text.box_heading, None, text.box_lines, width, wrap)
    _section(pdf, text.keep_heading, text.keep_intro, text.keep_lines, width, wrap)
    return bytes(pdf.output())


def _section(
    pdf: FPDF,
    heading: str,
    intro: str | None,
    lines: tuple[GuideLine, ...],
    width: float,
    wrap: WrapMode,
) -> None:
    pdf.ln(2.5)
    pdf.set_font(FONT, "B", 11.5)
    pdf.cell(width, 7, heading, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    if intro:
        pdf.set_font(FONT, "", 8.5)
        pdf.multi_cell(
            width, 4.2, intro, align="L", wrapmode=wrap, new_x=XPos.LMARGIN, new_y=YPos.NEXT
        )
        pdf.ln(1)
    text_width = width - NUMBER_WIDTH - WORTH_WIDTH
    for line in lines:
        pdf.set_font(FONT, "", 8.5)
        wrapped = pdf.multi_cell(
            text_width, 4.2, line.text, align="L", wrapmode=wrap, dry_run=True, output="LINES"
        )
        lines_needed = len(wrapped) if isinstance(wrapped, list) else 1
        height = 4.2 * lines_needed + 1.0
        if pdf.get_y() + height > pdf.h - MARGIN:
            pdf.add_page()
        top = pdf.get_y()
        pdf.set_font(FONT, "B", 8.5)
        pdf.cell(NUMBER_WIDTH, 4.2, f"{line.number}.")
        pdf.set_font(FONT, "", 8.5)
        pdf.multi_cell(
            text_width, 4.2, line.text, align="L", wrapmode=wrap, new_x=XPos.RIGHT, new_y=YPos.TOP
        )
        worth = line.worth_text()
        if worth:
            pdf.set_font(FONT, "", 7.5)
            pdf.set_text_color(90, 90, 90)
            pdf.multi_cell(WORTH_WIDTH, 4.2, worth, align="R", wrapmode=wrap)
            pdf.set_text_color(0, 0, 0)
        pdf.set_xy(pdf.l_margin, top + height)
        for item in line.items:  # the rule's own lines (the pars), unnumbered, indented
            if pdf.get_y() + 4.2 > pdf.h - MARGIN:
                pdf.add_page()
            pdf.set_x(pdf.l_margin + NUMBER_WIDTH + 4)
            pdf.multi_cell(text_width - 4, 4.2, item, align="L", wrapmode=wrap)
            top, height = pdf.get_y(), 0.0
        pdf.set_draw_color(225, 225, 225)
        pdf.line(pdf.l_margin, top + height - 0.5, pdf.l_margin + width, top + height - 0.5)
