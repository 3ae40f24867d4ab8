"""The game board in a real browser at 1280 x 800 and 360 x 740: the dice, Roll and the open
boxes inside the window during a turn (up to four seats), the held die's number never under
Roll, "Your turn" on the right device, the focus on a box after the last roll and never on
the heading on updates, the winner banner on top at the end, and undo in a solo game.

Screenshots at 360 and 1280 px in English, Japanese and French go to `test-artifacts/`
(`board-*.png`, git-ignored) for a person to look at.
"""

from __future__ import annotations

import pytest

from tests.web.browser.support import ARTIFACTS, version, wait_for_turn, wait_moved

pytest.importorskip("playwright.sync_api")

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {
    "viewport": {"width": 360, "height": 740},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
LOCALES = {"en": "en-US", "ja": "ja-JP", "fr": "fr-FR"}

INSIDE = """s => [...document.querySelectorAll(s)].map(e => {
  const r = e.getBoundingClientRect();
  return [Math.round(r.left), Math.round(r.top), Math.round(r.right), Math.round(r.bottom)]; })"""


def new_context(browser, size, language):
    return browser.new_context(**size, locale=LOCALES[language])


def start(page, base, *, cpus=1, seed="21", solo=False, preset="classic"):
    """Ann's seeded game from the form, Ann first, against `cpus` casual CPUs (or alone)."""
    page.goto(base + "/")
    page.fill("#name0", "Ann")
    count = 0 if solo else cpus
    for seat in range(1, 4):
        page.select_option(f"#kind{seat}", "cpu" if seat <= count else "none")
        if seat <= count:
            page.select_option(f"#level{seat}", "casual")
    page.select_option("#first_player", "first_seat")
    page.select_option("#preset", preset)
    page.fill("#seed", seed)
    page.click("#start")
    page.wait_for_selector("#board")
    wait_for_turn(page)


def act(page, selector):
    before = version(page)
    page.locator(selector).click()
    wait_moved(page, before)


def boxes_inside(page, selector, width, height):
    """The bounding boxes of `selector` that are not wholly inside the window."""
    return [
        box
        for box in page.evaluate(INSIDE, selector)
        if box[0] < 0 or box[1] < 0 or box[2] > width or box[3] > height
    ]


@pytest.mark.parametrize(
    ("size", "seats", "language", "preset"),
    [
        (DESKTOP, 4, "en", "classic"),
        (DESKTOP, 2, "ja", "classic"),
        (DESKTOP, 2, "fr", "classic"),
        (PHONE, 2, "en", "classic"),
        (PHONE, 4, "ja", "classic"),
        (PHONE, 2, "fr", "classic"),
        (DESKTOP, 4, "en", "triple"),
        (DESKTOP, 4, "fr", "maxi-yatzy"),
        (PHONE, 4, "fr", "yatzy"),
        (PHONE, 4, "en", "maxi-yatzy"),
        (PHONE, 2, "ja", "triple"),
        (PHONE, 4, "fr", "maxi-yatzy"),
        (PHONE, 2, "ja", "maxi-yatzy"),
    ],
    ids=[
        "1280-en-4",
        "1280-ja-2",
        "1280-fr-2",
        "360-en-2",
        "360-ja-4",
        "360-fr-2",
        "1280-en-4-triple",
        "1280-fr-4-maxi",
        "360-fr-4-yatzy",
        "360-en-4-maxi",
        "360-ja-2-triple",
        "360-fr-4-maxi",
        "360-ja-2-maxi",
    ],
)
def test_the_board_fits_the_window_during_a_whole_turn(
    browser, server, size, seats, language, preset
):
    width, height = size["viewport"]["width"], size["viewport"]["height"]
    context = new_context(browser, size, language)
    page = context.new_page()
    start(page, server, cpus=seats - 1, preset=preset)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    for roll in range(3):
        act(page, "#roll")
        if roll == 0:
            act(page, "#die-1")  # a held die: its number stays above the Roll button
            number = page.locator("#die-1 .pos").bounding_box()
            roll_button = page.locator("#roll").bounding_box()
            assert number["y"] + number["height"] <= roll_button["y"], (number, roll_button)
        # Dice, Roll and every open box inside the window, without scrolling.
        assert page.evaluate("() => window.scrollY") == 0
        for selector in ("#dice .die", "#roll", "td.legal button"):
            assert page.locator(selector).count() > 0, selector
            assert boxes_inside(page, selector, width, height) == [], selector
        if roll == 0:
            page.screenshot(
                path=str(ARTIFACTS / f"board-{width}-{language}-{seats}-{preset}-turn.png")
            )
    # The last roll: a box has the focus (no ring on the heading).
    focused = page.evaluate("() => document.activeElement.closest('td.legal') !== null")
    assert focused
    assert page.evaluate("() => document.activeElement.hasAttribute('data-focus')")
    page.screenshot(
        path=str(ARTIFACTS / f"board-{width}-{language}-{seats}-{preset}-last-roll.png")
    )
    context.close()


def test_your_turn_is_said_on_the_device_of_the_seat_to_move(browser, server):
    ann_context = new_context(browser, DESKTOP, "en")
    bob_context = new_context(browser, PHONE, "en")
    ann = ann_context.new_page()
    ann.goto(server + "/")
    ann.fill("#name0", "Ann")
    ann.select_option("#kind1", "friend")
    ann.fill("#name1", "Bob")
    for seat in (2, 3):
        ann.select_option(f"#kind{seat}", "none")
    ann.select_option("#first_player", "first_seat")
    ann.click("#start")
    ann.wait_for_selector("#room")
    invite = ann.locator("input[data-invite]").input_value()
    bob = bob_context.new_page()
    bob.goto(invite)
    bob.fill("#join-name", "Bob")
    bob.click("#join")
    bob.wait_for_selector("#room")
    ann.wait_for_selector("#seat-1.joined")
    ann.click("#start")
    ann.wait_for_selector("#board")
    bob.wait_for_selector("#board")
    assert ann.locator("#turn-h").inner_text() == "Your turn"
    assert ann.title() == "● Your turn · fivedice"
    assert bob.locator("#turn-h").inner_text() == "Ann's turn"
    assert "Your turn" not in bob.title()
    assert ann.locator("thead th.mine").inner_text().startswith("Ann")
    assert bob.locator("thead th.mine").inner_text().startswith("Bob")
    act(ann, "#roll")
    before = version(bob)
    act(ann, "td.legal button:not(.zero) >> nth=0")
    wait_moved(bob, before)
    bob.wait_for_function("() => document.querySelector('#board').dataset.state === 'act'")
    # Bob's phone: his turn, in the heading and the tab; the focus stayed where it was
    # (nothing was focused, so nothing is: no ring drawn on the heading).
    assert bob.locator("#turn-h").inner_text() == "Your turn"
    assert bob.title() == "● Your turn · fivedice"
    icon = "() => decodeURIComponent(document.querySelector('link[rel=icon]').href)"
    assert "#f0b429" in bob.evaluate(icon)  # the icon's dot
    assert "#f0b429" not in ann.evaluate(icon)
    assert bob.evaluate("() => document.activeElement.id") != "turn-h"
    ann.wait_for_function("() => document.title.indexOf('Your turn') < 0")
    assert ann.locator("#turn-h").inner_text() == "Bob's turn"
    bob.screenshot(path=str(ARTIFACTS / "board-360-en-friend-your-turn.png"))
    ann_context.close()
    bob_context.close()


def test_a_spectators_heading_is_never_focused_by_updates(browser, server):
    player_context = new_context(browser, DESKTOP, "en")
    watcher_context = new_context(browser, DESKTOP, "en")
    player = player_context.new_page()
    start(player, server)
    watcher = watcher_context.new_page()
    watcher.goto(player.url)
    watcher.wait_for_selector("#board")
    watcher.evaluate(
        "() => { window.__headingFocused = 0; document.addEventListener('focusin', e => {"
        " if (e.target.id === 'turn-h') window.__headingFocused += 1; }); }"
    )
    for _turn in range(2):
        before = version(watcher)
        act(player, "#roll")
        act(player, "td.legal button:not(.zero) >> nth=0")
        wait_moved(watcher, before + 1)
        wait_for_turn(player)
    assert watcher.evaluate("() => window.__headingFocused") == 0
    # The player: after scoring, Roll has the focus again (never the heading).
    player.wait_for_function("() => document.activeElement && document.activeElement.id === 'roll'")
    player_context.close()
    watcher_context.close()


@pytest.mark.parametrize(("size", "language"), [(DESKTOP, "en"), (PHONE, "ja"), (PHONE, "fr")])
def test_the_end_shows_the_winner_banner_on_top(browser, served, size, language):
    base, app = served
    width, height = size["viewport"]["width"], size["viewport"]["height"]
    context = new_context(browser, size, language)
    page = context.new_page()
    start(page, base, seed="9")
    hub = app.state.hub
    game_id = hub.game_id(page.url.rsplit("/", 1)[1])
    service = hub.service
    view = service.load(game_id)
    while not view.is_over:  # Ann plays greedily through the service; the CPU by the driver
        if view.is_cpu_turn:
            wait_for_turn(page)
            view = service.load(game_id)
            continue
        if view.state.dice is None:
            view = hub.act(game_id, hub.seat_token(game_id, 0), "roll", view.version)
        best = max(view.state.placements(), key=lambda p: p.points)
        view = hub.act(
            game_id, hub.seat_token(game_id, 0), f"score {best.category.key}", view.version
        )
    page.wait_for_function("() => document.querySelector('#board').dataset.state === 'over'")
    banner = page.locator("#winner")
    text = banner.inner_text()
    totals = dict(zip([s.name for s in view.state.seats], view.state.totals, strict=True))
    assert all(str(total) in text for total in totals.values()), text
    assert all(name in text or name == "Ann" for name in totals), text
    assert boxes_inside(page, "#winner", width, height) == []
    page.screenshot(path=str(ARTIFACTS / f"board-{width}-{language}-end.png"))
    context.close()


def test_undo_in_a_solo_game_takes_back_a_hold(browser, server):
    context = new_context(browser, DESKTOP, "en")
    page = context.new_page()
    start(page, server, solo=True)
    assert page.locator("#undo").count() == 0
    act(page, "#roll")
    assert page.locator("#undo").count() == 0  # a roll is never taken back
    act(page, "#die-2")
    assert page.locator("#die-2").get_attribute("aria-pressed") == "true"
    act(page, "#undo")
    assert page.locator("#die-2").get_attribute("aria-pressed") == "false"
    assert "Ann takes back the last action" in page.locator("#move-log").inner_text()
    assert page.locator("#undo").count() == 0  # only once
    context.close()


def test_a_keyboard_reaches_a_box_in_one_tab_from_roll(browser, server):
    context = new_context(browser, DESKTOP, "en")
    page = context.new_page()
    start(page, server)
    page.locator("#roll").focus()
    before = version(page)
    page.keyboard.press("Enter")
    wait_moved(page, before)
    assert page.evaluate("() => document.activeElement.id") == "roll"
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.closest('td.legal') !== null")
    # The heading is never where the focus lands, and shows no ring if it ever is.
    outline = page.evaluate(
        "() => { const h = document.getElementById('turn-h'); h.focus();"
        " return getComputedStyle(h).outlineStyle; }"
    )
    assert outline == "none"
    context.close()


@pytest.mark.parametrize(("size", "language"), [(PHONE, "ja"), (DESKTOP, "fr")])
def test_the_header_is_one_short_row_with_the_pages_under_a_menu_on_a_phone(
    browser, server, size, language
):
    width = size["viewport"]["width"]
    context = new_context(browser, size, language)
    page = context.new_page()
    page.goto(server + "/rules")
    header = page.locator("header.top").bounding_box()
    assert header["height"] <= 56, header  # (it took 167-201 px of a phone before)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    for code in ("en", "nl", "de", "ja", "fr", "es"):
        assert page.locator(f"a[hreflang={code}]").is_visible()
    stats = page.locator("header nav a[href='/stats']")
    if width < 900:
        assert not stats.is_visible()
        page.locator("#menu > summary").click()
    assert stats.is_visible()
    page.screenshot(path=str(ARTIFACTS / f"board-{width}-{language}-header.png"))
    stats.click()
    page.wait_for_url("**/stats")
    context.close()
