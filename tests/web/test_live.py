"""Moves pushed (Server-Sent Events), CPUs played by the server, rooms over the JSON API.

The streams are read from a real uvicorn server (in a thread, on SQLite): the stream of a
game is endless, which the in-process test client cannot read with a timeout.
"""

from __future__ import annotations

import httpx
import pytest

from fivedice.store.notices import Topic
from fivedice.web import create_app
from tests.web.live_helpers import data, events, running, take, wait_until
from tests.web.support import SECRET

ACTIONS = ["roll", "hold 1", "hold 2", "release 1", "roll"]


@pytest.fixture
def live_app(service):
    return create_app(service, SECRET, cpu_delay_ms=0, cpu_scan_seconds=0.5)


def _new(base, players, seed=7):
    response = httpx.post(f"{base}/api/games", json={"players": players, "seed": seed})
    assert response.status_code == 201, response.text
    game = response.json()
    return game, {t["seat"]: {"Authorization": f"Bearer {t['token']}"} for t in game["tokens"]}


def _act(base, game_id, seat_headers, action, version):
    response = httpx.post(
        f"{base}/api/games/{game_id}/actions",
        json={"action": action, "version": version},
        headers=seat_headers,
    )
    assert response.status_code == 200, response.text
    return response.json()


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_a_reconnecting_stream_gets_every_missed_version_once_in_order(live_app):
    with running(live_app) as base:
        game, seats = _new(base, [{"name": "Ann"}])
        url = f"{base}/api/games/{game['id']}/events"
        with httpx.stream("GET", url, timeout=30) as response:
            assert response.status_code == 200
            assert response.headers["content-type"].startswith("text/event-stream")
            assert response.headers["x-accel-buffering"] == "no"
            first = take(events(response), 1)[0]
        assert first["id"] == "0" and data(first)["version"] == 0
        # Five actions while the client is away.
        for version, action in enumerate(ACTIONS):
            _act(base, game["id"], seats[0], action, version)
        headers = {"Last-Event-ID": first["id"]}
        with httpx.stream("GET", url, headers=headers, timeout=30) as response:
            stream = events(response)
            missed = take(stream, 5)
            assert [event["id"] for event in missed] == ["1", "2", "3", "4", "5"]
            assert all("event" not in event for event in missed)  # plain "message" events
            now = httpx.get(f"{base}/api/games/{game['id']}").json()
            assert data(missed[-1]) == now  # exactly what GET returns
            assert [data(e)["version"] for e in missed] == [1, 2, 3, 4, 5]
            assert data(missed[0])["dice"] is not None and data(missed[1])["held"][0] is True
            # Live from here: the next action comes next, and nothing twice.
            _act(base, game["id"], seats[0], "score chance", 5)
            (live,) = take(stream, 1)
            assert live["id"] == "6" and data(live)["version"] == 6


def test_a_stream_from_a_version_that_never_was_starts_with_a_reset(live_app):
    with running(live_app) as base:
        game, _seats = _new(base, [{"name": "Ann"}])
        url = f"{base}/api/games/{game['id']}/events"
        for last in ("999", "not a number"):
            with httpx.stream("GET", url, headers={"Last-Event-ID": last}, timeout=30) as answer:
                (event,) = take(events(answer), 1)
            assert event["event"] == "reset" and event["id"] == "0"
            assert data(event) == httpx.get(f"{base}/api/games/{game['id']}").json()
        assert httpx.get(f"{base}/api/games/1-000/events").status_code == 404


