"""Quick taps on the dice while the server is slow all arrive, in order, and a move the
server does not answer is sent again or said to have failed (never lost in silence)."""

from __future__ import annotations

import re
import time

import pytest

from tests.web.browser.support import press, start_game, version

pytest.importorskip("playwright.sync_api")

LATENCY_S = 0.6
"""Added to every move the page posts (a slow network)."""


def slow_moves(page, posts: list[str], fail_first: int = 0) -> None:
    """Delays every POST of a move by LATENCY_S (and records its action); the first
    `fail_first` of them are aborted, as a dropped connection."""
    failures = {"left": fail_first}

    def handle(route) -> None:
        request = route.request
        if request.method != "POST":
            route.continue_()
            return
        time.sleep(LATENCY_S)
        posts.append(request.post_data or "")
        if failures["left"] > 0:
            failures["left"] -= 1
            route.abort("connectionreset")
            return
        route.continue_()

    page.route("**/act", handle)


def field(post: str, name: str) -> str:
    """A field of a posted form (multipart)."""
    found = re.search(f'name="{name}"\r\n\r\n([^\r]*)\r\n', post)
    assert found is not None, post
    return found.group(1)


def action(post: str) -> str:
    return field(post, "action")


def held(page) -> list[bool]:
    return [page.locator(f"#die-{n}").get_attribute("aria-pressed") == "true" for n in range(1, 6)]


def test_taps_during_a_slow_request_all_arrive_in_order(browser, server):
    context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True)
    page = context.new_page()
    start_game(page, server)
    press(page, "r")
    before = version(page)
    posts: list[str] = []
    slow_moves(page, posts)
    # Four taps at once, while the first is still on its way: dice 1 and 3 end up held.
    page.evaluate("[1, 2, 3, 2].forEach(n => document.getElementById('die-' + n).click())")
    page.wait_for_function(
        "v => Number(document.querySelector('#board').dataset.version) >= v + 4", arg=before
    )
    page.wait_for_timeout(300)
    assert version(page) == before + 4
    assert held(page) == [True, False, True, False, False]
    assert [action(post) for post in posts] == ["hold 1", "hold 2", "hold 3", "release 2"]
    assert [field(post, "version") for post in posts] == [str(before + n) for n in range(4)]
    assert not page.locator("#js-notice").count()
    context.close()


def test_a_move_the_server_did_not_answer_is_sent_again(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    start_game(page, server)
    press(page, "r")
    before = version(page)
    posts: list[str] = []
    slow_moves(page, posts, fail_first=1)
    page.locator("#die-4").click()
    page.wait_for_function(
        "v => Number(document.querySelector('#board').dataset.version) > v", arg=before
    )
    assert held(page)[3] and len(posts) == 2  # the lost one, then the one that arrived
    context.close()


def test_a_move_that_never_gets_through_is_said_to_have_failed(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    start_game(page, server)
    press(page, "r")
    before = version(page)
    posts: list[str] = []
    slow_moves(page, posts, fail_first=10)
    page.locator("#die-5").click()
    notice = page.locator("#js-notice")
    notice.wait_for(timeout=15_000)
    assert "could not reach the server" in notice.inner_text()
    assert version(page) == before and len(posts) == 3
    context.close()
