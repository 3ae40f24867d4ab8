"""Rooms in the pages: seat kinds on the new-game form, the waiting room, invitations, the
room code, the host's start, and handing a seat whose player left to a CPU."""

from __future__ import annotations

import re

import pytest

from tests.web.support import FORM, another_browser, invitations, open_room


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_a_friend_joins_by_invitation_and_the_host_starts(client, app):
    room = open_room(client, kind2="cpu", name2="Cee", kind3="local", name3="Dee")
    page = client.get(room).text
    assert "Waiting room" in page and room[3:] in page and 'id="start"' in page
    assert "not joined yet" in page
    (invite,) = invitations(page)
    with another_browser(app) as bob:
        # The invitation asks for a name, then joins; the room shows Bob as joined.
        assert "You are invited to play as Bob" in bob.get(invite).text
        seat, key = re.search(r"/invite/(\d+)\?key=(\w+)", invite).groups()
        joined = bob.post(
            "/join", data={"code": room[3:], "seat": seat, "key": key, "name": "Bobby"},
            follow_redirects=False,
        )  # fmt: skip
        assert joined.status_code == 303 and joined.headers["location"] == room
        bob_page = bob.get(room).text
        assert "Bobby" in bob_page and 'id="start"' not in bob_page  # only the host starts
        assert "Waiting for the host" in bob_page
        assert bob.post(room + "/start", data={"version": 1}).status_code == 403
        assert "joined" in client.get(room).text
        # A forged key joins nothing.
        assert bob.get(invite[:-4] + "0000").status_code == 403
        started = client.post(room + "/start", data={"version": 1}, follow_redirects=False)
        assert started.status_code == 303 and started.headers["location"].startswith("/g/")
        game = started.headers["location"]
        # Everyone is sent on to the game; each browser holds only the seats it plays.
        assert bob.get(room, follow_redirects=False).headers["location"] == game
        hub = app.state.hub
        game_id = hub.game_id(game.rsplit("/", 1)[1])
        ann_session, bob_session = client.cookies.get("fd_session"), bob.cookies.get("fd_session")
        assert hub.browser_seats.seats_in(ann_session, game_id) == [0, 3]
        assert hub.browser_seats.seats_in(bob_session, game_id) == [1]
        names = [seat.name for seat in hub.load(game_id).state.seats]
        assert names == ["Ann", "Bobby", "Cee", "Dee"]
        # Ann acts in her seat; on Bob's turn her clicks are refused, never played for him.
        client.post(game + "/act", data={"action": "roll", "version": 0})
        client.post(game + "/act", data={"action": "score chance", "version": 1})
        refused = client.post(game + "/act", data={"action": "roll", "version": 2})
        assert refused.status_code == 403 and hub.load(game_id).version == 2
        assert bob.post(game + "/act", data={"action": "roll", "version": 2}).status_code == 200
        # The invitation opened on another device finds the seat taken: it joins nobody.
        with another_browser(app) as phone:
            assert "is taken" in phone.get(invite).text
            taken = phone.post("/join", data={"code": room[3:], "seat": seat, "key": key})
            assert taken.status_code == 409 and "is taken" in taken.text
            assert hub.browser_seats.seats_in(phone.cookies.get("fd_session"), game_id) == []
        # Bob left: the host hands his seat to a CPU; nobody else may, and not mid-turn.
        assert "Let a CPU play for Bobby" in client.get(game).text
        assert bob.post(game + "/handover", data={"seat": 1}).status_code == 403
        assert client.post(game + "/handover", data={"seat": 0}).status_code == 403
        mid_turn = client.post(game + "/handover", data={"seat": 1})
        assert mid_turn.status_code == 403 and "has rolled in its turn" in mid_turn.text
        bob.post(game + "/act", data={"action": "score chance", "version": 3})
        assert client.post(game + "/handover", data={"seat": 1}).status_code == 200
        assert hub.load(game_id).state.seats[1].is_cpu
        # Bob's browser holds the seat no more.
        assert hub.browser_seats.seats_in(bob_session, game_id) == []


