"""The JSON API: every endpoint and every refusal, and that a refusal changes nothing."""

from __future__ import annotations

import itertools

import pytest

from tests.web.support import new_game


def act(client, game, headers, action, version=None):
    version = game["version"] if version is None else version
    return client.post(
        f"/api/games/{game['id']}/actions",
        json={"action": action, "version": version},
        headers=headers,
    )


def unchanged(client, game):
    """The game as saved equals `game` (a refused request changed nothing)."""
    now = client.get(f"/api/games/{game['id']}").json()
    assert now == {k: v for k, v in game.items() if k != "tokens"}


def test_create_returns_state_id_and_a_token_per_human_seat(client):
    response = client.post(
        "/api/games",
        json={
            "players": [
                {"name": "Ann", "kind": "human"},
                {"name": "CPU", "kind": "cpu", "level": "casual"},
            ],
            "rules": "classic",
            "set": {"rolls_per_turn": 4},
            "seed": 3,
        },
    )
    assert response.status_code == 201
    game = response.json()
    assert game["version"] == 0 and game["status"] == "in_progress"
    assert game["rule_settings"]["rolls_per_turn"] == 4 and game["rules"] is None
    assert [t["seat"] for t in game["tokens"]] == [0]
    assert game["legal_actions"] == ["roll"] and game["dice"] is None
    assert [p["kind"] for p in game["players"]] == ["human", "cpu"]
    number, _, mac = game["id"].partition("-")
    assert number.isdigit() and len(mac) == 20  # not guessable from the number alone


def test_get_and_play_a_turn(client):
    game, seats = new_game(client)
    got = client.get(f"/api/games/{game['id']}")
    assert got.status_code == 200 and got.json()["current_seat"] == 0
    rolled = act(client, game, seats[0], "roll")
    assert rolled.status_code == 200
    state = rolled.json()
    assert state["version"] == 1 and len(state["dice"]) == 5 and state["rolls_left"] == 2
    assert {p["box"] for p in state["placements"]} == set(
        state["players"][0]["card"]["columns"][0]["boxes"]
    )
    held = act(client, state, seats[0], "hold 1 2").json()
    assert held["held"][:2] == [True, True]
    scored = act(client, held, seats[0], "score chance").json()
    assert scored["current_seat"] == 1
    assert scored["players"][0]["card"]["columns"][0]["boxes"]["chance"] == sum(held["dice"])


def test_unknown_games_are_404(client, app):
    game, seats = new_game(client)
    number = game["id"].split("-")[0]
    for bad in (f"{number}-00000000000000000000", number, "nope", f"{number}-"):
        assert client.get(f"/api/games/{bad}").status_code == 404
        response = client.post(
            f"/api/games/{bad}/actions", json={"action": "roll", "version": 0}, headers=seats[0]
        )
        assert response.status_code == 404 and "no game" in response.json()["detail"]
    # A correctly signed id of a game that does not exist.
    missing = app.state.hub.public_id(9999)
    assert client.get(f"/api/games/{missing}").status_code == 404
    assert client.get(f"/api/games/{missing}/hint", headers=seats[0]).status_code == 404


def test_missing_or_foreign_token_is_401(client):
    game, _seats = new_game(client)
    _other, other_seats = new_game(client)
    for headers in ({}, {"Authorization": "Bearer nonsense"}, other_seats[0]):
        response = act(client, game, headers, "roll")
        assert response.status_code == 401, headers
        assert "token" in response.json()["detail"]
    unchanged(client, game)


def test_other_seats_token_is_403(client):
    game, seats = new_game(client)
    response = act(client, game, seats[1], "roll")
    assert response.status_code == 403
    assert "Ann's turn" in response.json()["detail"]
    unchanged(client, game)
    assert client.get(f"/api/games/{game['id']}/hint", headers=seats[1]).status_code == 403


def test_cpu_turn_is_403_for_humans(client):
    game, seats = new_game(client, [{"name": "Ann"}, {"name": "Cee", "kind": "cpu"}])
    state = act(client, game, seats[0], "roll").json()
    state = act(client, state, seats[0], "score chance").json()
    assert state["is_cpu_turn"]
    response = act(client, state, seats[0], "roll")
    assert response.status_code == 403 and "(CPU)" in response.json()["detail"]
    unchanged(client, state)


@pytest.mark.parametrize(
    "body",
    [
        {"action": "roll"},
        {"version": 0},
        {"action": "roll", "version": "zero"},
        {"action": "roll", "version": -1},
        {"action": "", "version": 0},
        {"action": "roll", "version": 0, "extra": 1},
        [],
    ],
)
def test_malformed_bodies_are_422(client, body):
    game, seats = new_game(client)
    response = client.post(f"/api/games/{game['id']}/actions", json=body, headers=seats[0])
    assert response.status_code == 422
    assert response.json()["detail"].startswith("malformed request")
    unchanged(client, game)


