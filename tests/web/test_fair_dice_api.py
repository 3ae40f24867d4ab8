"""The API's fair dice: the commitment shown from the start and the server seed only at the
end; with client seeds, the commitment drawn first (POST /api/commitments) and each of its
handles making one game."""

from __future__ import annotations

import hashlib
import time

import pytest

from fivedice.core.record import parse_record
from fivedice.service.creation import Commitments
from tests.web.support import SECRET, TestClient, new_game


def _play_out(client, game, seats):
    state = game
    while state["status"] == "in_progress":
        assert state["server_seed"] is None
        action = "roll" if state["dice"] is None else f"score {state['placements'][0]['box']}"
        state = client.post(
            f"/api/games/{game['id']}/actions",
            json={"action": action, "version": state["version"]},
            headers=seats[state["current_seat"]],
        ).json()
    return state


def _game_count(app):
    return len(app.state.hub.service.store.list_games())


def test_commitment_from_the_start_and_the_seed_revealed_at_the_end(client):
    game, seats = new_game(client, [{"name": "Solo"}], rules="simple", seed=None)
    commitment = game["dice_commitment"]
    assert len(commitment) == 64 and game["server_seed"] is None and not game["practice"]
    assert client.get(f"/api/games/{game['id']}").json()["server_seed"] is None
    state = _play_out(client, game, seats)
    assert state["dice_commitment"] == commitment
    revealed = client.get(f"/api/games/{game['id']}").json()["server_seed"]
    assert revealed == state["server_seed"]
    assert hashlib.sha256(bytes.fromhex(revealed)).hexdigest() == commitment


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_a_seeded_game_is_practice_without_a_commitment(client):
    game, _ = new_game(client, [{"name": "Solo"}], seed=3)
    assert game["practice"] and game["dice_commitment"] is None and game["server_seed"] is None


def test_the_commitment_drawn_before_the_client_seed_is_the_finished_games(client):
    drawn = client.post("/api/commitments")
    assert drawn.status_code == 201, drawn.text
    commitment, handle = drawn.json()["commitment"], drawn.json()["handle"]
    assert len(commitment) == 64 and drawn.json()["expires"] > time.time() + 3000
    # Only now does the client choose its seed: the server's is already fixed.
    game, seats = new_game(
        client,
        [{"name": "Solo"}],
        rules="simple",
        seed=None,
        client_seeds=["chosen after the commitment"],
        commitment_handle=handle,
    )
    assert game["dice_commitment"] == commitment
    assert game["client_seeds"] == ["chosen after the commitment"]  # shown from the start
    assert client.get(f"/api/games/{game['id']}").json()["client_seeds"] == game["client_seeds"]
    state = _play_out(client, game, seats)
    assert hashlib.sha256(bytes.fromhex(state["server_seed"])).hexdigest() == commitment
    record = parse_record(client.get(f"/g/{game['id']}/record.txt").text, check=False)
    assert record.dice_commitment == commitment
    assert record.client_seeds == ("chosen after the commitment",)


def test_a_client_seed_without_a_commitment_handle_is_refused_and_makes_no_game(client, app):
    before = _game_count(app)
    refused = client.post(
        "/api/games", json={"players": [{"name": "Ann"}], "client_seeds": ["mine"]}
    )
    assert refused.status_code == 422
    assert "POST /api/commitments" in refused.json()["detail"]
    assert _game_count(app) == before


def test_a_commitment_handle_makes_one_game_only(client, app):
    handle = client.post("/api/commitments").json()["handle"]
    body = {"players": [{"name": "Ann"}], "client_seeds": ["one"], "commitment_handle": handle}
    assert client.post("/api/games", json=body).status_code == 201
    before = _game_count(app)
    for seeds in (["one"], ["another"], []):
        again = client.post("/api/games", json={**body, "client_seeds": seeds})
        assert again.status_code == 409 and "already made a game" in again.json()["detail"]
    assert _game_count(app) == before


def test_a_forged_altered_or_expired_handle_is_refused(client, app):
    handle = client.post("/api/commitments").json()["handle"]
    nonce, expires, mac = handle.split(".")
    stale = Commitments(app.state.hub.signer.mac, clock=lambda: time.time() - 7200).draw()
    other = Commitments(lambda text: hashlib.sha256(b"not ours" + text.encode()).hexdigest())
    before = _game_count(app)
    for bad, words in [
        (f"{nonce[:-1]}{'1' if nonce[-1] == '0' else '0'}.{expires}.{mac}", "not drawn"),
        (f"{nonce}.{int(expires) + 86400}.{mac}", "not drawn"),  # a longer life
        (f"{nonce}.{expires}", "not drawn"),
        ("x" * 70, "not drawn"),
        (other.draw().handle, "not drawn"),  # another server's secret
        (stale.handle, "expired"),
    ]:
        body = {"players": [{"name": "Ann"}], "client_seeds": ["s"], "commitment_handle": bad}
        refused = client.post("/api/games", json=body)
        assert refused.status_code == 422, bad
        assert words in refused.json()["detail"], bad
    too_long = {"players": [{"name": "Ann"}], "commitment_handle": "1" * 500}
    assert client.post("/api/games", json=too_long).status_code == 422
    assert _game_count(app) == before
    # The real handle was never used by those refusals.
    body = {"players": [{"name": "Ann"}], "client_seeds": ["s"], "commitment_handle": handle}
    assert client.post("/api/games", json=body).status_code == 201


def test_a_handle_with_a_chosen_seed_is_refused(client, app):
    handle = client.post("/api/commitments").json()["handle"]
    body = {"players": [{"name": "Ann"}], "seed": 4, "commitment_handle": handle}
    refused = client.post("/api/games", json=body)
    assert refused.status_code == 422 and "chosen seed" in refused.json()["detail"]


def test_a_handle_without_client_seeds_still_fixes_the_server_seed(client):
    drawn = client.post("/api/commitments").json()
    game, _ = new_game(client, [{"name": "Ann"}], seed=None, commitment_handle=drawn["handle"])
    assert game["dice_commitment"] == drawn["commitment"] and game["client_seeds"] == [""]


def test_a_handle_drawn_by_one_worker_works_once_on_another(client, service):
    from fivedice.web import create_app

    other_worker = create_app(service, SECRET, drive_cpus=False)  # same secret, same database
    drawn = client.post("/api/commitments").json()
    body = {
        "players": [{"name": "Ann"}],
        "client_seeds": ["x"],
        "commitment_handle": drawn["handle"],
    }
    with TestClient(other_worker) as elsewhere:
        made = elsewhere.post("/api/games", json=body)
        assert made.status_code == 201 and made.json()["dice_commitment"] == drawn["commitment"]
    assert client.post("/api/games", json=body).status_code == 409
