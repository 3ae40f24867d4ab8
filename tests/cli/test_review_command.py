"""`fivedice review GAME [--json]`: the review as text with a chart, or as JSON; clean refusals."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from fivedice.cli import app
from fivedice.core.game import GameSettings, Seat
from fivedice.service.games import GameService

pytestmark = pytest.mark.tables  # a review needs the classic table (the user's table cache)


@pytest.fixture
def database(tmp_path):
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    service = GameService.open(url)
    view = service.create_game(GameSettings(seats=(Seat("Ann", "casual"),)), seed=17)
    while not view.is_over:
        _, view = service.cpu_step(view.game_id, view.version)
    playing = service.create_game(GameSettings(seats=(Seat("Bob"),)), seed=1)
    service.store.close()
    return url, view.game_id, playing.game_id


def invoke(*args):
    return CliRunner().invoke(app, ["review", *map(str, args)])


def test_json_gives_every_seat_its_decisions_and_curve(database):
    url, game_id, _ = database
    result = invoke(game_id, "--db", url, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["game"] == game_id and data["exact"] is True and data["rules"] == "classic"
    (seat,) = data["seats"]
    assert seat["name"] == "Ann"
    decisions = seat["decisions"]
    assert sum(d["chosen"].startswith("score ") for d in decisions) == 13
    assert seat["total_loss"] == pytest.approx(sum(d["loss"] for d in decisions))
    assert all(d["loss"] >= 0 and d["best_value"] >= d["chosen_value"] - 1e-9 for d in decisions)
    losses = sorted((d["loss"] for d in decisions if d["loss"] >= 1e-9), reverse=True)
    assert [d["loss"] for d in seat["costliest"]] == losses[:3]
    assert len(seat["curve"]) == 14


def test_text_has_the_summary_the_costliest_decisions_and_a_chart(database):
    url, game_id, _ = database
    result = invoke(game_id, "--db", url)
    assert result.exit_code == 0, result.output
    data = json.loads(invoke(game_id, "--db", url, "--json").output)
    out = result.output
    assert f"Review of game {game_id} · Classic" in out
    assert f"Expected points lost: {data['seats'][0]['total_loss']:.2f}" in out
    assert "Values are exact" in out
    assert "turns played" in out and "• expected final score   + points scored" in out
    assert out.count("turn 1, ") >= 2  # every decision listed, turn 1 has two or three
    assert "Traceback" not in out


def test_a_game_in_progress_or_unknown_is_refused_cleanly(database):
    url, _, playing = database
    result = invoke(playing, "--db", url)
    assert result.exit_code == 2
    assert "still in progress" in result.output and "Traceback" not in result.output
    result = invoke(999, "--db", url, "--json")
    assert result.exit_code == 2 and "999" in result.output


@pytest.fixture
def duel(tmp_path):
    """A finished two-seat game with a clear winner: an expert CPU against a human who rolls
    once and scores the first open box (ones, twos, ... chance), so the human cannot catch
    up in its last turn (chance, at most 30 points)."""
    url = f"sqlite:///{tmp_path / 'duel.sqlite3'}"
    service = GameService.open(url)
    settings = GameSettings(seats=(Seat("Ada", "expert"), Seat("Bob")))
    view = service.create_game(settings, seed=3)
    while not view.is_over:
        if view.is_cpu_turn:
            _, view = service.cpu_step(view.game_id, view.version)
            continue
        view = service.apply_action(view.game_id, "roll", view.version)
        box = view.state.placements()[0].category.key
        view = service.apply_action(view.game_id, f"score {box}", view.version)
    final_chances = service.win_chances(view.game_id)
    service.store.close()
    return url, view, final_chances


def test_json_has_every_seats_winning_chance_at_every_curve_point(duel):
    url, view, final_chances = duel
    result = invoke(view.game_id, "--db", url, "--json")
    assert result.exit_code == 0, result.output
    ada, bob = json.loads(result.output)["seats"]
    for index, seat in enumerate((ada, bob)):
        assert len(seat["curve"]) == 14
        for point in seat["curve"]:
            assert 0.0 <= point["win_chance"] <= 1.0
            # every seat's chance at this point's own moment: they sum to 1
            assert point["win_chances"][index] == point["win_chance"]
            assert sum(point["win_chances"]) == pytest.approx(1.0, abs=1e-9)
    # Points of different seats are at different moments (Ada's turn k comes before Bob's),
    # except the start: both turn-0 points are the new game, so their chances sum to 1.
    start_ada, start_bob = ada["curve"][0], bob["curve"][0]
    assert start_ada["win_chances"] == start_bob["win_chances"]
    assert start_ada["win_chance"] + start_bob["win_chance"] == pytest.approx(1.0, abs=1e-9)
    assert 0.2 < start_ada["win_chance"] < 0.8  # a fresh game is open for both
    # Bob's last point is the end of the game: the service's chances there agree.
    assert bob["curve"][-1]["win_chances"] == pytest.approx(list(final_chances), abs=1e-12)
    # A clear winner: 1 and 0 at the end, already after Ada's last turn (Bob's last box,
    # chance, cannot close the gap), and Ada's chance grows as Bob falls behind.
    totals = view.state.totals
    assert totals[0] - totals[1] > 30
    assert ada["curve"][-1]["win_chance"] == pytest.approx(1.0, abs=1e-12)
    assert bob["curve"][-1]["win_chance"] == pytest.approx(0.0, abs=1e-12)
    assert ada["curve"][7]["win_chance"] > start_ada["win_chance"]


def test_a_solo_review_has_no_winning_chances(database):
    url, game_id, _ = database
    data = json.loads(invoke(game_id, "--db", url, "--json").output)
    (seat,) = data["seats"]
    assert all(p["win_chance"] is None and p["win_chances"] is None for p in seat["curve"])
    assert "chance of winning" not in invoke(game_id, "--db", url).output.lower()


def test_text_shows_the_chances_chart_and_each_turns_chance(duel):
    url, view, _ = duel
    result = invoke(view.game_id, "--db", url)
    assert result.exit_code == 0, result.output
    data = json.loads(invoke(view.game_id, "--db", url, "--json").output)
    out = result.output
    assert out.count("• Ada: chance of winning (%)") == 1
    assert out.count("• Bob: chance of winning (%)") == 1
    assert out.count("Chance of winning, at the start and after each turn: ") == 2
    ada = data["seats"][0]["curve"]
    assert f"· 13: {ada[-1]['win_chance']:.0%}" in out  # the chance listed per turn
    assert "Traceback" not in out
