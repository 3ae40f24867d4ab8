"""End to end in a real browser (Debian's chromium driven by Playwright): a full seeded game
against a CPU with a hint, a reload mid-game, Dutch, and the phone layout.

Screenshots of the main pages go to `test-artifacts/` (git-ignored) for a person to look at.
"""

from __future__ import annotations

import pytest

from tests.web.browser.support import (
    board_state,
    press,
    score_a_box,
    shot,
    start_game,
    version,
    wait_for_turn,
    wait_moved,
)

pytest.importorskip("playwright.sync_api")


def play_turn(page, *, hint=False):
    press(page, "r")
    if hint:
        page.keyboard.press("h")
        page.wait_for_selector(".hint li")
    die = page.locator("#die-1")
    assert die.get_attribute("aria-pressed") == "false"
    press(page, "1")  # hold die 1 by key
    assert page.locator("#die-1").get_attribute("aria-pressed") == "true"
    assert "held" in page.locator("#die-1").get_attribute("aria-label")
    press(page, "r")
    buttons = page.locator("td.legal button")
    points = [int(text) for text in buttons.all_inner_texts()]
    best = points.index(max(points))
    before = version(page)
    score_a_box(page, buttons.nth(best))
    wait_moved(page, before)


def test_full_game_against_a_cpu_with_hint_reload_and_dutch(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    page = context.new_page()
    page.goto(server + "/")
    shot(page, "01-new-game-desktop")
    start_game(page, server)
    assert page.locator("#die-1").get_attribute("aria-label") == "Die 1: not rolled yet"
    turns = 0
    while board_state(page) != "over":
        wait_for_turn(page)
        if board_state(page) == "over":
            break
        play_turn(page, hint=turns == 0)
        turns += 1
        if turns == 1:
            wait_for_turn(page)
            shot(page, "02-game-desktop")
        if turns == 5:
            wait_for_turn(page)
            seen = page.locator("table.card").inner_text()
            at = version(page)
            page.reload()
            page.wait_for_selector("#board")
            assert version(page) == at and page.locator("table.card").inner_text() == seen
        wait_for_turn(page)
    assert turns == 13
    assert page.locator("#standings-h").is_visible()
    ranks = page.locator(".standings tbody td:first-child").all_inner_texts()
    assert sorted(ranks) == ranks and ranks[0] == "1"
    shot(page, "03-game-over-desktop")
    page.click("a[hreflang=nl]")
    page.wait_for_selector("html[lang=nl]")
    assert "Kans" in page.locator("table.card").inner_text()
    assert "Stand" in page.content() or "Klassement" in page.content()
    shot(page, "04-game-over-dutch")
    for path, name in (
        ("/rules", "05-rules"),
        ("/stats", "06-stats"),
        ("/highscores", "07-highscores"),
    ):
        page.goto(server + path)
        shot(page, name)
    context.close()


def test_phone_layout(browser, server):
    context = browser.new_context(
        viewport={"width": 360, "height": 740},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale="de-DE",
    )
    page = context.new_page()
    page.goto(server + "/")
    assert page.locator("html").get_attribute("lang") == "de"  # from Accept-Language
    shot(page, "08-new-game-phone-german")
    start_game(page, server, seed="4")
    before = version(page)
    page.tap("#roll")
    wait_moved(page, before)
    before = version(page)
    page.tap("#die-3")
    wait_moved(page, before)
    assert page.locator("#die-3").get_attribute("aria-pressed") == "true"
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width} px wide on a 360 px phone"
    for selector in ("#roll", "#die-5", "td.legal button >> nth=0"):
        box = page.locator(selector).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360, selector
    shot(page, "09-game-phone")
    context.close()


def test_the_server_plays_the_cpu_and_the_page_only_watches(browser, served):
    base, _app = served
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    steps = []
    page.on(
        "request", lambda request: steps.append(request) if request.url.endswith("/cpu") else None
    )
    start_game(page, base, seed="8")
    press(page, "r")
    before = version(page)
    score_a_box(page)
    wait_moved(page, before)
    wait_for_turn(page)  # the CPU's whole turn arrives through the event stream
    assert version(page) > before + 2
    assert steps == []  # the page never asks for a CPU step
    page.close()
