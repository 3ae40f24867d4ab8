"""A rolling restart that no page notices (Debian's chromium driven by Playwright).

A real `fivedice serve --workers 2` on PostgreSQL; Ann plays a casual CPU in the browser.
SIGHUP to the supervisor replaces both workers, one at a time (each new one serving before
the old one stops gently). Ann's event stream is told to move (`retry:` and a `moving`
event) and reconnects with its Last-Event-ID: the page never shows the "Reconnecting…"
banner, never reloads, and goes on showing the CPU's moves and her own.

Screenshots after the restart, at 360 and 1280 px, in English and Japanese, go to
`test-artifacts/`.
"""

from __future__ import annotations

import signal

import pytest

from tests.web.browser.support import ARTIFACTS, score_a_box, start_game, version
from tests.web.live_helpers import wait_until
from tests.web.stopping_helpers import Serve

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.processes, pytest.mark.postgres]
WAIT_MS = 120_000  # generous: a worker's first board loads the tables (seconds on a busy host)

# Records whether the banner was ever shown (a MutationObserver sees even a brief one).
WATCH_BANNER = """() => {
  window.__bannerSeen = false;
  window.__sameDocument = true;
  const region = document.getElementById('connection');
  new MutationObserver(() => {
    if (region.querySelector('.banner')) window.__bannerSeen = true;
  }).observe(region, { childList: true, subtree: true });
}"""


def _play_a_turn(page) -> None:
    page.wait_for_function(
        "() => document.querySelector('#board').dataset.state === 'act'", timeout=WAIT_MS
    )
    before = version(page)
    page.click("#roll")
    page.wait_for_function(
        "v => Number(document.querySelector('#board').dataset.version) > v",
        arg=before,
        timeout=WAIT_MS,
    )
    # (A click while the page reads its board is dropped by app.js: a person clicks again.)
    for _attempt in range(5):
        score_a_box(page)
        try:
            page.wait_for_function(
                "() => document.querySelector('#board').dataset.state !== 'act'", timeout=5_000
            )
            return
        except playwright_api.TimeoutError:
            continue
    raise AssertionError("the score was never taken")


@pytest.mark.parametrize(("language", "width"), [("en", 1280), ("ja", 360)])
def test_a_rolling_restart_goes_unnoticed_by_the_page(cluster, tmp_path, browser, language, width):
    server = Serve(cluster.url, tmp_path, workers=2, graceful=10, FIVEDICE_CPU_DELAY_MS="300")
    try:
        context = browser.new_context(viewport={"width": width, "height": 900}, locale=language)
        page = context.new_page()
        page.set_extra_http_headers({"Accept-Language": language})
        start_game(page, server.base)
        page.evaluate(WATCH_BANNER)
        _play_a_turn(page)  # the CPU's turn begins: its moves are pushed to the page
        first = set(server.workers())
        server.process.send_signal(signal.SIGHUP)
        wait_until(
            lambda: not first & set(server.workers()) and len(server.workers()) == 2,
            "every worker replaced",
        )
        # The CPU's turn (driven by whichever worker holds it now) and Ann's next one still
        # reach the page through its stream.
        _play_a_turn(page)
        shown = version(page)
        page.wait_for_function(
            "v => Number(document.querySelector('#board').dataset.version) > v + 1",
            arg=shown,
            timeout=WAIT_MS,
        )
        assert page.evaluate("() => window.__sameDocument") is True  # no reload
        assert page.evaluate("() => window.__bannerSeen") is False
        assert page.locator("#connection .banner").count() == 0
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(
            path=str(ARTIFACTS / f"rolling-restart-{language}-{width}.png"), full_page=True
        )
        context.close()
    finally:
        server.terminate()
        server.close()
