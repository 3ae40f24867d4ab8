"""Per-client rates: creations, wrong room codes, new rule sets solved and PDF sheets rendered
are counted per client address; past a rate, 429 (503 for solves) with Retry-After, while
other clients are served as before."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from fivedice.strategy import cache, limits
from fivedice.strategy.solver import StrategyTable
from fivedice.web import create_app
from fivedice.web.rates import (
    ClientRates,
    RateLimitedError,
    RateSettingError,
    RateSettings,
    is_code_lookup,
)
from fivedice.web.routers import sheet as sheet_router
from tests.web.support import FORM, ORIGIN, ROOM_FORM, SECRET, PageClient, TestClient, new_game

ATTACKER = ("127.0.0.2", 50000)
PLAYER = ("127.0.0.1", 50001)
ROOM_BODY = {"players": [{"name": "Ann", "kind": "me"}, {"name": "Bob", "kind": "open"}]}


def _app(service, **rates):
    return create_app(service, SECRET, drive_cpus=False, rates=RateSettings(**rates))


def _client(app, address, **headers):
    return PageClient(app, headers={"Origin": ORIGIN, **headers}, client=address)


def _retry_after(response) -> int:
    return int(response.headers["Retry-After"])


# -- wrong room codes --------------------------------------------------------------------------


def test_eighty_wrong_room_codes_from_one_client_are_429_while_others_use_a_right_code(service):
    app = _app(service)
    with _client(app, ATTACKER) as attacker, _client(app, PLAYER) as player:
        code = player.post("/api/rooms", json=ROOM_BODY).json()["room"]["code"]
        answers = [attacker.get(f"/api/rooms/WRONG{n % 10}").status_code for n in range(80)]
        assert answers[:10] == [404] * 10  # the allowance: ten wrong codes a minute
        assert set(answers[10:]) == {429}
        refused = attacker.get(f"/api/rooms/{code}")
        assert refused.status_code == 429 and 1 <= _retry_after(refused) <= 60
        assert "Too many requests" in refused.json()["detail"]
        # Another client: the right code works, and a wrong one is a plain 404.
        assert player.get(f"/api/rooms/{code}").status_code == 200
        assert player.get("/api/rooms/WRONG1").status_code == 404
        joined = player.post(f"/api/rooms/{code}/join", json={"name": "Bob"})
        assert joined.status_code == 200


def test_wrong_codes_on_the_pages_count_too_and_the_refusal_speaks_the_visitors_language(service):
    app = _app(service, wrong_codes="3/minute")
    with _client(app, ATTACKER, **{"Accept-Language": "nl"}) as attacker:
        assert attacker.get("/r/WRONG1").status_code == 404
        assert attacker.post("/join", data={"code": "WRONG2"}).status_code == 404
        assert attacker.get("/api/rooms/WRONG3").status_code == 404
        page = attacker.get("/r/WRONG4")
        assert page.status_code == 429 and _retry_after(page) >= 1
        assert "Te veel verzoeken" in page.text
        assert attacker.post("/join", data={"code": "WRONG5"}).status_code == 429


def test_right_codes_and_other_pages_are_not_counted(service):
    app = _app(service, wrong_codes="2/minute")
    with _client(app, ATTACKER) as client:
        code = client.post("/api/rooms", json=ROOM_BODY).json()["room"]["code"]
        for _ in range(5):
            assert client.get(f"/api/rooms/{code}").status_code == 200
            assert client.get("/no-such-page").status_code == 404  # not a room code
        assert client.get(f"/r/{code}").status_code == 200


@pytest.mark.parametrize(
    ("method", "path", "looks_up"),
    [
        ("GET", "/r/ABCDEF", True),
        ("POST", "/r/ABCDEF/start", True),
        ("GET", "/r/ABCDEF/invite/1", True),
        ("POST", "/join", True),
        ("GET", "/join", False),
        ("GET", "/api/rooms/ABCDEF/events", True),
        ("POST", "/api/rooms", False),
        ("GET", "/rules", False),
    ],
)
def test_which_requests_look_up_a_room_code(method, path, looks_up):
    assert is_code_lookup(method, path) is looks_up


# -- creations ------------------------------------------------------------------------------


def test_games_past_the_rate_are_429_for_that_client_only(service):
    app = _app(service, games="5/minute")
    with _client(app, ATTACKER) as attacker, _client(app, PLAYER) as player:
        body = {"players": [{"name": "Ann"}]}
        made = [attacker.post("/api/games", json=body).status_code for _ in range(8)]
        assert made == [201] * 5 + [429] * 3
        refused = attacker.post("/api/games", json=body)
        assert 1 <= _retry_after(refused) <= 60
        assert attacker.post("/games", data=FORM, follow_redirects=False).status_code == 429
        assert player.post("/api/games", json=body).status_code == 201
        assert player.post("/games", data=FORM, follow_redirects=False).status_code == 303
    assert len(service.store.list_games()) == 7  # nothing made by a refused request


def test_rooms_past_the_rate_are_429_and_the_form_says_why_in_the_visitors_language(service):
    app = _app(service, rooms="2/minute", games="2/minute")
    with _client(app, ATTACKER, **{"Accept-Language": "de"}) as attacker:
        made = [attacker.post("/api/rooms", json=ROOM_BODY).status_code for _ in range(3)]
        assert made == [201, 201, 429]
        forms = [attacker.post("/games", data=ROOM_FORM, follow_redirects=False) for _ in range(3)]
        assert [form.status_code for form in forms] == [303, 303, 429]
        assert "Zu viele Anfragen" in forms[2].text and _retry_after(forms[2]) >= 1


def test_rates_come_from_the_environment_and_a_bad_one_is_refused():
    settings = RateSettings.from_environment({"FIVEDICE_RATE_GAMES": "2/second"})
    assert settings.games == "2/second" and settings.rooms == RateSettings().rooms
    with pytest.raises(RateSettingError, match="FIVEDICE_RATE_WRONG_CODES"):
        RateSettings.from_environment({"FIVEDICE_RATE_WRONG_CODES": "often"})


# -- new rule sets solved ------------------------------------------------------------------


@pytest.fixture
def solves(monkeypatch, tmp_path):
    """No real solve: small tables of zeros, counted; an empty private cache."""
    calls = []

    def solve(rules, progress=None):
        calls.append(rules)
        return StrategyTable(rules, np.zeros((8192, 64, 2)), 0.0, 1)

    monkeypatch.setattr(cache, "solve", solve)
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.delenv(limits.SOLVE_RULES_ENV, raising=False)
    return calls


def _hint(client, full_house):
    game, seats = new_game(client, [{"name": "Solo"}], set={"full_house": full_house})
    rolled = client.post(
        f"/api/games/{game['id']}/actions",
        json={"action": "roll", "version": game["version"]},
        headers=seats[0],
    )
    assert rolled.status_code == 200, rolled.text
    return client.get(f"/api/games/{game['id']}/hint", headers=seats[0])


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_a_client_solves_three_new_rule_sets_then_503_and_known_ones_stay_free(service, solves):
    app = _app(service, new_solves="3/hour")
    with TestClient(app, client=ATTACKER) as attacker, TestClient(app, client=PLAYER) as player:
        hints = [_hint(attacker, points).status_code for points in (21, 22, 23, 24)]
        assert hints == [200, 200, 200, 503]
        refused = _hint(attacker, 25)
        assert refused.status_code == 503 and _retry_after(refused) > 60  # an hour's window
        assert len(solves) == 3
        assert _hint(attacker, 21).status_code == 200  # solved before: costs nothing
        assert _hint(player, 24).status_code == 200  # another client's own quota
        assert len(solves) == 4


def test_a_game_with_an_expert_cpu_on_new_rules_spends_the_permit_when_made(service, solves):
    app = _app(service, new_solves="1/hour")
    with TestClient(app, client=ATTACKER) as client:
        body = {"players": [{"name": "Ann"}, {"name": "X", "kind": "cpu", "level": "expert"}]}
        first = client.post("/api/games", json={**body, "set": {"full_house": 31}})
        assert first.status_code == 201, first.text
        second = client.post("/api/games", json={**body, "set": {"full_house": 32}})
        assert second.status_code == 503 and _retry_after(second) > 60
        again = client.post("/api/games", json={**body, "set": {"full_house": 31}})
        assert again.status_code == 201  # the same rules: their table is solving (one permit)


# -- PDF sheets --------------------------------------------------------------------------------


@pytest.fixture
def renders(monkeypatch):
    """Counts the PDFs rendered; the sheet cache starts empty."""
    from fivedice.sheet import pdf

    counted = []
    real = pdf.render_pdf

    def render(sheet, paper):
        counted.append(sheet)
        return real(sheet, paper)

    monkeypatch.setattr(pdf, "render_pdf", render)
    monkeypatch.setattr(sheet_router, "RENDERED", sheet_router.RenderedSheets())
    return counted


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_a_sheet_asked_again_is_not_rendered_again(service, renders):
    with TestClient(_app(service)) as client:
        first = client.get("/sheet.pdf?preset=yatzy&columns=12")
        again = client.get("/sheet.pdf?preset=yatzy&columns=12")
        assert first.status_code == again.status_code == 200
        assert first.content == again.content and first.content.startswith(b"%PDF")
        assert len(renders) == 1
        assert client.get("/sheet.pdf?preset=yatzy&columns=12&paper=letter").status_code == 200
        assert len(renders) == 2  # another paper: another PDF


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_a_sheet_of_too_many_score_columns_is_refused_before_any_rendering(service, renders):
    multipliers = ",".join(["1"] * 20)
    with TestClient(_app(service)) as client:
        refused = client.get(
            f"/sheet.pdf?preset=maxi-yatzy&columns=60&opt_column_multipliers={multipliers}"
        )
        assert refused.status_code == 422
        assert "at most 120 columns of scores" in refused.text
        assert "would be 1200" in refused.text
        assert renders == []
        six = client.get(
            f"/sheet.pdf?preset=maxi-yatzy&columns=6&opt_column_multipliers={multipliers}"
        )
        assert six.status_code == 200


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_uncached_sheets_past_the_rate_are_429_and_cached_ones_still_served(service, renders):
    with TestClient(_app(service, sheets="2/minute"), client=ATTACKER) as client:
        for columns in (1, 2):
            assert client.get(f"/sheet.pdf?columns={columns}").status_code == 200
        refused = client.get("/sheet.pdf?columns=3")
        assert refused.status_code == 429 and _retry_after(refused) >= 1
        assert client.get("/sheet.pdf?columns=1").status_code == 200  # from the cache
        assert len(renders) == 2


# -- expiry ----------------------------------------------------------------------------------


def test_the_server_deletes_rooms_never_started_and_their_codes_read_as_unknown(service):
    import time
    from datetime import timedelta

    from fivedice.web.expiry import ExpirySettings

    expiry = ExpirySettings(room_age=timedelta(0), game_age=timedelta(days=1), every_seconds=0.05)
    app = create_app(service, SECRET, drive_cpus=False, expiry=expiry)
    with TestClient(app) as client:
        game, _seats = new_game(client)
        code = client.post("/api/rooms", json=ROOM_BODY).json()["room"]["code"]
        deadline = time.monotonic() + 20
        while client.get(f"/api/rooms/{code}").status_code == 200:
            assert time.monotonic() < deadline, "the room was never deleted"
            time.sleep(0.05)
        unknown = client.get(f"/api/rooms/{code}")
        assert unknown.status_code == 404
        assert unknown.json() == {"detail": f"no game has the code {code!r}"}  # as any unknown
        assert client.get(f"/api/games/{game['id']}").status_code == 200  # a day to be played


def test_expiry_ages_come_from_the_environment_and_a_bad_one_is_refused():
    from datetime import timedelta

    from fivedice.web.expiry import ExpirySettingError, ExpirySettings

    settings = ExpirySettings.from_environment({"FIVEDICE_ROOM_EXPIRY_HOURS": "2"})
    assert settings.room_age == timedelta(hours=2) and settings.game_age == timedelta(days=7)
    with pytest.raises(ExpirySettingError, match="FIVEDICE_GAME_EXPIRY_DAYS"):
        ExpirySettings.from_environment({"FIVEDICE_GAME_EXPIRY_DAYS": "-1"})


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_requests_served_at_once_in_threads_are_held_to_the_rate():
    """Sheets (and solves) are served in worker threads: 20 at once from one client get the
    rate's 5, not 20 (each would pass the check before any was counted)."""
    rates = ClientRates(RateSettings(sheets="5/minute"))
    checked = rates.allows

    def slow_check(kind: str, client: str) -> bool:
        allowed = checked(kind, client)
        time.sleep(0.02)  # the other threads check meanwhile
        return allowed

    rates.allows = slow_check  # type: ignore[method-assign]
    barrier = threading.Barrier(20)
    taken: list[bool] = []

    def take() -> None:
        barrier.wait(30)
        try:
            rates.take("sheets", "127.0.0.2")
            taken.append(True)
        except RateLimitedError:
            taken.append(False)

    threads = [threading.Thread(target=take) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert taken.count(True) == 5 and len(taken) == 20
