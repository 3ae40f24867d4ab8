"""Every page laid out so that a person can read it, at 360 px (a phone) and 1280 px, in
English and Japanese (a tutorial lesson with a wrong move explained among them): no sideways
scrolling, no word wider than its column, no sentence squeezed into a column a few words
wide, no two controls on top of each other, no sticky or fixed bar over a control once the
page is scrolled to its end (what a bar hides while scrolling comes out from under it
there)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.web.browser.support import start_game

pytest.importorskip("playwright.sync_api")

PAGES = ["/", "/rules", "/stats", "/highscores", "/resume", "/sheet", "/guide", "/tutorial"]
SIZES = [(360, 740), (1280, 800)]

PROBLEMS = (Path(__file__).parent / "readable_layout.js").read_text(encoding="utf-8")
"""The script that lists what keeps the page shown from being read."""


def problems_of(page, wide: bool) -> list[str]:
    """What is wrong with the page scrolled to its end; on a wide screen at its top too (no
    bar needs to stay over the content where everything fits beside it)."""
    found = []
    if wide:
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(50)
        found += page.evaluate(PROBLEMS)
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_timeout(50)
    return sorted(set(found + page.evaluate(PROBLEMS)))


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("size", SIZES, ids=["phone", "desktop"])
def test_every_page_can_be_read(browser, server, language, size):
    width, height = size
    context = browser.new_context(
        viewport={"width": width, "height": height}, has_touch=width < 500, locale=language
    )
    page = context.new_page()
    page.goto(f"{server}/lang/{language}?next=/")
    found = {}
    for path in PAGES:
        page.goto(server + path)
        said = problems_of(page, width >= 700)
        if said:
            found[path] = said
    # A lesson with a wrong move's explanation over its words, and the card beside them.
    page.goto(server + "/tutorial")
    page.click("#play-scoring")
    page.click("#box-threes")
    page.wait_for_selector(".feedback.explain")
    said = problems_of(page, width >= 700)
    if said:
        found["a lesson"] = said
    start_game(page, server)
    page.keyboard.press("r")
    page.wait_for_timeout(300)
    said = problems_of(page, width >= 700)
    if said:
        found["the game"] = said
    context.close()
    assert not found, found
