"""The coach's goal on the web: `?goal=` in the JSON API, and the game page's goal form (kept
for the game in this browser, a bad goal refused with the reason)."""

from __future__ import annotations

import pytest

from fivedice.core.game import GameState
from fivedice.strategy.hints import Hint
from tests.web.support import start, version_of
from tests.web.test_api import act, new_game, unchanged


@pytest.fixture
def goals(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The goals the service is asked to rank for, with made-up chances (the chances
    themselves are checked against brute force in tests/strategy/test_thresholds.py)."""
    asked: list[int] = []

    def fake(state: GameState, goal: int, *, wait: bool = True) -> list[Hint]:
        asked.append(goal)
        return [
            Hint((6, 6), None, 0.4125, hold=(1, 2), goal=goal),
            Hint(None, state.rules.boxes[12], 0.25, loss=0.1625, goal=goal),
        ]

    monkeypatch.setattr("fivedice.service.coach.goal_hints", fake)
    return asked


def test_the_hint_api_ranks_for_a_goal(client, goals: list[int]) -> None:
    game, seats = new_game(client, [{"name": "Ann"}, {"name": "Bob"}])
    state = act(client, game, seats[0], "roll").json()
    url = f"/api/games/{game['id']}/hint"
    response = client.get(url, params={"goal": "beat 245"}, headers=seats[0])
    assert response.status_code == 200, response.text
    options = response.json()["options"]
    assert goals == [246]
    assert [(o["goal"], o["value"], o["kind"]) for o in options] == [
        (246, 0.4125, "keep"),
        (246, 0.25, "score"),
    ]
    plain = client.get(url, headers=seats[0]).json()["options"]
    assert all(o["goal"] is None for o in plain) and goals == [246]
    for bad in ("lots", "-3", "beat Zed", "9" * 30):
        refused = client.get(url, params={"goal": bad}, headers=seats[0])
        assert refused.status_code in (409, 422), (bad, refused.text)
    assert client.get(url, params={"goal": "x" * 81}, headers=seats[0]).status_code == 422
    unchanged(client, state)


def test_the_goal_form_keeps_the_goal_for_the_game(client, goals: list[int]) -> None:
    page = start(client)
    public_id = page.rsplit("/", 1)[-1]
    client.post(
        f"{page}/act", data={"action": "roll", "version": str(version_of(client.get(page).text))}
    )
    board = client.get(page).text
    assert 'id="goal-form"' in board
    set_goal = client.post(f"{page}/goal", data={"goal": "reach 300"}, follow_redirects=True)
    assert set_goal.status_code == 200
    assert "for a final total of 300 (chance of reaching it)" in set_goal.text
    section = set_goal.text.split("chance of reaching it")[1][:600]
    assert "41%" in section and "25%" in section and "−16%" in section
    assert f"{public_id} reach 300" in client.cookies.get("fd_goal")
    assert "final total of 300" in client.get(f"{page}?hint=1").text  # kept
    refused = client.post(f"{page}/goal", data={"goal": "lots"}, follow_redirects=True)
    assert refused.status_code == 422 and "a goal is a total to reach" in refused.text
    cleared = client.post(f"{page}/goal", data={"goal": ""}, follow_redirects=True)
    assert "final total of" not in cleared.text
    assert "Best options" in cleared.text


def test_while_the_goal_table_is_built_the_advice_stays_and_the_page_asks_again(
    client, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fivedice.service.errors import TablesPreparingError
    from fivedice.strategy.derived import BuildProgress

    def preparing(state: GameState, goal: int, *, wait: bool = True) -> list[Hint]:
        raise TablesPreparingError("being built")

    def progress(rules: object, *, goal: bool = False) -> BuildProgress | None:
        return BuildProgress("goal", 0.42, 330.0, 240.0) if goal else None

    monkeypatch.setattr("fivedice.service.coach.goal_hints", preparing)
    monkeypatch.setattr("fivedice.web.routers.pages.build_progress", progress)
    page = start(client)
    client.post(
        f"{page}/act", data={"action": "roll", "version": str(version_of(client.get(page).text))}
    )
    shown = client.post(f"{page}/goal", data={"goal": "reach 300"}, follow_redirects=True).text
    assert "Best options" in shown  # the normal advice meanwhile
    note = shown.split("data-retry=")[1].split("</p>")[0]
    assert "Computing the goal table: 42% done, about 6 min left" in note
