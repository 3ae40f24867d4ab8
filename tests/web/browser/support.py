"""What the browser tests share: where Chromium is, where screenshots go, and the steps of a
game page (Playwright's sync API)."""

from __future__ import annotations

import os
from pathlib import Path

CHROMIUM = os.environ.get("FIVEDICE_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"
"""Screenshots for a person to look at (git-ignored)."""
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def shot(page, name):
    """A full-page screenshot in test-artifacts/."""
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def board_state(page):
    """What the game board waits for: `act`, `wait` or `over`."""
    return page.locator("#board").get_attribute("data-state")


def version(page):
    """The game version the board shows."""
    return int(page.locator("#board").get_attribute("data-version"))


def wait_moved(page, before):
    """Until the board shows a version after `before`."""
    page.wait_for_function(
        "v => Number(document.querySelector('#board').dataset.version) > v", arg=before
    )


def wait_for_turn(page):
    """Until the human may act or the game is over (CPU turns step by themselves)."""
    page.wait_for_function(
        "() => ['act', 'over'].includes(document.querySelector('#board').dataset.state)",
        timeout=60_000,
    )


def press(page, key):
    """Presses a key and waits until the game has moved."""
    before = version(page)
    page.keyboard.press(key)
    wait_moved(page, before)


def start_game(page, base, seed="21"):
    """Starts Ann's seeded game against a casual CPU from the new-game form."""
    page.goto(base + "/")
    page.fill("#name0", "Ann")
    page.select_option("#kind1", "cpu")
    page.select_option("#level1", "casual")
    page.fill("#seed", seed)
    page.click("#start")
    page.wait_for_selector("#board")


def score_a_box(page, button=None):
    """Clicks a score button (the first that scores more than 0 unless one is given);
    a 0 is asked once, and the Yes answers it."""
    if button is None:
        scoring = page.locator("td.legal button:not(.zero)")
        button = scoring.nth(0) if scoring.count() else page.locator("td.legal button").nth(0)
    zero = "zero" in (button.get_attribute("class") or "")
    button.click()
    if zero:
        page.locator("#zero-yes").click()
