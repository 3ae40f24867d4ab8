"""The web's "At the table": a game with real dice kept on one phone."""

from __future__ import annotations

import html
import re

import pytest

from fivedice.core.categories import Category
from fivedice.core.rules import CLASSIC
from fivedice.web.guard import LANG_COOKIE
from tests.web.support import ORIGIN, PageClient, post_at_table, start_table, version_of


def test_the_new_game_page_offers_the_table(client):
    assert 'href="/table"' in client.get("/").text
    page = client.get("/table").text
    assert 'name="name0"' in page and 'name="name5"' in page and 'name="first"' in page


def test_a_table_game_in_the_browser(client, service):
    location = start_table(client, "Ann", "Bob")
    pid = location.removeprefix("/t/")
    assert client.get(f"/g/{pid}", follow_redirects=False).headers["location"] == location
    page = client.get(location).text
    assert "Ann, what did you roll?" in page and 'name="dice"' in page
    page = post_at_table(client, f"{location}/dice", dice="3 3 3 5 5").text
    assert re.search(r'value="full_house"[^>]*>\s*<span class="box-name">Full house</span>\s*'
                     r"<strong>25</strong>", page)  # fmt: skip
    page = post_at_table(client, f"{location}/dice", dice="22222").text  # replaces the entry
    assert "Yahtzee</span> <strong>50</strong>" in page
    page = post_at_table(client, f"{location}/score", box="yahtzee").text
    assert "Bob, what did you roll?" in page
    page = post_at_table(client, f"{location}/score", box="chance", points="22").text
    assert "Ann, what did you roll?" in page
    page = post_at_table(client, f"{location}/dice", dice="44444").text
    # The joker (forced): only the fours box, with the extra-Yahtzee bonus.
    assert "Fours</span> <strong>120</strong>" in page and "Yahtzee bonus +100" in page
    assert "Chance</span>" not in page.split("box-choices")[1].split("</form>")[0]
    [game] = service.list_games()
    assert game.kind == "table" and game.totals == (50, 22)


def test_impossible_entries_are_refused_with_a_reason_and_change_nothing(client, service):
    location = start_table(client, "Ann", "Bob")
    before = version_of(client.get(location).text)
    refused = post_at_table(client, f"{location}/score", box="full_house", points="30")
    assert refused.status_code == 409
    assert "no roll scores 30 in Full house now; it can score 0, 25" in refused.text
    refused = post_at_table(client, f"{location}/dice", dice="1234")
    assert refused.status_code == 422 and "a roll has 5 dice" in refused.text
    refused = post_at_table(client, f"{location}/score", box="chance")
    assert refused.status_code == 409 and "enter the dice first" in refused.text
    assert version_of(client.get(location).text) == before == 0


def test_undo_takes_back_the_last_entry(client, service):
    location = start_table(client, "Ann", "Bob")
    page = client.get(location).text
    assert re.search(r'id="undo" disabled', page)  # nothing to take back yet
    post_at_table(client, f"{location}/dice", dice="33355")
    post_at_table(client, f"{location}/score", box="full_house")
    before = service.load(1).state
    post_at_table(client, f"{location}/score", box="sixes", points="24")
    page = post_at_table(client, f"{location}/undo").text
    assert "Bob, what did you roll?" in page
    assert service.load(1).state == before
    assert [e.action for e in service.record(1).actions][-2:] == ["score sixes 24", "undo"]


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_only_the_browser_that_started_may_enter(client, app):
    location = start_table(client, "Ann", "Bob")
    with PageClient(app, headers={"Origin": ORIGIN}) as other:
        page = other.get(location).text
        assert 'name="dice"' not in page  # watching only
        refused = other.post(f"{location}/dice", data={"dice": "33355", "version": 0})
        assert refused.status_code in (401, 403)


def test_forms_need_the_csrf_token(client, raw_client):
    location = start_table(client, "Ann")
    refused = raw_client.post(f"{location}/dice", data={"dice": "33355", "version": 0})
    assert refused.status_code == 403


def test_the_coach_ranks_typed_dice(client, monkeypatch):
    seen = []

    def advise(table, column, dice, rolls_left):
        from fivedice.core.categories import Category
        from fivedice.strategy.advisor import Option

        seen.append((tuple(dice), rolls_left))
        return [Option((6, 6, 6), None, 240.0), Option(None, Category.SIXES, 225.0, 15.0)]

    monkeypatch.setattr("fivedice.strategy.turn_cache.advise", advise)
    monkeypatch.setattr("fivedice.strategy.cache.load_or_solve", lambda rules: None)
    # No breakdown of the fake table: the coach's options come without reasons.
    monkeypatch.setattr("fivedice.strategy.breakdown.breakdown_for", lambda table, wait: None)
    location = start_table(client, "Ann")
    page = client.get(f"{location}?coach=1&cdice=11666&rolls=2").text
    assert seen == [((1, 1, 6, 6, 6), 2)]
    assert "keep 6 6 6" in page and "240.0 points to come" in page and "−15.0" in page
    page = client.get(f"{location}?coach=1&cdice=116&rolls=2").text
    assert "a roll has 5 dice" in page


@pytest.mark.parametrize(
    ("language", "words"),
    [("nl", "Aan tafel"), ("de", "Am Tisch")],
)
def test_the_table_page_speaks_the_language(client, language, words):
    location = start_table(client, "Ann", "Bob")
    client.cookies.set(LANG_COOKIE, language)
    page = client.get(location).text
    assert words in page


