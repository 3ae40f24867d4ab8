"""Fault injection: the PostgreSQL server stops in the middle of a game played over the API.

The test starts its own throwaway cluster (initdb and pg_ctl in a temporary directory, on a
free loopback port; as the `postgres` user when run as root, like scripts/with-postgres.sh),
plays part of a game, stops the server, and checks that every request then gets a 503 with a
clear message and a Retry-After header (pages and API, no traceback). Then it starts the
server again: the game continues where it was, and no acknowledged action is lost.
Skipped only when the PostgreSQL binaries are not installed.
"""

from __future__ import annotations

import re

from fivedice.service.games import GameService
from tests.web.support import ORIGIN, SECRET, PageClient


def _act(client, game_id, headers, action, version):
    return client.post(
        f"/api/games/{game_id}/actions",
        json={"action": action, "version": version},
        headers=headers,
    )


def _next_action(state) -> str:
    if state["dice"] is None or state["rolls_left"] == 0 or state["rolls_used"] >= 2:
        if state["dice"] is None:
            return "roll"
        return f"score {max(state['placements'], key=lambda p: p['points'])['box']}"
    return "roll"


def test_a_stopped_database_answers_503_and_the_game_goes_on_after(cluster):
    from fivedice.web import create_app

    service = GameService.open(cluster.url)
    app = create_app(service, SECRET)
    acknowledged: list[str] = []
    with PageClient(app, headers={"Origin": ORIGIN}) as client:
        created = client.post("/api/games", json={"players": [{"name": "Ann"}], "seed": 5})
        assert created.status_code == 201
        state = created.json()
        game_id = state["id"]
        headers = {"Authorization": f"Bearer {state['tokens'][0]['token']}"}
        page_game = client.post(
            "/games", data={"kind0": "human", "name0": "Bea", "kind1": "none"},
            follow_redirects=False,
        )  # fmt: skip
        assert page_game.status_code == 303
        location = page_game.headers["location"]
        token = client.csrf_token()
        for _ in range(5):
            action = _next_action(state)
            response = _act(client, game_id, headers, action, state["version"])
            assert response.status_code == 200, response.text
            acknowledged.append(action)
            state = response.json()

        cluster.stop()  # the database goes away mid-game

        down = [
            client.get(f"/api/games/{game_id}"),
            _act(client, game_id, headers, _next_action(state), state["version"]),
            client.get(f"/api/games/{game_id}/hint", headers=headers),
            client.post("/api/games", json={"players": [{"name": "Cy"}]}),
        ]
        for response in down:
            assert response.status_code == 503, response.text
            assert response.headers["retry-after"].isdigit()
            detail = response.json()["detail"]
            assert "nothing was changed, try again" in detail and "Traceback" not in detail
        pages = [
            client.get(location),
            client.get("/resume"),
            client.post(location + "/act", data={"action": "roll", "version": "0"}),
            client.post("/games", data={"kind0": "human", "name0": "Di", "csrf_token": token}),
        ]
        for response in pages:
            assert response.status_code == 503, (response.request.url, response.text[:300])
            assert response.headers["retry-after"].isdigit()
            assert "try again" in response.text and "Traceback" not in response.text

        cluster.start()  # back again: the game goes on where it was

        again = client.get(f"/api/games/{game_id}")
        assert again.status_code == 200 and again.json()["version"] == state["version"]
        state = again.json()
        for _ in range(4):
            action = _next_action(state)
            response = _act(client, game_id, headers, action, state["version"])
            assert response.status_code == 200, response.text
            acknowledged.append(action)
            state = response.json()
        page = client.get(location).text
        assert 'id="roll"' in page  # the browser still holds its seat
        assert client.post(location + "/act", data={"action": "roll", "version": "0"}).is_success

    internal_id = app.state.hub.game_id(game_id)
    record = service.store.load_game(internal_id)
    assert [entry.action for entry in record.actions] == acknowledged
    assert record.version == state["version"] == len(acknowledged)
    assert re.fullmatch(r"\d+-[0-9a-f]{20}", game_id)
    service.store.close()
