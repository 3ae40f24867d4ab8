"""Fair dice in the pages and rooms: the commitment shown from the waiting room on, each
player's own seed mixed into the dice, and the finished game's verify page and record."""

from __future__ import annotations

import hashlib
import re

import pytest

from fivedice.core.fairdice import HmacDice
from fivedice.core.record import parse_record, record_terms
from fivedice.core.verify import verify_record
from tests.web.support import FORM, ORIGIN, PageClient, invitations, new_game, open_room


def _play_out(client, game, seat_headers):
    """Plays a solo game to its end over the API (first open box each turn)."""
    state = game
    while state["status"] == "in_progress":
        action = "roll" if state["dice"] is None else f"score {state['placements'][0]['box']}"
        state = client.post(
            f"/api/games/{game['id']}/actions",
            json={"action": action, "version": state["version"]},
            headers=seat_headers[state["current_seat"]],
        ).json()
    return state


def test_a_friends_seed_joins_the_dice_committed_before_she_chose_it(client, app):
    shown, handle = _form_commitment(client.get("/").text)
    room = open_room(client, seed="", client_seed="ann's lucky socks", commitment_handle=handle)
    page = client.get(room).text
    commitment = re.search(r'id="commitment">([0-9a-f]{64})<', page).group(1)
    assert commitment == shown  # the new-game form's, shown before Ann chose her seed
    (invite,) = invitations(page)
    seat, key = re.search(r"/invite/(\d+)\?key=(\w+)", invite).groups()
    with PageClient(app, headers={"Origin": ORIGIN}) as bob:
        assert 'id="client-seed"' in bob.get(invite).text
        joined = bob.post(
            "/join", data={"code": room[3:], "seat": seat, "key": key, "client_seed": " bob 42 "},
            follow_redirects=False,
        )  # fmt: skip
        assert joined.status_code == 303
    started = client.post(room + "/start", data={"version": 1}, follow_redirects=False)
    game_id = app.state.hub.game_id(started.headers["location"].rsplit("/", 1)[1])
    view = app.state.hub.load(game_id)
    # The commitment shown in the waiting room, before Bob chose his seed, is the game's.
    assert view.dice_commitment == commitment
    assert view.client_seeds == ("ann's lucky socks", "bob 42")
    data = client.get(f"/api/games/{app.state.hub.public_id(game_id)}").json()
    assert data["client_seeds"] == ["ann's lucky socks", "bob 42"]
    assert data["dice_commitment"] == commitment


def test_a_bad_seed_is_refused_on_the_join_form_and_joins_nothing(client, app):
    room = open_room(client, seed="")
    (invite,) = invitations(client.get(room).text)
    seat, key = re.search(r"/invite/(\d+)\?key=(\w+)", invite).groups()
    with PageClient(app, headers={"Origin": ORIGIN}) as bob:
        refused = bob.post(
            "/join", data={"code": room[3:], "seat": seat, "key": key, "client_seed": "x" * 65}
        )
        assert refused.status_code == 422 and "64" in refused.text
        assert 'name="key"' in refused.text  # the same invitation form, to fix the seed
        by_code = bob.post("/join", data={"code": room[3:], "client_seed": "tab\there"})
        assert by_code.status_code == 422
    assert "not joined yet" in client.get(room).text


def test_a_room_with_a_chosen_seed_takes_no_friends_seed(client, app):
    room = open_room(client, seed="5")
    page = client.get(room).text
    assert 'id="commitment"' not in page
    (invite,) = invitations(page)
    seat, key = re.search(r"/invite/(\d+)\?key=(\w+)", invite).groups()
    with PageClient(app, headers={"Origin": ORIGIN}) as bob:
        assert 'id="client-seed"' not in bob.get(invite).text
        refused = bob.post(
            "/join", data={"code": room[3:], "seat": seat, "key": key, "client_seed": "mine"}
        )
        assert refused.status_code == 422


def _form_commitment(page):
    """The commitment a new-game page shows, and the handle its form posts back."""
    commitment = re.search(r'id="form-commitment">([0-9a-f]{64})<', page).group(1)
    handle = re.search(r'name="commitment_handle" value="([^"]+)"', page).group(1)
    return commitment, handle


def _game_of(app, response):
    return app.state.hub.load(app.state.hub.game_id(response.headers["location"].rsplit("/", 1)[1]))


