"""`fivedice review GAME [--json]`: the review as text with a chart, or as JSON; clean refusals."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from fivedice.cli import app
from fivedice.core.game import GameSettings, Seat
from fivedice.service import GameService


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
    assert f"Review of game {game_id} · classic" in out
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
