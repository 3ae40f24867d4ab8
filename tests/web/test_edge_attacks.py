"""The edge, round two: attacks on a real `fivedice serve` (SQLite, one worker, loopback
addresses only) against sessions, rights, records and names. Each attack comes from its own
loopback address (Linux routes all of 127/8 to loopback), as rates are per address; each is
bounded in requests and time. (The floods and caps are in test_attacks.py.)
"""

from __future__ import annotations

import os
import re
import secrets
import socket
import subprocess
import sys
import threading
import time

import pytest

from fivedice.store.browser_seats import BrowserSeats
from fivedice.store.database import Store
from fivedice.web.guard import SECURE_SESSION_COOKIE, SESSION_COOKIE, upgraded_session
from fivedice.web.security import Signer
from tests.web.support import FORM, ROOM_FORM, given_session, invitations, version_of
from tests.web.test_attacks import SERVER_SECRET, games_in, http, serving

pytestmark = pytest.mark.processes

PUBLIC = "https://dice.example.org"
SIGNER = Signer(SERVER_SECRET.encode())


@pytest.fixture(scope="module")
def running(tmp_path_factory):
    """The SQLite server shared by the module's tests: (port, database path)."""
    folder = tmp_path_factory.mktemp("edge")
    database = folder / "edge.sqlite3"
    with serving(f"sqlite:///{database}", folder) as (port, _process):
        yield port, database


def csrf_of(page: str) -> str:
    return re.search(r'<meta name="csrf-token" content="([^"]*)"', page).group(1)


class Browser:
    """A browser over HTTP from one loopback address whose session cookie is `session`
    (planted, or whatever the server gave it last: it keeps what it is given)."""

    def __init__(self, port: int, source: str, session: str = "", agent: str = "Firefox"):
        self.origin = f"http://127.0.0.1:{port}"
        self.client = http(port, source, Origin=self.origin, **{"User-Agent": agent})
        self.session = session
        self.given: list[str] = []

    def send(self, method: str, path: str, keep: bool = True, **data: str):
        headers = {"Cookie": f"{SESSION_COOKIE}={self.session}"} if self.session else {}
        if method == "POST":
            data = {"csrf_token": self.csrf(), **data}
        answer = self.client.request(
            method, path, data=data or None, headers=headers, follow_redirects=False
        )
        given = given_session(answer)
        if given is not None:
            self.given.append(given)
            if keep:
                self.session = given
        return answer

    def csrf(self) -> str:
        headers = {"Cookie": f"{SESSION_COOKIE}={self.session}"} if self.session else {}
        page = self.client.get("/rules", headers=headers)
        if given_session(page) is not None and not self.session:
            self.session = given_session(page)
        return csrf_of(page.text)

    def close(self) -> None:
        self.client.close()


def pid_of(answer) -> str:
    return answer.headers["location"].rsplit("/", 1)[1]


def holds(port: int, source: str, session: str, public_id: str) -> bool:
    """Whether `session` lists the game among its unfinished ones."""
    with http(port, source) as client:
        page = client.get("/resume", headers={"Cookie": f"{SESSION_COOKIE}={session}"})
        return public_id in page.text


# -- 1. sessions -----------------------------------------------------------------------------


def test_a_planter_holding_the_forwarding_window_open_gets_nothing_of_the_victim(running):
    """The attacker plants an issued id S in the victim's browser and joins a seat of a game
    of their own with S every 0.3 s (so a rotation of S is always fresh); the victim then
    starts a game. Before: the victim's grant was forwarded to the attacker's latest new id,
    and the attacker played the victim's game; now the forward is the rotated browser's
    alone, and the joins are rated."""
    port, _database = running
    attacker = Browser(port, "127.0.1.1", agent="curl/8")
    attacker.csrf()  # (a page: the server issues the attacker an id, S)
    planted = attacker.session
    made = attacker.client.post(
        "/api/games", json={"players": [{"name": "Eve"}, {"name": "Eve2"}]}
    ).json()
    pid, token = made["id"], made["tokens"][1]["token"]
    stop = threading.Event()

    def join_again() -> None:
        for _ in range(40):  # bounded: at most 40 joins, one each 0.3 s
            if stop.is_set():
                return
            attacker.session = planted  # the attacker keeps S, whatever it is given
            attacker.send("POST", f"/g/{pid}/join", seat="1", token=token)
            time.sleep(0.3)

    joining = threading.Thread(target=join_again)
    joining.start()
    try:
        time.sleep(1.0)
        victim = Browser(port, "127.0.1.2", session=planted)
        started = victim.send("POST", "/games", **FORM)
        assert started.status_code == 303, started.text[:300]
        game = pid_of(started)
        time.sleep(1.0)
    finally:
        stop.set()
        joining.join(30)
    new = victim.session
    assert new != planted
    assert holds(port, "127.0.1.2", new, game)
    assert new not in attacker.given
    for session in {planted, *attacker.given}:
        assert not holds(port, "127.0.1.1", session, game), session
    attacker.close()
    victim.close()


