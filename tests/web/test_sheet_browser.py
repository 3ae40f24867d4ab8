"""The score sheet page in a real browser (Debian's chromium): a phone and a desktop width,
and what the browser prints (only the sheet, one page for six columns).

Screenshots and the printed PDF go to `test-artifacts/` (git-ignored) for a person to look at.
"""

from __future__ import annotations

import io
import os
import shutil
import threading
import time

import pytest
from pypdf import PdfReader

from fivedice.service.games import GameService
from tests.web.conftest import SECRET
from tests.web.test_browser import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, _free_port

playwright_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

pytestmark = pytest.mark.skipif(
    shutil.which(CHROMIUM) is None and not os.environ.get("CI"),
    reason=f"{CHROMIUM} is missing (scripts/system-deps.sh installs it)",
)


@pytest.fixture(scope="module")
def sheet_server(tmp_path_factory):
    from fivedice.web import create_app

    service = GameService.open(f"sqlite:///{tmp_path_factory.mktemp('sheet') / 'web.sqlite3'}")
    port = _free_port()
    instance = uvicorn.Server(
        uvicorn.Config(
            create_app(service, SECRET), host="127.0.0.1", port=port, log_level="warning"
        )
    )
    thread = threading.Thread(target=instance.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not instance.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    instance.should_exit = True
    thread.join(timeout=10)
    service.store.close()


@pytest.fixture(scope="module")
def chromium():
    ARTIFACTS.mkdir(exist_ok=True)
    with playwright_api.sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield instance
        instance.close()


@pytest.mark.parametrize("width", [360, 1280])
def test_the_sheet_page_at_phone_and_desktop_width(sheet_server, chromium, width):
    page = chromium.new_page(viewport={"width": width, "height": 900})
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


def test_printing_shows_only_the_sheet_on_one_page(sheet_server, chromium):
    page = chromium.new_page()
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
