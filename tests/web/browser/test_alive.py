"""The board feels alive, in a real browser: a roll moves (not under reduced motion), the
sound toggle is remembered, a Yahtzee is celebrated, each seat has one colour on the bar and
the card, the chances add up to 100, invitations copy, and the site works offline.

Screenshots at 360 and 1280 px, in English and Japanese, go to test-artifacts/ (alive-*).
"""

from __future__ import annotations

import re

import pytest

from tests.web.browser.support import (
    board_state,
    press,
    score_a_box,
    shot,
    version,
    wait_for_turn,
    wait_moved,
)

pytest.importorskip("playwright.sync_api")

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}


def start_three_seats(page, base, seed="5"):
    """Ann against two casual CPUs, seeded."""
    page.goto(base + "/")
    page.fill("#name0", "Ann")
    for seat in (1, 2):
        page.select_option(f"#kind{seat}", "cpu")
        page.select_option(f"#level{seat}", "casual")
    page.fill("#seed", seed)
    page.click("#start")
    page.wait_for_selector("#board")


def wait_for_chances(page):
    """Until the board shows its chances bar (the rules' tables are made in the background
    the first time: the bar comes on a later page)."""
    for _ in range(60):
        if page.locator("svg.chance-bar rect").count():
            return
        page.wait_for_timeout(1000)
        page.reload()
        page.wait_for_selector("#board")
    raise AssertionError("no chances bar")


def shown_percents(page):
    label = page.locator("svg.chance-bar").get_attribute("aria-label")
    return [int(p) for p in re.findall(r"(\d+)\s?%", label)]


def die_looks(page):
    """Each die's classes and its face's running animation."""
    return page.evaluate(
        """() => Array.from(document.querySelectorAll('#dice .die')).map(die => ({
            classes: die.className,
            animation: getComputedStyle(die.querySelector('svg')).animationName,
        }))"""
    )


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_roll_shakes_the_dice_unless_motion_is_reduced(browser, server, motion):
    context = browser.new_context(viewport=DESKTOP, reduced_motion=motion)
    page = context.new_page()
    start_three_seats(page, server)
    wait_for_turn(page)
    press(page, "r")
    looks = die_looks(page)
    assert all("changed" in die["classes"] for die in looks)  # the first roll: all new
    if motion == "reduce":
        assert not any("rolling" in die["classes"] for die in looks)
        assert {die["animation"] for die in looks} == {"none"}
    else:
        assert all("rolling" in die["classes"] for die in looks)
        assert {die["animation"] for die in looks} == {"fivedice-roll"}
    # Hold die 1 and roll again: the held die neither shakes nor is marked as changed.
    press(page, "1")
    assert not any("rolling" in die["classes"] for die in die_looks(page))  # a hold: no roll
    press(page, "r")
    held = die_looks(page)[0]
    assert "rolling" not in held["classes"] and "changed" not in held["classes"]
    assert any("rolling" in d["classes"] for d in die_looks(page)[1:]) == (motion != "reduce")
    context.close()


def test_sound_is_off_until_turned_on_and_the_choice_survives_a_reload(browser, server):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    start_three_seats(page, server, seed="6")
    toggle = page.locator("#sound-toggle")
    assert toggle.get_attribute("aria-pressed") == "false"
    assert toggle.inner_text() == "Sound and vibration: off"
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    page.reload()
    page.wait_for_selector("#sound-toggle")
    assert page.locator("#sound-toggle").get_attribute("aria-pressed") == "true"
    assert page.evaluate("() => localStorage.getItem('fivedice.sound')") == "on"
    page.locator("#sound-toggle").click()
    page.reload()
    page.wait_for_selector("#sound-toggle")
    assert page.locator("#sound-toggle").get_attribute("aria-pressed") == "false"
    context.close()


# navigator.vibrate, recorded (the beeps go with it: both come from `signal` in alive.js).
RECORD_BUZZES = (
    "navigator.vibrate = p => { (window.buzzes = window.buzzes || []).push(p); return true; };"
)


@pytest.mark.parametrize("sound", [True, False])
def test_the_turn_coming_back_buzzes_only_with_sound_on(browser, server, sound):
    context = browser.new_context(viewport=PHONE)
    context.add_init_script(RECORD_BUZZES)
    page = context.new_page()
    start_three_seats(page, server, seed="11")
    wait_for_turn(page)
    if sound:
        page.locator("#sound-toggle").click()  # (it buzzes once to say so)
    assert page.evaluate("() => (window.buzzes || []).length") == (1 if sound else 0)
    press(page, "r")
    before = version(page)
    score_a_box(page)
    wait_moved(page, before)
    page.wait_for_function(  # the two CPUs played; Ann's turn again
        "() => document.querySelectorAll('table.card td.filled').length === 3"
        " && document.querySelector('#board').dataset.state === 'act'",
        timeout=60_000,
    )
    buzzes = page.evaluate("() => window.buzzes || []")
    assert buzzes == ([[70], [70]] if sound else [])
    context.close()


