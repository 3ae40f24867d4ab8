"""Long logs cost nothing to make or read: attacks on a real `fivedice serve` (SQLite, one
worker), from loopback addresses only.

- Alternating `hold 1` / `release 1` is cut off after a bound per roll, and the player's own
  game goes on (a roll and a score are still taken: nothing lost).
- A stream asking for everything (`Last-Event-ID: 0`) of a long game gets the game now, as
  one event, not every version replayed.
- Verify pages are rated per client: one address looping them is refused while another
  address's verify page is served.
"""

from __future__ import annotations

import json
import socket
import time

import httpx
import pytest

from tests.web.test_attacks import serving

pytestmark = pytest.mark.processes


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    folder = tmp_path_factory.mktemp("logs")
    with serving(f"sqlite:///{folder / 'logs.sqlite3'}", folder) as (port, _process):
        yield f"http://127.0.0.1:{port}"


def client(base: str, source: str = "127.0.0.1") -> httpx.Client:
    transport = httpx.HTTPTransport(local_address=source)
    return httpx.Client(base_url=base, transport=transport, timeout=30)


def solo_game(http: httpx.Client) -> tuple[str, dict[str, str]]:
    made = http.post("/api/games", json={"players": [{"name": "Ann"}]})
    assert made.status_code == 201, made.text
    game = made.json()
    return game["id"], {"Authorization": f"Bearer {game['tokens'][0]['token']}"}


def act(http: httpx.Client, game: str, seat: dict[str, str], action: str, version: int):
    return http.post(
        f"/api/games/{game}/actions", json={"action": action, "version": version}, headers=seat
    )


def toggled(
    http: httpx.Client, game: str, seat: dict[str, str], times: int, version: int = 0
) -> tuple[int, int]:
    """Rolls, then alternates hold 1 / release 1 up to `times`: (toggles taken, version)."""
    version = act(http, game, seat, "roll", version).json()["version"]
    taken = 0
    for n in range(times):
        answer = act(http, game, seat, "hold 1" if n % 2 == 0 else "release 1", version)
        if answer.status_code != 200:
            assert answer.status_code == 409, answer.text
            break
        version = answer.json()["version"]
        taken += 1
    return taken, version


def test_hold_release_toggles_are_bounded_and_the_game_goes_on(base):
    with client(base, "127.0.4.1") as http:
        game, seat = solo_game(http)
        taken, version = toggled(http, game, seat, 200)
        assert 0 < taken < 200
        rolled = act(http, game, seat, "roll", version)  # progress is still taken
        assert rolled.status_code == 200, rolled.text
        again = act(http, game, seat, "hold 2", rolled.json()["version"])  # a new roll: holds
        assert again.status_code == 200, again.text
        scored = act(http, game, seat, "score chance", again.json()["version"])
        assert scored.status_code == 200, scored.text
        assert scored.json()["players"][0]["total"] > 0


def events(port: int, game: str, last_event_id: int, wanted: int) -> list[tuple[str, int]]:
    """The events a stream with `Last-Event-ID` sends until one of version `wanted`:
    (event name, version) each."""
    with socket.create_connection(("127.0.0.1", port), timeout=20) as connection:
        connection.sendall(
            f"GET /api/games/{game}/events HTTP/1.1\r\nHost: x\r\n"
            f"Last-Event-ID: {last_event_id}\r\n\r\n".encode()
        )
        got: list[tuple[str, int]] = []
        buffer = b""
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            buffer += connection.recv(65536)
            *blocks, buffer = buffer.split(b"\r\n\r\n")
            for block in blocks:
                fields = dict(
                    line.split(": ", 1) for line in block.decode().splitlines() if ": " in line
                )
                if "data" in fields:
                    version = json.loads(fields["data"])["version"]
                    got.append((fields.get("event", "message"), version))
                    if version == wanted:
                        return got
        return got


def test_a_stream_from_the_start_of_a_long_game_gets_the_game_now_once(base):
    port = int(base.rsplit(":", 1)[1])
    with client(base, "127.0.4.2") as http:
        game, seat = solo_game(http)
        _taken, version = toggled(http, game, seat, 200)
        _taken, version = toggled(http, game, seat, 200, version)  # (two rolls' worth)
        rolled = act(http, game, seat, "roll", version).json()["version"]
        assert rolled > 40
        got = events(port, game, 0, rolled)
    assert got == [("reset", rolled)]


def test_verify_pages_are_rated_per_client_and_another_is_served(base):
    with client(base, "127.0.4.3") as http:
        game, seat = solo_game(http)
        act(http, game, seat, "roll", 0)
        statuses = [http.get(f"/g/{game}/verify").status_code for _ in range(40)]
    # (409: the dice are checked once the game is over; the page says so, not a 429)
    assert statuses[0] == 409 and 429 in statuses
    with client(base, "127.0.4.4") as other:
        assert other.get(f"/g/{game}/verify").status_code == 409
