"""The game board as each device sees it: "Your turn" and the "you" mark on the device of the
seat to move, the tab title, the winner banner with the standings on top, the move log (also
when coming back to a game), the box that takes the focus after the last roll, and undo in
solo games (the terminal app's policy)."""

from __future__ import annotations

import html
import re

from fivedice.web.views import card_data
from tests.web.support import another_browser, finish, invitations, open_room, start, version_of


def heading(page):
    return html.unescape(re.search(r'<h1 id="turn-h" tabindex="-1">([^<]*)</h1>', page).group(1))


def title(page):
    return html.unescape(re.search(r"<title>([^<]*)</title>", page).group(1))


def log_lines(page):
    found = re.search(r'<ol id="move-log">(.*?)</ol>', page, re.S)
    return [html.unescape(line) for line in re.findall(r"<li[^>]*>([^<]*)</li>", found.group(1))]


def game_id_of(app, location):
    return app.state.hub.game_id(location.rsplit("/", 1)[1])


def room_game(client, app):
    """Ann (this client) and her friend Bob in a started room: (game page, Bob's browser)."""
    room = open_room(client)
    (invite,) = invitations(client.get(room).text)
    bob = another_browser(app)
    seat, key = re.search(r"/invite/(\d+)\?key=(\w+)", invite).groups()
    bob.post("/join", data={"code": room[3:], "seat": seat, "key": key, "name": "Bob"})
    started = client.post(room + "/start", data={"version": 1}, follow_redirects=False)
    return started.headers["location"], bob


def test_the_device_of_the_seat_to_move_says_your_turn_the_others_name_the_player(client, app):
    game, bob = room_game(client, app)
    with bob:
        ann_page, bob_page = client.get(game).text, bob.get(game).text
        assert heading(ann_page) == "Your turn"
        assert title(ann_page) == "● Your turn · fivedice"
        assert heading(bob_page) == "Ann's turn"  # not "Your turn" on Bob's phone
        assert title(bob_page) == "fivedice — Ann, Bob"
        # Each device marks its own column "you", and only that one.
        assert re.search(
            r'class="mover mine"><span class="seat-name">Ann</span> <span class="you">', ann_page
        )
        assert re.search(
            r'class=" mine"><span class="seat-name">Bob</span> <span class="you">', bob_page
        )
        assert ann_page.count('class="you"') == bob_page.count('class="you"') == 1
        # Ann scores: now Bob's phone says it is his turn, and Ann's tab no longer calls her.
        rolled = client.post(game + "/act", data={"action": "roll", "version": 0}).text
        client.post(game + "/act", data={"action": "score chance", "version": version_of(rolled)})
        assert heading(bob.get(game).text) == "Your turn"
        assert heading(client.get(game).text) == "Bob's turn"
        assert title(client.get(game).text) == "fivedice — Ann, Bob"
        # A spectator (no seat) reads names only, and no column is "you".
        with another_browser(app) as watcher:
            watched = watcher.get(game).text
            assert heading(watched) == "Bob's turn" and 'class="you"' not in watched


def test_a_device_shared_by_two_players_names_whose_turn_it_is(client):
    location = start(client, kind1="local", name1="Dee")  # Ann and Dee at this device
    page = client.get(location).text
    assert heading(page) == "Ann's turn" and 'class="you"' not in page
    assert title(page) == "● Ann's turn · fivedice"  # still this device's move


def test_the_end_shows_the_winner_and_the_standings_on_top(client, app, service):
    location = start(client)
    finish(service, game_id_of(app, location))
    page = client.get(location).text
    view = service.load(game_id_of(app, location))
    totals = {
        seat.name: total for seat, total in zip(view.state.seats, view.state.totals, strict=True)
    }
    winner = max(totals, key=totals.get)
    loser = min(totals, key=totals.get)
    if totals[winner] == totals[loser]:
        assert heading(page) == f"Ann, CPU 2 share the win with {totals[winner]}"
    elif winner == "Ann":
        assert heading(page) == f"You win with {totals['Ann']}"
    else:
        assert heading(page) == f"CPU 2 wins with {totals['CPU 2']}"
    if totals[winner] != totals[loser]:
        rest = re.search(r'<p class="rest" id="banner-rest">.*?</span>([^<]*)</p>', page).group(1)
        assert html.unescape(rest) == f"{loser} {totals[loser]}"
    announced = html.unescape(re.search(r'data-announce="([^"]*)"', page).group(1))
    assert announced.endswith(f"{heading(page)}. {loser} {totals[loser]}.") or (
        totals[winner] == totals[loser]
    )
    # The banner comes before the card; the full standings table is still there.
    assert page.index('id="winner"') < page.index('class="card"')
    assert "Standings" in page and 'id="again"' in page