def test_the_server_plays_a_cpu_with_no_browser_open(live_app):
    with running(live_app) as base:
        game, seats = _new(base, [{"name": "Ann"}, {"name": "Cee", "kind": "cpu"}])
        url = f"{base}/api/games/{game['id']}/events"
        with httpx.stream("GET", url, params={"after": 0}, timeout=30) as response:
            stream = events(response)
            _act(base, game["id"], seats[0], "roll", 0)
            after = _act(base, game["id"], seats[0], "score chance", 1)
            assert after["is_cpu_turn"]
            # The CPU's whole turn arrives on the stream, one version at a time.
            seen = []
            for event in stream:
                seen.append(int(event["id"]))
                if int(event["id"]) >= 2 and not data(event)["is_cpu_turn"]:
                    break
        assert seen == list(range(1, seen[-1] + 1)) and len(seen) >= 4
        final = httpx.get(f"{base}/api/games/{game['id']}").json()
        assert final["current_seat"] == 0 and final["players"][1]["total"] > 0
        assert final["version"] == seen[-1]  # exactly once: no step was applied twice


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_a_room_over_the_api(live_app):
    with running(live_app) as base:
        body = {
            "players": [
                {"name": "Ann", "kind": "me"},
                {"name": "Bob", "kind": "friend"},
                {"name": "Eve", "kind": "friend"},
                {"name": "Cee", "kind": "cpu", "level": "casual"},
            ],
            "seed": 5,
        }
        made = httpx.post(f"{base}/api/rooms", json=body)
        assert made.status_code == 201, made.text
        room = made.json()
        code = room["room"]["code"]
        assert len(code) == 6 and not set(code) & set("01ILO")
        host = {"Authorization": f"Bearer {room['host_key']}"}
        bob_key = room["invitations"][0]["invitation"]
        assert [i["name"] for i in room["invitations"]] == ["Bob", "Eve"]
        # Nobody but the host starts; a wrong invitation joins nothing.
        start = f"{base}/api/rooms/{code}/start"
        assert httpx.post(start, json={"version": 0}).status_code == 401
        wrong = httpx.post(f"{base}/api/rooms/{code}/join", json={"invitation": "x" * 24})
        assert wrong.status_code == 409
        with httpx.stream("GET", f"{base}/api/rooms/{code}/events", timeout=30) as response:
            stream = events(response)
            assert data(next(stream))["version"] == 0
            joined = httpx.post(
                f"{base}/api/rooms/{code}/join", json={"invitation": bob_key, "name": "Bobby"}
            )
            assert joined.status_code == 200 and joined.json()["seat"] == 1
            bob_device = joined.json()["device_key"]
            update = data(next(stream))
            assert update["seats"][1]["joined"] and update["seats"][1]["name"] == "Bobby"
            assert not update["seats"][2]["joined"]
        # Started with the version the host saw: Eve never came, a CPU takes her seat.
        stale = httpx.post(start, json={"version": 0, "fill_with_cpus": True}, headers=host)
        assert stale.status_code == 409
        started = httpx.post(start, json={"version": 1, "fill_with_cpus": True}, headers=host)
        assert started.status_code == 200, started.text
        result = started.json()
        assert [t["name"] for t in result["tokens"]] == ["Ann"]  # never a friend's token
        game_id = result["room"]["game"]
        game = httpx.get(f"{base}/api/games/{game_id}").json()
        assert [p["kind"] for p in game["players"]] == ["human", "human", "cpu", "cpu"]
        bob = httpx.get(
            f"{base}/api/rooms/{code}/seat", headers={"Authorization": f"Bearer {bob_device}"}
        ).json()
        assert [t["seat"] for t in bob["tokens"]] == [1]
        bob_seat = {"Authorization": f"Bearer {bob['tokens'][0]['token']}"}
        ann_seat = {"Authorization": f"Bearer {result['tokens'][0]['token']}"}
        # Ann's token never acts in Bob's seat.
        _act(base, game_id, ann_seat, "roll", 0)
        _act(base, game_id, ann_seat, "score chance", 1)
        refused = httpx.post(
            f"{base}/api/games/{game_id}/actions",
            json={"action": "roll", "version": 2},
            headers=ann_seat,
        )
        assert refused.status_code == 403
        _act(base, game_id, bob_seat, "roll", 2)
        # Bob left: the host hands his seat to a CPU, which plays on by itself (between
        # his turns: not once he rolled in this one).
        hand = f"{base}/api/games/{game_id}/seats/1/cpu"
        assert httpx.post(hand, json={}, headers=bob_seat).status_code == 401
        assert httpx.post(hand, json={}, headers=host).status_code == 403
        _act(base, game_id, bob_seat, "score chance", 3)
        handed = httpx.post(hand, json={"level": "beginner"}, headers=host)
        assert handed.status_code == 200 and handed.json()["players"][1]["kind"] == "cpu"
        # (No new version yet: the game's kept JSON must not show the old seat.)
        seen = httpx.get(f"{base}/api/games/{game_id}").json()
        assert seen["version"] >= handed.json()["version"]
        assert seen["players"][1]["kind"] == "cpu"
        wait_until(
            lambda: httpx.get(f"{base}/api/games/{game_id}").json()["current_seat"] == 0,
            "the CPUs to play Bob's, Eve's and Cee's turns",
        )
        # By code: the room has started, so a code alone joins nothing any more.
        late = httpx.post(f"{base}/api/rooms/{code}/join", json={})
        assert late.status_code == 409
        assert httpx.get(f"{base}/api/rooms/ZZZZZZ").status_code == 404