# A board swapped in as app.js does after a roll that gave five sixes.
FIVE_SIXES = """() => {
    const old = document.getElementById('board');
    const fresh = old.cloneNode(true);
    delete fresh.dataset.aliveSeen;
    fresh.dataset.version = String(Number(old.dataset.version) + 1);
    fresh.querySelectorAll('#dice .die').forEach(die => {
        die.classList.remove('held', 'blank', 'changed', 'rolling');
        const face = die.querySelector('svg');
        face.innerHTML = '<rect x="4" y="4" width="92" height="92" rx="16"/>' +
            [[27, 25], [73, 25], [27, 50], [73, 50], [27, 75], [73, 75]]
                .map(([x, y]) => `<circle cx="${x}" cy="${y}" r="9"/>`).join('');
    });
    const left = fresh.querySelector('#rolls-left');
    left.textContent = left.textContent.replace(/\\d+/, n => String(Number(n) - 1));
    old.replaceWith(fresh);
}"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_yahtzee_is_celebrated_and_said(browser, server, motion):
    context = browser.new_context(viewport=PHONE, reduced_motion=motion)
    page = context.new_page()
    start_three_seats(page, server, seed="7")
    wait_for_turn(page)
    press(page, "r")
    page.evaluate(FIVE_SIXES)
    banner = page.locator("#yahtzee-cheer")
    banner.wait_for()
    assert banner.inner_text() == "Yahtzee! All the dice alike."
    assert banner.get_attribute("aria-hidden") == "true"  # said once, by the live region:
    page.wait_for_function(
        "() => document.getElementById('alive-say').textContent.startsWith('Yahtzee')"
    )
    assert page.locator("#alive-say").get_attribute("role") == "status"
    animation = page.evaluate(
        "() => getComputedStyle(document.getElementById('yahtzee-cheer')).animationName"
    )
    assert animation == ("none" if motion == "reduce" else "fivedice-cheer")
    if motion == "reduce":  # (still: the screenshot shows the banner as it stays)
        shot(page, "alive-yahtzee-360-en")
    banner.wait_for(state="detached", timeout=10_000)  # gone after a few seconds
    context.close()


def test_each_seat_has_one_colour_on_the_bar_and_the_card(browser, server):
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    start_three_seats(page, server, seed="8")
    wait_for_chances(page)
    colours = page.evaluate(
        """() => [0, 1, 2].map(seat => {
            const look = selector => getComputedStyle(document.querySelector(selector));
            return {
                bar: look('svg.chance-bar rect.chance-' + seat).fill,
                figure: look('.chance-figures .chance-' + seat).color,
                head: look('table.card thead th.seat-' + seat).borderTopColor,
                total: look('table.card tr.grand td.seat-' + seat).color,
            };
        })"""
    )
    for seat in colours:
        assert seat["bar"] == seat["figure"] == seat["head"] == seat["total"]
    assert len({seat["bar"] for seat in colours}) == 3
    assert colours[0]["bar"] == "rgb(31, 95, 207)"  # palette.SEAT_COLORS[0]
    context.close()


def test_the_chances_shown_add_up_to_100_turn_after_turn(browser, server):
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    start_three_seats(page, server, seed="9")
    wait_for_chances(page)
    seen = []
    for _turn in range(4):
        wait_for_turn(page)
        if board_state(page) == "over":
            break
        for _roll in range(2):
            press(page, "r")
            if page.locator("svg.chance-bar").count():
                seen.append(shown_percents(page))
        before = version(page)
        score_a_box(page)
        wait_moved(page, before)
    assert len(seen) >= 6
    for percents in seen:
        assert len(percents) == 3 and sum(percents) == 100, percents
    context.close()


def test_copy_puts_the_whole_invitation_link_on_the_clipboard(browser, server):
    context = browser.new_context(viewport=PHONE)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    page = context.new_page()
    page.goto(server + "/")
    page.fill("#name0", "Ann")
    page.select_option("#kind1", "friend")
    page.fill("#name1", "Bob")
    page.click("#start")
    page.wait_for_selector("#room")
    copy = page.locator(".invite-box .copy-link").first
    assert copy.is_visible()
    invite = page.locator("input[data-invite]").first.input_value()
    assert invite.startswith(server + "/")
    copy.click()
    page.wait_for_function(
        "() => document.querySelector('.copy-link').textContent === 'Link copied'"
    )
    assert page.evaluate("() => navigator.clipboard.readText()") == invite
    shot(page, "alive-room-360-en")
    page.set_viewport_size(DESKTOP)
    shot(page, "alive-room-1280-en")
    context.close()


def test_a_page_that_cannot_be_reached_shows_the_offline_page(browser, server):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(server + "/rules")
    page.wait_for_function(
        "async () => { const r = await navigator.serviceWorker.ready;"
        " return !!r.active && r.active.state === 'activated'; }"
    )
    page.reload()  # (now controlled by the worker)
    page.wait_for_function("() => !!navigator.serviceWorker.controller")
    context.set_offline(True)
    page.goto(server + "/stats")
    assert page.locator("h1").inner_text() == "You are offline"
    assert page.locator("#try-again").is_visible()
    shot(page, "alive-offline-360-en")
    context.set_offline(False)
    page.locator("#try-again").click()  # reloads the page it could not reach
    page.wait_for_url("**/stats")
    page.wait_for_selector("h1")
    assert page.locator("h1").inner_text() != "You are offline"
    context.close()


@pytest.mark.parametrize("language", ["en", "ja", "fr"])
def test_screenshots_of_the_alive_board(browser, server, language):
    """For a person to look at: the seat colours, the changed dice, the sound toggle."""
    context = browser.new_context(viewport=PHONE, locale=language)
    page = context.new_page()
    page.goto(server + f"/lang/{language}?next=/")
    start_three_seats(page, server, seed="10")
    wait_for_chances(page)
    wait_for_turn(page)
    press(page, "r")
    assert page.locator("#sound-toggle").is_visible()
    shot(page, f"alive-board-360-{language}")
    page.set_viewport_size(DESKTOP)
    shot(page, f"alive-board-1280-{language}")
    context.close()
