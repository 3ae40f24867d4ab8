"""Web fixtures: an app on a private SQLite file with a fixed secret, and its clients.

`client` acts like a browser on this site's pages: it sends `Origin: http://testserver` and
puts the session's CSRF token (read from a page, as app.js does) into every form it posts
outside /api/. Tests of the CSRF defence itself use `raw_client` or pass their own fields.
Helpers live in tests/web/support.py.
"""

from __future__ import annotations

import pytest

from fivedice.service.games import GameService
from tests.web.support import ORIGIN, SECRET, PageClient, TestClient


@pytest.fixture
def service(tmp_path):
    from fivedice.web.app import SERVER_SOLVE_WAIT_SECONDS

    service = GameService.open(
        f"sqlite:///{tmp_path / 'web.sqlite3'}", solve_wait=SERVER_SOLVE_WAIT_SECONDS
    )
    yield service
    service.store.close()


@pytest.fixture
def app(service):
    from fivedice.web import create_app
    from fivedice.web.rates import RateSettings

    # Tests step CPUs themselves.
    # (Many games from one address: the rates are tested in test_rates.py.)
    rates = RateSettings(games="1000/minute", rooms="1000/minute")
    return create_app(service, SECRET, drive_cpus=False, rates=rates)


@pytest.fixture
def client(app):
    with PageClient(app, headers={"Origin": ORIGIN}) as client:
        yield client


@pytest.fixture
def raw_client(app):
    """A client that adds nothing: no Origin, no token."""
    with TestClient(app) as client:
        yield client
