"""What the web tests share: the app's secret, a client that posts forms as the site's pages
do, and the few steps many tests begin with (a game over the API or the form, a room)."""

from __future__ import annotations

import re
import warnings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx vs httpx2
    from fastapi.testclient import TestClient

__all__ = ["TestClient"]

SECRET = b"test-secret-of-the-web-tests-0123456789"
ORIGIN = "http://testserver"

FORM = {
    "kind0": "human",
    "name0": "Ann",
    "kind1": "cpu",
    "name1": "",
    "level1": "casual",
    "kind2": "none",
    "kind3": "none",
    "preset": "classic",
    "first_player": "first_seat",
    "match_length": "1",
    "seed": "5",
}
"""The new-game form as a browser sends it: Ann against a casual CPU, seeded."""

UNCOUNTED = {"games": "1000000/minute", "rooms": "1000000/minute", "wrong_codes": "1000000/minute"}
"""Rates a fuzzing client never reaches (its many wrong codes and games would be refused
before the checks it is there to exercise; the rates are tested in test_rates.py)."""

ROOM_FORM = {**FORM, "kind0": "me", "name0": "Ann", "kind1": "friend", "name1": "Bob"}
"""The new-game form that makes a room: Ann here, her friend Bob invited."""


class PageClient(TestClient):
    """A TestClient that posts page forms as the site's own pages do (origin and token)."""

    def csrf_token(self) -> str:
        """The session's CSRF token, read from a page as app.js does."""
        page = self.get("/rules").text  # any page: it makes the session if there is none
        return re.search(r'<meta name="csrf-token" content="([^"]*)"', page).group(1)

    def post(self, url, *args, **kwargs):
        path = str(url)
        if not path.startswith("/api") and not path.startswith("http"):
            data = dict(kwargs.get("data") or {})
            if "csrf_token" not in data:
                data["csrf_token"] = self.csrf_token()
            kwargs["data"] = data
        return super().post(url, *args, **kwargs)


def new_game(client, players=None, **extra):
    """Creates a game over the API; returns (json, {seat: auth header})."""
    body = {"players": players or [{"name": "Ann"}, {"name": "Bob"}], "seed": 7, **extra}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    data = response.json()
    headers = {t["seat"]: {"Authorization": f"Bearer {t['token']}"} for t in data["tokens"]}
    return data, headers


def start(client, **changes):
    """Posts the new-game form (with `changes`); returns the game page's location."""
    response = client.post("/games", data={**FORM, **changes}, follow_redirects=False)
    assert response.status_code == 303, response.text
    return response.headers["location"]


def version_of(html):
    """The game version a page's forms carry."""
    return int(re.search(r'name="version" value="(\d+)"', html).group(1))


def open_room(client, **changes):
    """Posts the room form (with `changes`); returns the waiting room's location."""
    response = client.post("/games", data={**ROOM_FORM, **changes}, follow_redirects=False)
    assert response.status_code == 303, response.text
    location = response.headers["location"]
    assert re.fullmatch(r"/r/[A-Z2-9]{6}", location)
    return location


def invitations(page):
    """The invitation links a waiting room's page offers."""
    return [link.replace("&amp;", "&") for link in re.findall(r'data-invite value="([^"]+)"', page)]


def another_browser(app):
    """A second browser on the same app (its own cookies and session)."""
    return PageClient(app, headers={"Origin": ORIGIN})


def finish(service, game_id: int) -> None:
    """Plays the game to its end through the service: the human scores greedily."""
    view = service.load(game_id)
    while not view.is_over:
        if view.is_cpu_turn:
            _, view = service.cpu_step(game_id, view.version)
            continue
        if view.state.dice is None:
            view = service.apply_action(game_id, "roll", view.version)
        best = max(view.state.placements(), key=lambda p: p.points)
        view = service.apply_action(game_id, f"score {best.category.key}", view.version)


def start_table(client, *names, **extra):
    """Starts a game at the table for `names` (classic rules); returns its page's location."""
    data = {f"name{index}": name for index, name in enumerate(names)}
    data.update({"preset": "classic", "first": "", **extra})
    response = client.post("/table", data=data, follow_redirects=False)
    assert response.status_code == 303, response.text
    location = response.headers["location"]
    assert location.startswith("/t/")
    return location


def post_at_table(client, url, **data):
    """Posts a form of a table game's page with the version that page shows."""
    page = client.get(url.rsplit("/", 1)[0]).text
    return client.post(url, data={"version": version_of(page), **data}, follow_redirects=True)


ANN = {"name": "Ann", "kind": "me"}
"""A room's host over the API."""
BOB = {"name": "Bob", "kind": "friend"}
"""A friend the host invites over the API."""


def api_room(client, *players):
    """Opens a room over the API (any client with `post`: in-process or over HTTP)."""
    made = client.post("/api/rooms", json={"players": list(players)})
    assert made.status_code == 201, made.text
    return made.json()


def started_api_room(client):
    """Ann (host) and Bob (joined by his invitation), started: (room code, game id, host
    headers, Ann's seat headers, Bob's device key, Bob's seat headers)."""
    room = api_room(client, ANN, BOB)
    code = room["room"]["code"]
    host = {"Authorization": f"Bearer {room['host_key']}"}
    joined = client.post(
        f"/api/rooms/{code}/join", json={"invitation": room["invitations"][0]["invitation"]}
    ).json()
    started = client.post(
        f"/api/rooms/{code}/start", json={"version": joined["room"]["version"]}, headers=host
    ).json()
    device = {"Authorization": f"Bearer {joined['device_key']}"}
    bob_token = client.get(f"/api/rooms/{code}/seat", headers=device).json()["tokens"][0]
    return (
        code,
        started["room"]["game"],
        host,
        {"Authorization": f"Bearer {started['tokens'][0]['token']}"},
        joined["device_key"],
        {"Authorization": f"Bearer {bob_token['token']}"},
    )


def session_cookies(response) -> list[str]:
    """The session cookies an answer sets (either name)."""
    return [
        value
        for name, value in response.headers.multi_items()
        if name == "set-cookie" and "fd_session=" in value
    ]


def given_session(response) -> str | None:
    """The session id an answer gives the browser, or None."""
    found = [re.match(r"(?:__Host-)?fd_session=([^;]*)", c) for c in session_cookies(response)]
    values = [f.group(1) for f in found if f and f.group(1)]
    return values[-1] if values else None