def test_a_solo_game_ends_with_the_players_score(client, app, service):
    location = start(client, kind1="none")
    finish(service, game_id_of(app, location))
    total = service.load(game_id_of(app, location)).state.totals[0]
    assert heading(client.get(location).text) == f"Game over. Ann: {total}"


def test_the_move_log_shows_the_last_moves_also_when_coming_back(client, app):
    location = start(client)
    assert 'id="move-log"' not in client.get(location).text  # nothing has happened yet
    rolled = client.post(location + "/act", data={"action": "roll", "version": 0}).text
    held = client.post(location + "/act", data={"action": "hold 1 2", "version": 1}).text
    assert version_of(held) == 2
    with another_browser(app) as later:  # the game opened again, with no `seen`
        lines = log_lines(later.get(location).text)
    assert len(lines) == 2
    assert re.fullmatch(r"Ann rolls [1-6]( [1-6]){4}", lines[0]) and lines[0] in html.unescape(
        rolled
    )
    assert lines[1].startswith("Ann holds ")
    assert log_lines(client.get(location).text) == lines


def test_the_move_log_keeps_only_the_last_few_moves(client, app, service):
    from fivedice.web.moves import LOG_LENGTH

    location = start(client)
    finish(service, game_id_of(app, location))
    lines = log_lines(client.get(location).text)
    assert len(lines) == LOG_LENGTH
    assert any(line.startswith("CPU 2 scores ") for line in lines)  # the CPU's moves too
    assert lines[-1].startswith(("Ann scores", "CPU 2 scores"))  # the last score ends the game


def test_the_log_says_the_rolls_a_score_saved_for_later_turns(service):
    from fivedice.core.game import GameSettings, Seat
    from fivedice.core.rules import find_ruleset
    from fivedice.web.moves import moves_since

    settings = GameSettings((Seat("Ann"), Seat("Bob")), find_ruleset("maxi-yatzy"))
    game = service.create_game(settings, seed=1)
    service.apply_action(game.game_id, "roll", 0)
    service.apply_action(game.game_id, "score chance", 1)  # two of the three rolls unused
    told = moves_since(service, game.game_id, 0, 2)
    assert told[1].startswith("Ann scores ")
    assert told[1].endswith(" Ann has 2 rolls saved for later turns.")


def test_after_the_last_roll_a_box_is_marked_to_take_the_focus(client):
    location = start(client)
    version = 0
    for _roll in range(3):
        page = client.post(location + "/act", data={"action": "roll", "version": version}).text
        version = version_of(page)
        marked = re.findall(r'value="(score [a-z_]+)"[^>]*data-focus', page)
        if _roll < 2:
            assert marked == []  # rolls left: Roll keeps the focus
    first_open = re.search(
        r'<td class="legal"><button type="submit" form="act-form" name="action" value="([^"]+)"',
        page,
    )
    assert marked == [first_open.group(1)]  # coach off: the first open box


def test_with_the_coach_on_the_best_box_takes_the_focus(client):
    location = start(client)
    client.post(location + "/coach")
    version = 0
    for _roll in range(3):
        page = client.post(location + "/act", data={"action": "roll", "version": version}).text
        version = version_of(page)
    best = re.search(r'<section class="hint".*?<li><strong>([^<]*)</strong>', page, re.S).group(1)
    (marked,) = re.findall(r'aria-label="([^"]*)"[^>]*data-focus', page)
    box = html.unescape(best).removeprefix("score ")
    assert html.unescape(marked).startswith(f"Score {box} for ")