def test_an_invented_older_shape_id_is_not_upgraded_to_one_shared_id(running):
    """Before: "A" * 43 became the same derived id for everyone who sent it."""
    port, _database = running
    invented = "A" * 43
    ids = []
    for source in ("127.0.1.3", "127.0.1.4"):
        with http(port, source) as client:
            page = client.get("/rules", headers={"Cookie": f"{SESSION_COOKIE}={invented}"})
            ids.append(given_session(page))
    assert None not in ids and ids[0] != ids[1]
    assert upgraded_session(SIGNER, invented) not in ids


def test_over_https_a_plain_cookie_is_not_upgraded_into_the_host_cookie(tmp_path):
    """A plain `fd_session` (a sibling subdomain or an http man in the middle can set one)
    of an older server's shape, holding seats, over `--public-url https://…`: before, it was
    upgraded into `__Host-fd_session` with its seats; now it is only deleted."""
    database = tmp_path / "https.sqlite3"
    url = f"sqlite:///{database}"
    with serving(url, tmp_path, "--public-url", PUBLIC) as (port, _process):
        with http(port, "127.0.1.5") as client:
            made = client.post("/api/games", json={"players": [{"name": "Ann"}]}).json()
        old = secrets.token_urlsafe(32)
        store = Store(url)
        try:
            game_id = int(made["id"].split("-", 1)[0])
            BrowserSeats(store).add(old, [(game_id, 0)])
        finally:
            store.close()
        with http(port, "127.0.1.6") as client:
            page = client.get("/resume", headers={"Cookie": f"{SESSION_COOKIE}={old}"})
            given = given_session(page)
            cookies = page.headers.get_list("set-cookie")
        assert any(c.startswith(f"{SECURE_SESSION_COOKIE}=") for c in cookies)
        assert given != upgraded_session(SIGNER, old)
        assert made["id"] not in page.text
        # The `__Host-` cookie (only this host could have set it over https) is upgraded.
        with http(port, "127.0.1.6") as client:
            page = client.get("/resume", headers={"Cookie": f"{SECURE_SESSION_COOKIE}={old}"})
        assert given_session(page) == upgraded_session(SIGNER, old)
        assert made["id"] in page.text


