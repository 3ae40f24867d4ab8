"""Browser sessions nobody can fix or ride: only ids this server issued count, a seat grant
gives a new id (the old one then holds nothing), the cookie is `__Host-` and Secure over
https, and a link alone never adds a seat (the join link shows a button that posts)."""

from __future__ import annotations

import re
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from fivedice.store.browser_seats import session_key
from fivedice.store.tutorial_progress import DONE, TutorialStore
from fivedice.web import create_app, guard
from fivedice.web.guard import (
    SECURE_SESSION_COOKIE,
    SESSION_COOKIE,
    is_issued_session,
    issue_session,
    upgraded_session,
)
from fivedice.web.security import Signer
from tests.web.support import (
    ORIGIN,
    SECRET,
    PageClient,
    another_browser,
    given_session,
    invitations,
    open_room,
    session_cookies,
    start,
)

SIGNER = Signer(SECRET)
EVIL = "http://evil.example"


def plant(browser, session: str, name: str = SESSION_COOKIE) -> None:
    """Puts a session cookie into a browser as if its server had set it."""
    host = browser.base_url.host
    browser.cookies.set(name, session, domain=host if "." in host else f"{host}.local")


def browser_with(app, session: str) -> PageClient:
    """Another browser that carries `session` (one planted, guessed or stolen)."""
    browser = PageClient(app, headers={"Origin": ORIGIN})
    plant(browser, session)
    return browser


def public_id(location: str) -> str:
    return location.rsplit("/", 1)[1]


# -- only ids this server issued -----------------------------------------------------------


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
@pytest.mark.parametrize(
    "forged",
    [
        "A" * 43,  # the shape of an older server's ids
        secrets.token_urlsafe(32),
        secrets.token_urlsafe(24) + "." + "0" * 32,  # today's shape, a made-up HMAC
    ],
    ids=["older-shape", "random-older-shape", "made-up-hmac"],  # (same ids in every worker)
)
def test_a_session_id_the_server_did_not_issue_is_replaced_and_grants_nothing(client, app, forged):
    game = public_id(start(client))  # someone's game, to be sure it is not offered
    with browser_with(app, forged) as stranger:
        page = stranger.get("/resume")
        given = given_session(page)
        assert given is not None and given != forged
        assert is_issued_session(SIGNER, given)
        assert game not in page.text
        assert stranger.cookies.get(SESSION_COOKIE) == given


def test_a_planted_session_id_gives_its_planter_nothing_of_the_victims_games(client, app):
    """Session fixation: the attacker sets the victim's cookie to an id the attacker knows
    (here an issued one, got from the server), then waits for the victim to play."""
    with another_browser(app) as attacker:
        attacker.get("/rules")
        planted = attacker.cookies.get(SESSION_COOKIE)
        with browser_with(app, planted) as victim:
            game = public_id(start(victim))
            assert victim.cookies.get(SESSION_COOKIE) != planted  # rotated at the grant
            assert game in victim.get("/resume").text
        assert game not in attacker.get("/resume").text


def test_an_issued_session_id_survives_and_keeps_its_seats(client, app):
    client.get("/rules")
    session = client.cookies.get(SESSION_COOKIE)
    assert is_issued_session(SIGNER, session)
    again = client.get("/resume")
    assert given_session(again) is None  # nothing to replace
    location = start(client)
    kept = client.cookies.get(SESSION_COOKIE)
    page = client.get(location)
    assert given_session(page) is None and 'id="roll"' in page.text
    assert client.cookies.get(SESSION_COOKIE) == kept


def test_an_older_servers_session_id_with_seats_is_upgraded_once_keeping_them(client, app):
    hub = app.state.hub
    location = start(client)
    game_id = hub.game_id(public_id(location))
    old = secrets.token_urlsafe(32)  # as an older server issued them, with seats kept
    hub.browser_seats.add(old, [(game_id, 0)])
    with browser_with(app, old) as browser:
        first = browser.get("/resume")
        new = given_session(first)
        assert new == upgraded_session(SIGNER, old) and is_issued_session(SIGNER, new)
        assert public_id(location) in first.text
        assert hub.browser_seats.seats_in(new, game_id) == [0]
        assert not hub.browser_seats.holds_anything(old)
        assert given_session(browser.get(location)) is None  # once
    # A request of the same browser that was under way arrives at the same id.
    with browser_with(app, old) as late:
        assert given_session(late.get("/resume")) == new