def test_undo_in_a_solo_game_takes_back_a_hold_and_a_score(client, app, service):
    location = start(client, kind1="none")
    game_id = game_id_of(app, location)
    page = client.get(location).text
    assert 'id="undo"' not in page  # nothing to take back
    rolled = client.post(location + "/act", data={"action": "roll", "version": 0}).text
    assert 'id="undo"' not in rolled  # a roll is never taken back (a free re-roll)
    held = client.post(location + "/act", data={"action": "hold 1", "version": 1}).text
    assert 'id="undo"' in held and 'action="/g/' in held
    undone = client.post(location + "/undo", data={"version": 2})
    assert undone.status_code == 200
    assert service.load(game_id).state.turn.held[0] is False
    assert "Ann takes back the last action" in html.unescape(undone.text)
    assert 'id="undo"' not in undone.text  # only once
    scored = client.post(location + "/act", data={"action": "score chance", "version": 3}).text
    assert 'id="undo"' in scored
    client.post(location + "/undo", data={"version": 4})
    view = service.load(game_id)
    assert card_data(view.state, 0)["columns"][0]["boxes"]["chance"] is None
    assert view.state.turn_number == 1 and view.state.dice is not None  # back in the turn


def test_undo_is_refused_with_its_reason_and_changes_nothing(client, app, service):
    location = start(client, kind1="none")
    game_id = game_id_of(app, location)
    client.post(location + "/act", data={"action": "roll", "version": 0})
    refused = client.post(location + "/undo", data={"version": 1})
    assert refused.status_code >= 400
    assert "a roll cannot be taken back" in html.unescape(refused.text)
    assert service.load(game_id).version == 1


def test_undo_is_not_offered_against_others_and_refused_if_sent(client, app, service):
    location = start(client, seed="")  # Ann against a CPU, not seeded: no practice game
    game_id = game_id_of(app, location)
    client.post(location + "/act", data={"action": "roll", "version": 0})
    held = client.post(location + "/act", data={"action": "hold 1", "version": 1}).text
    assert 'id="undo"' not in held
    refused = client.post(location + "/undo", data={"version": 2})
    assert refused.status_code >= 400 and "solo and practice games only" in refused.text
    assert service.load(game_id).version == 2


def test_undo_needs_the_pages_csrf_token(raw_client, client):
    location = start(client, kind1="none")
    client.post(location + "/act", data={"action": "roll", "version": 0})
    client.post(location + "/act", data={"action": "hold 1", "version": 1})
    forged = raw_client.post(location + "/undo", data={"version": 2})
    assert forged.status_code == 403


def standing(seat, name, total, rank):
    return {"seat": seat, "name": name, "match_total": total, "rank": rank}


def test_the_end_banner_names_the_winner_a_tie_you_and_a_solo_score():
    from fivedice.web.routers.pages import end_banner
    from fivedice.web.wording import gettext_for, texts

    t = texts(gettext_for("en"))
    three = [standing(1, "Bob", 243, 1), standing(0, "Ann", 198, 2), standing(2, "Cee", 150, 3)]
    assert end_banner(t, three, 0, aborted=False) == ("Bob wins with 243", "Ann 198 · Cee 150")
    assert end_banner(t, three, 1, aborted=False) == ("You win with 243", "Ann 198 · Cee 150")
    assert end_banner(t, three, None, aborted=False)[0] == "Bob wins with 243"  # a spectator
    tie = [standing(0, "Ann", 200, 1), standing(1, "Bob", 200, 1), standing(2, "Cee", 90, 3)]
    assert end_banner(t, tie, 0, aborted=False) == ("Ann, Bob share the win with 200", "Cee 90")
    assert end_banner(t, [standing(0, "Ann", 187, 1)], 0, aborted=False) == (
        "Game over. Ann: 187",
        "",
    )
    assert end_banner(t, three, 0, aborted=True) == ("Game abandoned.", "")
    japanese = texts(gettext_for("ja"))
    assert end_banner(japanese, three, 1, aborted=False)[0] == "243点であなたの勝ち"