def test_streams_end_when_the_server_shuts_down_and_leave_no_subscription(live_app):
    # uvicorn waits for open answers before it stops: an endless stream must end by itself
    # (`Live.closing`, which the worker calls when uvicorn is asked to stop).
    live = live_app.state.live
    with running(live_app) as base:
        game, _seats = _new(base, [{"name": "Ann"}])
        url = f"{base}/api/games/{game['id']}/events"
        with httpx.stream("GET", url, timeout=30) as response:
            stream = events(response)
            assert data(take(stream, 1)[0])["version"] == 0
            topic = (Topic.GAME, live_app.state.hub.game_id(game["id"]))
            assert live.watchers(topic) == 1
            live._loop.call_soon_threadsafe(live.closing)
            assert list(stream) == []  # the answer ended, nothing more was sent
        wait_until(lambda: live.watchers(topic) == 0, "the subscription to be dropped")


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_an_abandoned_game_is_pushed_to_its_streams(live_app):
    """Abandoning changes a game's status, not its version: its open streams get it once
    more as an "abandoned" event (status and revealed seed), and so does a stream that
    comes back with that version."""
    with running(live_app) as base:
        game, seats = _new(base, [{"name": "Ann"}, {"name": "Bob"}], seed=None)
        _act(base, game["id"], seats[0], "roll", 0)
        url = f"{base}/api/games/{game['id']}/events"
        hub = live_app.state.hub
        with httpx.stream("GET", url, timeout=30) as response:
            stream = events(response)
            (now,) = take(stream, 1)
            assert now["id"] == "1" and data(now)["status"] == "in_progress"
            assert data(now)["server_seed"] is None
            hub.abandon(hub.game_id(game["id"]))
            (ended,) = take(stream, 1)
        assert ended["event"] == "abandoned" and ended["id"] == "1"
        assert data(ended)["status"] == "abandoned" and data(ended)["server_seed"]
        assert data(ended) == httpx.get(f"{base}/api/games/{game['id']}").json()
        headers = {"Last-Event-ID": "1"}
        with httpx.stream("GET", url, headers=headers, timeout=30) as response:
            (again,) = take(events(response), 1)
        assert again["event"] == "abandoned" and data(again)["status"] == "abandoned"
        refused = httpx.post(
            f"{base}/api/games/{game['id']}/actions",
            json={"action": "roll", "version": 1},
            headers=seats[1],
        )
        assert refused.status_code == 409


@pytest.mark.parametrize("number", ["\u00b2", "\u0663", "\u00b2\u00b3"])  # isdigit(), not int()
def test_a_notification_with_odd_digits_is_ignored(number):
    """A NOTIFY payload that is not ours is skipped, never a crash of the listener."""
    from fivedice.store.notices import Notice

    assert Notice.parse(f"g:{number}:1") is None
    assert Notice.parse(f"g:1:{number}") is None
    assert Notice.parse("g:12:3") == ("g", 12, 3, "")  # (no action carried)
