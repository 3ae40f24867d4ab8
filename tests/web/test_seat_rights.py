"""Seats that stay their players' (pages and API): a stranger with the room code takes no
invited seat, a used invitation joins nobody else and gives the host nothing, another device
comes in by a one-time device link, open seats go by code, only the host abandons a game
others play (the others leave), hand-overs wait for the seat's turn to end and never go to
`master`, and a handed-over seat's old token is refused everywhere."""

from __future__ import annotations

import json
import re

import pytest

from fivedice.web.hub import GameHub
from tests.web.support import (
    ANN,
    BOB,
    another_browser,
    api_room,
    invitations,
    open_room,
    started_api_room,
)


def _invite_parts(link: str) -> tuple[str, str]:
    found = re.search(r"/invite/(\d+)\?key=(\w+)", link)
    assert found is not None
    return found.group(1), found.group(2)


def _version(page: str) -> str:
    found = re.search(r'data-version="(\d+)"', page)
    assert found is not None
    return found.group(1)


def test_a_stranger_with_the_room_code_cannot_take_an_invited_seat(client, app):
    room = open_room(client)
    code = room[3:]
    with another_browser(app) as mallory:
        refused = mallory.post("/join", data={"code": code, "name": "Mallory"})
        assert refused.status_code == 409 and "invitation" in refused.text
    api = client.post(f"/api/rooms/{code}/join", json={"name": "Mallory"})
    assert api.status_code == 409 and "device_key" not in api.text
    assert [s.joined for s in app.state.hub.room(code).seats] == [True, False]


def test_a_used_invitation_joins_nobody_else_and_gives_the_host_nothing(client, app):
    room = open_room(client)
    code = room[3:]
    (invite,) = invitations(client.get(room).text)
    seat, key = _invite_parts(invite)
    # The host's own browser cannot claim the friend's seat with the link it holds.
    own = client.post("/join", data={"code": code, "seat": seat, "key": key})
    assert own.status_code == 409 and "for a friend" in own.text
    with another_browser(app) as bob, another_browser(app) as eve:
        bob.post("/join", data={"code": code, "seat": seat, "key": key, "name": "Bob"})
        # Claimed: the host's page offers the link no more; anyone else who has it gets
        # nothing (page and API), and is told the seat is taken.
        assert invitations(client.get(room).text) == []
        assert "is taken" in eve.get(invite).text
        taken = eve.post("/join", data={"code": code, "seat": seat, "key": key})
        assert taken.status_code == 409 and "is taken" in taken.text
        api = client.post(f"/api/rooms/{code}/join", json={"invitation": key})
        assert api.status_code == 409
        hub: GameHub = app.state.hub
        assert hub.rooms.holder_of(hub.room(code), eve.cookies.get("fd_session")) is None
        started = client.post(
            room + "/start", data={"version": _version(client.get(room).text)},
            follow_redirects=False,
        )  # fmt: skip
        game = started.headers["location"]
        game_id = hub.game_id(game.rsplit("/", 1)[1])
        # The host holds only their own seat; the invitation is no key for the seat's token.
        assert hub.browser_seats.seats_in(client.cookies.get("fd_session"), game_id) == [0]
        as_key = client.get(f"/api/rooms/{code}/seat", headers={"Authorization": f"Bearer {key}"})
        assert as_key.status_code == 401
        # On Bob's turn the host's clicks are refused, never played for him.
        client.post(game + "/act", data={"action": "roll", "version": 0})
        client.post(game + "/act", data={"action": "score chance", "version": 1})
        assert client.post(game + "/act", data={"action": "roll", "version": 2}).status_code == 403
        assert bob.post(game + "/act", data={"action": "roll", "version": 2}).status_code == 200


