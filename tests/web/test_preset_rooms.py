"""Yacht, Yacht Dice, Generala, Kismet and the wild die in the web's new-game form and in
rooms: the form offers them, and a game or a room started with each plays a turn."""

from __future__ import annotations

import pytest

from fivedice.core.record import dice_for
from fivedice.core.rules import find_ruleset
from tests.web.support import open_room, start, version_of

PRESETS = ["yacht", "yacht-dice", "generala", "kismet", "classic+wild", "generala+wild"]


def _form(preset: str) -> tuple[dict[str, str], object]:
    name, _, wild = preset.partition("+")
    fields = {"preset": name, **({"opt_wild_die": "on"} if wild else {})}
    return fields, find_ruleset(name, {"wild_die": "on"} if wild else None)


def test_the_new_game_form_offers_the_new_presets_and_the_wild_die(client) -> None:
    form = client.get("/").text
    for name in ("yacht", "yacht-dice", "generala", "kismet"):
        assert f'value="{name}"' in form
    assert 'name="opt_wild_die"' in form


def _plays_a_turn(client, app, game: str, rules) -> None:
    hub = app.state.hub
    game_id = hub.game_id(game.rsplit("/", 1)[1])
    state = hub.load(game_id).state
    assert state.rules == rules
    page = client.get(game).text
    version = version_of(page)
    rolled = client.post(game + "/act", data={"action": "roll", "version": version})
    assert rolled.status_code == 200, rolled.text
    state = hub.load(game_id).state
    assert state.dice is not None and len(state.dice) == rules.dice
    box = state.placements()[0].category
    seat = state.current_seat
    scored = client.post(
        game + "/act",
        data={
            "action": f"score {box.key}",
            "version": version_of(rolled.text),
            "confirm_zero": "1",
        },
    )
    assert scored.status_code == 200, scored.text
    assert hub.load(game_id).state.cards[seat].columns[0].is_filled(box)


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
@pytest.mark.parametrize("preset", PRESETS)
def test_the_form_starts_a_game_of_each_preset_that_plays_a_turn(client, app, preset) -> None:
    fields, rules = _form(preset)
    game = start(client, **fields, kind1="local", name1="Bob")
    assert game.startswith("/g/")
    _plays_a_turn(client, app, game, rules)


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
@pytest.mark.parametrize("preset", PRESETS)
def test_a_room_of_each_preset_starts_and_plays_a_turn(client, app, preset) -> None:
    fields, rules = _form(preset)
    room = open_room(client, **fields)
    code = room[3:]
    assert "Waiting room" in client.get(room).text
    hub = app.state.hub
    # The host starts with the invited friend's seat given to a CPU.
    started = client.post(room + "/start", data={"version": 0, "fill": "1"})
    assert started.status_code == 200, started.text
    game_id = hub.room(code).game_id
    assert [seat.is_cpu for seat in hub.load(game_id).state.seats] == [False, True]
    _plays_a_turn(client, app, "/g/" + hub.public_id(game_id), rules)


def test_a_served_generala_ends_a_web_game_and_the_banner_says_why(client, app) -> None:
    seed = next(s for s in range(100_000) if len(set(dice_for(s, 1).roll(5))) == 1)
    game = start(client, preset="generala", kind1="local", name1="Bob", seed=str(seed))
    rolled = client.post(game + "/act", data={"action": "roll", "version": 0})
    won = client.post(
        game + "/act", data={"action": "score generala", "version": version_of(rolled.text)}
    )
    assert won.status_code == 200, won.text
    page = client.get(game).text
    assert "Ann made a Generala on the first roll of a turn and wins the game at once." in page
    assert "Bob 0" in page
    data = client.get("/api/games/" + game.rsplit("/", 1)[1]).json()
    assert data["status"] == "finished" and data["instant_winner"] == 0
    assert [p["rank"] for p in data["players"]] == [1, 2]
