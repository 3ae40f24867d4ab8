"""Holes found by the independent check of issue 10, each kept closed by a test here."""

from __future__ import annotations

import pytest

from fivedice.service.games import GameService
from tests.web import test_solver_limits
from tests.web.conftest import new_game
from tests.web.test_rooms import _browser, _room

fake_solve = test_solver_limits.fake_solve  # the fixture: no real solve, counted


@pytest.mark.parametrize("name", ["a\nseed: 99\x1b[31m", "\u202eevil", "\u200b"])
def test_joining_a_room_refuses_a_name_no_other_form_would_take(client, app, name):
    """Issue 10 item 6 on the room join form (page and API): a control character, a line
    break or a direction mark in the name is refused, and the seat stays unjoined."""
    room = _room(client)
    code = room[3:]
    with _browser(app) as bob:
        refused = bob.post("/join", data={"code": code, "name": name}, follow_redirects=False)
        assert refused.status_code == 422, refused.text
    api = client.post(f"/api/rooms/{code}/join", json={"name": name})
    assert api.status_code == 422, api.text
    seats = app.state.hub.room(code).seats
    assert [s.joined for s in seats if s.kind == "friend"] == [False]
    assert all(s.name in ("Ann", "Bob") for s in seats)


def test_a_review_page_while_another_table_is_solved_is_503_not_a_wait(service, fake_solve):
    """Issue 10 item 7 on the review path: a review of a finished game with unusual rules
    needs a new table; while another is being solved the page answers 503 with Retry-After
    at once (the bound hints have), instead of holding a worker thread until the slot frees."""
    import threading

    from fivedice.strategy import limits
    from fivedice.web import create_app
    from tests.web.conftest import SECRET, TestClient
    from tests.web.test_review_page import finish

    service = GameService(service.store, solve_wait=0.05)
    with TestClient(create_app(service, SECRET, drive_cpus=False)) as client:
        game, _seats = new_game(client, [{"name": "Solo"}], set={"full_house": 21})
        game_id = client.app.state.hub.game_id(game["id"])
        finish(service, game_id)
        holding, done = threading.Event(), threading.Event()

        def other_solve():
            with limits.solving_slot():
                holding.set()
                done.wait(timeout=20)

        thread = threading.Thread(target=other_solve)
        thread.start()
        try:
            assert holding.wait(timeout=30)
            busy = client.get(f"/g/{game['id']}/review")
            assert busy.status_code == 503, busy.status_code
            assert int(busy.headers["Retry-After"]) > 0
            assert fake_solve == []
        finally:
            done.set()
            thread.join(timeout=30)
        assert client.get(f"/g/{game['id']}/review").status_code == 200
        assert len(fake_solve) == 1


def test_the_guided_tutorial_goes_on_without_the_coach_where_it_may_not_solve(
    service, fake_solve, monkeypatch
):
    """Issue 10 item 7 on the tutorial path: on a server that solves only some presets
    (`--solve-only`), the guided game of another preset still plays (the coach is silent)
    instead of failing every action; and no table of those rules is solved."""
    from fivedice.core.rules import find_ruleset
    from fivedice.strategy import limits

    monkeypatch.setenv(limits.SOLVE_RULES_ENV, "classic")
    run = service.tutorial_start("guided", find_ruleset("simple"))
    rolled = service.tutorial_act(run, "roll")
    assert rolled.state.dice is not None
    assert service.tutorial_coach_line(rolled) == ""
    assert fake_solve == []


def test_the_guided_tutorial_does_not_wait_for_another_solve(service, fake_solve):
    """Issue 10 item 7: the tutorial's coach waits for another thread's solve no longer than
    a hint does (`solve_wait`); meanwhile the lesson goes on with the coach silent."""
    import threading

    from fivedice.core.rules import find_ruleset
    from fivedice.strategy import limits

    service = GameService(service.store, solve_wait=0.05)
    holding, done = threading.Event(), threading.Event()

    def other_solve():
        with limits.solving_slot():
            holding.set()
            done.wait(timeout=20)

    thread = threading.Thread(target=other_solve)
    thread.start()
    try:
        assert holding.wait(timeout=30)
        run = service.tutorial_start("guided", find_ruleset("simple"))
        rolled = service.tutorial_act(run, "roll")
        assert service.tutorial_coach_line(rolled) == ""
        assert fake_solve == []
    finally:
        done.set()
        thread.join(timeout=30)
    assert service.tutorial_coach_line(rolled).startswith("Coach")
    assert len(fake_solve) == 1


