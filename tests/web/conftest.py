"""Web fixtures: an app on a private SQLite file with a fixed secret, and helpers.

`client` acts like a browser on this site's pages: it sends `Origin: http://testserver` and
puts the session's CSRF token (read from a page, as app.js does) into every form it posts
outside /api/. Tests of the CSRF defence itself use `raw_client` or pass their own fields.
"""

from __future__ import annotations

import re
import warnings

import pytest

from fivedice.service.games import GameService

SECRET = b"test-secret-of-the-web-tests-0123456789"

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx vs httpx2
    from fastapi.testclient import TestClient


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

    return create_app(service, SECRET, drive_cpus=False)  # tests step CPUs themselves


ORIGIN = "http://testserver"


class PageClient(TestClient):
    """A TestClient that posts page forms as the site's own pages do (origin and token)."""

    def csrf_token(self) -> str:
        page = self.get("/rules").text  # any page: it makes the session if there is none
        return re.search(r'<meta name="csrf-token" content="([^"]*)"', page).group(1)

    def post(self, url, *args, **kwargs):
        path = str(url)
        if not path.startswith("/api") and not path.startswith("http"):
            data = dict(kwargs.get("data") or {})
            if "csrf_token" not in data:
                data["csrf_token"] = self.csrf_token()
            kwargs["data"] = data
        return super().post(url, *args, **kwargs)


@pytest.fixture
def client(app):
    with PageClient(app, headers={"Origin": ORIGIN}) as client:
        yield client


@pytest.fixture
def raw_client(app):
    """A client that adds nothing: no Origin, no token."""
    with TestClient(app) as client:
        yield client


def new_game(client, players=None, **extra):
    """Creates a game over the API; returns (json, {seat: auth header})."""
    body = {"players": players or [{"name": "Ann"}, {"name": "Bob"}], "seed": 7, **extra}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    data = response.json()
    headers = {t["seat"]: {"Authorization": f"Bearer {t['token']}"} for t in data["tokens"]}
    return data, headers
