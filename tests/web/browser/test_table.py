"""At the table on a 360 px phone in a real browser (Playwright + Debian's chromium).

Screenshots go to `test-artifacts/` (git-ignored) for a person to look at: English and Dutch.
"""

from __future__ import annotations

import pytest

from tests.web.browser.support import shot

PHONE = {
    "viewport": {"width": 360, "height": 740},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}


def fits_the_phone(page):
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width} px wide on a 360 px phone"


def boxes_above_the_fold(page):
    """Every box to pick is on the first screen, without scrolling (the page at its top)."""
    page.evaluate("() => window.scrollTo(0, 0)")
    height = page.viewport_size["height"]
    for index in range(page.locator("button.box-choice").count()):
        box = page.locator("button.box-choice").nth(index).bounding_box()
        assert box and box["y"] + box["height"] <= height, f"box {index} is below the fold"


def test_a_table_game_on_a_phone_in_english_and_dutch(browser, server):
    context = browser.new_context(locale="en-GB", **PHONE)
    page = context.new_page()
    page.goto(server + "/")
    page.tap("a[href='/table']")
    page.fill("#name0", "Ann")
    page.fill("#name1", "Bob")
    page.fill("#name2", "Cy")
    fits_the_phone(page)
    shot(page, "10-table-new-phone-english")
    page.tap("#start")
    page.wait_for_selector("[data-pad]:not([hidden])")  # table.js shows the face pad
    box = page.locator("#dice").bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360
    for face in "33355":  # the fifth tap sends the dice
        page.tap(f"button[data-face='{face}']")
    page.wait_for_selector(".box-choices")
    assert page.locator("button.box-choice[value=full_house] strong").inner_text() == "25"
    assert page.locator("#turn-h").inner_text().startswith("Ann, pick a box")
    fits_the_phone(page)
    for selector in ("button.box-choice >> nth=0", "#undo"):
        box = page.locator(selector).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360, selector
    boxes_above_the_fold(page)
    shot(page, "11-table-phone-english")
    page.tap("button.box-choice[value=full_house]")
    page.wait_for_selector("text=Bob, what did you roll?")
    assert page.locator("#scored").inner_text() == "Ann: 25 in Full house (total 25)"
    page.click(".points-entry summary")
    page.select_option("#points-box", "chance")
    page.fill("#points", "22")
    page.tap("#enter-points")
    page.wait_for_selector("text=Cy, what did you roll?")
    page.fill("#dice", "22222")
    page.tap("#enter-dice")
    page.wait_for_selector(".box-choices")
    page.tap("a[hreflang=nl]")
    page.wait_for_selector("html[lang=nl]")
    assert "Cy, kies een vak" in page.content()  # the dice are in: a box is asked
    assert "Aan tafel" in page.content()
    fits_the_phone(page)
    shot(page, "12-table-phone-dutch")
    page.tap("#undo")
    page.wait_for_selector("text=Cy, wat heb je gegooid?")
    assert page.locator(".box-choices").count() == 0  # the dice entry is taken back
    context.close()


@pytest.mark.parametrize(
    ("size", "language", "name"),
    [
        ((360, 740), "en", "13-table-zero-phone-english"),
        ((360, 740), "ja", "14-table-zero-phone-japanese"),
        ((1280, 800), "fr", "15-table-zero-desktop-french"),
        ((1280, 800), "en", "16-table-zero-desktop-english"),
    ],
)
def test_a_0_asks_first_and_the_sheet_is_a_tap_away(browser, server, size, language, name):
    width, height = size
    phone = PHONE if width < 700 else {}
    context = browser.new_context(**{**phone, "viewport": {"width": width, "height": height}})
    page = context.new_page()
    page.goto(f"{server}/lang/{language}?next=/table")
    page.wait_for_selector(f"html[lang={language}]")
    page.fill("#name0", "Ann")
    page.fill("#name1", "Bob")
    page.click("#start")
    page.fill("#dice", "12346")
    page.click("#enter-dice")
    page.wait_for_selector(".box-choices")
    boxes_above_the_fold(page)
    page.click("button.box-choice[value=yahtzee]")
    page.wait_for_selector("#confirm-zero")
    question = page.locator("#zero-q").bounding_box()
    assert question and question["y"] + question["height"] <= height
    assert page.locator(".box-choices").count() == 0
    shot(page, name)
    page.click("#zero-yes")
    page.wait_for_selector("#scored")
    assert "0" in page.locator("#scored").inner_text()
    shot(page, f"{name}-scored")
    page.click("#sheet-link")
    page.wait_for_url("**/sheet")
    assert "Ann" in page.content() and "Bob" in page.content()
    context.close()


@pytest.mark.slow
def test_axe_finds_nothing_serious_at_each_step_of_a_turn(browser, server):
    """The boxes to pick, the question before a 0 and the line after a score, on a phone."""
    axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")
    axe = axe_module.Axe()
    context = browser.new_context(locale="en-GB", **PHONE)
    page = context.new_page()
    problems: list[str] = []

    def look(name):
        page.wait_for_load_state()
        for violation in axe.run(page).response["violations"]:
            if violation["impact"] in ("serious", "critical"):
                problems.append(f"{name}: {violation['id']}: {violation['help']}")

    page.goto(server + "/table")
    page.fill("#name0", "Ann")
    page.fill("#name1", "Bob")
    page.tap("#start")
    page.fill("#dice", "12346")
    page.tap("#enter-dice")
    page.wait_for_selector(".box-choices")
    look("pick a box")
    page.tap("button.box-choice[value=yahtzee]")
    page.wait_for_selector("#confirm-zero")
    look("score 0?")
    page.tap("#zero-yes")
    page.wait_for_selector("#scored")
    look("scored")
    context.close()
    assert not problems, "\n".join(problems)