def test_non_json_body_is_422(client):
    game, seats = new_game(client)
    response = client.post(
        f"/api/games/{game['id']}/actions",
        content=b"roll please",
        headers={**seats[0], "Content-Type": "application/json"},
    )
    assert response.status_code == 422
    unchanged(client, game)


@pytest.mark.parametrize("text", ["fly", "hold 7", "score nothing", "roll 2"])
def test_malformed_action_text_is_422(client, text):
    game, seats = new_game(client)
    response = act(client, game, seats[0], text)
    assert response.status_code == 422 and response.json()["detail"]
    unchanged(client, game)


@pytest.mark.parametrize("text", ["score chance", "hold 1", "release 2"])
def test_illegal_actions_are_409(client, text):
    game, seats = new_game(client)
    response = act(client, game, seats[0], text)
    assert response.status_code == 409
    assert "roll" in response.json()["detail"]
    unchanged(client, game)


def test_filled_box_and_rolling_past_the_limit_are_409(client):
    game, seats = new_game(client, [{"name": "Solo"}])
    state = act(client, game, seats[0], "roll").json()
    state = act(client, state, seats[0], "score chance").json()
    state = act(client, state, seats[0], "roll").json()
    response = act(client, state, seats[0], "score chance")
    assert response.status_code == 409 and "already filled" in response.json()["detail"]
    state = act(client, state, seats[0], "roll").json()
    state = act(client, state, seats[0], "roll").json()
    response = act(client, state, seats[0], "roll")
    assert response.status_code == 409 and "no rolls are left" in response.json()["detail"]
    unchanged(client, state)


def test_stale_version_is_409_and_a_double_submit_applies_once(client):
    game, seats = new_game(client)
    first = act(client, game, seats[0], "roll")
    assert first.status_code == 200
    again = act(client, game, seats[0], "roll")  # the same request once more
    assert again.status_code == 409 and "version" in again.json()["detail"]
    ahead = act(client, first.json(), seats[0], "roll", version=5)
    assert ahead.status_code == 409
    unchanged(client, first.json())


def test_hint_lists_options_best_first(client):
    game, seats = new_game(client, [{"name": "Solo"}])
    before = client.get(f"/api/games/{game['id']}/hint", headers=seats[0])
    assert before.status_code == 409 and "rolled" in before.json()["detail"]
    assert client.get(f"/api/games/{game['id']}/hint").status_code == 401
    state = act(client, game, seats[0], "roll").json()
    response = client.get(f"/api/games/{game['id']}/hint", headers=seats[0])
    assert response.status_code == 200
    hint = response.json()
    assert hint["version"] == state["version"]
    options = hint["options"]
    assert options[0]["loss"] == 0 and all(
        a["value"] >= b["value"] for a, b in itertools.pairwise(options)
    )
    keep = next(o for o in options if o["kind"] == "keep")
    assert sorted(state["dice"][p - 1] for p in keep["hold"]) == keep["keep"]
    unchanged(client, state)


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_hint_in_a_triple_game_names_columns_and_its_actions_apply(client):
    game, seats = new_game(client, [{"name": "Solo"}], rules="triple")
    state = act(client, game, seats[0], "roll").json()
    response = client.get(f"/api/games/{game['id']}/hint", headers=seats[0])
    assert response.status_code == 200
    options = response.json()["options"]
    assert all(o["estimate"] for o in options)
    scores = [o for o in options if o["kind"] == "score"]
    assert {o["column"] for o in scores} == {1, 2, 3}
    for option in scores:
        expected = (
            f"score {option['box']}"
            if option["column"] == 1
            else (f"score {option['column']}:{option['box']}")
        )
        assert option["action"] == expected
    best_in_column_3 = next(o for o in scores if o["column"] == 3)
    after = act(client, state, seats[0], best_in_column_3["action"])
    assert after.status_code == 200
    third = after.json()["players"][0]["card"]["columns"][2]
    assert third["column"] == 3
    assert third["boxes"][best_in_column_3["box"]] is not None


def test_cpu_endpoint_steps_a_cpu_seat(client):
    game, seats = new_game(client, [{"name": "Ann"}, {"name": "Cee", "kind": "cpu"}])
    response = client.post(f"/api/games/{game['id']}/cpu", json={"version": 0}, headers=seats[0])
    assert response.status_code == 409 and "not a CPU" in response.json()["detail"]
    state = act(client, game, seats[0], "roll").json()
    state = act(client, state, seats[0], "score chance").json()
    anonymous = client.post(f"/api/games/{game['id']}/cpu", json={"version": state["version"]})
    assert anonymous.status_code == 401
    steps = 0
    while state["is_cpu_turn"]:
        response = client.post(
            f"/api/games/{game['id']}/cpu", json={"version": state["version"]}, headers=seats[0]
        )
        assert response.status_code == 200, response.text
        step = response.json()
        assert step["game"]["version"] == state["version"] + 1 and step["action"]
        state = step["game"]
        steps += 1
    assert steps >= 2 and state["current_seat"] == 0


