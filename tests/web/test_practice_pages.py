"""The web's Practice page: a puzzle answered by a form post (CSRF-protected as every form),
the verdict, bad answers refused with nothing changed, positions from the games the browser
played, and the page in another language."""

from __future__ import annotations

import re

import pytest

from fivedice.core.game import GameSettings, Seat
from fivedice.service.drills import BUILTIN, BUILTIN_PREFIX
from fivedice.store.browser_seats import BrowserSeats, session_key
from fivedice.store.drills import DrillStore
from fivedice.web.guard import SESSION_COOKIE
from tests.support.players import play_out

FIRST = BUILTIN_PREFIX + BUILTIN[0].name  # 6 2 6 3 6, two rolls left: keep 6 6 6


def owner(client) -> str:
    return session_key(client.cookies[SESSION_COOKIE])


def text_of(page: str, element: str, tag: str = "p") -> str:
    found = re.search(rf'id="{element}"[^>]*>(.*?)</{tag}>', page, re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(1))).strip() if found else ""


def test_the_new_game_page_links_to_practice_and_a_newcomer_gets_a_built_in_puzzle(client):
    assert 'href="/practice"' in client.get("/").text
    page = client.get("/practice")
    assert page.status_code == 200
    assert "A classic position to practise" in page.text
    assert "Keep some dice and roll, or score now? (2 rolls left)" in page.text
    assert f'name="key" value="{FIRST}"' in page.text
    assert 'name="hold" value="5"' in page.text and 'id="box-sixes"' in page.text
    assert text_of(page.text, "practice-progress").startswith("0 of 10 positions mastered")


@pytest.mark.tables
def test_an_answer_posted_shows_the_verdict_and_the_next_position(client, service):
    client.get("/practice")
    # The page gives the reasons once the breakdown is at hand (it never waits for it).
    service.drill_options(BUILTIN[0].position(), explain=True)
    page = client.post(
        "/practice/answer", data={"key": FIRST, "answer": "roll", "hold": ["1", "3", "5"]}
    )
    assert page.status_code == 200
    verdict = text_of(page.text, "practice-verdict", "div")
    assert verdict.startswith("Right: keep 6 6 6 is the best move.")
    assert "Rule of thumb: Three of a kind early" in verdict
    assert "1. keep 6 6 6: 265.1 points to come" in verdict
    assert "keep 6 6 6 rather than keep 2 6 6 6: " in verdict  # why, box by box
    assert "Chances this turn: Sixes" in verdict
    assert 'id="next"' in page.text
    assert service.drill(FIRST, owner(client)).right_in_a_row == 1
    assert DrillStore(service.store).book("").rows == ()  # the local user's: untouched
    following = client.get(f"/practice?after={FIRST}").text
    assert f'value="{FIRST}"' not in following and 'name="key"' in following
    # A box answers as a box: the second position, scored, loses points.
    key = re.search(r'name="key" value="([^"]+)"', following).group(1)
    page = client.post("/practice/answer", data={"key": key, "answer": "score chance"})
    assert "loses" in text_of(page.text, "practice-verdict", "div")
    assert "It comes back after 3 other positions." in page.text


def test_bad_answers_are_refused_with_the_reason_and_change_nothing(client, raw_client, service):
    client.get("/practice")
    before = DrillStore(service.store).book(owner(client))
    bad = [
        ({"answer": "roll", "hold": ["9"]}, "there is no die 9"),
        ({"answer": "roll", "hold": ["x"]}, "Not allowed"),
        ({"answer": "score nothing"}, "no box is called"),
        ({"answer": "jump"}, "answer with the dice to hold"),
        ({}, "answer with the dice to hold"),
    ]
    for fields, words in bad:
        page = client.post("/practice/answer", data={"key": FIRST, **fields})
        assert page.status_code == 400
        assert words in text_of(page.text, "practice-error")
        assert f'name="key" value="{FIRST}"' in page.text  # the same puzzle again
    missing = client.post("/practice/answer", data={"key": "pos:none", "answer": "roll"})
    assert missing.status_code == 404 and "there is no drill" in missing.text
    forged = raw_client.post("/practice/answer", data={"key": FIRST, "answer": "roll"})
    assert forged.status_code == 403  # no CSRF token, no origin
    assert DrillStore(service.store).book(owner(client)) == before


@pytest.mark.tables
def test_positions_come_from_the_games_this_browser_played(client, app, service):
    from tests.web.support import ORIGIN, PageClient

    settings = GameSettings(seats=(Seat("Ann"),))
    view = service.create_game(settings, seed=5)
    play_out(service, view.game_id)
    client.get("/")
    BrowserSeats(service.store).add(client.cookies[SESSION_COOKIE], [(view.game_id, 0)])
    page = client.get("/practice").text
    heading = text_of(page, "practice-heading")
    assert heading.startswith(f"From game {view.game_id}, turn ")
    assert "and lost" in heading
    with PageClient(app, headers={"Origin": ORIGIN}) as stranger:
        assert "A classic position" in text_of(stranger.get("/practice").text, "practice-heading")


def test_the_page_in_japanese_has_no_english_left(client):
    client.get("/lang/ja?next=/practice")
    page = client.get("/practice").text
    for english in (
        "Practice",
        "Keep some dice and roll",
        "classic position",
        "positions mastered",
        "Tick the dice",
        "Another position",
        "costliest decisions",
    ):
        assert english not in page, english
    assert "練習" in page


@pytest.mark.slow  # many generated requests
@pytest.mark.tables  # a right or wrong answer is judged by the classic table
def test_random_answers_never_fail_and_a_refused_one_changes_nothing(client, service):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    client.get("/practice")
    keys = st.sampled_from([FIRST, "pos:none", "", "x" * 300, "builtin:%00"])
    words = st.text(max_size=120) | st.sampled_from(["roll", "score chance", "hold 1", "score"])
    holds = st.lists(st.text(max_size=8) | st.sampled_from(["1", "5", "6", "-1", "99"]), max_size=8)

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(key=keys, answer=words, hold=holds)
    def post(key, answer, hold):
        before = DrillStore(service.store).book(owner(client))
        fields = {"key": key, "answer": answer, "hold": hold}
        response = client.post("/practice/answer", data=fields)
        assert response.status_code < 500, response.text[:300]
        assert "Traceback" not in response.text
        if response.status_code >= 400:
            assert DrillStore(service.store).book(owner(client)) == before

    post()