def test_the_new_game_page_shows_the_commitment_before_the_seed_is_chosen(client, app):
    page = client.get("/").text
    commitment, handle = _form_commitment(page)
    # Shown next to the seed field, before anything is posted.
    assert page.index('id="client-seed"') < page.index('id="form-commitment"')
    response = client.post(
        "/games",
        data={**FORM, "seed": "", "client_seed": "kitchen", "commitment_handle": handle},
        follow_redirects=False,
    )
    assert response.status_code == 303
    view = _game_of(app, response)
    assert view.client_seeds[0] == "kitchen" and view.dice_commitment == commitment
    game_page = client.get(response.headers["location"]).text
    assert commitment in game_page and "<code>kitchen</code>" in game_page  # before any action
    # With a chosen seed the dice are known: a seed of one's own is refused, nothing made.
    before = len(app.state.hub.service.store.list_games())
    refused = client.post("/games", data={**FORM, "seed": "3", "client_seed": "kitchen"})
    assert refused.status_code == 422 and "chosen seed" in refused.text
    assert len(app.state.hub.service.store.list_games()) == before


def test_each_showing_of_the_form_draws_its_own_commitment(client):
    assert _form_commitment(client.get("/").text) != _form_commitment(client.get("/").text)


def test_a_form_posted_twice_starts_one_game_and_offers_a_new_commitment(client, app):
    commitment, handle = _form_commitment(client.get("/").text)
    form = {**FORM, "seed": "", "client_seed": "twice", "commitment_handle": handle}
    first = client.post("/games", data=form, follow_redirects=False)
    assert first.status_code == 303
    before = len(app.state.hub.service.store.list_games())
    again = client.post("/games", data=form, follow_redirects=False)
    assert again.status_code == 409 and "already started a game" in again.text
    assert len(app.state.hub.service.store.list_games()) == before
    fresh, _ = _form_commitment(again.text)
    assert fresh != commitment
    # The server knows "twice" now: the visitor chooses a seed again after the new commitment.
    assert 'value="twice"' not in again.text


def test_a_form_without_its_commitment_takes_no_seed_and_makes_no_game(client, app):
    before = len(app.state.hub.service.store.list_games())
    stale = client.post("/games", data={**FORM, "seed": "", "client_seed": "old form"})
    assert stale.status_code == 422 and "choose your seed again" in stale.text
    assert len(app.state.hub.service.store.list_games()) == before
    assert _form_commitment(stale.text) and 'value="old form"' not in stale.text


def test_a_form_refused_for_another_reason_keeps_its_commitment_and_seed(client, app):
    commitment, handle = _form_commitment(client.get("/").text)
    form = {**FORM, "seed": "", "client_seed": "kept", "commitment_handle": handle}
    refused = client.post("/games", data={**form, "match_length": "many"})
    assert refused.status_code == 422 and 'value="kept"' in refused.text
    assert _form_commitment(refused.text) == (commitment, handle)
    made = client.post("/games", data=form, follow_redirects=False)
    assert made.status_code == 303 and _game_of(app, made).dice_commitment == commitment


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_the_new_game_page_explains_the_commitment_in_the_visitors_language(client):
    page = client.get("/", headers={"Accept-Language": "nl"}).text
    assert 'id="form-commitment"' in page and "heeft zich al vastgelegd" in page


def test_the_finished_games_page_links_to_a_verify_page_that_checks_every_roll(client, app):
    handle = client.post("/api/commitments").json()["handle"]
    game, seats = new_game(
        client,
        [{"name": "Solo"}],
        rules="simple",
        seed=None,
        client_seeds=["mine"],
        commitment_handle=handle,
    )
    page = client.get(f"/g/{game['id']}").text
    assert game["dice_commitment"] in page and 'id="verify-link"' not in page
    early = client.get(f"/g/{game['id']}/verify")
    assert early.status_code == 409 and "in progress" in early.text
    state = _play_out(client, game, seats)
    page = client.get(f"/g/{game['id']}").text
    assert 'id="verify-link"' in page and state["server_seed"] in page
    verified = client.get(f"/g/{game['id']}/verify")
    assert verified.status_code == 200 and "Verified" in verified.text
    # The record downloaded here verifies on its own, and its rolls are the HMAC's.
    record_text = client.get(f"/g/{game['id']}/record.txt")
    assert record_text.headers["content-disposition"].startswith("attachment")
    record = parse_record(record_text.text, check=False)
    assert verify_record(record).ok and verify_record(record).rolls == 13  # one roll a turn
    seed = bytes.fromhex(state["server_seed"])
    assert hashlib.sha256(seed).hexdigest() == game["dice_commitment"]
    first_roll = next(entry for entry in record.actions if entry.dice)
    terms = record_terms(record)  # the game's rules and players, bound into its dice
    rolled = HmacDice(seed, ("mine",), first_roll.seq, terms).roll(len(first_roll.dice))
    assert terms is not None and first_roll.dice == rolled


