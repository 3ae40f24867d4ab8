"""The tutorial pages in a real browser (Debian's chromium) at phone width: a lesson played
by clicks, the page never scrolls sideways; screenshots go to test-artifacts/."""

from __future__ import annotations

import pytest

from tests.web.browser.support import ARTIFACTS

pytest.importorskip("playwright.sync_api")


@pytest.mark.parametrize("language", ["en", "nl", "ja"])
def test_a_lesson_by_clicks_at_360_px(sheet_server, browser, language):
    page = browser.new_page(viewport={"width": 360, "height": 800})
    try:
        page.goto(f"{sheet_server}/lang/{language}?next=/")
        page.click("#learn")
        page.wait_for_selector("#play-scoring")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        page.screenshot(path=str(ARTIFACTS / f"tutorial-list-{language}.png"), full_page=True)
        page.click("#play-scoring")
        page.wait_for_selector("#box-threes")  # the full house is on the table, no rolls left
        assert page.locator("#lesson-how").inner_text()
        page.click("#box-threes")  # not what the lesson asks: explained, not scored
        page.wait_for_selector(".feedback.explain")
        assert page.locator("#box-threes").count() == 1
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        page.screenshot(path=str(ARTIFACTS / f"tutorial-lesson-{language}.png"), full_page=True)
        page.click("#box-full_house")
        page.wait_for_selector(".feedback.ok")
        page.click("#roll")
        page.screenshot(path=str(ARTIFACTS / f"tutorial-hold-{language}.png"), full_page=True)
        for position in (1, 2, 3, 4):
            page.click(f"#die-{position}")
        assert page.locator(".die.held").count() == 4
        page.click("#roll")
        page.click("#box-large_straight")
        page.wait_for_selector("#next-lesson")
        page.click("#all-lessons")
        state = page.locator("#lesson-scoring .lesson-state").inner_text()
        assert state in ("(done)", "(klaar)", "(完了)")
    finally:
        page.close()
