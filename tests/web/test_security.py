"""The holes an attack found, each kept closed by a test.

Seat cookies a cross-site post cannot wipe, any number of seats per browser, CSRF (origin and
token), clickjacking and the other headers, invite links that ignore the Host header, CPU
levels checked, a page that stops stepping a CPU that cannot move, and README = behaviour.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fivedice.core.errors import FivediceError
from fivedice.web.guard import SESSION_COOKIE, parse_public_url
from fivedice.web.hub import MAX_SEED
from tests.web.support import FORM, ORIGIN, SECRET, PageClient, TestClient, new_game, start

TEMPLATES = Path(__file__).resolve().parents[2] / "src" / "fivedice" / "web" / "templates"
EVIL = "http://evil.example"
OTHER_PORT = "http://testserver:8081"  # same site, another origin


def game_of(app, location):
    hub = app.state.hub
    game_id = hub.game_id(location.rsplit("/", 1)[1])
    return hub.load(game_id)


def token_of(client) -> str:
    return client.csrf_token()


# -- item 1 and 8: the seat cookie ---------------------------------------------------------


def test_a_cross_site_form_post_neither_acts_nor_replaces_the_seat_cookie(client, app):
    mine = start(client)
    session = client.cookies.get(SESSION_COOKIE)
    # The attacker's page auto-submits the new-game form; SameSite=Lax keeps the cookie back.
    with PageClient(app, headers={"Origin": EVIL}) as attacker:
        attack = attacker.post(
            "/games",
            data={"kind0": "human", "name0": "Mallory", "kind1": "cpu", "csrf_token": ""},
            follow_redirects=False,
        )
    assert attack.status_code == 403
    assert "set-cookie" not in attack.headers  # nothing that could replace the victim's cookie
    assert "another site" in attack.text
    with PageClient(app, headers={"Origin": EVIL, "Accept-Language": "nl"}) as dutch:
        assert "andere site" in dutch.post("/games", data={"csrf_token": ""}).text
    # Even from the right origin, a post that carried no session gets none.
    with TestClient(app, headers={"Origin": ORIGIN}) as kept_back:
        bare = kept_back.post("/games", data={**FORM, "csrf_token": token_of(client)})
    assert bare.status_code == 403 and "set-cookie" not in bare.headers
    assert client.cookies.get(SESSION_COOKIE) == session
    page = client.get(mine).text
    assert "you hold no seat" not in page and 'id="roll"' in page


def test_an_odd_cookie_of_another_app_does_not_hide_the_session(client, app):
    location = start(client)
    session = client.cookies.get(SESSION_COOKIE)
    with TestClient(app) as other:
        odd = f'theme="a;b"; x=\\"; {SESSION_COOKIE}={session}; y=[1]'
        page = other.get(location, headers={"Cookie": odd})
    assert "set-cookie" not in page.headers and 'id="roll"' in page.text


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_a_browser_holds_more_than_thirty_games(client, app):
    locations = [start(client, kind1="none", seed=str(n)) for n in range(35)]
    listed = client.get("/resume").text
    for location in locations:
        assert location.rsplit("/", 1)[1] in listed
    first = locations[0]
    after = client.post(first + "/act", data={"action": "roll", "version": 0})
    assert after.status_code == 200 and game_of(app, first).version == 1


def test_sessions_share_nothing(client, app):
    location = start(client)
    with PageClient(app, headers={"Origin": ORIGIN}) as other:
        page = other.get(location).text
        assert "you hold no seat" in page
        refused = other.post(location + "/act", data={"action": "roll", "version": 0})
        assert refused.status_code == 403
    assert game_of(app, location).version == 0


# -- item 2 and 3: CSRF, framing, headers --------------------------------------------------


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": OTHER_PORT},
        {"Origin": EVIL},
        {"Origin": "null"},
        {"Origin": "null", "Referer": OTHER_PORT + "/page"},
        {},  # neither Origin nor Referer
    ],
)
def test_posts_from_elsewhere_are_refused_and_change_nothing(client, app, headers):
    location = start(client)
    token = token_of(client)
    client.headers.pop("Origin")
    for path, data in (
        ("/act", {"action": "roll", "version": "0"}),
        ("/handover", {"seat": "1"}),
        ("/coach", {}),
        ("/abandon", {}),
    ):
        response = client.post(location + path, data={**data, "csrf_token": token}, headers=headers)
        assert response.status_code == 403, (path, headers)
    view = game_of(app, location)
    assert view.version == 0 and view.status == "in_progress"


def test_the_referer_stands_in_for_a_missing_origin(client, app):
    location = start(client)
    token = token_of(client)
    client.headers.pop("Origin")
    response = client.post(
        location + "/act",
        data={"action": "roll", "version": "0", "csrf_token": token},
        headers={"Referer": f"{ORIGIN}{location}"},
    )
    assert response.status_code == 200 and game_of(app, location).version == 1


@pytest.mark.parametrize("token", [None, "", "0" * 32, "forged"])
def test_posts_without_the_sessions_token_are_refused(client, app, token):
    location = start(client)
    data = {"action": "roll", "version": "0"}
    if token is not None:
        data["csrf_token"] = token
    response = TestClient.post(client, location + "/act", data=data)  # adds no token
    assert response.status_code == 403 and "reload the page" in response.text
    assert game_of(app, location).version == 0


def test_another_sessions_token_is_refused(client, app):
    location = start(client)
    with PageClient(app, headers={"Origin": ORIGIN}) as other:
        stolen = other.csrf_token()
    response = client.post(
        location + "/act", data={"action": "roll", "version": "0", "csrf_token": stolen}
    )
    assert response.status_code == 403 and game_of(app, location).version == 0


def test_the_token_may_come_in_a_header_as_app_js_sends_it(client, app):
    location = start(client)
    token = token_of(client)
    response = client.post(
        location + "/act",
        data={"action": "roll", "version": "0", "csrf_token": "wrong"},
        headers={"X-CSRF-Token": token, "X-Fivedice-Fragment": "1"},
    )
    assert response.status_code == 200 and game_of(app, location).version == 1
    # multipart, as fetch sends a FormData, with the token as a field
    response = client.post(
        location + "/act",
        files={"action": (None, "hold 1"), "version": (None, "1"), "csrf_token": (None, token)},
    )
    assert response.status_code == 200 and game_of(app, location).version == 2


def test_every_form_that_posts_carries_the_token(client):
    location = start(client, kind1="human", name1="Bob")
    token = token_of(client)
    pages = [client.get(path).text for path in ("/", "/resume", location)]
    pages.append(client.get(location, headers={"X-Fivedice-Fragment": "1"}).text)
    forms = [form for page in pages for form in re.findall(r"<form[^>]*>.*?</form>", page, re.S)]
    posting = [form for form in forms if 'method="post"' in form]
    assert len(posting) >= 4
    for form in posting:
        assert f'name="csrf_token" value="{token}"' in form, form[:120]


def test_templates_have_no_inline_script_style_or_handlers():
    for template in TEMPLATES.glob("*.html"):
        text = template.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)", text), template.name
        assert not re.search(r"\sstyle\s*=|<style", text), template.name
        assert not re.search(r"\son[a-z]+\s*=", text), template.name
        assert "javascript:" not in text, template.name


def test_security_headers_on_pages_api_and_errors(client):
    location = start(client)
    data, _seats = new_game(client)
    answers = [
        client.get("/"),
        client.get(location),
        client.get("/g/1-nonsense"),
        client.get(f"/api/games/{data['id']}"),
        client.post("/api/games", json={"players": []}),
        client.post(location + "/act", data={"action": "roll", "version": 0, "csrf_token": "x"}),
    ]
    for answer in answers:
        policy = answer.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in policy and "script-src 'self';" in policy
        assert "unsafe-inline" not in policy
        assert answer.headers["x-frame-options"] == "DENY"
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["referrer-policy"] == "same-origin"
        assert answer.headers["cache-control"] == "no-store"
    assert "no-store" not in client.get("/static/app.js").headers.get("cache-control", "")


def test_the_session_cookie_is_http_only_and_same_site(raw_client):
    cookie = raw_client.get("/").headers["set-cookie"]
    assert cookie.startswith(SESSION_COOKIE + "=")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    # no new session on the API or on a post
    assert "set-cookie" not in raw_client.get("/api/games/1-x").headers
    assert "set-cookie" not in raw_client.post("/games", data=FORM).headers


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_huge_forms_are_refused_before_parsing(client, app):
    location = start(client)
    response = client.post(location + "/act", data={"action": "x" * 200_000, "version": "0"})
    assert response.status_code == 413 and game_of(app, location).version == 0


# -- item 4: invite links ------------------------------------------------------------------


def _invites(page: str) -> list[str]:
    return [link.replace("&amp;", "&") for link in re.findall(r'data-invite value="([^"]+)"', page)]


def test_invite_links_never_come_from_the_host_header(client):
    location = start(client, kind1="friend", name1="Bob")
    assert location.startswith("/r/")  # a room: it waits for Bob
    page = client.get(location, headers={"Host": "evil.example"}).text
    links = _invites(page)
    assert len(links) == 1 and all(link.startswith("/r/") for link in links)
    assert "evil.example" not in page


def test_invite_links_use_the_configured_public_url(service):
    from fivedice.web import create_app

    app = create_app(service, SECRET, public_url="https://dice.example.org/")
    with PageClient(
        app, base_url="https://dice.example.org", headers={"Origin": "https://dice.example.org"}
    ) as client:
        location = start(client, kind1="friend", name1="Bob")
        page = client.get(location, headers={"Host": "evil.example"}).text
    links = _invites(page)
    assert len(links) == 1
    assert all(link.startswith("https://dice.example.org/r/") for link in links)


@pytest.mark.parametrize(
    "url", ["ftp://x.org", "https://", "https://x.org/sub", "https://x.org/?a=1", "nonsense"]
)
def test_a_public_url_must_be_a_sites_address(url):
    with pytest.raises(FivediceError, match="public URL"):
        parse_public_url(url)
    assert parse_public_url("https://Dice.Example.org:443/") == "https://dice.example.org"


# -- item 5: CPU levels, and a CPU that cannot move ----------------------------------------


def test_the_form_refuses_an_unknown_cpu_level(client, service):
    before = len(service.store.list_games())
    response = client.post("/games", data={**FORM, "level1": "god"})
    assert response.status_code == 422
    assert "a CPU level is one of" in response.text and "expert" in response.text
    assert len(service.store.list_games()) == before


def test_app_js_listens_and_never_polls():
    # Moves are pushed (EventSource); no timer asks the server again and again. The two
    # timers: the retrier's, with a growing wait (after a failure: tests/web/browser/
    # test_reconnect.py counts the requests of a page that is offline; and while the coach
    # waits for a table being built), and the quiet spell after a stopping server moved the
    # stream, which only shows the banner (asks nothing).
    script = (TEMPLATES.parent / "static" / "app.js").read_text()
    assert "EventSource" in script
    assert "setInterval" not in script and script.count("setTimeout") == 2
    retrier = script[script.index("function retrier(") :]
    assert "setTimeout" in retrier[: retrier.index("\n  }\n")]
    quiet = script[script.index("quietTimer = window.setTimeout(") :]
    assert "fetch" not in quiet[: quiet.index("}, wait);")]
    assert "location.reload" not in script
    # The coach's own asking again goes through the retrier too (no timer of its own).
    ask_again = script[script.index("function askAgainLater(") :]
    assert "coachReads.later(" in ask_again[: ask_again.index("\n  }\n")]


# -- item 9: README and behaviour agree ----------------------------------------------------


def test_acting_in_a_finished_game_is_409_on_pages_too(client, app):
    location = start(client, kind1="none")
    view = game_of(app, location)
    client.post(location + "/abandon")
    response = client.post(location + "/act", data={"action": "roll", "version": view.version})
    assert response.status_code == 409 and "abandoned" in response.text


def test_the_forms_seed_limit_is_the_apis(client):
    assert client.post("/games", data={**FORM, "seed": str(MAX_SEED + 2)}).status_code == 422
    assert start(client, seed=str(MAX_SEED))
    over = client.post("/api/games", json={"players": [{"name": "A"}], "seed": MAX_SEED + 1})
    assert over.status_code == 422
    assert new_game(client, [{"name": "A"}], seed=MAX_SEED)


@pytest.mark.parametrize(
    "path", ["/sheet/", "/tutorial/", "/join/", "/g/1-abc/join/?seat=0&token=secret", "/api/games/"]
)
def test_a_trailing_slash_redirect_never_names_the_host_header(raw_client, path):
    """The router's trailing-slash redirect must not build
    an absolute URL from the Host header (`Host: evil.example` → Location
    `http://evil.example/g/…/join?…&token=…`). Redirects are relative."""
    response = raw_client.get(path, headers={"Host": "evil.example"}, follow_redirects=False)
    assert response.status_code in (307, 308), response.status_code
    location = response.headers["location"]
    assert location.startswith("/") and not location.startswith("//"), location
    assert "evil" not in location
    assert location == path.replace("/?", "?").rstrip("/")


@pytest.mark.parametrize("path", ["/boom", "/api/boom"])
def test_a_500_carries_the_security_headers(app, path):
    """An error nobody caught (a bug): the 500 goes out through the guard, with every
    security header (before, Starlette's own 500 had none), and says nothing of the bug."""

    def boom() -> None:
        raise RuntimeError("a secret detail of the bug")

    app.add_api_route(path, boom)
    with TestClient(app, raise_server_exceptions=False) as browser:
        answer = browser.get(path)
    assert answer.status_code == 500
    for header in ("content-security-policy", "x-frame-options", "x-content-type-options"):
        assert answer.headers.get(header), header
    assert "secret detail" not in answer.text
    if path.startswith("/api/"):
        assert answer.json() == {"detail": "Internal Server Error"}
    else:
        assert "Something went wrong" in answer.text
