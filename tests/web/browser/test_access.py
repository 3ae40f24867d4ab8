"""Accessibility in a real browser (Playwright + Debian's chromium): what a screen reader hears,
where the focus goes, the dice on a phone after a CPU turn, and axe-core on every page.

axe (`axe-playwright-python`, the axe-core engine) must find no serious or critical
violation on any page. Screenshots at 360 and 1280 px, in English and German, go to
`test-artifacts/` (git-ignored) for a person to look at.
"""

from __future__ import annotations

import re

import pytest

from fivedice.core.errors import FivediceError
from fivedice.service.creation import PlayerSpec
from tests.web.browser.support import shot, start_game, version, wait_for_turn, wait_moved

axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")

PHONE = {
    "viewport": {"width": 360, "height": 740},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}


def announced(page):
    return page.locator("#announce").inner_text()


def record_announcements(page):
    """Keeps every text the live region is given (a screen reader reads each in turn)."""
    page.evaluate(
        """() => { window.__said = [];
          new MutationObserver(() => window.__said.push(
            document.getElementById("announce").textContent)
          ).observe(document.getElementById("announce"),
                    { childList: true, characterData: true, subtree: true }); }"""
    )


def everything_said(page):
    return " | ".join(page.evaluate("() => window.__said"))


def dice_words(page):
    labels = [page.locator(f"#die-{n}").get_attribute("aria-label") for n in range(1, 6)]
    return " ".join(re.match(r"Die \d: (\d)", label).group(1) for label in labels)


def in_view(page, selector):
    """Whether the element is wholly inside the viewport (not scrolled away)."""
    return page.evaluate(
        """s => { const r = document.querySelector(s).getBoundingClientRect();
                  return r.top >= 0 && r.bottom <= window.innerHeight; }""",
        selector,
    )


def click_and_wait(page, selector):
    before = version(page)
    page.click(selector)
    wait_moved(page, before)


def test_the_live_region_tells_every_roll_and_score_and_focus_follows(browser, server):
    context = browser.new_context(locale="en-US", **DESKTOP)
    page = context.new_page()
    start_game(page, server, seed="21")
    wait_for_turn(page)
    record_announcements(page)
    click_and_wait(page, "#roll")
    assert f"Ann rolls {dice_words(page)}." in announced(page)  # my own roll, with its dice
    click_and_wait(page, "#die-2")
    assert "Ann holds" in announced(page)
    assert page.evaluate("() => document.activeElement.id") == "die-2"
    chance = page.locator("td.legal button[value='score chance']")
    points = chance.locator(".pv").inner_text()
    page.wait_for_function("() => document.querySelector('#board').dataset.state === 'act'")
    before = version(page)
    chance.click()
    wait_moved(page, before)
    assert f"Ann scores {points} in Chance." in announced(page)
    # The CPU's turn: the focus is on the heading that says whose turn it is, not lost.
    focused = page.evaluate("() => document.activeElement.id")
    assert focused in ("turn-h", "roll"), focused
    wait_for_turn(page)  # the CPU's moves arrive over the stream
    said = everything_said(page)
    assert re.search(r"CPU 2 rolls [1-6]( [1-6]){4}\.", said), said
    assert re.search(r"CPU 2 scores \d+ in ", said), said
    assert announced(page).endswith("Your turn.")  # (Ann's own device)
    assert page.evaluate("() => document.activeElement.id") == "roll"  # my turn again
    # A refused action (a stale form) is said, shown as an alert, and scrolled into view.
    page.evaluate("() => { document.querySelector('#act-form [name=version]').value = '0'; }")
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    page.click("#roll")
    page.wait_for_selector("#error[role=alert]")
    assert "That did not work" in announced(page)
    assert in_view(page, "#error")
    context.close()


def test_a_phone_sees_the_dice_again_after_a_cpu_turn(browser, server):
    context = browser.new_context(locale="en-GB", **PHONE)
    page = context.new_page()
    page.goto(server + "/")
    assert in_view(page, "#start")  # Start is in reach without scrolling
    assert not page.locator("#level0").is_visible()  # Level: only for a CPU seat
    assert page.locator("#level1").is_visible()
    page.select_option("#kind0", "cpu")
    assert page.locator("#level0").is_visible()
    page.select_option("#kind0", "me")
    start_game(page, server, seed="33")
    assert not page.locator(".keys").is_visible()  # no keys on a touch screen
    wait_for_turn(page)
    before = version(page)
    page.tap("#roll")
    wait_moved(page, before)
    button = page.locator("td.legal button[value='score chance']")
    # The whole turn fits the phone's screen (test_board.py); scrolled down to the log
    # under the card, the dice are off-screen.
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    button.scroll_into_view_if_needed()
    assert not in_view(page, "#dice")
    before = version(page)
    button.tap()
    wait_moved(page, before)
    page.wait_for_function(
        "v => Number(document.querySelector('#board').dataset.version) > v + 2"
        " && document.querySelector('#board').dataset.state === 'act'",
        arg=before,
        timeout=60_000,
    )
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'roll'")
    assert in_view(page, "#dice")
    shot(page, "30-phone-turn-back")
    context.close()


