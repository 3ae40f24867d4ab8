"""On a phone the coach sits next to the dice: after Hint its answer starts above the score
card and within the first screen, so a player reads it without scrolling away from the dice
(a wide screen keeps the card on the right, the coach under the dice)."""

from __future__ import annotations

import pytest

from tests.web.browser.support import shot, start_game

pytest.importorskip("playwright.sync_api")

TOP = "selector => document.querySelector(selector).getBoundingClientRect().top"


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("size", [(360, 740), (1280, 800)], ids=["phone", "desktop"])
def test_the_coachs_answer_is_next_to_the_dice(browser, server, language, size):
    width, height = size
    context = browser.new_context(
        viewport={"width": width, "height": height}, has_touch=width < 500, locale=language
    )
    page = context.new_page()
    try:
        page.goto(f"{server}/lang/{language}?next=/")
        start_game(page, server)
        page.click("#roll")
        page.wait_for_selector("#hint")
        page.click("#hint")
        page.wait_for_selector("section.hint", timeout=60_000)
        page.evaluate("window.scrollTo(0, 0)")
        coach, card = page.evaluate(TOP, "section.hint"), page.evaluate(TOP, ".b-card")
        dice = page.evaluate(TOP, "#dice")
        assert dice < coach < height  # under the dice, within the first screen
        if width < 900:
            assert coach < card  # above the card, not below it
        shot(page, f"phone-coach-{language}-{width}")
    finally:
        context.close()