def test_joining_an_open_seat_by_room_code_and_starting_with_cpus(client, app):
    room = open_room(client, kind1="open", kind2="open", name2="Eve")
    code = room[3:]
    assert "Join a game" in client.get("/").text
    with another_browser(app) as bob:
        assert 'id="join-code"' in bob.get("/join").text
        wrong = bob.post("/join", data={"code": "ZZZZZZ", "name": "Bob"})
        assert wrong.status_code == 404 and "ZZZZZZ" in wrong.text
        # A name another seat has is refused (the game needs distinct names).
        taken = bob.post("/join", data={"code": code, "name": "ann"})
        assert taken.status_code == 409 and "ann is taken" in taken.text
        # Typed loosely (lower case, spaces): the first free seat is Bob's.
        typed = " ".join([code[:3].lower(), code[3:]])
        joined = bob.post("/join", data={"code": typed, "name": "Bob"}, follow_redirects=False)
        assert joined.status_code == 303 and joined.headers["location"] == room
        # Joining again takes no second seat.
        bob.post("/join", data={"code": code, "name": "Bob"})
    hub = app.state.hub
    state = hub.room(code)
    assert [s.joined for s in state.seats] == [True, True, False]
    # Someone joined since the host looked: the start is refused, nothing changes.
    assert client.post(room + "/start", data={"version": 0, "fill": "1"}).status_code == 409
    started = client.post(room + "/start", data={"version": 1, "fill": "1"})
    assert started.status_code == 200
    game_id = hub.room(code).game_id
    seats = hub.load(game_id).state.seats
    assert [s.is_cpu for s in seats] == [False, False, True] and seats[2].name == "Eve"
    assert client.post(room + "/start", data={"version": 2}).status_code == 409


def test_a_room_without_friends_is_just_a_game(client):
    response = client.post("/games", data={**FORM, "kind1": "local"}, follow_redirects=False)
    assert response.headers["location"].startswith("/g/")


def test_six_simultaneous_api_starts_of_a_room_answer_once_and_make_one_game(client, service):
    """Six clicks on "start" at once (six worker threads): one start, five refusals (409),
    and exactly one game in the store."""
    import threading

    from sqlalchemy import func, select

    from fivedice.store import schema

    made = client.post(
        "/api/rooms", json={"players": [{"name": "Ann", "kind": "me"}, {"name": "Bob"}]}
    )
    assert made.status_code == 201, made.text
    code, version = made.json()["room"]["code"], made.json()["room"]["version"]
    host = {"Authorization": f"Bearer {made.json()['host_key']}"}
    barrier = threading.Barrier(6)
    statuses: list[int] = []

    def start() -> None:
        barrier.wait()
        response = client.post(
            f"/api/rooms/{code}/start",
            json={"version": version, "fill_with_cpus": True},
            headers=host,
        )
        statuses.append(response.status_code)

    threads = [threading.Thread(target=start) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(statuses) == [200, 409, 409, 409, 409, 409]
    with service.store.engine.connect() as connection:
        games = connection.execute(select(func.count()).select_from(schema.games)).scalar_one()
    assert games == 1


@pytest.mark.parametrize("name", ["a\nseed: 99\x1b[31m", "\u202eevil", "\u200b"])
def test_joining_a_room_refuses_a_name_no_other_form_would_take(client, app, name):
    """On the room join form (page and API), a control character, a line
    break or a direction mark in the name is refused, and the seat stays unjoined."""
    room = open_room(client)
    code = room[3:]
    with another_browser(app) as bob:
        refused = bob.post("/join", data={"code": code, "name": name}, follow_redirects=False)
        assert refused.status_code == 422, refused.text
    api = client.post(f"/api/rooms/{code}/join", json={"name": name})
    assert api.status_code == 422, api.text
    seats = app.state.hub.room(code).seats
    assert [s.joined for s in seats if s.kind == "friend"] == [False]
    assert all(s.name in ("Ann", "Bob") for s in seats)
