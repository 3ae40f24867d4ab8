"""Accessibility on the server side: what the live region says, a 0 asked once, several-column
labels, previews marked as previews, the resume list and its question before abandoning,
the high-score note, the hint's numbers explained, statistics that fit a phone."""

from __future__ import annotations

import html
import re

import pytest

from tests.web.support import start, version_of


def announce(page):
    return html.unescape(re.search(r'data-announce="([^"]*)"', page).group(1))


def dice_of(page):
    return [int(v) for v in re.findall(r'aria-label="Die \d: (\d)', page)]


def test_the_live_region_tells_my_roll_with_its_dice_and_my_score_with_box_and_points(client):
    location = start(client)
    rolled = client.post(location + "/act", data={"action": "roll", "version": 0})
    assert rolled.status_code == 200  # followed the redirect to the board
    page = rolled.text
    dice = " ".join(map(str, dice_of(page)))
    assert f"Ann rolls {dice}." in announce(page)
    assert announce(page).endswith("Your turn.")  # (Ann's own device)
    points = re.search(r'value="score chance"\s+aria-label="Score Chance for (\d+) points"', page)
    scored = client.post(
        location + "/act", data={"action": "score chance", "version": version_of(page)}
    )
    said = announce(scored.text)
    assert f"Ann scores {points.group(1)} in Chance." in said
    assert "CPU 2's turn" in said


def test_moves_arriving_over_the_stream_are_told_cpu_rolls_and_scores(client, app):
    location = start(client)
    page = client.post(location + "/act", data={"action": "roll", "version": 0}).text
    client.post(location + "/act", data={"action": "score chance", "version": version_of(page)})
    hub = app.state.hub
    game_id = hub.game_id(location.rsplit("/", 1)[1])
    seen = hub.load(game_id).version
    while hub.load(game_id).is_cpu_turn:  # what the server's driver does
        hub.drive_cpu(game_id, hub.load(game_id).version)
    page = client.get(location, params={"seen": seen}, headers={"X-Fivedice-Fragment": "1"})
    said = announce(page.text)
    assert re.search(r"CPU 2 rolls [1-6]( [1-6]){4}\.", said), said
    assert re.search(r"CPU 2 scores \d+ in [A-Z]", said), said
    assert said.endswith("Your turn.")
    assert 'id="move-log"' in page.text


def test_a_refused_action_is_announced_and_marked_as_an_alert(client):
    location = start(client)
    response = client.post(location + "/act", data={"action": "score chance", "version": 0})
    assert response.status_code in (409, 422)
    assert 'id="error" role="alert"' in response.text
    assert "That did not work" in announce(response.text)


def test_scoring_a_zero_asks_once_and_the_yes_scores_it(client):
    for seed in range(5, 40):
        location = start(client, seed=str(seed))
        page = client.post(location + "/act", data={"action": "roll", "version": 0}).text
        zero = re.search(r'value="(score [a-z_]+)"\s+aria-label="[^"]*" class="zero"', page)
        if zero:
            break
    assert zero, "no seed gave a 0 to score"
    version = version_of(page)
    asked = client.post(location + "/act", data={"action": zero.group(1), "version": version})
    assert asked.status_code == 200
    assert 'id="confirm-zero"' in asked.text and 'name="confirm_zero" value="1"' in asked.text
    assert version_of(asked.text) == version  # nothing was scored
    assert "Score 0 in" in announce(asked.text)
    done = client.post(
        location + "/act",
        data={"action": zero.group(1), "version": version, "confirm_zero": "1"},
    )
    assert version_of(done.text) == version + 1 and 'id="confirm-zero"' not in done.text


def test_a_several_column_card_names_column_and_multiplier_and_shows_the_worth(client):
    location = start(client, preset="triple")
    page = client.post(location + "/act", data={"action": "roll", "version": 0}).text
    label = re.search(
        r'value="score 3:chance"\s+aria-label="Score Chance in column 3 \(×3\) for (\d+) points,'
        r' worth (\d+)"',
        page,
    )
    assert label and int(label.group(2)) == 3 * int(label.group(1))
    assert f"×3={label.group(2)}" in page
    assert "Column 2 ×2" in page


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_previews_are_marked_as_previews_for_a_watcher(client):
    location = start(client)
    client.post(location + "/act", data={"action": "roll", "version": 0})
    client.cookies.clear()  # a spectator: previews, no buttons
    page = client.get(location).text
    cells = re.findall(r'<td class="preview"><span class="visually-hidden">preview: </span>', page)
    assert len(cells) >= 1


def test_the_resume_list_tells_games_apart_and_asks_before_abandoning(client, app):
    location = start(client, preset="free-choice")
    page = client.get("/resume").text
    # The date and time as the page's language writes them (Babel), the preset by its name.
    when = r"[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d\d\s[AP]M"
    assert re.search(rf"started {when}, rules: Free choice", page), page
    assert f'href="{location}/abandon"' in page and f'action="{location}/abandon"' not in page
    question = client.get(location + "/abandon").text
    assert "Abandon this game?" in question and "Ann, CPU 2" in question
    hub = app.state.hub
    game_id = hub.game_id(location.rsplit("/", 1)[1])
    assert hub.load(game_id).status == "in_progress"  # asking changed nothing
    client.post(location + "/abandon")
    assert hub.load(game_id).status == "abandoned"


def test_the_high_score_page_says_only_solo_games_count(client):
    assert "Only solo games count here" in client.get("/highscores").text


def test_the_hint_says_what_its_numbers_are(client):
    location = start(client)
    client.post(location + "/act", data={"action": "roll", "version": 0})
    page = client.get(location, params={"hint": 1}).text
    assert '<span class="unit">expected points to come</span>' in page
    assert "Each number is the expected points to come" in page


def test_the_new_game_form_marks_the_level_and_the_start_bar(client):
    page = client.get("/").text
    assert page.count('<label class="level">') == 4
    assert '<div class="start-bar">' in page
