"""Web fixtures: an app on a private SQLite file with a fixed secret, and helpers."""

from __future__ import annotations

import warnings

import pytest

from fivedice.service import GameService

SECRET = b"test-secret-of-the-web-tests-0123456789"

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx vs httpx2
    from fastapi.testclient import TestClient


@pytest.fixture
def service(tmp_path):
    service = GameService.open(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    yield service
    service.store.close()


@pytest.fixture
def app(service):
    from fivedice.web import create_app

    return create_app(service, SECRET)


@pytest.fixture
def client(app):
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
