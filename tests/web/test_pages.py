"""The pages: seat cookies decide who may act; languages; rules, statistics, resume."""

from __future__ import annotations

import os
import re
import stat

import pytest

from fivedice.core.rules import find_ruleset
from fivedice.i18n import LANGUAGES, set_language
from fivedice.web.guard import LANG_COOKIE, SESSION_COOKIE
from fivedice.web.routers.pages import LEGACY_SEATS_COOKIE
from fivedice.web.security import SECRET_ENV, Signer, load_secret
from fivedice.web.wording import pick_language
from fivedice.wording.text import describe_rules
from tests.web.support import FORM, new_game, start, version_of


def test_index_offers_every_option(client):
    page = client.get("/").text
    for needle in (
        'name="preset"',
        "opt_joker",
        "opt_column_multipliers",
        "first_player",
        "match_length",
        "practice",
        "free-choice",
        "triple",
    ):
        assert needle in page


def test_form_start_sets_the_seat_cookie_and_the_holder_can_act(client):
    location = start(client)
    assert client.cookies.get(SESSION_COOKIE)
    page = client.get(location).text
    assert 'id="roll"' in page and 'aria-label="Die 1: not rolled yet"' in page
    after = client.post(
        location + "/act", data={"action": "roll", "version": 0}, follow_redirects=False
    )
    assert after.status_code == 303
    page = client.get(location).text
    assert version_of(page) == 1 and re.search(r'aria-label="Die 1: \d"', page)
    assert re.search(r'aria-label="Score Chance for \d+ points"', page)


def test_a_visitor_without_the_cookie_only_watches(client, app):
    location = start(client)
    client.cookies.clear()
    page = client.get(location).text
    assert "you hold no seat" in page and 'id="roll"' not in page
    response = client.post(location + "/act", data={"action": "roll", "version": 0})
    assert response.status_code == 403
    game_id = app.state.hub.game_id(location.rsplit("/", 1)[1])
    assert app.state.hub.load(game_id).version == 0


def test_fragment_requests_return_the_board_only(client):
    location = start(client)
    response = client.post(
        location + "/act",
        data={"action": "roll", "version": 0},
        headers={"X-Fivedice-Fragment": "1"},
    )
    assert response.status_code == 200
    assert 'id="board"' in response.text
    assert "<html" not in response.text
    stale = client.post(
        location + "/act",
        data={"action": "roll", "version": 0},
        headers={"X-Fivedice-Fragment": "1"},
    )
    assert stale.status_code == 409 and "version" in stale.text


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_a_cpu_turn_is_watched_not_stepped_by_the_page(client):
    # CPU seats are played by the server (tests/web/test_live.py); the page only listens.
    location = start(client)
    client.post(location + "/act", data={"action": "roll", "version": 0})
    client.post(location + "/act", data={"action": "score chance", "version": 1})
    page = client.get(location).text
    assert "CPU 2 is thinking" in page
    assert 'id="cpu-step"' not in page and "data-cpu=" not in page and "data-poll" not in page
    pid = location.rsplit("/", 1)[1]
    assert f'data-events="/api/games/{pid}/events?after=2"' in page
    assert client.post(location + "/cpu", data={"version": 2}).status_code in (404, 405)


def test_hint_and_coach(client):
    location = start(client, kind1="none")
    client.post(location + "/act", data={"action": "roll", "version": 0})
    page = client.get(location + "?hint=1").text
    assert "Best options" in page
    assert "Best options" not in client.get(location).text
    client.post(location + "/coach")
    assert "Best options" in client.get(location).text
    assert 'aria-pressed="true"' in client.get(location).text


