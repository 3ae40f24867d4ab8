"""Rooms commit first too: a room made from the new-game form takes the commitment the form
showed before the host chose a seed, and the API's rooms take a host's seed only with a
commitment drawn before it (POST /api/commitments). Each commitment makes one room or game."""

from __future__ import annotations

import hashlib
import re

from sqlalchemy import func, select

from fivedice.store import schema
from tests.web.support import FORM, ROOM_FORM, another_browser, finish, invitations


def _form_commitment(page):
    """The commitment a new-game page shows, and the handle its form posts back."""
    commitment = re.search(r'id="form-commitment">([0-9a-f]{64})<', page).group(1)
    handle = re.search(r'name="commitment_handle" value="([^"]+)"', page).group(1)
    return commitment, handle


def _rooms(app) -> int:
    with app.state.hub.service.store.engine.connect() as db:
        return int(db.execute(select(func.count()).select_from(schema.rooms)).scalar_one())


def _games(app) -> int:
    return len(app.state.hub.service.store.list_games())


def _room_form(handle, **changes):
    return {**ROOM_FORM, "seed": "", "preset": "simple", "commitment_handle": handle, **changes}


def test_the_commitment_on_the_new_game_form_is_the_started_rooms_and_its_seed_hashes_to_it(
    client, app
):
    shown, handle = _form_commitment(client.get("/").text)
    made = client.post("/games", data=_room_form(handle, client_seed="ann's"))
    assert made.status_code == 200 and made.url.path.startswith("/r/"), made.text
    room = made.url.path
    assert re.search(r'id="commitment">([0-9a-f]{64})<', made.text).group(1) == shown
    (invite,) = invitations(made.text)
    seat, key = re.search(r"/invite/(\d+)\?key=(\w+)", invite).groups()
    with another_browser(app) as bob:
        # The invitation shows the room's commitment before Bob chooses his seed.
        assert shown in bob.get(invite).text
        joined = bob.post(
            "/join", data={"code": room[3:], "seat": seat, "key": key, "client_seed": "bob's"}
        )
        assert joined.status_code == 200
    started = client.post(room + "/start", data={"version": 1}, follow_redirects=False)
    assert started.status_code == 303, started.text
    hub = app.state.hub
    game_id = hub.game_id(started.headers["location"].rsplit("/", 1)[1])
    view = hub.load(game_id)
    assert view.dice_commitment == shown and view.client_seeds == ("ann's", "bob's")
    finish(hub.service, game_id)
    revealed = hub.load(game_id).server_seed
    assert revealed is not None
    assert hashlib.sha256(bytes.fromhex(revealed)).hexdigest() == shown


def test_a_handle_that_made_a_room_makes_no_game_and_no_other_room(client, app):
    commitment, handle = _form_commitment(client.get("/").text)
    first = client.post("/games", data=_room_form(handle, client_seed="mine"))
    assert first.url.path.startswith("/r/")
    rooms, games = _rooms(app), _games(app)
    for form in (
        _room_form(handle, client_seed="mine"),  # the room form again (a double click)
        {**FORM, "seed": "", "client_seed": "mine", "commitment_handle": handle},  # a game
    ):
        again = client.post("/games", data=form, follow_redirects=False)
        assert again.status_code == 409 and "already started a game" in again.text
        fresh, _ = _form_commitment(again.text)
        assert fresh != commitment and 'value="mine"' not in again.text  # choose again
    drawn = client.post(
        "/api/rooms", json={"players": [{"name": "Ann", "kind": "me"}, {"name": "Bob"}],
                            "commitment_handle": handle},
    )  # fmt: skip
    assert drawn.status_code == 409
    assert (_rooms(app), _games(app)) == (rooms, games)


def test_a_handle_that_made_a_game_makes_no_room(client, app):
    _commitment, handle = _form_commitment(client.get("/").text)
    game = client.post(
        "/games", data={**FORM, "seed": "", "client_seed": "x", "commitment_handle": handle}
    )
    assert game.url.path.startswith("/g/")
    rooms = _rooms(app)
    again = client.post("/games", data=_room_form(handle, client_seed="x"))
    assert again.status_code == 409 and _rooms(app) == rooms