def grant_paths(port: int, source: str):
    """Each way a browser is granted a seat, as (name, how): `how(browser)` makes that
    browser take a seat and returns the public id of the game (or room code) it got."""

    def start(browser):
        return pid_of(browser.send("POST", "/games", **FORM))

    def table(browser):
        answer = browser.send("POST", "/table", name0="Ann", name1="Bob", preset="classic")
        return pid_of(answer)

    def join_link(browser):
        with http(port, source) as client:
            made = client.post("/api/games", json={"players": [{"name": "A"}, {"name": "B"}]})
        made = made.json()
        browser.send("POST", f"/g/{made['id']}/join", seat="1", token=made["tokens"][1]["token"])
        return made["id"]

    def room_host(browser):
        return browser.send("POST", "/games", **ROOM_FORM).headers["location"].rsplit("/", 1)[1]

    def invited() -> tuple[str, str, str]:
        """A room of a host's with a friend's seat: (code, seat, invitation key)."""
        host = Browser(port, source, agent="host")
        code = host.send("POST", "/games", **ROOM_FORM).headers["location"].rsplit("/", 1)[1]
        links = invitations(host.send("GET", f"/r/{code}").text)
        host.close()
        found = re.search(r"/invite/(\d+)\?key=([^&\"]+)", links[0])
        assert found, links
        return code, *found.groups()

    def invitation(browser):
        code, seat, key = invited()
        browser.send("POST", "/join", code=code, seat=seat, key=key, name="Bob")
        return code

    def device_code(browser):
        code, seat, key = invited()
        friend = Browser(port, source, agent="friend")
        friend.send("POST", "/join", code=code, seat=seat, key=key, name="Bob")
        page = friend.send("POST", f"/r/{code}/devices").text
        friend.close()
        found = re.search(r'id="device-code">([^<]+)<', page)
        assert found, page
        browser.send("POST", f"/r/{code}/device", key=found.group(1))
        return code

    def legacy_cookie(browser):
        with http(port, source) as client:
            made = client.post("/api/games", json={"players": [{"name": "A"}]}).json()
        seats = f"{made['id']}:{made['tokens'][0]['token']}"
        cookie = f"{SESSION_COOKIE}={browser.session}; fd_seats={seats}"
        answer = browser.client.get("/resume", headers={"Cookie": cookie})
        given = given_session(answer)
        if given is not None:
            browser.session = given
        return made["id"]

    return [
        ("start", start), ("table", table), ("join-link", join_link), ("room-host", room_host),
        ("invitation", invitation), ("device-code", device_code), ("legacy-cookie", legacy_cookie),
    ]  # fmt: skip


def sees(port: int, source: str, session: str, what: str) -> bool:
    """Whether `session` is shown the game or room `what` as its own."""
    with http(port, source) as client:
        cookie = {"Cookie": f"{SESSION_COOKIE}={session}"}
        if re.fullmatch(r"[A-Z2-9]{6}", what):
            page = client.get(f"/r/{what}", headers=cookie).text
            return 'id="devices"' in page or "data-invite" in page
        return what in client.get("/resume", headers=cookie).text


def test_every_path_that_grants_a_seat_rotates_a_planted_id(running):
    """The attacker plants an issued id in the victim's browser; whichever way the victim
    then takes a seat, the answer gives a new id and the planted one holds nothing of it.
    Before: the seats of an old `fd_seats` cookie were imported into the planted id."""
    port, _database = running
    failures = []
    for index, (name, grant) in enumerate(grant_paths(port, "127.0.1.8")):
        planter = Browser(port, f"127.0.2.{index + 1}", agent="planter")
        planter.csrf()
        planted = planter.session
        victim = Browser(port, f"127.0.3.{index + 1}", session=planted)
        got = grant(victim)
        if victim.session == planted or not sees(port, "127.0.1.9", victim.session, got):
            failures.append((name, "not rotated"))
        elif sees(port, "127.0.1.9", planted, got):
            failures.append((name, "planted id holds it"))
        planter.close()
        victim.close()
    assert not failures


# -- 10. records -----------------------------------------------------------------------------

