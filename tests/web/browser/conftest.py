"""Browser fixtures: a real uvicorn server per module and Debian's Chromium driven by
Playwright. Every test here is marked `browser` (tests/conftest.py): `make test` runs them,
`make test-fast` leaves them out. Outside CI a missing browser skips them; in CI (`make test`
installs chromium) it fails."""

from __future__ import annotations

import os
import shutil

import pytest

from fivedice.service.games import GameService
from tests.web.browser.support import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS
from tests.web.live_helpers import running
from tests.web.support import SECRET


@pytest.fixture(scope="session", autouse=True)
def chromium_installed():
    """Skips the browser tests when Chromium is missing, except in CI."""
    if shutil.which(CHROMIUM) is None and not os.environ.get("CI"):
        pytest.skip(f"{CHROMIUM} is missing (scripts/system-deps.sh installs it)")


def _serve(tmp_path_factory, name: str, **options):
    from fivedice.web import create_app

    service = GameService.open(f"sqlite:///{tmp_path_factory.mktemp(name) / 'web.sqlite3'}")
    app = create_app(service, SECRET, **options)
    try:
        with running(app) as base:
            yield base, app
    finally:
        service.store.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """uvicorn in this process, on a free loopback port, with a private database whose CPUs
    move quickly: (base URL, the app)."""
    yield from _serve(tmp_path_factory, "browser", cpu_delay_ms=40)


@pytest.fixture(scope="module")
def server(served):
    """The base URL of the server."""
    return served[0]


@pytest.fixture(scope="module")
def sheet_server(tmp_path_factory):
    """The base URL of a server with the app's default settings."""
    for base, _app in _serve(tmp_path_factory, "sheet"):
        yield base


@pytest.fixture(scope="module")
def browser():
    """Chromium, headless, for the module's tests."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    ARTIFACTS.mkdir(exist_ok=True)
    with playwright_api.sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield instance
        instance.close()
