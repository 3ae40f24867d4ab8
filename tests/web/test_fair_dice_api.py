"""The API shows a game's dice commitment from the start and its server seed only at the end."""

from __future__ import annotations

import hashlib

from tests.web.support import new_game


def test_commitment_from_the_start_and_the_seed_revealed_at_the_end(client):
    game, seats = new_game(client, [{"name": "Solo"}], rules="simple", seed=None)
    commitment = game["dice_commitment"]
    assert len(commitment) == 64 and game["server_seed"] is None and not game["practice"]
    state = game
    while state["status"] == "in_progress":
        assert state["server_seed"] is None
        assert client.get(f"/api/games/{game['id']}").json()["server_seed"] is None
        action = "roll" if state["dice"] is None else f"score {state['placements'][0]['box']}"
        state = client.post(
            f"/api/games/{game['id']}/actions",
            json={"action": action, "version": state["version"]},
            headers=seats[0],
        ).json()
    assert state["dice_commitment"] == commitment
    revealed = client.get(f"/api/games/{game['id']}").json()["server_seed"]
    assert revealed == state["server_seed"]
    assert hashlib.sha256(bytes.fromhex(revealed)).hexdigest() == commitment


def test_a_seeded_game_is_practice_without_a_commitment(client):
    game, _ = new_game(client, [{"name": "Solo"}], seed=3)
    assert game["practice"] and game["dice_commitment"] is None and game["server_seed"] is None