def test_a_device_link_adds_one_more_device_once(client, app):
    room = open_room(client)
    code = room[3:]
    (invite,) = invitations(client.get(room).text)
    seat, key = _invite_parts(invite)
    hub: GameHub = app.state.hub
    with another_browser(app) as bob, another_browser(app) as phone, another_browser(app) as eve:
        bob.post("/join", data={"code": code, "seat": seat, "key": key})
        page = bob.get(room).text
        assert "Your devices" in page and "this device" in page and 'id="add-device"' in page
        assert 'id="add-device"' not in client.get(room).text  # the host holds no such seat
        made = bob.post(f"/r/{code}/devices")
        link = re.search(r'id="device-link" value="([^"]+)"', made.text).group(1)
        link = link.replace("&amp;", "&")
        # Opening the link changes nothing (a GET); its button adds the device.
        shown = phone.get(link)
        assert 'id="use-device"' in shown.text
        assert hub.rooms.holder_of(hub.room(code), phone.cookies.get("fd_session")) is None
        device_key = re.search(r'name="key" value="([^"]+)"', shown.text).group(1)
        added = phone.post(f"/r/{code}/device", data={"key": device_key}, follow_redirects=False)
        assert added.status_code == 303 and added.headers["location"] == room
        assert hub.rooms.holder_of(hub.room(code), phone.cookies.get("fd_session")) == int(seat)
        again = eve.post(f"/r/{code}/device", data={"key": device_key})
        assert again.status_code == 409 and "used already" in again.text
        assert hub.rooms.holder_of(hub.room(code), eve.cookies.get("fd_session")) is None
        listed = bob.get(room).text
        assert "Device 1" in listed and "Device 2" in listed
        # Someone without a seat gets no device link.
        assert eve.post(f"/r/{code}/devices").status_code == 409
        # Started: both of Bob's devices play his seat.
        client.post(room + "/start", data={"version": _version(client.get(room).text)})
        game_id = hub.room(code).game_id
        for device in (bob, phone):
            assert hub.browser_seats.seats_in(device.cookies.get("fd_session"), game_id) == [1]


def test_a_device_code_over_the_api_adds_one_device_once(client):
    code, game, _host, _ann, device_key, _bob = started_api_room(client)
    device = {"Authorization": f"Bearer {device_key}"}
    assert client.post(f"/api/rooms/{code}/device-code").status_code == 401
    made = client.post(f"/api/rooms/{code}/device-code", headers=device)
    assert made.status_code == 200 and made.json()["seat"] == 1
    device_code = made.json()["device_code"]
    joined = client.post(f"/api/rooms/{code}/join", json={"device_code": device_code})
    assert joined.status_code == 200 and joined.json()["seat"] == 1
    assert joined.json()["room"]["game"] == game
    second = {"Authorization": f"Bearer {joined.json()['device_key']}"}
    tokens = client.get(f"/api/rooms/{code}/seat", headers=second).json()["tokens"]
    assert [t["seat"] for t in tokens] == [1]
    assert (
        client.post(f"/api/rooms/{code}/join", json={"device_code": device_code}).status_code == 409
    )
    listed = client.get(f"/api/rooms/{code}/devices", headers=second).json()
    assert [d["number"] for d in listed["devices"]] == [1, 2]
    assert [d["this"] for d in listed["devices"]] == [False, True]


def test_open_seats_go_by_room_code_and_invited_seats_never(client, app):
    room = open_room(client, kind2="open", name2="Cy")
    code = room[3:]
    page = client.get(room).text
    assert "Open seat" in page and len(invitations(page)) == 1  # Bob's only
    with another_browser(app) as cy, another_browser(app) as dee:
        joined = cy.post("/join", data={"code": code, "name": "Cyd"}, follow_redirects=False)
        assert joined.status_code == 303
        full = dee.post("/join", data={"code": code, "name": "Dee"})
        assert full.status_code == 409
    seats = app.state.hub.room(code).seats
    assert [(s.kind, s.joined) for s in seats] == [("me", True), ("friend", False), ("open", True)]
    assert seats[2].name == "Cyd"
    # Over the API alike.
    made = api_room(client, ANN, {"name": "Eve", "kind": "open"})
    api_code = made["room"]["code"]
    assert made["invitations"] == []
    assert client.post(f"/api/rooms/{api_code}/join", json={"name": "Eva"}).status_code == 200
    assert client.post(f"/api/rooms/{api_code}/join", json={}).status_code == 409


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_a_started_rooms_code_reveals_nothing_to_outsiders(client, app):
    code, game, host, _ann, device_key, _bob = started_api_room(client)
    outsider = client.get(f"/api/rooms/{code}")
    assert outsider.status_code == 200 and outsider.json()["game"] is None
    assert game not in outsider.text
    for key in (host["Authorization"][7:], device_key):
        member = client.get(f"/api/rooms/{code}", headers={"Authorization": f"Bearer {key}"})
        assert member.json()["game"] == game
    hub: GameHub = app.state.hub
    ((_version, text, _name),) = hub.room_events_since(hub.room(code).room_id, None)
    assert json.loads(text)["game"] is None and json.loads(text)["status"] == "started"
    with another_browser(app) as stranger:
        page = stranger.get(f"/r/{code}", follow_redirects=False)
        assert page.status_code == 409 and game not in page.text
        assert "Only its players can open it" in page.text