def test_a_box_the_dice_give_0_is_asked_about_first(client, service):
    location = start_table(client, "Ann", "Bob")
    post_at_table(client, f"{location}/dice", dice="12346")
    asked = post_at_table(client, f"{location}/score", box="yahtzee")
    assert asked.status_code == 200
    assert "Score 0 in Yahtzee? The box is then used up." in asked.text
    assert re.search(r'name="confirm_zero" value="1"', asked.text)
    assert re.search(r'name="box" value="yahtzee" id="zero-yes"', asked.text)
    assert f'href="{location}" id="zero-no"' in asked.text
    assert 'class="box-choice' not in asked.text  # only the question until it is answered
    assert service.load(1).version == 1  # nothing scored yet
    page = post_at_table(client, f"{location}/score", box="yahtzee", confirm_zero="1").text
    assert service.load(1).state.cards[0].columns[0].score(Category.YAHTZEE) == 0
    assert "Ann: 0 in Yahtzee (total 0)" in page and "Bob, what did you roll?" in page


def test_no_question_for_points_typed_or_a_box_that_scores(client, service):
    location = start_table(client, "Ann", "Bob")
    page = post_at_table(client, f"{location}/score", box="yahtzee", points="0").text
    assert "Score 0 in" not in page and "Ann: 0 in Yahtzee (total 0)" in page
    post_at_table(client, f"{location}/dice", dice="33355")
    page = post_at_table(client, f"{location}/score", box="full_house").text
    assert "Score 0 in" not in page and "Bob: 25 in Full house (total 25)" in page
    assert service.load(1).version == 3


def test_the_heading_follows_the_step_of_the_turn(client):
    location = start_table(client, "Ann", "Bob")
    page = client.get(location).text
    assert "Ann, what did you roll?" in page and "Ann, pick a box" not in page
    page = post_at_table(client, f"{location}/dice", dice="33355").text
    heading = re.search(r'<h2 id="turn-h">(.*?)</h2>', page, re.S).group(1)
    assert "Ann, pick a box" in heading and "what did you roll" not in page
    # The boxes come before the form that changes the dice (folded away).
    assert page.index('class="box-choices"') < page.index('name="dice"')
    assert re.search(r'<details class="change-dice">\s*<summary>Change the dice', page)


def test_a_line_says_what_the_last_entry_wrote_and_what_undo_took_back(client):
    location = start_table(client, "Ann", "Bob")
    assert 'id="scored"' not in client.get(location).text
    post_at_table(client, f"{location}/dice", dice="22222")
    page = post_at_table(client, f"{location}/score", box="yahtzee").text
    assert re.search(r'<p class="scored" id="scored" role="status">Ann: 50 in Yahtzee '
                     r"\(total 50\)</p>", page)  # fmt: skip
    page = post_at_table(client, f"{location}/score", box="chance", points="22").text
    assert "Bob: 22 in Chance (total 22)" in page
    page = html.unescape(post_at_table(client, f"{location}/undo").text)
    assert "Taken back: Bob's 22 in Chance" in page
    post_at_table(client, f"{location}/dice", dice="66666")
    page = html.unescape(post_at_table(client, f"{location}/undo").text)
    assert "Taken back: Bob's dice 6 6 6 6 6" in page


def test_the_games_printable_sheet_is_one_tap_away(client):
    location = start_table(client, "Ann", "Bob")
    pid = location.removeprefix("/t/")
    page = client.get(location).text
    assert f'href="/g/{pid}/sheet" id="sheet-link"' in page
    post_at_table(client, f"{location}/dice", dice="33355")
    post_at_table(client, f"{location}/score", box="full_house")
    sheet = client.get(f"/g/{pid}/sheet")
    assert sheet.status_code == 200
    assert "Ann" in sheet.text and "Bob" in sheet.text and ">25<" in sheet.text


def test_the_question_and_the_line_speak_the_language(client):
    location = start_table(client, "Ann", "Bob")
    client.cookies.set(LANG_COOKIE, "de")
    post_at_table(client, f"{location}/dice", dice="12346")
    page = post_at_table(client, f"{location}/score", box="yahtzee").text
    assert "Kniffel" in page.split('id="zero-q"')[1].split("</p>")[0]
    assert "Ann, wähle ein Feld" in page
    page = post_at_table(client, f"{location}/score", box="yahtzee", confirm_zero="1").text
    assert "Ann: 0 bei Kniffel (gesamt 0)" in page


def test_a_finished_table_game_that_used_undo_has_its_review(client, service, classic_table):
    location = start_table(client, "Ann")
    pid = location.removeprefix("/t/")
    post_at_table(client, f"{location}/dice", dice="66666")
    post_at_table(client, f"{location}/undo")  # the wrong dice typed
    view = service.load(1)
    for box in [category.key for category in CLASSIC.boxes]:
        view = service.apply_action(1, "dice 1 2 3 4 6", view.version)
        view = service.apply_action(1, f"score {box}", view.version)
    page = client.get(location).text
    assert f'href="/g/{pid}/review" id="review-link"' in page
    review = client.get(f"/g/{pid}/review")
    assert review.status_code == 200, review.text
    assert "Review of the game" in review.text and "unknown action" not in review.text
    assert "Every decision (13)" in review.text  # one box a turn; the undone dice left out
