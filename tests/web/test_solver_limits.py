"""Bounded solver work over the API: busy → 503 with Retry-After; the allow-list refuses clearly."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from fivedice.service.games import GameService
from fivedice.strategy import cache, limits
from fivedice.strategy.solver import StrategyTable
from tests.web.conftest import SECRET, TestClient, new_game


@pytest.fixture
def fake_solve(monkeypatch, tmp_path):
    """No real solve: small tables of zeros, counted; an empty private cache."""
    calls = []

    def solve(rules, progress=None):
        calls.append(rules)
        return StrategyTable(rules, np.zeros((8192, 64, 2)), 0.0, 1)

    monkeypatch.setattr(cache, "solve", solve)
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.delenv(limits.SOLVE_RULES_ENV, raising=False)
    return calls


@pytest.fixture
def quick_client(service):
    from fivedice.web import create_app

    # What the server waits for another solve (default 2 s).
    quick = GameService(service.store, solve_wait=0.05)
    with TestClient(create_app(quick, SECRET)) as client:
        yield client


def _rolled_game(client, players=None, **extra):
    game, seats = new_game(client, players or [{"name": "Solo"}], **extra)
    response = client.post(
        f"/api/games/{game['id']}/actions",
        json={"action": "roll", "version": game["version"]},
        headers=seats[0],
    )
    assert response.status_code == 200, response.text
    return response.json(), seats


def test_a_hint_while_another_table_is_solved_is_503_with_retry_after(quick_client, fake_solve):
    game, seats = _rolled_game(quick_client, set={"full_house": 21})
    holding, done = threading.Event(), threading.Event()

    def other_solve():
        with limits.solving_slot():
            holding.set()
            done.wait(timeout=30)

    thread = threading.Thread(target=other_solve)
    thread.start()
    try:
        assert holding.wait(timeout=30)
        busy = quick_client.get(f"/api/games/{game['id']}/hint", headers=seats[0])
        assert busy.status_code == 503
        assert int(busy.headers["Retry-After"]) > 0
        assert "busy" in busy.json()["detail"]
        assert fake_solve == []
    finally:
        done.set()
        thread.join(timeout=30)
    again = quick_client.get(f"/api/games/{game['id']}/hint", headers=seats[0])
    assert again.status_code == 200, again.text
    assert len(fake_solve) == 1
    # The game did not change on the refused request.
    after = quick_client.get(f"/api/games/{game['id']}").json()
    assert after["version"] == game["version"] and after["dice"] == game["dice"]


def test_the_allow_list_refuses_hints_and_unplayable_games_clearly(
    quick_client, fake_solve, monkeypatch
):
    monkeypatch.setenv(limits.SOLVE_RULES_ENV, "classic")
    game, seats = _rolled_game(quick_client, rules="simple")
    refused = quick_client.get(f"/api/games/{game['id']}/hint", headers=seats[0])
    assert refused.status_code == 409
    assert "solves only classic" in refused.json()["detail"]
    expert = quick_client.post(
        "/api/games",
        json={
            "players": [{"name": "Ann"}, {"name": "CPU", "kind": "cpu", "level": "expert"}],
            "rules": "simple",
        },
    )
    assert expert.status_code == 422
    assert "solves only classic" in expert.json()["detail"]
    classic, classic_seats = _rolled_game(quick_client)
    assert (
        quick_client.get(f"/api/games/{classic['id']}/hint", headers=classic_seats[0]).status_code
        == 200
    )
    assert len(fake_solve) == 1