def test_only_the_host_abandons_a_game_others_play_and_the_others_leave(client, app):
    room = open_room(client)
    code = room[3:]
    (invite,) = invitations(client.get(room).text)
    seat, key = _invite_parts(invite)
    hub: GameHub = app.state.hub
    with another_browser(app) as bob:
        bob.post("/join", data={"code": code, "seat": seat, "key": key})
        started = client.post(
            room + "/start", data={"version": _version(client.get(room).text)},
            follow_redirects=False,
        )  # fmt: skip
        game = started.headers["location"]
        game_id = hub.game_id(game.rsplit("/", 1)[1])
        # Bob may not abandon it for everyone: the question offers leaving instead.
        question = bob.get(game + "/abandon").text
        assert "Only the host abandons" in question and 'id="leave"' in question
        assert 'id="abandon-yes"' not in question
        refused = bob.post(game + "/abandon")
        assert refused.status_code == 403 and hub.load(game_id).status == "in_progress"
        assert 'id="leave"' in bob.get(game).text and 'id="leave"' not in client.get(game).text
        # The host may not "leave"; Bob leaves: a CPU plays his seat from now on.
        assert client.post(game + "/leave", data={"seat": 0}).status_code == 403
        left = bob.post(game + "/leave", data={"seat": 1}, follow_redirects=False)
        assert left.status_code == 303
        assert hub.load(game_id).state.seats[1].is_cpu
        assert hub.browser_seats.seats_in(bob.cookies.get("fd_session"), game_id) == []
        # The host abandons it for everyone.
        assert 'id="abandon-yes"' in client.get(game + "/abandon").text
        client.post(game + "/abandon")
        assert hub.load(game_id).status == "abandoned"


def test_the_api_hands_over_between_turns_only_and_never_to_master(client):
    _code, game, host, ann, _device, _bob = started_api_room(client)
    master = client.post(f"/api/games/{game}/seats/0/cpu", json={"level": "master"}, headers=host)
    assert master.status_code == 422 and "levels" in master.json()["detail"]
    client.post(f"/api/games/{game}/actions", json={"action": "roll", "version": 0}, headers=ann)
    mid = client.post(f"/api/games/{game}/seats/0/cpu", json={"level": "casual"}, headers=host)
    assert mid.status_code == 403 and "rolled in its turn" in mid.json()["detail"]
    # Seat 1 is not mid-turn (it is not its turn): handed over, to a listed level.
    handed = client.post(f"/api/games/{game}/seats/1/cpu", json={"level": "strong"}, headers=host)
    assert handed.status_code == 200 and handed.json()["players"][1]["kind"] == "cpu"
    assert client.get(f"/api/games/{game}").json()["players"][0]["kind"] == "human"


def test_a_handed_over_seats_old_token_is_refused_by_api_and_pages(client, app):
    code, game, host, ann, device_key, bob = started_api_room(client)
    token = bob["Authorization"][7:]
    hub: GameHub = app.state.hub
    game_id = hub.game_id(game)
    # Before: the token is Bob's; a browser may take the seat with it.
    assert client.get(f"/api/games/{game}/hint", headers=bob).status_code == 403  # Ann's turn
    with another_browser(app) as bob_browser:
        bob_browser.post(f"/g/{game}/join", data={"seat": "1", "token": token})
        assert hub.browser_seats.seats_in(bob_browser.cookies.get("fd_session"), game_id) == [1]
        client.post(f"/api/games/{game}/seats/1/cpu", json={"level": "casual"}, headers=host)
        # After: the API answers 401 (not a token of this game); the page holds no seat.
        client.post(
            f"/api/games/{game}/actions", json={"action": "roll", "version": 0}, headers=ann
        )
        client.post(
            f"/api/games/{game}/actions", json={"action": "score chance", "version": 1}, headers=ann
        )
        for answer in (
            client.get(f"/api/games/{game}/hint", headers=bob),
            client.post(f"/api/games/{game}/cpu", json={"version": 2}, headers=bob),
            client.post(
                f"/api/games/{game}/actions", json={"action": "roll", "version": 2}, headers=bob
            ),
        ):
            assert answer.status_code == 401, answer.text
        assert hub.browser_seats.seats_in(bob_browser.cookies.get("fd_session"), game_id) == []
        assert (
            bob_browser.post(f"/g/{game}/act", data={"action": "roll", "version": 2}).status_code
            == 403
        )
    with another_browser(app) as again:
        assert again.get(f"/g/{game}/join?seat=1&token={token}").status_code == 403
        stale = again.post(f"/g/{game}/join", data={"seat": "1", "token": token})
        assert stale.status_code == 403
        assert hub.browser_seats.seats_in(again.cookies.get("fd_session"), game_id) == []
    # The device key gives the seat's token no more (the seat is a CPU's now).
    device = {"Authorization": f"Bearer {device_key}"}
    assert client.get(f"/api/rooms/{code}/seat", headers=device).status_code == 401
    # Ann's token (generation 0, the shape of every older game) still works.
    assert client.get(f"/api/games/{game}/hint", headers=ann).status_code in (200, 403)