def test_a_form_shown_before_the_upgrade_still_posts(client, app):
    hub = app.state.hub
    location = start(client)
    game_id = hub.game_id(public_id(location))
    old = secrets.token_urlsafe(32)
    hub.browser_seats.add(old, [(game_id, 0)])
    with PageClient(app, headers={"Origin": ORIGIN}) as browser:
        plant(browser, old)
        shown_token = SIGNER.mac(f"csrf:{old}")[:32]  # what that page's forms carry
        acted = browser.post(
            location + "/act", data={"action": "roll", "version": 0, "csrf_token": shown_token}
        )
        assert acted.status_code == 200 and hub.load(game_id).version == 1


# -- rotation ----------------------------------------------------------------------------


def test_a_seat_grant_rotates_the_session_and_keeps_every_seat(client, app):
    first = public_id(start(client))
    before = client.cookies.get(SESSION_COOKIE)
    response = client.post("/games", data={"kind0": "human", "name0": "Ann", "kind1": "cpu"})
    second = public_id(str(response.url))
    after = client.cookies.get(SESSION_COOKIE)
    assert after != before and is_issued_session(SIGNER, after)
    listed = client.get("/resume").text
    assert first in listed and second in listed
    # The old id holds nothing now: whoever saw or planted it gets no seat.
    with browser_with(app, before) as old:
        assert first not in old.get("/resume").text
        refused = old.post(f"/g/{first}/act", data={"action": "roll", "version": 0})
        assert refused.status_code == 403
    assert app.state.hub.load(app.state.hub.game_id(first)).version == 0


def test_a_second_grant_under_way_with_the_old_id_reaches_the_same_new_id(client, app):
    """A double click (or a second tab) sent two grants with the same id: whichever answer
    the browser keeps, it holds both games."""
    client.get("/rules")
    old = client.cookies.get(SESSION_COOKIE)
    with browser_with(app, old) as tab_one, browser_with(app, old) as tab_two:
        one = tab_one.post(
            "/games", data={"kind0": "human", "kind1": "cpu"}, follow_redirects=False
        )
        two = tab_two.post(
            "/games", data={"kind0": "human", "kind1": "cpu"}, follow_redirects=False
        )
        new = given_session(one)
        assert new is not None and given_session(two) == new
    with browser_with(app, new) as browser:
        listed = browser.get("/resume").text
    for answer in (one, two):
        assert public_id(answer.headers["location"]) in listed


def test_a_grant_with_the_old_id_long_after_the_rotation_gets_nothing_of_it(
    client, app, monkeypatch
):
    """Someone who kept (or planted) the old id and grants themselves a seat later gets a
    new id of their own, never the one the browser was given."""
    monkeypatch.setattr(guard, "FORWARD_SECONDS", 0.0)  # "later": after the rotation
    client.get("/rules")
    old = client.cookies.get(SESSION_COOKIE)
    first = public_id(start(client))
    new = client.cookies.get(SESSION_COOKIE)
    with browser_with(app, old) as keeper:
        late = keeper.post("/games", data={"kind0": "human", "kind1": "cpu"})
        assert given_session(late.history[0]) not in (None, old, new)
        assert first not in keeper.get("/resume").text
    assert first in client.get("/resume").text


def test_grants_sent_at_the_same_moment_with_one_id_all_reach_one_new_id(client, app):
    client.get("/rules")
    old = client.cookies.get(SESSION_COOKIE)
    tabs = [browser_with(app, old) for _ in range(4)]
    for tab in tabs:
        tab.__enter__()
    gate = threading.Barrier(len(tabs))

    def grant(tab):
        gate.wait()
        form = {"kind0": "human", "kind1": "cpu"}
        return tab.post("/games", data=form, follow_redirects=False)

    try:
        with ThreadPoolExecutor(len(tabs)) as pool:
            answers = list(pool.map(grant, tabs))
    finally:
        for tab in tabs:
            tab.__exit__(None, None, None)
    given = {given_session(answer) for answer in answers}
    assert len(given) == 1 and None not in given
    with browser_with(app, given.pop()) as browser:
        listed = browser.get("/resume").text
    assert all(public_id(answer.headers["location"]) in listed for answer in answers)


