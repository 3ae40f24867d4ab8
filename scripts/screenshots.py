"""The pictures of the docs site, made again from real runs (`make screenshots`).

- the terminal app: its own SVG screenshots (Textual's `App.run_test` and `save_screenshot`),
  a game at its first roll, at 100 x 32 cells;
- the browser: `fivedice serve` on a private SQLite file, the home page and a game page in
  headless Chromium (Playwright, Debian's /usr/bin/chromium) at 1280 and 360 px wide.

Everything runs in a temporary folder (database, cache, record key); the images go to
docs/images/. Usage: `python scripts/screenshots.py [--only terminal|browser]`.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "docs" / "images"
CHROMIUM = "/usr/bin/chromium"


def terminal() -> None:
    """The terminal app at a game's first roll (a fixed seed: the same picture each time)."""
    from fivedice.core.game import GameSettings, Seat
    from fivedice.tui.app import FivediceApp

    settings = GameSettings(seats=(Seat("You"), Seat("CPU", "expert")))
    app = FivediceApp(settings, seed=7, start_now=True, pace=0.0)

    async def main() -> None:
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause(1.0)
            await pilot.press("r")
            await pilot.pause(1.0)
            app.save_screenshot("terminal-game.svg", path=str(IMAGES))

    asyncio.run(main())
    print(f"wrote {IMAGES / 'terminal-game.svg'}")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def browser() -> None:
    """The home page and a new game's page after its first roll, at 1280 and 360 px."""
    from playwright.sync_api import sync_playwright

    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "fivedice.cli", "serve", "--port", str(port)],
        env=os.environ.copy(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(600):
            try:
                with urllib.request.urlopen(f"{base}/healthz", timeout=1):
                    break
            except OSError:
                time.sleep(0.2)
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=CHROMIUM)
            for width, height in ((1280, 800), (360, 740)):
                page = chromium.new_page(viewport={"width": width, "height": height})
                page.goto(f"{base}/")
                page.screenshot(path=str(IMAGES / f"browser-home-{width}.png"))
                page.locator("form[action='/games'] button[type=submit]").first.click()
                page.wait_for_load_state("networkidle")
                page.locator("#roll").click()  # the first roll of the game
                page.wait_for_timeout(1500)
                page.screenshot(path=str(IMAGES / f"browser-game-{width}.png"))
                print(f"wrote browser pictures at {width} px")
                page.close()
            chromium.close()
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=("terminal", "browser"))
    options = parser.parse_args()
    IMAGES.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as private:
        os.environ["FIVEDICE_DATABASE_URL"] = f"sqlite:///{private}/fivedice.sqlite3"
        os.environ["FIVEDICE_CACHE_DIR"] = f"{private}/cache"
        os.environ["FIVEDICE_RECORD_KEY"] = "5eed" * 16
        os.environ["FIVEDICE_LANG"] = "en"
        if options.only in (None, "terminal"):
            terminal()
        if options.only in (None, "browser"):
            browser()
    return 0


if __name__ == "__main__":
    sys.exit(main())
