"""The web tutorial ("Learn by playing"): lesson list, a lesson played by form posts, wrong
actions explained, progress kept apart from games, CSRF-protected posts."""

from __future__ import annotations

import re

import pytest

from fivedice.service.tutorial import LESSONS
from fivedice.store.browser_seats import session_key
from fivedice.web.guard import SESSION_COOKIE
from tests.web.support import ORIGIN, PageClient


def owner(client) -> str:
    """The key the client's browser session keeps its tutorial progress under."""
    return session_key(client.cookies[SESSION_COOKIE])


def feedback(page: str) -> str:
    found = re.search(r'id="lesson-feedback"[^>]*>(.*?)</div>', page, re.S)
    return re.sub(r"<[^>]+>", " ", found.group(1)) if found else ""


def say(page: str) -> str:
    return re.search(r'id="lesson-say">([^<]*)<', page).group(1)


def act(client, key: str, action: str) -> str:
    response = client.post(f"/tutorial/{key}/act", data={"action": action})
    assert response.status_code == 200  # after the redirect
    assert str(response.url).endswith(f"/tutorial/{key}")
    return response.text


def test_the_new_game_page_links_to_the_tutorial(client):
    page = client.get("/").text
    assert 'href="/tutorial"' in page and "Learn by playing" in page
    listing = client.get("/tutorial")
    assert listing.status_code == 200
    for lesson in LESSONS:
        assert f'id="lesson-{lesson.key}"' in listing.text
    assert "0 of 7 lessons done." in listing.text


def test_a_lesson_played_through_with_a_wrong_box_explained(client, service):
    client.post("/tutorial/upper/restart", data={"preset": "classic"})
    page = client.get("/tutorial/upper").text
    assert "Against par reads -4" in say(page)
    assert 'id="box-sixes"' in page and 'id="box-four_of_a_kind"' in page
    page = act(client, "upper", "score four_of_a_kind")
    assert "this step asks for Sixes (24)" in feedback(page)
    assert 'class="feedback explain"' in page
    assert 'id="box-four_of_a_kind"' in page  # not scored: the step repeats
    page = act(client, "upper", "score sixes")
    assert "You score 24 in Sixes, +35 upper bonus" in feedback(page)
    assert "Lesson done!" in page and 'id="next-lesson"' in page
    assert service.tutorial_progress(owner(client))["upper"].status == "done"
    assert service.tutorial_progress() == {}  # the local user's progress is not touched
    assert "1 of 7 lessons done." in client.get("/tutorial").text
    # Kept apart: no game, no statistics, no high score.
    assert service.list_games() == [] and service.stats() == []


def test_bad_actions_unknown_lessons_and_skips(client, service):
    client.get("/tutorial/rolling")
    page = act(client, "rolling", "score chance")
    assert "roll before you score" in feedback(page)
    page = act(client, "rolling", "jump")
    assert "unknown action" in feedback(page)
    assert client.get("/tutorial/nope").status_code == 404
    assert client.post("/tutorial/nope/act", data={"action": "roll"}).status_code == 404
    response = client.post("/tutorial/lower/skip")
    assert str(response.url).endswith("/tutorial")
    assert "(skipped)" in response.text
    assert service.tutorial_progress(owner(client))["lower"].status == "skipped"


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_the_lesson_follows_the_chosen_preset_and_language(client):
    client.get("/lang/nl?next=/tutorial")
    client.post("/tutorial/yahtzee/restart", data={"preset": "free-choice"})
    act(client, "yahtzee", "roll")
    act(client, "yahtzee", "score yahtzee")
    act(client, "yahtzee", "roll")  # 4 4 4 4 2
    act(client, "yahtzee", "hold 1 2 3 4")
    act(client, "yahtzee", "roll")  # 4 4 4 4 3, the 4s still held
    page = act(client, "yahtzee", "roll")  # 4 4 4 4 4 with no rolls left
    assert "vrije jokerregel" in say(page)
    assert "Grote straat" in say(page)


def test_posts_without_the_csrf_token_are_refused(raw_client):
    raw_client.get("/tutorial/rolling")
    response = raw_client.post("/tutorial/rolling/act", data={"action": "roll"})
    assert response.status_code == 403


def test_the_guided_game_shows_the_coach_and_the_cpu(client, service):
    page = client.get("/tutorial/guided").text
    assert "Coach: roll to start your turn." in page
    assert "Beginner CPU: 0" in page
    page = act(client, "guided", "roll")
    coach = re.search(r'id="lesson-coach">([^<]*)<', page).group(1)
    assert re.fullmatch(
        r"Coach: (hold dice [1-5 ]+ and roll the others|score .+|roll all the dice again)\.", coach
    )
    box = re.search(r'id="box-([a-z_]+)"', page).group(1)
    page = act(client, "guided", f"score {box}")
    assert "You score" in feedback(page)
    assert "Beginner CPU scores" in feedback(page)
    assert service.list_games() == []