def test_languages_from_cookie_and_accept_language(client):
    location = start(client)
    assert "Rolls left" in client.get(location).text
    german = client.get(location, headers={"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}).text
    assert "Kniffel" in german and 'lang="de"' in german
    client.get("/lang/nl?next=" + location)
    dutch = client.get(location, headers={"Accept-Language": "de"}).text
    assert "Kans" in dutch and 'lang="nl"' in dutch
    assert (
        client.get("/lang/nl?next=//evil.example", follow_redirects=False).headers["location"]
        == "/"
    )


def test_every_language_is_offered_and_named_in_its_own_words(client):
    page = client.get("/", headers={"Accept-Language": "ja-JP,ja;q=0.9"}).text
    assert '<html lang="ja">' in page
    for code, name in LANGUAGES.items():
        assert f'href="/lang/{code}?next=' in page and name in page
    assert {"ja": "日本語", "fr": "Français", "es": "Español"}.items() <= LANGUAGES.items()
    client.get("/lang/es?next=/")
    assert '<html lang="es">' in client.get("/", headers={"Accept-Language": "ja"}).text


def test_pick_language():
    assert pick_language(None, "fr, de;q=0.5, nl;q=0.8") == "fr"
    assert pick_language(None, "sv, de;q=0.5, nl;q=0.8") == "nl"
    # Region tags choose the language; the q-values order them, then the order given.
    assert pick_language(None, "ja-JP,ja;q=0.9,en-US;q=0.8") == "ja"
    assert pick_language(None, "en;q=0.5, fr-CA;q=0.9") == "fr"
    assert pick_language(None, "pt-BR, es-419;q=0.7, en;q=0.3") == "es"
    assert pick_language(None, "ES-es") == "es"
    assert pick_language(None, "de;q=0.8, ja;q=0.8") == "de"
    assert pick_language("ja", "fr") == "ja"
    assert pick_language("de", "nl") == "de"
    assert pick_language("xx", None) == "en"
    assert pick_language(None, "nl;q=0") == "en"


def test_rules_pages_come_from_the_rule_set(client):
    page = client.get("/rules?preset=free-choice").text
    set_language("en")
    for line in describe_rules(find_ruleset("free-choice")):
        assert line.replace("'", "&#39;") in page
    location = start(client, opt_rolls_per_turn="5")
    assert "up to 5 rolls a turn" in client.get(location + "/rules").text


def test_bad_form_shows_the_reason(client):
    response = client.post("/games", data={**FORM, "opt_rolls_per_turn": "zero"})
    assert response.status_code == 422 and "rolls_per_turn" in response.text
    response = client.post("/games", data={**FORM, "kind0": "none", "kind1": "none"})
    assert response.status_code == 422


def test_resume_join_and_abandon(client, app):
    # Pass-and-play: the creator's browser holds both seats; no invitation is shown.
    location = start(client, kind1="local", name1="Bob")
    public_id = location.rsplit("/", 1)[1]
    assert public_id in client.get("/resume").text
    page = client.get(location).text
    assert "data-invite" not in page
    # A seat token link (as API clients hand out) still gives a browser that seat.
    hub = app.state.hub
    token = hub.signer.seat_token(hub.game_id(public_id), 1)
    links = [f"{location}/join?seat=0&token=x", f"{location}/join?seat=1&token={token}"]
    client.cookies.clear()
    assert public_id not in client.get("/resume").text
    bob = links[1].replace("&amp;", "&")
    assert client.get(bob, follow_redirects=False).status_code == 200  # a page with a button
    joined = client.post(f"{location}/join", data={"seat": "1", "token": token})
    assert joined.status_code == 200 and public_id in client.get("/resume").text
    forged = bob[:-4] + "0000"
    client.cookies.clear()
    assert client.get(forged).status_code == 403
    assert client.post(f"{location}/join", data={"seat": "1", "token": "0" * 64}).status_code == 403
    client.post(f"{location}/join", data={"seat": "1", "token": token})
    # Bob's seat alone does not make this browser the game's creator: it does not abandon
    # the game for everyone (the creator's browser, holding both seats, would).
    assert client.post(location + "/abandon").status_code == 403
    assert public_id in client.get("/resume").text


def test_statistics_and_high_scores_after_a_finished_game(client):
    # No seed: a game with a seed of the client's is practice, outside the high scores.
    game, seats = new_game(client, [{"name": "Solo"}], rules="simple", seed=None)
    state = game
    while state["status"] == "in_progress":
        action = "roll" if state["dice"] is None else f"score {state['placements'][0]['box']}"
        state = client.post(
            f"/api/games/{game['id']}/actions",
            json={"action": action, "version": state["version"]},
            headers=seats[0],
        ).json()
    total = state["players"][0]["total"]
    assert "Solo" in client.get("/stats").text
    high = client.get("/highscores").text
    assert "Solo" in high and str(total) in high
    # A browser from before sessions: its old seat cookie is read once into the session.
    client.cookies.set(LEGACY_SEATS_COOKIE, f"{game['id']}:{game['tokens'][0]['token']}")
    final = client.get(f"/g/{game['id']}").text
    assert "you hold no seat" not in final
    assert "Game over." in final and "Standings" in final


def test_unknown_game_page_is_404(client):
    assert client.get("/g/1-abc").status_code == 404
    assert client.post("/g/1-abc/act", data={"action": "roll", "version": 0}).status_code == 404


def test_signer_round_trip_and_tampering():
    signer = Signer(b"k" * 32)
    public = signer.public_id(42)
    assert signer.game_id(public) == 42
    assert signer.game_id(public[:-1] + ("0" if public[-1] != "0" else "1")) is None
    assert signer.game_id("42") is None and signer.game_id("042-" + public[3:]) is None
    assert Signer(b"j" * 32).game_id(public) is None
    token = signer.seat_token(42, 1)
    assert signer.seat_of(42, token, 3) == 1 and signer.seat_of(43, token, 3) is None


def test_secret_file_is_private_and_shared(tmp_path, monkeypatch):
    monkeypatch.delenv(SECRET_ENV, raising=False)
    path = tmp_path / "sub" / "secret"
    first = load_secret(path)
    assert load_secret(path) == first and len(first) >= 32
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    monkeypatch.setenv(SECRET_ENV, "from-the-environment-123")
    assert load_secret(path) == b"from-the-environment-123"


def test_refusals_show_in_the_page_language(client):
    location = start(client)
    client.get("/lang/nl?next=" + location)
    response = client.post(location + "/act", data={"action": "hold 1", "version": 0})
    assert response.status_code == 409
    assert "gooi eerst voordat je stenen vasthoudt" in response.text
    response = client.post(location + "/act", data={"action": "hold 9", "version": 0})
    assert response.status_code == 422 and "er is geen steen 9" in response.text
    client.cookies.delete(LANG_COOKIE)
    german = client.post("/games", data={**FORM, "seed": "x"}, headers={"Accept-Language": "de"})
    assert german.status_code == 422 and "ein Seed ist eine ganze Zahl ab 0" in german.text
    # The JSON API keeps English details (for programs).
    data, headers = new_game(client)
    refused = client.post(
        f"/api/games/{data['id']}/actions",
        json={"action": "hold 1", "version": 0},
        headers={**headers[0], "Accept-Language": "nl"},
    )
    assert refused.json()["detail"] == "roll before you hold dice: the turn starts with a roll"
