"""The seat attacks of issue "Trust at the public edge", tried on an in-process app: prints
one JSON object, each attack with what the server answered and whether it worked.

Run on any checkout (the code before seat rights too) to compare:
    PYTHONPATH=src python benchmarks/seat_attacks.py

Each attack starts from a room of Ann (the host, on her browser), Bob (a friend, invited)
and, where it matters, a CPU; "worked" is true when the attacker got what they should not.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from fivedice.service.games import GameService
from fivedice.web import create_app

ORIGIN = "http://testserver"
SECRET = b"seat-attacks-secret-0123456789"


class Browser(TestClient):
    """A browser on the site's pages: the session's CSRF token in every form it posts."""

    def post(self, url: str, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        if not url.startswith("/api/"):
            page = self.get("/rules").text
            found = re.search(r'<meta name="csrf-token" content="([^"]*)"', page)
            data = dict(kwargs.pop("data", None) or {})
            data["csrf_token"] = found.group(1) if found else ""
            kwargs["data"] = data
        return super().post(url, *args, **kwargs)


def _api_room(client: TestClient, *players: dict[str, Any]) -> dict[str, Any]:
    made = client.post("/api/rooms", json={"players": list(players)})
    assert made.status_code == 201, made.text
    return dict(made.json())


def _seat_key(joined: dict[str, Any]) -> str:
    """The secret a join returns: the device key (now) or the invitation (before)."""
    return str(joined.get("device_key") or joined.get("invitation"))


def attacks(app: Any) -> dict[str, Any]:
    results: dict[str, Any] = {}
    api = TestClient(app)
    ann = {"name": "Ann", "kind": "me"}
    bob = {"name": "Bob", "kind": "friend"}

    # 1. A stranger with only the room code joins without an invitation.
    room = _api_room(api, ann, bob)
    code = room["room"]["code"]
    stranger = api.post(f"/api/rooms/{code}/join", json={"name": "Mallory"})
    results["join_without_invitation"] = {
        "status": stranger.status_code,
        "worked": stranger.status_code == 200,
    }

    # 2. An invitation used again after its friend claimed the seat (a forwarded link).
    invitation = room["invitations"][0]["invitation"]
    first = api.post(f"/api/rooms/{code}/join", json={"invitation": invitation})
    again = api.post(f"/api/rooms/{code}/join", json={"invitation": invitation, "name": "Eve"})
    results["invitation_reuse"] = {
        "first": first.status_code,
        "second": again.status_code,
        "worked": again.status_code == 200,
    }

    # 3. The host, who holds the invitation, acts in the friend's seat once started.
    host = {"Authorization": f"Bearer {room['host_key']}"}
    started = api.post(
        f"/api/rooms/{code}/start", json={"version": again.json()["room"]["version"]
                                         if again.status_code == 200
                                         else first.json()["room"]["version"]},
        headers=host,
    )  # fmt: skip
    by_invitation = api.get(
        f"/api/rooms/{code}/seat", headers={"Authorization": f"Bearer {invitation}"}
    )
    tokens = by_invitation.json().get("tokens", []) if by_invitation.status_code == 200 else []
    acted = None
    if tokens:
        game = started.json()["room"]["game"]
        bob_seat = {"Authorization": f"Bearer {tokens[0]['token']}"}
        api.post(f"/api/games/{game}/actions", json={"action": "roll", "version": 0}, headers=host)
        ann_token = {"Authorization": f"Bearer {started.json()['tokens'][0]['token']}"}
        api.post(
            f"/api/games/{game}/actions", json={"action": "roll", "version": 0}, headers=ann_token
        )
        api.post(
            f"/api/games/{game}/actions",
            json={"action": "score chance", "version": 1},
            headers=ann_token,
        )
        acted = api.post(
            f"/api/games/{game}/actions", json={"action": "roll", "version": 2}, headers=bob_seat
        ).status_code
    results["host_acts_in_friend_seat"] = {
        "seat_tokens_by_invitation": by_invitation.status_code,
        "action": acted,
        "worked": acted == 200,
    }

    # 4. A started room's code shows its game to anyone.
    look = api.get(f"/api/rooms/{code}").json()
    results["started_room_reveals_game"] = {"worked": look.get("game") is not None}

    # 5. The host hands their own seat to a master CPU over the API.
    room = _api_room(api, ann, bob)
    code = room["room"]["code"]
    host = {"Authorization": f"Bearer {room['host_key']}"}
    joined = api.post(
        f"/api/rooms/{code}/join", json={"invitation": room["invitations"][0]["invitation"]}
    ).json()
    started = api.post(
        f"/api/rooms/{code}/start", json={"version": joined["room"]["version"]}, headers=host
    ).json()
    game = started["room"]["game"]
    master = api.post(f"/api/games/{game}/seats/0/cpu", json={"level": "master"}, headers=host)
    results["host_seat_to_master"] = {"status": master.status_code, "worked": master.is_success}

    # 6. A hand-over mid-turn, and 7. the friend's old token after the hand-over.
    room = _api_room(api, ann, bob)
    code = room["room"]["code"]
    host = {"Authorization": f"Bearer {room['host_key']}"}
    joined = api.post(
        f"/api/rooms/{code}/join", json={"invitation": room["invitations"][0]["invitation"]}
    ).json()
    started = api.post(
        f"/api/rooms/{code}/start", json={"version": joined["room"]["version"]}, headers=host
    ).json()
    game = started["room"]["game"]
    bob_token = api.get(
        f"/api/rooms/{code}/seat", headers={"Authorization": f"Bearer {_seat_key(joined)}"}
    ).json()["tokens"][0]["token"]
    ann_seat = {"Authorization": f"Bearer {started['tokens'][0]['token']}"}
    bob_seat = {"Authorization": f"Bearer {bob_token}"}
    api.post(f"/api/games/{game}/actions", json={"action": "roll", "version": 0}, headers=ann_seat)
    api.post(
        f"/api/games/{game}/actions",
        json={"action": "score chance", "version": 1},
        headers=ann_seat,
    )
    api.post(f"/api/games/{game}/actions", json={"action": "roll", "version": 2}, headers=bob_seat)
    mid = api.post(f"/api/games/{game}/seats/1/cpu", json={"level": "casual"}, headers=host)
    results["hand_over_mid_turn"] = {"status": mid.status_code, "worked": mid.is_success}
    if not mid.is_success:
        api.post(
            f"/api/games/{game}/actions",
            json={"action": "score chance", "version": 3},
            headers=bob_seat,
        )
        api.post(f"/api/games/{game}/seats/1/cpu", json={"level": "casual"}, headers=host)
    view = api.get(f"/api/games/{game}").json()
    stale = api.post(f"/api/games/{game}/cpu", json={"version": view["version"]}, headers=bob_seat)
    hint = api.get(f"/api/games/{game}/hint", headers=bob_seat)
    results["stale_token_after_hand_over"] = {
        "cpu_step": stale.status_code,
        "hint": hint.status_code,
        "worked": stale.status_code == 200 or hint.status_code not in (401, 403),
    }

    # 8. The host replaces the friend's seed with the invitation before the start.
    room = _api_room(api, ann, bob)
    code = room["room"]["code"]
    invitation = room["invitations"][0]["invitation"]
    api.post(f"/api/rooms/{code}/join", json={"invitation": invitation, "client_seed": "bob's"})
    replaced = api.post(
        f"/api/rooms/{code}/join", json={"invitation": invitation, "client_seed": "host's"}
    )
    seeds = [s.get("client_seed") for s in api.get(f"/api/rooms/{code}").json()["seats"]]
    results["host_replaces_friend_seed"] = {
        "status": replaced.status_code,
        "seeds_shown": seeds,
        "worked": replaced.status_code == 200,
    }

    # 9. A friend (not the host) abandons the game for everyone, on the pages.
    with Browser(app, headers={"Origin": ORIGIN}) as ann_browser:
        made = ann_browser.post(
            "/games",
            data={"preset": "classic", "first_player": "first_seat", "match_length": "1",
                  "kind0": "me", "name0": "Ann", "kind1": "friend", "name1": "Bob"},
            follow_redirects=False,
        )  # fmt: skip
        room_path = made.headers["location"]
        invite = re.search(r'data-invite value="([^"]+)"', ann_browser.get(room_path).text)
        assert invite is not None
        seat, key = re.search(r"/invite/(\d+)\?key=(\w+)", invite.group(1)).groups()  # type: ignore[union-attr]
        with Browser(app, headers={"Origin": ORIGIN}) as bob_browser:
            bob_browser.post("/join", data={"code": room_path[3:], "seat": seat, "key": key})
            version = re.search(r'data-version="(\d+)"', ann_browser.get(room_path).text)
            assert version is not None
            started_page = ann_browser.post(
                room_path + "/start", data={"version": version.group(1)}, follow_redirects=False
            )
            game_path = started_page.headers["location"]
            bob_browser.post(game_path + "/abandon", data={})
            status = api.get(f"/api/games/{game_path.rsplit('/', 1)[1]}").json()["status"]
        results["friend_abandons_for_everyone"] = {
            "game_status": status,
            "worked": status == "abandoned",
        }
    return results


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        service = GameService.open(f"sqlite:///{Path(folder) / 'attacks.sqlite3'}")
        try:
            app = create_app(service, SECRET, drive_cpus=False)
            json.dump(attacks(app), sys.stdout, indent=1)
            print()
        finally:
            service.store.close()


if __name__ == "__main__":
    main()