def play_upper(client) -> None:
    client.post("/tutorial/upper/restart", data={"preset": "classic"})
    act(client, "upper", "roll")
    assert "Lesson done!" in act(client, "upper", "score sixes")


def states(client) -> dict[str, str]:
    """The state the lesson list shows this client for each lesson."""
    page = client.get("/tutorial").text
    return {
        lesson.key: re.search(rf'class="lesson state-(\w+)" id="lesson-{lesson.key}"', page)[1]
        for lesson in LESSONS
    }


def test_each_browser_sees_only_its_own_progress(app, client, service):
    """Two browsers (separate cookie jars) on one server, and the local user of the CLI."""
    with PageClient(app, headers={"Origin": ORIGIN}) as other:
        play_upper(client)
        other.post("/tutorial/lower/skip")
        service.tutorial_skip("rolling")  # the local user (command line, terminal app)
        mine, theirs = states(client), states(other)
        assert mine["upper"] == "done" and mine["lower"] == "new"
        assert theirs["upper"] == "new" and theirs["lower"] == "skipped"
        assert mine["rolling"] == theirs["rolling"] == "new"
        assert "1 of 7 lessons done." in client.get("/tutorial").text
        assert "0 of 7 lessons done." in other.get("/tutorial").text
        assert set(service.tutorial_progress()) == {"rolling"}
        assert set(service.tutorial_progress(owner(client))) == {"upper"}
        assert set(service.tutorial_progress(owner(other))) == {"lower"}
        # The database keeps the session's SHA-256, never the cookie itself.
        assert client.cookies[SESSION_COOKIE] not in (owner(client), owner(other))
        service.tutorial_reset()  # the local reset leaves the browsers' progress alone
        assert states(client)["upper"] == "done" and states(other)["lower"] == "skipped"


def test_a_lesson_offers_only_what_the_rules_allow_with_every_die_held():
    """The lesson page reads what may be done from the core's `legal_actions`: with every
    die held there is no roll (release one first), while holds and boxes stay offered."""
    from dataclasses import replace

    from fivedice.core.game import Turn
    from fivedice.core.rules import RuleSet
    from fivedice.service.tutorial import find_lesson
    from fivedice.service.tutorial.engine import start
    from fivedice.web.routers.tutorial import _lesson_context, tutorial_texts

    run = start(find_lesson("rolling"), RuleSet())
    t = tutorial_texts(lambda text: text)
    dice = (2, 2, 3, 5, 6)
    for held, can_roll in [((False,) * 5, True), ((True,) * 5, False)]:
        turn = Turn(seat=0, dice=dice, held=held, rolls_used=1)
        view = _lesson_context(replace(run, state=replace(run.state, turn=turn)), t)
        assert view["can_roll"] is can_roll
        assert all(die["enabled"] for die in view["dice"])
        assert any(row["action"] for row in view["rows"])


def test_cpu_players_kept_by_a_service_are_bounded(service, monkeypatch):
    """Bounded work per request, for memory: each guided lesson left
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


def how(page: str) -> str:
    return re.search(r'id="lesson-how">([^<]*)<', page).group(1)


def test_the_lesson_page_says_each_move_with_taps_on_the_dice_positions(client):
    client.post("/tutorial/scoring/restart", data={"preset": "classic"})
    page = client.get("/tutorial/scoring").text
    assert how(page) == "Tap or click the 25 beside Full house on your card."
    page = act(client, "scoring", "score full_house")
    # What happened comes first, then what to do now.
    assert page.index('id="lesson-feedback"') < page.index('id="lesson-say"')
    assert how(page) == "Tap or click Roll."
    page = act(client, "scoring", "roll")  # 2 3 4 5 5
    assert how(page) == "Tap or click dice 1, 2, 3, 4 to hold them, then Roll."
    assert '<span class="pos" aria-hidden="true">4</span>' in page
    page = act(client, "scoring", "hold 5")  # a 5 too: the lesson takes any 5
    assert how(page) == "Tap or click dice 1, 2, 3 to hold them, then Roll."


def test_the_upper_lesson_card_shows_the_upper_total_it_speaks_of(client):
    client.post("/tutorial/upper/restart", data={"preset": "classic"})
    page = client.get("/tutorial/upper").text
    assert "add up to 41 (Upper total on the card)" in say(page)
    total = re.search(r"<th scope=\"row\">Upper total</th><td>(\d+)</td>", page)
    assert total and total.group(1) == "41"
    # The upper sums stand under Sixes, before the lower boxes.
    assert page.index(">Sixes<") < page.index(">Upper total<") < page.index(">Three of a kind<")
    assert "bracket" not in page


def test_the_japanese_lesson_page_speaks_with_taps(client):
    client.get("/lang/ja?next=/tutorial")
    client.post("/tutorial/scoring/restart", data={"preset": "classic"})
    act(client, "scoring", "score full_house")
    page = act(client, "scoring", "roll")
    assert (
        how(page)
        == "1, 2, 3, 4番のサイコロをタップかクリックしてキープし、「振る」を押しましょう。"
    )
