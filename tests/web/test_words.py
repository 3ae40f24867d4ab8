"""The pages' words: CPU moves told in words, translated default names, preset
names and option names, and plural forms."""

from __future__ import annotations

import html
import re

from fivedice.web.guard import LANG_COOKIE
from fivedice.web.wording import gettext_for, texts
from fivedice.wording.text import move_sentence
from tests.web.support import FORM, start


def announced(page: str) -> str:
    found = re.search(r'<p id="announce"[^>]*>([^<]*)</p>', page)
    assert found, "no live region"
    return html.unescape(found.group(1))


def test_cpu_moves_are_told_with_their_dice_and_points(client, app, service):
    location = start(client)  # Ann and an unnamed CPU: "CPU 2"
    client.post(location + "/act", data={"action": "roll", "version": 0})
    client.post(location + "/act", data={"action": "score chance", "version": 1})
    game_id = app.state.hub.game_id(location.rsplit("/", 1)[1])
    view = service.load(game_id)
    kinds = set()
    while view.is_cpu_turn:
        before = view
        action, view = service.cpu_step(game_id, view.version)
        expected = move_sentence("CPU 2", action, before.state, view.state)
        page = html.unescape(client.get(location).text)
        assert f'<li class="newest">{expected}</li>' in page  # the move log's newest line
        # The live region says the move first, then whose turn it is (or that the game is over).
        assert announced(client.get(location).text).startswith(expected)
        kinds.add(str(action).split()[0])
    assert {"roll", "score"} <= kinds
    assert re.search(r"CPU 2 scores \d+ in ", expected)
    # In the page's language, and never as notation.
    client.get("/lang/de?next=" + location)
    german = announced(client.get(location).text)
    last = service.record(game_id).actions[-1].action
    assert last.startswith("score") and last not in german
    assert german.startswith("CPU 2 ") and german != expected
    # The player's own moves are told as theirs, never as a CPU's.
    client.post(location + "/act", data={"action": "roll", "version": view.version})
    newest = re.search(r'<li class="newest">([^<]*)</li>', client.get(location).text)
    assert newest is not None and newest.group(1).startswith("Ann würfelt ")  # (in German)


def test_default_names_and_preset_names_are_in_the_players_language(client):
    client.get("/lang/de?next=/")
    index = client.get("/").text
    assert '<option value="classic" selected>Klassisch</option>' in index
    assert ">classic<" not in index and ">triple<" not in index
    location = start(client, name0="", kind1="cpu", name1="")
    page = client.get(location).text
    assert "Spieler 1" in page and "CPU 2" in page
    rules = client.get("/rules?preset=triple").text
    assert "Dreifach-Kniffel" in rules


def test_refused_options_are_named_as_on_the_form(client):
    client.get("/lang/nl?next=/")
    response = client.post("/games", data={**FORM, "opt_rolls_per_turn": "0"})
    assert response.status_code == 422
    assert "Worpen per beurt moet van 1 tot 100 zijn, niet 0" in response.text
    assert "rolls_per_turn moet" not in response.text
    client.cookies.delete(LANG_COOKIE)
    response = client.post("/games", data={**FORM, "opt_upper_bonus": "maybe"})
    assert "Upper bonus must be on or off, not &#39;maybe&#39;" in response.text


def test_counts_take_the_plural_form_of_the_language():
    for language, one, many in (
        ("en", "Score Ones for 1 point", "Score Twos for 4 points"),
        ("nl", "Scoor Ones voor 1 punt", "Scoor Twos voor 4 punten"),
        ("de", "Ones für 1 Punkt eintragen", "Twos für 4 Punkte eintragen"),
    ):
        score_for = texts(gettext_for(language))["score_for"]
        assert score_for.format(box="Ones", points=1) == one
        assert score_for.format(box="Twos", points=4) == many


def test_score_buttons_say_point_or_points(client):
    location = start(client, kind1="none", seed="3")
    for version in range(0, 40, 2):
        page = client.get(location).text
        labels = re.findall(r'aria-label="Score [^"]* for (\d+) (points?)"', page)
        for number, word in labels:
            assert (word == "point") == (number == "1"), (number, word)
        if any(number == "1" for number, _word in labels):
            return
        client.post(location + "/act", data={"action": "roll", "version": version})
        client.post(location + "/act", data={"action": "score chance", "version": version + 1})
    raise AssertionError("no box was worth 1 point")