BOXES = [
    *("ones", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind"),
    *("four_of_a_kind", "full_house", "small_straight", "large_straight", "yahtzee", "chance"),
]


def finished_record(port: int, source: str) -> str:
    """A solo game played to its end, and its signed record as the server gives it out."""
    return finished_game(port, source)[1]


def finished_game(port: int, source: str, name: str = "Ann") -> tuple[str, str]:
    """A solo game of `name` played to its end over the API (hold, roll, score in the first
    box that takes the dice): (its public id, its signed record)."""
    with http(port, source) as client:
        made = client.post("/api/games", json={"players": [{"name": name}]}).json()
        seat = {"Authorization": f"Bearer {made['tokens'][0]['token']}"}
        version, open_boxes = made["version"], list(BOXES)

        def act(action: str):
            answer = client.post(
                f"/api/games/{made['id']}/actions",
                json={"action": action, "version": version},
                headers=seat,
            )
            return answer.status_code == 200, answer.json()

        while open_boxes:
            for action in ("roll", "hold 1 2", "roll"):
                done, game = act(action)
                assert done, game
                version = game["version"]
            for box in open_boxes:
                done, game = act(f"score {box}")
                if done:
                    version = game["version"]
                    open_boxes.remove(box)
                    break
            else:
                raise AssertionError(game)
        return made["id"], client.get(f"/g/{made['id']}/record.txt").text


def verified(tmp_path, text: str, *options: str) -> tuple[int, str]:
    """`fivedice verify` of `text` by an installation of its own (not the server's key)."""
    path = tmp_path / f"record-{secrets.token_hex(4)}.txt"
    path.write_text(text, encoding="utf-8")
    env = {**os.environ, "FIVEDICE_RECORD_KEY": "77" * 32, "FIVEDICE_LANG": "en"}
    done = subprocess.run(
        [sys.executable, "-m", "fivedice.cli", "verify", str(path), *options],
        env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    return done.returncode, done.stdout + done.stderr


def test_a_record_edited_and_signed_again_by_another_key_does_not_verify(running, tmp_path):
    """The attacker edits a true record - the status, a seat made a CPU of a level - and
    signs it with a key of their own. Before: plain `fivedice verify` said "Verified" (exit
    0), the dice being untouched. Now: exit 4 and the signer's fingerprint, and with the
    server's published key (`--key URL`) it is refused, while the true record is verified
    against that key."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from fivedice.core.record import split_signature
    from fivedice.service.signing import RecordKey

    port, _database = running
    true_record = finished_record(port, "127.0.4.1")
    body, signature = split_signature(true_record)
    assert signature is not None
    edited = body.replace("status: finished", "status: abandoned", 1)
    edited = edited.replace('seat: "Ann"', 'seat: "Ann" cpu=expert', 1)
    assert edited != body
    forger = RecordKey(Ed25519PrivateKey.generate())
    forged = forger.sign(edited)
    published = f"http://127.0.0.1:{port}/fairness/key"

    status, said = verified(tmp_path, forged)
    assert status != 0 and forger.fingerprint in said, said
    status, said = verified(tmp_path, forged, "--key", published)
    assert status == 1, said
    status, said = verified(tmp_path, true_record, "--key", published)
    assert status == 0 and signature.fingerprint in said, said
    status, said = verified(tmp_path, true_record)  # (not this installation's key)
    assert status == 4 and signature.fingerprint in said, said


def test_a_record_without_client_seeds_says_the_server_alone_chose_the_dice(running, tmp_path):
    """Before: "the ones the seeds give" and nothing more, though no player gave a seed."""
    port, _database = running
    record = finished_record(port, "127.0.4.2")
    assert 'client_seeds: [""]' in record
    status, said = verified(tmp_path, record, "--key", f"http://127.0.0.1:{port}/fairness/key")
    assert status == 0 and "the server alone chose these dice" in said, said


# -- 9. rights -------------------------------------------------------------------------------


def test_a_player_given_one_seat_of_an_api_game_cannot_abandon_it_for_everyone(running):
    """Before: the holder of any seat of a game made over the API was its "host" and
    abandoned it for everyone. Now only whoever holds every person's seat (its creator)."""
    port, _database = running
    with http(port, "127.0.5.1") as creator:
        made = creator.post(
            "/api/games", json={"players": [{"name": "Ann"}, {"name": "Bob"}]}
        ).json()
    bob = Browser(port, "127.0.5.2")
    joined = bob.send("POST", f"/g/{made['id']}/join", seat="1", token=made["tokens"][1]["token"])
    assert joined.status_code == 303
    refused = bob.send("POST", f"/g/{made['id']}/abandon")
    bob.close()
    assert refused.status_code == 403, refused.status_code
    with http(port, "127.0.5.1") as creator:
        assert creator.get(f"/api/games/{made['id']}").json()["status"] == "in_progress"
        # The creator, holding both seats in a browser, still abandons it.
        ann = Browser(port, "127.0.5.3")
        for seat in (0, 1):
            ann.send(
                "POST", f"/g/{made['id']}/join", seat=str(seat),
                token=made["tokens"][seat]["token"],
            )  # fmt: skip
        assert ann.send("POST", f"/g/{made['id']}/abandon").status_code == 303
        ann.close()
        assert creator.get(f"/api/games/{made['id']}").json()["status"] == "abandoned"


def test_in_a_practice_room_a_player_cannot_undo_anothers_score(running):
    """Before: in a practice room Bob's `undo` took back Ann's score (his turn, her
    action), again and again. Now only Ann takes back her own."""
    port, _database = running
    with http(port, "127.0.5.4") as client:
        room = client.post(
            "/api/rooms",
            json={"players": [{"name": "Ann", "kind": "me"}, {"name": "Bob", "kind": "friend"}],
                  "practice": True},
        ).json()  # fmt: skip
        code = room["room"]["code"]
        host = {"Authorization": f"Bearer {room['host_key']}"}
        joined = client.post(
            f"/api/rooms/{code}/join", json={"invitation": room["invitations"][0]["invitation"]}
        ).json()
        started = client.post(
            f"/api/rooms/{code}/start", json={"version": joined["room"]["version"]}, headers=host
        ).json()
        game = started["room"]["game"]
        ann = {"Authorization": f"Bearer {started['tokens'][0]['token']}"}
        device = {"Authorization": f"Bearer {joined['device_key']}"}
        bob_token = client.get(f"/api/rooms/{code}/seat", headers=device).json()["tokens"][0]
        bob = {"Authorization": f"Bearer {bob_token['token']}"}

        def act(action: str, seat: dict[str, str]):
            version = client.get(f"/api/games/{game}").json()["version"]
            return client.post(
                f"/api/games/{game}/actions",
                json={"action": action, "version": version},
                headers=seat,
            )

        assert act("roll", ann).status_code == 200
        assert act("score chance", ann).status_code == 200
        scored = client.get(f"/api/games/{game}").json()
        refused = act("undo", bob)
        assert refused.status_code in (403, 409), refused.text
        assert client.get(f"/api/games/{game}").json()["version"] == scored["version"]
        # Ann takes back her own score (though Bob is to move).
        taken_back = act("undo", ann)
        assert taken_back.status_code == 200, taken_back.text
        assert taken_back.json()["version"] == scored["version"] + 1


# -- 8. high scores --------------------------------------------------------------------------

TYPED_ORDER = [
    *("yahtzee", "sixes", "large_straight", "small_straight", "full_house", "four_of_a_kind"),
    *("three_of_a_kind", "chance", "ones", "twos", "threes", "fours", "fives"),
]


def test_typed_dice_at_the_table_never_enter_the_public_high_scores(running):
    """A game at the table with 66666 typed in every turn (1,500 points and more). Before:
    first on /highscores. Now: only on the table board, marked as typed; a practice game
    over the API is on neither."""
    port, _database = running
    player = Browser(port, "127.0.6.1")
    started = player.send("POST", "/table", name0="Mallory", preset="classic", first="")
    assert started.status_code == 303, started.text[:300]
    table = started.headers["location"]
    open_boxes = list(TYPED_ORDER)
    while open_boxes:
        version = version_of(player.send("GET", table).text)
        assert player.send("POST", f"{table}/dice", dice="66666", version=str(version)).is_redirect
        for box in open_boxes:
            version = version_of(player.send("GET", table).text)
            scored = player.send(
                "POST", f"{table}/score", box=box, version=str(version), confirm_zero="1"
            )
            if scored.is_redirect:
                open_boxes.remove(box)
                break
        else:
            raise AssertionError(open_boxes)
    player.close()
    with http(port, "127.0.6.2") as client:
        page = client.get("/highscores").text
    rolled, _sep, typed = page.partition('id="typed"')
    assert "Mallory" not in rolled
    assert "Mallory" in typed and "typed in" in typed


# -- 11. names, error pages, device claims, lingering close ---------------------------------

SECURITY_HEADERS = ("content-security-policy", "x-frame-options", "x-content-type-options")


def test_a_player_named_like_mathtext_does_not_break_the_review_page(running):
    """Before: the review chart parsed `$\\notacommand{$` as mathtext, and the page was a
    permanent 500 (without the security headers). Now the name is drawn as text."""
    port, _database = running
    game, _record = finished_game(port, "127.0.7.1", name="$\\notacommand{$")
    with http(port, "127.0.7.1") as client:
        page = client.get(f"/g/{game}/review")
    assert page.status_code == 200, page.text[-500:]
    assert all(page.headers.get(name) for name in SECURITY_HEADERS)


INVISIBLE_NAMES = {
    "braille blank": "\u2800",
    "hangul filler": "\u3164",
    "zero-width space inside": "A\u200bnn",
    "tag characters": "Ann\U000e0041\U000e0042",
    "leading byte order mark": "\ufeffAnn",
}


def test_invisible_and_look_alike_names_are_refused_with_a_translated_reason(running):
    """Before: every one of these names made a game (201). Now each is a 422 that names
    the character, and the form says so in the visitor's language."""
    port, _database = running
    with http(port, "127.0.7.2") as client:
        for label, name in INVISIBLE_NAMES.items():
            answer = client.post("/api/games", json={"players": [{"name": name}]})
            assert answer.status_code == 422, (label, answer.text)
            assert "invisible" in answer.text, (label, answer.text)
        assert client.post("/api/games", json={"players": [{"name": "❤️ Ann"}]}).status_code == 201
    dutch = Browser(port, "127.0.7.3")
    dutch.client.headers["Accept-Language"] = "nl"
    form = dutch.send("POST", "/games", **{**FORM, "name0": "\u3164"})
    dutch.close()
    assert form.status_code == 422 and "onzichtbare" in form.text, form.text[-800:]


def test_a_seat_takes_at_most_eight_devices_and_keeps_those_it_has(running):
    """Before: a seat's holder added devices without end (~32 claims a second). Now past 8
    a device code is refused, and every device the seat had still holds it."""
    port, _database = running
    source = "127.0.7.4"
    host = Browser(port, source, agent="host")
    code = host.send("POST", "/games", **ROOM_FORM).headers["location"].rsplit("/", 1)[1]
    link = invitations(host.send("GET", f"/r/{code}").text)[0]
    seat, key = re.search(r"/invite/(\d+)\?key=([^&\"]+)", link).groups()
    friend = Browser(port, source, agent="friend")
    friend.send("POST", "/join", code=code, seat=seat, key=key, name="Bob")
    devices, refused = [friend], 0
    for number in range(12):
        page = friend.send("POST", f"/r/{code}/devices").text
        found = re.search(r'id="device-code">([^<]+)<', page)
        if found is None:
            refused += 1
            continue
        device = Browser(port, f"127.0.8.{number + 1}", agent=f"device {number}")
        added = device.send("POST", f"/r/{code}/device", key=found.group(1))
        assert added.is_redirect, added.text[-300:]
        devices.append(device)
    assert len(devices) == 8 and refused == 12 + 1 - 8
    for device in devices:  # each still holds the seat
        assert 'id="devices"' in device.send("GET", f"/r/{code}").text
        device.close()
    host.close()


def test_a_client_sending_an_over_limit_body_without_waiting_reads_the_413(running):
    """As Python's urllib: the whole body (3 MB, over the 64 kB bound) is sent with
    `Connection: close` before the answer is read. Before: the server closed with the body
    unread, and the client got a connection reset instead of the answer (8 tries of 8).
    Now it reads and drops what is sent (up to a bound) before closing, as nginx does:
    every try reads the 413, and nothing was created."""
    port, database = running
    before = games_in(database)
    body = b'{"players": [{"name": "' + b"x" * (3 * 1024 * 1024) + b'"}]}'
    request = (
        b"POST /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body)
    ) + body
    outcomes = []
    for _ in range(8):
        with socket.create_connection(
            ("127.0.0.1", port), 30, source_address=("127.0.7.5", 0)
        ) as sock:
            try:
                sock.sendall(request)
                answer = b""
                while chunk := sock.recv(65536):
                    answer += chunk
                outcomes.append(answer[:12].decode())
            except OSError as error:
                outcomes.append(type(error).__name__)
    assert outcomes == ["HTTP/1.1 413"] * 8, outcomes
    assert games_in(database) == before