def _finished_cpu_game(hub, players):
    """A game the CPUs play to the end right here (statistics, high scores, review)."""
    view = hub.create(players)  # no seed: a seeded game is practice, out of the stats
    while not view.is_over:
        try:
            view = hub.drive_cpu(view.game_id, view.version)
        except FivediceError:  # the server's driver moved it first
            view = hub.load(view.game_id)
    return hub.public_id(view.game_id)


def _finished_solo_game(hub, name):
    """A human's solo game played to the end through the service: roll, the first box."""
    view = hub.create([PlayerSpec(name)])  # no seed: a seeded game is practice, out of the stats
    while not view.is_over:
        placements = view.state.placements() if view.state.dice is not None else []
        action = f"score {placements[0].category.key}" if placements else "roll"
        view = hub.service.apply_action(view.game_id, action, view.version)
    return hub.public_id(view.game_id)


def _serious(page, name, axe):
    """axe's serious and critical violations on the page, in words."""
    results = axe.run(page)
    return [
        f"{name}: {v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:4]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.slow
def test_axe_finds_nothing_serious_on_any_page(browser, served):
    base, app = served
    hub = app.state.hub
    over = _finished_cpu_game(hub, [PlayerSpec("Bot A", "casual"), PlayerSpec("Bot B", "expert")])
    _finished_solo_game(hub, "Sam")
    axe = axe_module.Axe()
    problems: list[str] = []
    for language, size, context_options in (("en", 1280, DESKTOP), ("de", 360, PHONE)):
        context = browser.new_context(locale=language, **context_options)
        page = context.new_page()

        def look(name, page=page, language=language, size=size):
            page.wait_for_load_state()
            problems.extend(_serious(page, f"{name} ({language}, {size} px)", axe))
            shot(page, f"axe-{name}-{language}-{size}")

        page.goto(base + "/")
        look("new-game")
        start_game(page, base, seed="5")
        game_url = page.url
        look("game-start")
        click_and_wait(page, "#roll")
        look("game-rolled")
        page.goto(game_url + "?hint=1")
        page.wait_for_selector(".hint li")
        look("game-hint")
        page.goto(f"{base}/g/{over}")
        look("game-over")
        page.goto(f"{base}/g/{over}/review")
        look("review")
        page.goto(f"{base}/g/{over}/verify")
        look("verify")
        if size == 360:  # the 64-digit commitment and seed wrap on a phone
            width = page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= 360, f"the verify page is {width} px wide on a 360 px phone"
        for path, name in (
            ("/rules", "rules"),
            ("/stats", "stats"),
            ("/highscores", "highscores"),
            ("/resume", "resume"),
            (game_url.removeprefix(base) + "/abandon", "abandon-question"),
            ("/join", "join"),
            ("/table", "table-new"),
            ("/tutorial", "tutorial"),
            ("/tutorial/scoring", "tutorial-lesson"),
            ("/sheet", "sheet"),
        ):
            page.goto(base + path)
            look(name)
        if size == 360:
            page.goto(base + "/stats")
            width = page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= 360, f"the statistics are {width} px wide on a 360 px phone"
            widest = page.evaluate(
                "() => Math.max(...[...document.querySelectorAll('.stats td')]"
                ".map(cell => cell.getBoundingClientRect().right))"
            )
            assert 0 < widest <= 360, f"a statistics column ends at {widest} px"
        page.goto(base + "/table")
        page.fill("#name0", "Ann")
        page.fill("#name1", "Bob")
        page.click("#start")
        page.wait_for_url("**/t/*")
        look("table-game")
        page.goto(base + "/")
        page.fill("#name0", "Ann")
        page.select_option("#kind1", "friend")
        page.fill("#name1", "Bob")
        page.click("#start")
        page.wait_for_selector("#room")
        look("waiting-room")
        context.close()
    assert not problems, "\n".join(problems)