def test_rotation_moves_rooms_hosted_claims_and_tutorial_progress(client, app, service):
    hub = app.state.hub
    room = open_room(client)
    host = client.cookies.get(SESSION_COOKIE)
    (invite,) = invitations(client.get(room).text)
    seat, key = re.search(r"/invite/(\d+)\?key=(\w+)", invite).groups()
    with another_browser(app) as bob:
        bob.post("/join", data={"code": room[3:], "seat": seat, "key": key, "name": "Bob"})
        friend = bob.cookies.get(SESSION_COOKIE)
    progress = TutorialStore(service.store)
    progress.mark_lesson(session_key(friend), "rolling", DONE)
    progress.mark_lesson(session_key(friend), "scoring", DONE)
    new_host, new_friend = issue_session(SIGNER), issue_session(SIGNER)
    progress.mark_lesson(session_key(new_friend), "scoring", DONE)  # both: kept once
    room_id = hub.rooms.by_code(room[3:]).room_id
    hub.browser_seats.move_all(host, new_host)
    hub.browser_seats.move_all(friend, new_friend)
    assert hub.rooms.by_code(room[3:]).host_key == session_key(new_host)
    assert [k for _seat, k in hub.rooms.claims(room_id)] == [session_key(new_friend)]
    assert set(progress.tutorial_progress(session_key(new_friend))) == {"rolling", "scoring"}
    assert not hub.browser_seats.holds_anything(host)
    assert not hub.browser_seats.holds_anything(friend)
    assert hub.browser_seats.holds_anything(new_host)


def test_a_hosts_room_and_a_friends_devices_survive_every_later_rotation(client, app):
    """Rooms hosted and seats claimed (by two devices of one friend) are kept under the
    session id; each later grant rotates the ids, and nothing is lost on the way."""
    hub = app.state.hub
    room = open_room(client)
    code = room[3:]
    (invite,) = invitations(client.get(room).text)
    seat, key = re.search(r"/invite/(\d+)\?key=(\w+)", invite).groups()
    with another_browser(app) as phone, another_browser(app) as laptop:
        phone.post("/join", data={"code": code, "seat": seat, "key": key, "name": "Bob"})
        asked = phone.post(f"/r/{code}/devices").text
        device_code = re.search(r'id="device-code">([\w-]+)<', asked).group(1)
        assert laptop.post(f"/r/{code}/device", data={"key": device_code}).status_code == 200
        before = {b: b.cookies.get(SESSION_COOKIE) for b in (client, phone, laptop)}
        for browser in (client, phone, laptop):  # one more grant each: a game of their own
            start(browser)
        after = {b: b.cookies.get(SESSION_COOKIE) for b in (client, phone, laptop)}
        assert all(after[b] != before[b] for b in after)
        for old in before.values():
            assert not hub.browser_seats.holds_anything(old)
        waiting = hub.rooms.by_code(code)
        assert waiting.host_key == session_key(after[client])
        assert sorted(k for k, _since in hub.rooms.devices(waiting, int(seat))) == sorted(
            session_key(after[b]) for b in (phone, laptop)
        )
        page = phone.get(room).text  # the phone lists both devices, itself marked
        assert "Device 1 (this device)" in page and "<li>Device 2," in page
        started = client.post(room + "/start", data={"version": waiting.version})
        assert started.url.path.startswith("/g/")  # the host still starts it
        game = started.url.path
        for browser in (phone, laptop):  # both devices of Bob's are sent to the game
            assert browser.get(room).url.path == game
            assert public_id(game) in browser.get("/resume").text


# -- the cookie over https -----------------------------------------------------------------


@pytest.fixture
def https_app(service):
    return create_app(service, SECRET, drive_cpus=False, public_url="https://dice.example.org")


def test_over_https_the_session_cookie_is_host_prefixed_and_secure(https_app):
    origin = "https://dice.example.org"
    with PageClient(https_app, base_url=origin, headers={"Origin": origin}) as browser:
        (cookie,) = session_cookies(browser.get("/rules"))
        assert cookie.startswith(f"{SECURE_SESSION_COOKIE}=")
        attributes = {part.strip().split("=")[0].lower() for part in cookie.split(";")[1:]}
        assert {"secure", "path", "httponly", "samesite"} <= attributes
        assert "domain" not in attributes and "; Path=/;" in cookie
        location = start(browser)
        assert 'id="roll"' in browser.get(location).text  # and it works


