"""Fuzzing that stays: random form posts at every page route, random JSON at every API route.

For every route the app has (read from its routers, so a route added later is fuzzed too):
never a 5xx or a traceback, never a hang (each request runs under an alarm that turns a hang
into a failure), and a game whose request was refused is unchanged (same version, same log,
same status). Most posts carry this browser's valid origin and CSRF token, so the fuzz gets
past the guard and reaches the routes themselves; some carry garbage instead.
Modest example counts keep the whole file well under a minute.
"""

from __future__ import annotations

import contextlib
import json
import re
import signal
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from fivedice.service.creation import PlayerSpec
from fivedice.service.games import GameService
from fivedice.store import schema
from fivedice.web.routers import api, pages, review, rooms, sheet, table, tutorial
from tests.web.support import ORIGIN, SECRET, UNCOUNTED, TestClient

# Hypothesis throws many generated requests at every route: make test runs it, test-fast not.
pytestmark = pytest.mark.slow

HANG_SECONDS = 30  # far above any honest request here: only a hang gets near it
FUZZ = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

PAGE_ROUTES = sorted(
    (method, route.path)
    for router in (pages.router, rooms.router, sheet.router, table.router, review.router)
    for route in router.routes
    for method in route.methods
)
# The event streams never end by design (a request that "hangs"): tests/web/test_live.py
# covers them, including their refusals.
API_ROUTES = sorted(
    (method, route.path)
    for route in api.router.routes
    for method in route.methods
    if not route.path.endswith("/events")
)
FIELDS = [
    "action", "version", "csrf_token", "seat", "token", "hint", "next", "preset", "seed",
    "match_length", "first_player", "practice", "kind0", "name0", "level0", "kind1", "name1",
    "level1", "opt_rolls_per_turn", "opt_joker", "opt_column_multipliers", "opt_yahtzee",
    "columns", "players", "paper", "lang", "first", "dice", "box", "points", "code", "name",
    "key", "fill",
]  # fmt: skip


@contextlib.contextmanager
def no_hang(seconds: int = HANG_SECONDS) -> Iterator[None]:
    """Fails the test if the block has not finished after `seconds` (a hang, not slowness)."""

    def _alarm(_signum: int, _frame: object) -> None:
        raise AssertionError(f"a request hung for {seconds} s")

    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """One app, one browser (with a session and its token), reused by every example."""
    from fivedice.web import create_app
    from fivedice.web.rates import RateSettings

    path = tmp_path_factory.mktemp("fuzz") / "web.sqlite3"
    service = GameService.open(f"sqlite:///{path}")
    rates = RateSettings(**UNCOUNTED)
    app = create_app(service, SECRET, cpu_delay_ms=0, drive_cpus=False, rates=rates)
    with TestClient(app, headers={"Origin": ORIGIN}) as client:
        page = client.get("/").text
        token = re.search(r'<meta name="csrf-token" content="([^"]*)"', page).group(1)
        yield app, client, token
    service.store.close()


def fresh_game(app, client, cpu_first: bool = False):
    """A new game whose human seat this browser holds: (store id, public id, seat token)."""
    hub = app.state.hub
    players = [PlayerSpec("Ann"), PlayerSpec("Cee", "beginner")]
    view = hub.create(players[::-1] if cpu_first else players, seed=3)
    session = client.cookies.get("fd_session")
    human = 1 if cpu_first else 0
    hub.browser_seats.add(session, [(view.game_id, human)])
    return view.game_id, hub.public_id(view.game_id), hub.signer.seat_token(view.game_id, human)


def snapshot(app, game_id):
    record = app.state.hub.service.store.load_game(game_id)
    return record.status, tuple(record.actions)


nasty_text = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x1F), max_size=20),
    st.sampled_from(
        [
            "roll",
            "hold 1 3",
            "score chance",
            "release 9",
            "0",
            "-1",
            "1e309",
            "99999999999999999999",
            "\x00",
            "ﬃ",
            "١٢",
            "²",
            "🎲",
            "../../etc",
            "<script>",
            "on",
            "cpu",
            "human",
            "god",
        ]
    ),
)
nasty_text = st.one_of(
    nasty_text,
    nasty_text,
    nasty_text,
    st.text(max_size=3).map(lambda s: s * 3000),  # big, around the form size limit
)
plausible = st.fixed_dictionaries(
    {},
    optional={
        "action": st.sampled_from(["roll", "hold 1", "release 1", "score chance"]) | nasty_text,
        "version": st.integers(-1, 3).map(str) | nasty_text,
        "seat": st.integers(-1, 2).map(str) | nasty_text,
        "token": nasty_text,
        "kind0": st.sampled_from(["human", "cpu", "none"]) | nasty_text,
        "level0": nasty_text,
    },
)
form_keys = st.one_of(st.sampled_from(FIELDS), st.text(max_size=12))


@st.composite
def form_posts(draw):
    fields = draw(plausible) | draw(st.dictionaries(form_keys, nasty_text, max_size=6))
    token_choice = draw(st.sampled_from(["valid", "valid", "valid", "none", "junk"]))
    origin = draw(st.sampled_from([ORIGIN, ORIGIN, ORIGIN, "http://evil.example", None]))
    encoding = draw(st.sampled_from(["form", "form", "multipart", "raw"]))
    raw = draw(st.binary(max_size=300)) if encoding == "raw" else b""
    content_type = draw(
        st.sampled_from(["application/x-www-form-urlencoded", "multipart/form-data", "text/plain"])
    )
    fragment = draw(st.booleans())
    return fields, token_choice, origin, encoding, raw, content_type, fragment


