"""Yatzy and Maxi Yatzy in the web app: played to the end over the API, the board and the
rules page show the rule set's boxes and dice, CPU seats and hints are refused cleanly."""

from __future__ import annotations

import pytest

from fivedice.core.rules import find_ruleset
from fivedice.strategy.limits import cpus_supported
from tests.web.support import new_game


def act(client, game, headers, action):
    response = client.post(
        f"/api/games/{game['id']}/actions",
        json={"action": action, "version": game["version"]},
        headers=headers,
    )
    assert response.status_code == 200, response.text
    return response.json()


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
@pytest.mark.parametrize(
    "preset",
    ["yatzy", "maxi-yatzy", "yacht", "yacht-dice", "generala", "kismet", "classic+wild"],
)
def test_two_people_play_a_preset_to_the_end_over_the_api(client, preset):
    name, _, wild = preset.partition("+")
    rules = find_ruleset(name, {"wild_die": "on"} if wild else None)
    game, seats = new_game(client, rules=name, **({"set": {"wild_die": True}} if wild else {}))
    assert list(game["players"][0]["card"]["columns"][0]["boxes"]) == [b.key for b in rules.boxes]
    game = act(client, game, seats[0], "roll")
    assert len(game["dice"]) == rules.dice
    page = client.get(f"/g/{game['id']}").text
    assert page.count('class="die') == rules.dice
    # The wild die, the last, drawn apart: its class, a starred position, its words.
    assert page.count('class="die wild"') + page.count('class="die held wild"') == rules.wild_die
    assert ("5★" in page) is rules.wild_die
    assert (
        f"Die 5: wild die: {'star' if game['dice'][-1] == 1 else game['dice'][-1]}" in page
    ) is (rules.wild_die)
    for box in rules.boxes:
        assert box.name in page
    hint = client.get(f"/api/games/{game['id']}/hint", headers=seats[0])
    if not cpus_supported(rules):  # (every preset has a coach now)
        assert hint.status_code >= 400, hint.text
    else:
        assert hint.status_code == 200, hint.text
        options = hint.json()["options"]
        assert options and all(o["loss"] >= 0 for o in options)
        # Yatzy: exact, from the solved table; Maxi Yatzy (saved rolls, no exact solve): the
        # expert CPU's estimates, and said to be estimates.
        assert {o.get("estimate", False) for o in options} == {bool(rules.saved_rolls)}
    for box in rules.boxes:
        for seat in (0, 1):
            if game["dice"] is None:
                game = act(client, game, seats[seat], "roll")
            if rules.dice == 6 and game["rolls_left"]:
                game = act(client, game, seats[seat], "hold 6")
                game = act(client, game, seats[seat], "roll")
            game = act(client, game, seats[seat], f"score {box.key}")
    assert game["status"] == "finished"
    final = client.get(f"/g/{game['id']}").text
    for player in game["players"]:
        assert str(player["total"]) in final


def _hold_most_common(client, game, headers):
    dice = game["dice"]
    face = max(set(dice), key=dice.count)
    held = [
        i + 1
        for i, (d, h) in enumerate(zip(dice, game["held"], strict=True))
        if d == face and not h
    ]
    if held:
        game = act(client, game, headers, "hold " + " ".join(map(str, held)))
    return game


def test_the_extra_turn_rule_in_a_two_player_game_over_the_api(client):
    game, seats = new_game(
        client, rules="yatzy", set={"extra_turn_on_yahtzee": True}, seed=EXTRA_TURN_SEED
    )
    assert game["rule_settings"]["extra_turn_on_yahtzee"] is True
    extra_turns = 0
    while game["status"] != "finished":
        seat = game["current_seat"]
        game = act(client, game, seats[seat], "roll")
        while len(set(game["dice"])) > 1 and game["rolls_left"]:
            game = _hold_most_common(client, game, seats[seat])
            game = act(client, game, seats[seat], "roll")
        boxes = [p["box"] for p in game["placements"]]
        rolled_yatzy = len(set(game["dice"])) == 1  # wherever it is scored
        box = "yatzy" if "yatzy" in boxes and rolled_yatzy else boxes[0]
        card_full = len(boxes) == 1
        game = act(client, game, seats[seat], f"score {box}")
        if rolled_yatzy and not card_full:
            assert game["current_seat"] == seat  # another turn at once
            extra_turns += 1
        elif game["status"] != "finished":
            other = game["players"][1 - seat]["card"]["columns"][0]["boxes"]
            other_full = all(v is not None for v in other.values())
            # The turn passes, unless the other card is full: a full card is skipped.
            assert (game["current_seat"] == seat) == other_full
    assert extra_turns >= 1
    for player in game["players"]:
        assert all(v is not None for v in player["card"]["columns"][0]["boxes"].values())


EXTRA_TURN_SEED = 7


@pytest.mark.parametrize("preset", ["yatzy", "maxi-yatzy"])
def test_cpu_seats_play_the_new_families(client, preset):
    response = client.post(
        "/api/games",
        json={"players": [{"name": "Ann"}, {"name": "Bot", "kind": "cpu"}], "rules": preset},
    )
    assert response.status_code in (200, 201), response.text


def test_rules_page_and_new_game_form(client):
    page = client.get("/rules?preset=maxi-yatzy").text
    for phrase in ("Six dice", "Castle", "Tower", "Full straight", "Saved rolls"):
        assert phrase in page
    form = client.get("/").text
    assert 'name="opt_family"' in form and "maxi_yatzy" in form
    assert 'name="opt_extra_turn_on_yahtzee"' in form
