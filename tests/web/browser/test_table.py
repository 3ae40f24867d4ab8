"""At the table on a 360 px phone in a real browser (Playwright + Debian's chromium).

Screenshots go to `test-artifacts/` (git-ignored) for a person to look at: English and Dutch.
"""

from __future__ import annotations

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
    for face in "33355":  # the fifth tap sends the dice
        page.tap(f"button[data-face='{face}']")
    page.wait_for_selector(".box-choices")
    assert page.locator("button.box-choice[value=full_house] strong").inner_text() == "25"
    fits_the_phone(page)
    for selector in ("#dice", "button.box-choice >> nth=0", "#undo"):
        box = page.locator(selector).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360, selector
    shot(page, "11-table-phone-english")
    page.tap("button.box-choice[value=full_house]")
    page.wait_for_selector("text=Bob, what did you roll?")
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
    assert "Cy, wat heb je gegooid?" in page.content()
    assert "Aan tafel" in page.content()
    fits_the_phone(page)
    shot(page, "12-table-phone-dutch")
    page.tap("#undo")
    page.wait_for_selector("text=Cy, wat heb je gegooid?")
    assert page.locator(".box-choices").count() == 0  # the dice entry is taken back
    context.close()