def test_bad_settings_are_422(client):
    cases = [
        {"players": [{"name": "A"}], "rules": "chess"},
        {"players": [{"name": "A"}], "set": {"rolls_per_turn": 0}},
        {"players": [{"name": "A"}], "set": {"nonsense": 1}},
        {"players": [{"name": "A"}, {"name": "a"}]},
        {"players": []},
        {"players": [{"name": "A", "kind": "cpu", "level": "godlike"}]},
        {"players": [{"name": " "}]},
    ]
    for body in cases:
        response = client.post("/api/games", json=body)
        assert response.status_code == 422, body
        assert response.json()["detail"], body


def test_a_whole_solo_game_ends_finished(client):
    game, seats = new_game(client, [{"name": "Solo"}], rules="simple", seed=11)
    state = game
    while state["status"] == "in_progress":
        if state["dice"] is None:
            state = act(client, state, seats[0], "roll").json()
        else:
            best = max(state["placements"], key=lambda p: p["points"])
            state = act(client, state, seats[0], f"score {best['box']}").json()
    assert state["status"] == "finished" and state["legal_actions"] == []
    assert state["players"][0]["rank"] == 1
    # A finished game is a closed game: 409, as the README says (it was 403).
    response = act(client, state, seats[0], "roll")
    assert response.status_code == 409 and "finished" in response.json()["detail"]
    hint = client.get(f"/api/games/{game['id']}/hint", headers=seats[0])
    assert hint.status_code == 409 and "finished" in hint.json()["detail"]
    assert client.get(f"/api/games/{game['id']}").json()["version"] == state["version"]


def test_the_hint_api_gives_the_advisors_values_unrounded(client, service):
    """In the web API exact means exact, so the hint's values and losses
    are the advisor's float64 values as they are (JSON carries a double exactly), not
    rounded to 4 places."""
    game, seats = new_game(client, [{"name": "Solo"}])
    client.post(
        f"/api/games/{game['id']}/actions",
        json={"action": "roll", "version": game["version"]},
        headers=seats[0],
    )
    options = client.get(f"/api/games/{game['id']}/hint", headers=seats[0]).json()["options"]
    exact = service.hint(client.app.state.hub.game_id(game["id"]))
    assert len(options) == len(exact)
    assert [o["value"] for o in options] == [float(o.value) for o in exact]
    assert [o["loss"] for o in options] == [float(o.loss) for o in exact]


def test_hint_gives_each_option_its_breakdown_and_the_reasons(client, classic_table):
    from fivedice.strategy.breakdown import breakdown_of

    breakdown_of(classic_table.rules)  # at hand: the API never waits for it
    game, seats = new_game(client, [{"name": "Solo"}])
    act(client, game, seats[0], "roll")
    hint = client.get(f"/api/games/{game['id']}/hint", headers=seats[0]).json()
    for option in hint["options"]:
        assert sum(option["breakdown"].values()) == pytest.approx(option["value"], abs=1e-9)
        assert (option["chances_this_turn"] is not None) == (option["kind"] == "keep")
    best, second = hint["options"][:2]
    for reason in hint["reasons"]:
        key = reason["component"]
        difference = best["breakdown"][key] - second["breakdown"][key]
        assert reason["points"] == pytest.approx(difference)
    sizes = [abs(r["points"]) for r in hint["reasons"]]
    others = [
        abs(best["breakdown"][k] - second["breakdown"][k])
        for k in best["breakdown"]
        if k not in {r["component"] for r in hint["reasons"]}
    ]
    assert not sizes or min(sizes) >= max(others, default=0.0)  # the largest differences


def test_hint_in_a_triple_game_gives_each_option_its_breakdown_by_column(client, classic_table):
    from fivedice.strategy.breakdown import breakdown_of

    breakdown_of(classic_table.rules)  # the one-column breakdown at hand: no waiting
    game, seats = new_game(client, [{"name": "Solo"}], rules="triple")
    act(client, game, seats[0], "roll")
    hint = client.get(f"/api/games/{game['id']}/hint", headers=seats[0]).json()
    for option in hint["options"]:
        assert option["estimate"]  # still the CPU's estimates, split per column
        assert sum(option["breakdown"].values()) == pytest.approx(option["value"], abs=1e-9)
        assert {"1:yahtzee", "2:yahtzee", "3:yahtzee", "3:upper_bonus"} <= set(option["breakdown"])
        assert (option["chances_this_turn"] is not None) == (option["kind"] == "keep")
    best, second = hint["options"][:2]
    assert hint["reasons"]
    for reason in hint["reasons"]:
        key = reason["component"]
        assert key.split(":")[0] in {"1", "2", "3"}
        assert reason["points"] == pytest.approx(best["breakdown"][key] - second["breakdown"][key])