def test_the_hint_api_gives_the_advisors_values_unrounded(client, service):
    """Issue 10 item 17 in the web API: exact means exact, so the hint's values and losses
    are the advisor's float64 values as they are (JSON carries a double exactly), not
    rounded to 4 places."""
    game, seats = new_game(client, [{"name": "Solo"}])
    client.post(
        f"/api/games/{game['id']}/actions",
        json={"action": "roll", "version": game["version"]},
        headers=seats[0],
    )
    options = client.get(f"/api/games/{game['id']}/hint", headers=seats[0]).json()["options"]
    exact = service.hint(client.app.state.hub.game_id(game["id"]))
    assert len(options) == len(exact)
    assert [o["value"] for o in options] == [float(o.value) for o in exact]
    assert [o["loss"] for o in options] == [float(o.loss) for o in exact]


UNICODE_DIGITS = ["\u00b2", "\u0663", "\u00b2\u00b3"]  # str.isdigit() says yes, int() says no


@pytest.mark.parametrize("number", UNICODE_DIGITS)
def test_an_id_of_unicode_digits_is_unknown_not_a_traceback(client, number):
    """Issue 10 item 11's huge/odd numbers on the web: a public id whose number part is a
    superscript or another script's digit was passed to int() and answered 500."""
    for path in (
        f"/g/{number}-0000",
        f"/g/{number}-0000/review",
        f"/g/{number}-0000/sheet",
        f"/t/{number}-0000",
        f"/api/games/{number}-0000",
    ):
        response = client.get(path)
        assert response.status_code == 404, (path, response.status_code)


@pytest.mark.parametrize("number", UNICODE_DIGITS)
def test_odd_digits_in_the_sheet_and_table_forms_are_refused(client, app, number):
    """`/sheet?columns=²` and a table game's `first=²` were 500s; now a clear refusal."""
    assert client.get("/sheet", params={"columns": number}).status_code == 422
    assert client.get("/sheet.pdf", params={"columns": number}).status_code == 422
    made = client.post(
        "/table",
        data={"name0": "Ann", "name1": "Bob", "preset": "classic", "first": number},
        follow_redirects=False,
    )
    assert made.status_code == 422
    assert app.state.hub.service.store.list_games() == []


@pytest.mark.parametrize("number", UNICODE_DIGITS)
def test_a_notification_with_odd_digits_is_ignored(number):
    """A NOTIFY payload that is not ours is skipped, never a crash of the listener."""
    from fivedice.store.notices import Notice

    assert Notice.parse(f"g:{number}:1") is None
    assert Notice.parse(f"g:1:{number}") is None
    assert Notice.parse("g:12:3") == ("g", 12, 3)


def test_sheet_page_names_follow_the_one_rule_for_names(client):
    """Issue 10 item 6 on /sheet: a name with an escape or a line break is refused (422)."""
    for names in ("Ann,a\x1b[31mb", "a\nb", "\u202eevil"):
        assert client.get("/sheet", params={"players": names}).status_code == 422
        assert client.get("/sheet.pdf", params={"players": names}).status_code == 422


def test_cpu_players_kept_by_a_service_are_bounded(service, monkeypatch):
    """Issue 10 item 7 (bounded work per request) for memory: each guided lesson left
    half-way kept its CPU player for the life of the process, so a visitor could start
    them without end (two requests each, a few kB each). The service keeps at most
    `CPUS_KEPT`, the least recently used dropped, and a lesson whose CPU was dropped plays on."""
    from fivedice.core.rules import find_ruleset
    from fivedice.service import saved as service_module

    monkeypatch.setattr(service_module, "CPUS_KEPT", 5, raising=False)
    runs = []
    for _ in range(12):
        run = service.tutorial_start("guided", find_ruleset("classic"))
        runs.append(service.tutorial_act(run, "roll"))
    assert len(service._cpus) <= 5
    # The first lesson's CPU was dropped; the lesson still plays on to the CPU's turn.
    first = runs[0]
    box = next(p.category.key for p in first.state.placements())
    after = service.tutorial_act(first, f"score {box}")
    assert after.state.turn_number >= first.state.turn_number
    assert len(service._cpus) <= 5


@pytest.mark.parametrize(
    "path", ["/sheet/", "/tutorial/", "/join/", "/g/1-abc/join/?seat=0&token=secret", "/api/games/"]
)
def test_a_trailing_slash_redirect_never_names_the_host_header(raw_client, path):
    """Issue 10 item 4, one place the fix missed: the router's trailing-slash redirect built
    an absolute URL from the Host header (`Host: evil.example` → Location
    `http://evil.example/g/…/join?…&token=…`). Redirects are relative."""
    response = raw_client.get(path, headers={"Host": "evil.example"}, follow_redirects=False)
    assert response.status_code in (307, 308), response.status_code
    location = response.headers["location"]
    assert location.startswith("/") and not location.startswith("//"), location
    assert "evil" not in location
    assert location == path.replace("/?", "?").rstrip("/")