def send_form(client, token, method, path, post):
    fields, token_choice, origin, encoding, raw, content_type, fragment = post
    headers = {"X-Fivedice-Fragment": "1"} if fragment else {}
    if origin is None:
        headers["Origin"] = ""  # TestClient sends the client's default otherwise
    else:
        headers["Origin"] = origin
    if method == "GET":
        # (query strings stay under the HTTP client's own limit on URL length)
        return client.get(path, params={k: v[:500] for k, v in fields.items()}, headers=headers)
    data = dict(fields)
    if token_choice == "valid":
        data["csrf_token"] = token
    elif token_choice == "junk":
        data["csrf_token"] = "junk"
    if encoding == "raw":
        return client.post(path, content=raw, headers={**headers, "Content-Type": content_type})
    if encoding == "multipart":
        files = {key: (None, value.encode("utf-8", "surrogatepass")) for key, value in data.items()}
        return client.post(path, files=files or {"x": (None, b"")}, headers=headers)
    return client.post(path, data=data, headers=headers)


@pytest.mark.parametrize(("method", "route"), PAGE_ROUTES)
@FUZZ
@given(
    post=form_posts(),
    garbage_id=st.sampled_from(["", "", "1-" + "0" * 20, "\u00b2-" + "0" * 20, "1-", "-"]),
    cpu_first=st.booleans(),
)
def test_random_forms_at_every_page_route(world, method, route, post, garbage_id, cpu_first):
    app, client, token = world
    game_id, public_id, _seat_token = fresh_game(app, client, cpu_first)
    path = route.replace("{public_id}", garbage_id or public_id)
    path = path.replace("{code}", "xx")
    before = snapshot(app, game_id)
    with no_hang():
        response = send_form(client, token, method, path, post)
    event(f"status {response.status_code}")
    assert response.status_code < 500, response.text[:500]
    assert "Traceback" not in response.text
    if response.status_code >= 400:
        assert snapshot(app, game_id) == before


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | nasty_text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner),
    max_leaves=12,
)
json_objects = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {"action": nasty_text, "version": st.integers(-5, 5) | json_values},
        optional={"extra": json_values},
    ),
    st.fixed_dictionaries(
        {
            "players": st.lists(
                st.dictionaries(st.sampled_from(["name", "kind", "level"]), nasty_text)
            )
        },
        optional={"rules": nasty_text, "seed": json_values, "set": json_values},
    ),
)


@pytest.mark.parametrize(("method", "route"), API_ROUTES)
@FUZZ
@given(
    body=json_objects,
    raw=st.one_of(st.none(), st.binary(max_size=200)),
    auth=st.sampled_from(["valid", "none", "junk", "other-seat"]),
)
def test_random_json_at_every_api_route(world, method, route, body, raw, auth):
    app, client, _token = world
    game_id, public_id, seat_token = fresh_game(app, client)
    path = route.replace("{game_id}", public_id).replace("{code}", "AAAAAA").replace("{seat}", "1")
    headers = {
        "valid": {"Authorization": f"Bearer {seat_token}"},
        "none": {},
        "junk": {"Authorization": "Bearer \x7f junk"},
        "other-seat": {"Authorization": "Bearer " + app.state.hub.signer.seat_token(game_id, 1)},
    }[auth]
    before = snapshot(app, game_id)
    with no_hang():
        if method == "GET":
            response = client.get(path, headers=headers)
        elif raw is not None:
            response = client.post(
                path, content=raw, headers={**headers, "Content-Type": "application/json"}
            )
        else:
            response = client.post(path, content=json.dumps(body), headers=headers)
    event(f"status {response.status_code}")
    assert response.status_code < 500, response.text[:500]
    assert response.headers["content-type"].startswith("application/json")
    if response.status_code >= 400:
        assert "detail" in response.json()
        assert snapshot(app, game_id) == before


# The tutorial's routes: a refused post changes neither the lesson in play nor the progress.

TUTORIAL_ROUTES = sorted(
    (method, route.path) for route in tutorial.router.routes for method in route.methods
)
LESSON_KEYS = st.sampled_from(["rolling", "zero", "guided", "nope", "%00", "x" * 300])


def tutorial_progress(app):
    """Every owner's progress (the local user's and every browser session's)."""
    store = app.state.hub.service.store
    with store.engine.connect() as connection:
        return sorted(map(tuple, connection.execute(select(schema.tutorial_progress))))


@pytest.mark.parametrize(("method", "route"), TUTORIAL_ROUTES)
@FUZZ
@given(post=form_posts(), key=LESSON_KEYS)
def test_random_forms_at_every_tutorial_route(world, method, route, post, key):
    app, client, token = world
    path = route.replace("{key}", key)
    before = tutorial_progress(app)
    with no_hang():
        response = send_form(client, token, method, path, post)
    assert response.status_code < 500, response.text[:500]
    assert "Traceback" not in response.text
    if response.status_code >= 400:
        assert tutorial_progress(app) == before
