"""Bounded solver work over the API: busy → 503 with Retry-After; the allow-list refuses clearly."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

import numpy as np
import pytest

from fivedice.service.games import GameService
from fivedice.strategy import cache, limits
from fivedice.strategy.solver import StrategyTable
from tests.web.support import SECRET, TestClient, finish, new_game


@contextlib.contextmanager
def another_solve_running() -> Iterator[None]:
    """Another thread holds the one solving slot until the block ends."""
    holding, done = threading.Event(), threading.Event()

    def other_solve() -> None:
        with limits.solving_slot():
            holding.set()
            done.wait(timeout=30)

    thread = threading.Thread(target=other_solve)
    thread.start()
    try:
        assert holding.wait(timeout=30)
        yield
    finally:
        done.set()
        thread.join(timeout=30)


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
    with another_solve_running():
        busy = quick_client.get(f"/api/games/{game['id']}/hint", headers=seats[0])
        assert busy.status_code == 503
        assert int(busy.headers["Retry-After"]) > 0
        assert "busy" in busy.json()["detail"]
        assert fake_solve == []
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


def test_a_review_page_while_another_table_is_solved_is_503_not_a_wait(service, fake_solve):
    """On the review path, a review of a finished game with unusual rules
    needs a new table; while another is being solved the page answers 503 with Retry-After
    at once (the bound hints have), instead of holding a worker thread until the slot frees."""

    from fivedice.web import create_app
    from tests.web.support import SECRET, TestClient

    service = GameService(service.store, solve_wait=0.05)
    with TestClient(create_app(service, SECRET, drive_cpus=False)) as client:
        game, _seats = new_game(client, [{"name": "Solo"}], set={"full_house": 21})
        game_id = client.app.state.hub.game_id(game["id"])
        finish(service, game_id)
        with another_solve_running():
            busy = client.get(f"/g/{game['id']}/review")
            assert busy.status_code == 503, busy.status_code
            assert int(busy.headers["Retry-After"]) > 0
            assert fake_solve == []
        assert client.get(f"/g/{game['id']}/review").status_code == 200
        assert len(fake_solve) == 1


def test_the_guided_tutorial_goes_on_without_the_coach_where_it_may_not_solve(
    service, fake_solve, monkeypatch
):
    """On the tutorial path, on a server that solves only some presets
    (`--solve-only`), the guided game of another preset still plays (the coach is silent)
    instead of failing every action; and no table of those rules is solved."""
    from fivedice.core.rules import find_ruleset
    from fivedice.strategy import limits

    monkeypatch.setenv(limits.SOLVE_RULES_ENV, "classic")
    run = service.tutorial_start("guided", find_ruleset("simple"))
    rolled = service.tutorial_act(run, "roll")
    assert rolled.state.dice is not None
    assert service.tutorial_coach_line(rolled) == ""
    assert fake_solve == []


def test_the_guided_tutorial_does_not_wait_for_another_solve(service, fake_solve):
    """The tutorial's coach waits for another thread's solve no longer than
    a hint does (`solve_wait`); meanwhile the lesson goes on with the coach silent."""
    from fivedice.core.rules import find_ruleset

    service = GameService(service.store, solve_wait=0.05)
    with another_solve_running():
        run = service.tutorial_start("guided", find_ruleset("simple"))
        rolled = service.tutorial_act(run, "roll")
        assert service.tutorial_coach_line(rolled) == ""
        assert fake_solve == []
    assert service.tutorial_coach_line(rolled).startswith("Coach")
    assert len(fake_solve) == 1
