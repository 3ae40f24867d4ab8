"""The tutorial pages in a real browser (Debian's chromium) at phone width: a lesson played
by clicks, the page never scrolls sideways; screenshots go to test-artifacts/."""

from __future__ import annotations

import os
import shutil

import pytest

from tests.web.test_browser import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS
from tests.web.test_sheet_browser import sheet_server as server  # noqa: F401 (a fixture)

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.skipif(
    shutil.which(CHROMIUM) is None and not os.environ.get("CI"),
    reason=f"{CHROMIUM} is missing (scripts/system-deps.sh installs it)",
)


@pytest.fixture(scope="module")
def chromium():
    ARTIFACTS.mkdir(exist_ok=True)
    with playwright_api.sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield instance
        instance.close()


@pytest.mark.parametrize("language", ["en", "nl"])
def test_a_lesson_by_clicks_at_360_px(server, chromium, language):  # noqa: F811
    page = chromium.new_page(viewport={"width": 360, "height": 800})
    try:
        page.goto(f"{server}/lang/{language}?next=/")
        page.click("#learn")
        page.wait_for_selector("#play-scoring")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        page.screenshot(path=str(ARTIFACTS / f"tutorial-list-{language}.png"), full_page=True)
        page.click("#play-scoring")
        page.click("#roll")
        page.wait_for_selector("#box-threes")
        page.click("#box-threes")  # not what the lesson asks: explained, not scored
        page.wait_for_selector(".feedback.explain")
        assert page.locator("#box-threes").count() == 1
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        page.screenshot(path=str(ARTIFACTS / f"tutorial-lesson-{language}.png"), full_page=True)
        page.click("#box-full_house")
        page.wait_for_selector(".feedback.ok")
        page.click("#roll")
        for position in (1, 2, 3, 4):
            page.click(f"#die-{position}")
        assert page.locator(".die.held").count() == 4
        page.click("#roll")
        page.click("#box-large_straight")
        page.wait_for_selector("#next-lesson")
        page.click("#all-lessons")
        assert page.locator("#lesson-scoring .lesson-state").inner_text() in ("(done)", "(klaar)")
    finally:
        page.close()
