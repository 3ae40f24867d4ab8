"""Rooms and the fair-dice commitment (issue "trust at the public edge", item 5, rooms).

Before: a room made from the new-game form drew its own server seed in the request that
carried the host's seed, so the commitment the form showed ("the game will show this
fingerprint") was never the room's; `POST /api/rooms` likewise took the host's seed in the
request that drew the server seed (a server could draw until the dice suited it: see
`bench_fair_dice.py`, `one_step`). Now the room takes the form's (or the API's) commitment.

Prints one JSON object, from an app in this process (a temporary SQLite file):

* `page`: `--rooms` rooms made from the new-game form with a seed of the host's: how many
  have the commitment the form showed, how many of their started games, and how many
  revealed server seeds (the game abandoned) hash to it; the same form posted again
  (status, rooms made by it).
* `api`: a room with a host's seed and no handle (status, rooms made); with a drawn handle
  (its commitment the room's?); the handle again for a room and for a game (statuses).

    .venv/bin/python benchmarks/room_commitments.py [--rooms 20]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import tempfile
from pathlib import Path
from typing import Any

ORIGIN = "http://testserver"
ROOM_FORM = {
    "kind0": "me", "name0": "Ann", "kind1": "friend", "name1": "Bob", "kind2": "none",
    "kind3": "none", "preset": "classic", "first_player": "first_seat", "match_length": "1",
    "seed": "", "client_seed": "ann's own seed",
}  # fmt: skip


def _shown(page: str) -> tuple[str | None, str | None, str]:
    """(commitment, handle, CSRF token) of a new-game page."""
    commitment = re.search(r'id="form-commitment">([0-9a-f]{64})<', page)
    handle = re.search(r'name="commitment_handle" value="([^"]+)"', page)
    token = re.search(r'<meta name="csrf-token" content="([^"]*)"', page)
    return (
        commitment.group(1) if commitment else None,
        handle.group(1) if handle else None,
        token.group(1) if token else "",
    )


def _rooms_made(app: Any) -> int:
    from sqlalchemy import func, select

    from fivedice.store import schema

    with app.state.hub.service.store.engine.connect() as db:
        return int(db.execute(select(func.count()).select_from(schema.rooms)).scalar_one())


def page_rooms(client: Any, app: Any, count: int) -> dict[str, object]:
    hub = app.state.hub
    same = started_same = revealed_same = 0
    for _ in range(count):
        shown, handle, token = _shown(client.get("/").text)
        form = {**ROOM_FORM, "csrf_token": token, "commitment_handle": handle or ""}
        made = client.post("/games", data=form, follow_redirects=False)
        room = hub.room(made.headers["location"].rsplit("/", 1)[1])
        same += room.commitment == shown
        _room, view = hub.start_room(room.code, room.version, fill_with_cpus=True)
        started_same += view.dice_commitment == shown
        seed = hub.abandon(view.game_id).server_seed
        revealed_same += (
            seed is not None and hashlib.sha256(bytes.fromhex(seed)).hexdigest() == shown
        )
    shown, handle, token = _shown(client.get("/").text)
    form = {**ROOM_FORM, "csrf_token": token, "commitment_handle": handle or ""}
    first = client.post("/games", data=form, follow_redirects=False)
    before = _rooms_made(app)
    # A double click: the same form again (with the rotated session's CSRF token).
    form["csrf_token"] = _shown(client.get("/").text)[2]
    again = client.post("/games", data=form, follow_redirects=False)
    return {
        "rooms": count,
        "room_commitment_is_the_forms": same,
        "started_game_commitment_is_the_forms": started_same,
        "revealed_server_seed_hashes_to_the_forms": revealed_same,
        "first_post_status": first.status_code,
        "same_form_again_status": again.status_code,
        "rooms_made_by_posting_again": _rooms_made(app) - before,
    }


def api_rooms(client: Any, app: Any) -> dict[str, object]:
    players = [{"name": "Ann", "kind": "me", "client_seed": "a"}, {"name": "Bob"}]
    before = _rooms_made(app)
    without = client.post("/api/rooms", json={"players": players})
    made_without = _rooms_made(app) - before
    drawn = client.post("/api/commitments").json()
    body = {"players": players, "commitment_handle": drawn["handle"]}
    with_handle = client.post("/api/rooms", json=body)
    again = client.post("/api/rooms", json=body)
    game = client.post(
        "/api/games",
        json={"players": [{"name": "Ann"}], "client_seeds": ["x"],
              "commitment_handle": drawn["handle"]},
    )  # fmt: skip
    room = with_handle.json().get("room") if with_handle.status_code == 201 else None
    return {
        "host_seed_without_handle_status": without.status_code,
        "rooms_made_by_it": made_without,
        "with_handle_status": with_handle.status_code,
        "room_commitment_is_the_drawn": bool(room)
        and room["dice_commitment"] == drawn["commitment"],
        "same_handle_room_again_status": again.status_code,
        "same_handle_game_status": game.status_code,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=20)
    arguments = parser.parse_args()
    from fastapi.testclient import TestClient

    from fivedice.service.games import GameService
    from fivedice.web import create_app

    with tempfile.TemporaryDirectory() as folder:
        service = GameService.open(f"sqlite:///{Path(folder) / 'bench.sqlite3'}")
        app = create_app(service, b"bench-secret-0123456789abcdef", drive_cpus=False)
        with TestClient(app, headers={"Origin": ORIGIN}) as client:
            figures = {
                "page": page_rooms(client, app, arguments.rooms),
                "api": api_rooms(client, app),
            }
        service.store.close()
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