def test_a_game_changed_behind_the_servers_back_is_refused_not_verified(client, app):
    game, seats = new_game(client, [{"name": "Solo"}], rules="simple", seed=None)
    _play_out(client, game, seats)
    store = app.state.hub.service.store
    game_id = app.state.hub.game_id(game["id"])
    # Change one stored die of action 3 (a roll) behind the server's back.
    from sqlalchemy import text

    with store.engine.begin() as db:
        row = db.execute(
            text("SELECT seq, dice FROM actions WHERE game_id = :g AND seq = 3"), {"g": game_id}
        ).one()
        assert row.dice
        faces = row.dice.split()
        faces[0] = "6" if faces[0] != "6" else "5"
        db.execute(
            text("UPDATE actions SET dice = :d WHERE game_id = :g AND seq = 3"),
            {"d": " ".join(faces), "g": game_id},
        )
    app.state.hub.service.forget(game_id)
    # The stored log no longer replays to its totals: the game is damaged, and neither the
    # verify page nor the record pretends otherwise (record files: tests/store/test_verify.py).
    page = client.get(f"/g/{game['id']}/verify")
    assert page.status_code == 422 and "Verified" not in page.text
    assert "action" in page.text and "Traceback" not in page.text
    assert client.get(f"/g/{game['id']}/record.txt").status_code == 422


def test_the_api_room_commits_first_and_takes_each_players_seed(client, app):
    drawn = client.post("/api/commitments").json()
    made = client.post(
        "/api/rooms",
        json={
            "players": [{"name": "Ann", "kind": "me", "client_seed": "a"}, {"name": "Bob"}],
            "commitment_handle": drawn["handle"],
        },
    )
    assert made.status_code == 201, made.text
    room = made.json()["room"]
    commitment = room["dice_commitment"]
    assert commitment == drawn["commitment"]  # drawn before Ann chose "a"
    (invitation,) = made.json()["invitations"]
    too_long = client.post(
        f"/api/rooms/{room['code']}/join",
        json={"invitation": invitation["invitation"], "client_seed": "b" * 65},
    )
    assert too_long.status_code == 422
    joined = client.post(
        f"/api/rooms/{room['code']}/join",
        json={"invitation": invitation["invitation"], "client_seed": "b"},
    )
    assert joined.status_code == 200 and joined.json()["room"]["dice_commitment"] == commitment
    host = {"Authorization": f"Bearer {made.json()['host_key']}"}
    version = joined.json()["room"]["version"]
    started = client.post(
        f"/api/rooms/{room['code']}/start", json={"version": version}, headers=host
    )
    assert started.status_code == 200, started.text
    game = client.get(f"/api/games/{started.json()['room']['game']}").json()
    assert game["dice_commitment"] == commitment and game["client_seeds"] == ["a", "b"]
    late = client.post(
        f"/api/rooms/{room['code']}/join",
        json={"invitation": invitation["invitation"], "client_seed": "c"},
    )
    assert late.status_code == 409  # the dice are fixed once the game has started


def test_the_server_publishes_the_key_its_records_are_signed_with(client, app, tmp_path):
    """`/fairness/key` serves the public key and fingerprint that sign `/g/{id}/record.txt`;
    the verify page names the same fingerprint, and `fivedice verify --key` with the
    published text accepts the record."""
    from typer.testing import CliRunner

    from fivedice.cli import app as cli
    from fivedice.core.record import split_signature

    published = client.get("/fairness/key")
    assert published.status_code == 200
    algorithm, public_hex = published.text.splitlines()[0].split()
    fingerprint = published.text.splitlines()[1].removeprefix("fingerprint: ")
    assert algorithm == "ed25519" and len(public_hex) == 64
    game, seats = new_game(client, [{"name": "Solo"}], rules="simple", seed=None)
    _play_out(client, game, seats)
    record_text = client.get(f"/g/{game['id']}/record.txt").text
    _, signature = split_signature(record_text)
    assert signature is not None and signature.public_key.hex() == public_hex
    page = client.get(f"/g/{game['id']}/verify").text
    assert f'id="record-key">{fingerprint}<' in page and "Verified" in page
    key_file = tmp_path / "key.txt"
    key_file.write_text(published.text)
    record = tmp_path / "record.txt"
    record.write_text(record_text)
    checked = CliRunner().invoke(cli, ["verify", str(record), "--key", str(key_file)])
    assert checked.exit_code == 0 and fingerprint in checked.stdout