def test_only_the_seats_own_device_sets_its_seed_and_everyone_sees_it(client, app):
    room = open_room(client, seed="")  # (a chosen seed takes no client seeds)
    code = room[3:]
    (invite,) = invitations(client.get(room).text)
    seat, key = _invite_parts(invite)
    with another_browser(app) as bob:
        bob.post("/join", data={"code": code, "seat": seat, "key": key, "client_seed": "bob 1"})
        assert "Dice seed: bob 1" in client.get(room).text  # the host sees it at once
        assert (
            client.post(f"/r/{code}/seed", data={"seat": 1, "client_seed": "host's"}).status_code
            == 403
        )
        assert (
            bob.post(f"/r/{code}/seed", data={"seat": 1, "client_seed": "bob 2"}).status_code == 200
        )
        assert "Dice seed: bob 2" in client.get(room).text
    assert app.state.hub.room(code).seats[1].client_seed == "bob 2"
    # Over the API: the host key sets no friend's seed; the seat's device key does.
    made = api_room(client, ANN, BOB)
    api_code = made["room"]["code"]
    host = {"Authorization": f"Bearer {made['host_key']}"}
    joined = client.post(
        f"/api/rooms/{api_code}/join", json={"invitation": made["invitations"][0]["invitation"]}
    ).json()
    device = {"Authorization": f"Bearer {joined['device_key']}"}
    seed = {"seat": 1, "client_seed": "host's"}
    assert client.post(f"/api/rooms/{api_code}/seed", json=seed, headers=host).status_code == 403
    seed = {"seat": 1, "client_seed": "bob's"}
    assert client.post(f"/api/rooms/{api_code}/seed", json=seed, headers=device).status_code == 200
    seen = client.get(f"/api/rooms/{api_code}").json()  # anyone with the code sees it
    assert [s["client_seed"] for s in seen["seats"]] == ["", "bob's"]


@pytest.mark.parametrize("level", ["master", "god"])
def test_the_page_hands_a_seat_to_no_level_the_api_refuses(client, app, level):
    room = open_room(client)
    code = room[3:]
    (invite,) = invitations(client.get(room).text)
    seat, key = _invite_parts(invite)
    with another_browser(app) as bob:
        bob.post("/join", data={"code": code, "seat": seat, "key": key})
    client.post(room + "/start", data={"version": _version(client.get(room).text)})
    game_id = app.state.hub.room(code).game_id
    game = f"/g/{app.state.hub.public_id(game_id)}"
    page = client.get(game).text
    assert 'value="master"' not in page.split('id="handover"')[1]
    refused = client.post(game + "/handover", data={"seat": 1, "level": level})
    assert refused.status_code == 422
    assert not app.state.hub.load(game_id).state.seats[1].is_cpu


def test_six_devices_opening_one_invitation_at_once_claim_it_once(client, app):
    """Six devices press "Join" on one invitation at once (six worker threads): one claims
    the seat, five are told it is taken, and the seat has one device."""
    import threading

    room = api_room(client, ANN, BOB)
    code, invitation = room["room"]["code"], room["invitations"][0]["invitation"]
    barrier = threading.Barrier(6)
    statuses: list[int] = []

    def claim() -> None:
        barrier.wait()
        answer = client.post(f"/api/rooms/{code}/join", json={"invitation": invitation})
        statuses.append(answer.status_code)

    threads = [threading.Thread(target=claim) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(statuses) == [200, 409, 409, 409, 409, 409]
    hub: GameHub = app.state.hub
    assert len(hub.rooms.devices(hub.room(code), 1)) == 1