def test_behind_a_trusted_proxy_an_https_request_gets_the_host_prefixed_cookie(app):
    # uvicorn sets the scheme from X-Forwarded-Proto of trusted proxies only; here: https.
    with PageClient(app, base_url="https://testserver") as browser:
        (cookie,) = session_cookies(browser.get("/rules"))
        assert cookie.startswith(f"{SECURE_SESSION_COOKIE}=") and "Secure" in cookie


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_over_plain_http_the_cookie_keeps_its_name_without_secure(client):
    (cookie,) = session_cookies(client.get("/rules"))
    assert cookie.startswith(f"{SESSION_COOKIE}=") and "Secure" not in cookie


def test_over_https_a_plain_named_cookie_is_never_upgraded_only_deleted(https_app):
    """A plain-named cookie may come from a sibling subdomain or a man in the middle of
    plain http: over https only the `__Host-` cookie this host set counts."""
    origin = "https://dice.example.org"
    hub = https_app.state.hub
    with PageClient(https_app, base_url=origin, headers={"Origin": origin}) as owner:
        location = start(owner)
    game_id = hub.game_id(public_id(location))
    old = secrets.token_urlsafe(32)
    hub.browser_seats.add(old, [(game_id, 0)])
    with PageClient(https_app, base_url=origin) as browser:
        plant(browser, old)
        page = browser.get("/resume")
        cookies = session_cookies(page)
        assert any(c.startswith(f"{SECURE_SESSION_COOKIE}=") for c in cookies)
        assert any(c.startswith(f"{SESSION_COOKIE}=;") and "Max-Age=0" in c for c in cookies)
        assert given_session(page) != upgraded_session(SIGNER, old)
        assert public_id(location) not in page.text
    assert hub.browser_seats.seats_in(old, game_id) == [0]  # (nothing moved)
    # Under its own name, as this host set it over https, the older id is upgraded.
    with PageClient(https_app, base_url=origin) as browser:
        plant(browser, old, SECURE_SESSION_COOKIE)
        page = browser.get("/resume")
        assert given_session(page) == upgraded_session(SIGNER, old)
        assert public_id(location) in page.text
    # An id of today's shape under the plain name over https was never ours to give: ignored.
    planted = client_issued(https_app)
    with PageClient(https_app, base_url=origin) as browser:
        plant(browser, planted)
        assert given_session(browser.get("/resume")) not in (None, planted)


def client_issued(app) -> str:
    """A session id the app issued over plain http."""
    with PageClient(app) as browser:
        browser.get("/rules")
        return browser.cookies.get(SESSION_COOKIE)


# -- no state change on GET ----------------------------------------------------------------


def seat_link(app, location: str, seat: int) -> tuple[str, str]:
    hub = app.state.hub
    token = hub.signer.seat_token(hub.game_id(public_id(location)), seat)
    return f"{location}/join?seat={seat}&token={token}", token


def test_a_join_link_changes_nothing_and_its_pages_button_joins(client, app):
    location = start(client, kind1="local", name1="Bob")
    link, token = seat_link(app, location, 1)
    with another_browser(app) as bob:
        page = bob.get(link)
        assert page.status_code == 200 and "You are invited to play as Bob" in page.text
        assert public_id(location) not in bob.get("/resume").text  # the link added nothing
        form = re.search(r'<form method="post" action="([^"]+)"', page.text).group(1)
        assert form == f"{location}/join" and 'name="csrf_token"' in page.text
        before = bob.cookies.get(SESSION_COOKIE)
        joined = bob.post(form, data={"seat": "1", "token": token}, follow_redirects=False)
        assert joined.status_code == 303 and joined.headers["location"] == location
        assert given_session(joined) not in (None, before)  # a seat granted: a new id
        assert public_id(location) in bob.get("/resume").text


def test_a_cross_site_join_is_refused(client, app):
    location = start(client, kind1="local", name1="Bob")
    _link, token = seat_link(app, location, 1)
    with another_browser(app) as victim:
        victim.get("/rules")
        # The attacker's page posts the join form (SameSite=Lax would even keep the cookie
        # back; the origin check refuses it either way).
        attack = victim.post(
            f"{location}/join",
            data={"seat": "1", "token": token, "csrf_token": ""},
            headers={"Origin": EVIL},
        )
        assert attack.status_code == 403
        assert public_id(location) not in victim.get("/resume").text
