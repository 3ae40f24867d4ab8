"""The score sheet page in a real browser (Debian's chromium): a phone and a desktop width,
and what the browser prints (only the sheet, one page for six columns).

Screenshots and the printed PDF go to `test-artifacts/` (git-ignored) for a person to look at.
"""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from tests.web.browser.support import ARTIFACTS

pytest.importorskip("playwright.sync_api")


@pytest.mark.parametrize("width", [360, 1280])
def test_the_sheet_page_at_phone_and_desktop_width(sheet_server, browser, width):
    page = browser.new_page(viewport={"width": width, "height": 900})
    try:
        page.goto(f"{sheet_server}/sheet?players=Ann,Bob,Cleo&lang=de")
        page.wait_for_selector("table.sheet")
        # The page itself never scrolls sideways; a wide sheet scrolls inside its frame.
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert page.locator("#print-sheet").is_visible()  # the script offers Print
        page.screenshot(path=str(ARTIFACTS / f"sheet-page-{width}.png"), full_page=True)
        names = page.locator("table.sheet thead th.name").all_inner_texts()
        assert [name.strip() for name in names] == ["Ann", "Bob", "Cleo"]
    finally:
        page.close()


def test_printing_shows_only_the_sheet_on_one_page(sheet_server, browser):
    page = browser.new_page()
    try:
        page.goto(f"{sheet_server}/sheet?columns=6")
        page.wait_for_selector("table.sheet")
        printed = page.pdf(prefer_css_page_size=True)
    finally:
        page.close()
    (ARTIFACTS / "sheet-page-printed.pdf").write_bytes(printed)
    reader = PdfReader(io.BytesIO(printed))
    assert len(reader.pages) == 1
    text = reader.pages[0].extract_text()
    assert "Grand total" in text and "Game 6" in text
    assert "Download PDF" not in text and "New game" not in text  # form and menu not printed
    width = float(reader.pages[0].mediabox.width)
    assert round(width / 72 * 25.4) == 210  # A4, from the print stylesheet