def test_a_room_form_without_a_usable_commitment_makes_no_room_and_empties_the_seed(client, app):
    rooms = _rooms(app)
    for handle in ("", "0" * 32 + ".1.0", "not a handle"):
        refused = client.post("/games", data=_room_form(handle, client_seed="old form"))
        assert refused.status_code == 422 and "choose your seed again" in refused.text
        assert _form_commitment(refused.text) and 'value="old form"' not in refused.text
    assert _rooms(app) == rooms


def test_a_room_form_without_a_seed_still_takes_the_forms_commitment(client, app):
    shown, handle = _form_commitment(client.get("/").text)
    made = client.post("/games", data=_room_form(handle))
    assert made.url.path.startswith("/r/")
    assert app.state.hub.room(made.url.path[3:]).commitment == shown


# -- the API ------------------------------------------------------------------------------

ROOM = {"players": [{"name": "Ann", "kind": "me"}, {"name": "Bob"}]}


def test_an_api_room_with_a_hosts_seed_but_no_handle_is_refused_naming_the_two_steps(client, app):
    rooms = _rooms(app)
    for kind in ("me", "local"):
        body = {"players": [{"name": "Ann", "kind": kind, "client_seed": "a"}, {"name": "Bob"}]}
        refused = client.post("/api/rooms", json=body)
        assert refused.status_code == 422
        detail = refused.json()["detail"]
        assert "POST /api/commitments" in detail and "handle" in detail
    assert _rooms(app) == rooms


def test_an_api_room_without_a_hosts_seed_keeps_the_one_step(client):
    made = client.post("/api/rooms", json=ROOM)
    assert made.status_code == 201 and len(made.json()["room"]["dice_commitment"]) == 64


def test_an_api_room_takes_a_drawn_commitment_once(client, app):
    drawn = client.post("/api/commitments").json()
    body = {**ROOM, "commitment_handle": drawn["handle"]}
    made = client.post("/api/rooms", json=body)
    assert made.status_code == 201 and made.json()["room"]["dice_commitment"] == drawn["commitment"]
    rooms, games = _rooms(app), _games(app)
    assert client.post("/api/rooms", json=body).status_code == 409
    game = {
        "players": [{"name": "Ann"}],
        "client_seeds": ["s"],
        "commitment_handle": body["commitment_handle"],
    }
    assert client.post("/api/games", json=game).status_code == 409
    assert (_rooms(app), _games(app)) == (rooms, games)


def test_an_api_room_with_a_chosen_seed_takes_no_commitment(client, app):
    drawn = client.post("/api/commitments").json()
    refused = client.post(
        "/api/rooms", json={**ROOM, "seed": 5, "commitment_handle": drawn["handle"]}
    )
    assert refused.status_code == 422 and "chosen seed" in refused.json()["detail"]


def test_a_friends_seed_is_shown_to_everyone_as_soon_as_given(client):
    made = client.post("/api/rooms", json=ROOM).json()
    code, (invitation,) = made["room"]["code"], made["invitations"]
    # Before anyone joins, anybody with the code sees the commitment, and no seed yet.
    before = client.get(f"/api/rooms/{code}").json()
    assert before["dice_commitment"] == made["room"]["dice_commitment"]
    assert [s["client_seed"] for s in before["seats"]] == ["", ""]
    joined = client.post(
        f"/api/rooms/{code}/join", json={"invitation": invitation["invitation"]}
    ).json()
    device = {"Authorization": f"Bearer {joined['device_key']}"}
    seeded = client.post(
        f"/api/rooms/{code}/seed", json={"seat": 1, "client_seed": "bob's"}, headers=device
    )
    assert seeded.status_code == 200
    seen = client.get(f"/api/rooms/{code}").json()  # no key: what everyone sees
    assert [s["client_seed"] for s in seen["seats"]] == ["", "bob's"]
    assert seen["version"] > before["version"]  # the room's stream announces it
    assert seen["dice_commitment"] == before["dice_commitment"]


def test_the_join_by_code_form_asks_no_seed_before_a_commitment_is_shown(client):
    """The form knows no room yet, so no commitment: the seed is given in the waiting room,
    which shows it."""
    page = client.get("/join").text
    assert 'id="join-code"' in page and 'id="client-seed"' not in page
