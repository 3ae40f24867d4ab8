"""The loss per decision in `fivedice review` (text and JSON) and, over a player's games,
in `fivedice stats` (text with a chart, and JSON)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from fivedice.cli import app
from fivedice.core.game import GameSettings, Seat
from fivedice.core.rules import find_ruleset
from fivedice.service.games import GameService
from tests.support.players import played_games

pytestmark = pytest.mark.tables  # reviews need the classic table


@pytest.fixture(scope="module")
def database(tmp_path_factory):
    url = f"sqlite:///{tmp_path_factory.mktemp('skill') / 'games.sqlite3'}"
    service = GameService.open(url)
    ids = played_games(service, GameSettings(seats=(Seat("Ann"), Seat("Cy", "expert"))), 3)
    skill = service.skill("Ann")
    review = service.review(ids[-1])
    service.store.close()
    return url, ids, skill, review


def invoke(*args):
    return CliRunner().invoke(app, [*map(str, args)])


def test_the_review_is_headed_by_the_loss_per_decision(database):
    url, ids, _, review = database
    result = invoke("review", ids[-1], "--db", url, "--no-chart")
    assert result.exit_code == 0, result.output
    ann, cpu = review.seats
    per = ann.proficiency.loss_per_decision
    headline = (
        f"Loss per decision: {per:.2f} points ({len(ann.decisions)} decisions, "
        f"{ann.proficiency.optimal} optimal)"
    )
    lines = result.output.splitlines()
    assert lines[lines.index("== Ann ==") + 1] == headline
    assert "Longest run of optimal decisions:" in result.output
    assert f"Loss per decision: 0.00 points ({len(cpu.decisions)} decisions" in result.output
    data = json.loads(invoke("review", ids[-1], "--db", url, "--json").output)
    assert data["seats"][0]["proficiency"]["loss_per_decision"] == pytest.approx(per)


def test_stats_show_each_players_skill_over_their_games(database):
    url, _, (skill,), _ = database
    result = invoke("stats", "Ann", "--db", url)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Skill over 3 games" in out
    assert f"Loss per decision: {skill.overall.loss_per_decision:.2f} points" in out
    assert skill.trend is not None
    assert f"Trend: {skill.trend.recent:.2f} per decision in the last game" in out
    assert "longest run of optimal decisions" in out
    assert "games played" in out  # the chart's axis
    assert "Early game: the first half" in out
    data = json.loads(invoke("stats", "Ann", "--db", url, "--json").output)
    (entry,) = data
    (skill_json,) = entry["skill"]
    assert skill_json["exact"] is True and len(skill_json["games"]) == 3
    assert skill_json["overall"]["decisions"] == skill.overall.decisions
    assert skill_json["overall"]["loss_per_decision"] == pytest.approx(
        skill.overall.loss_per_decision
    )
    assert set(skill_json["overall"]) >= {"keeps", "boxes", "early", "late", "longest_optimal_run"}


def test_an_estimated_review_says_so_in_its_headline(tmp_path):
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    service = GameService.open(url)
    settings = GameSettings(seats=(Seat("Bo"),), rules=find_ruleset("triple"))
    (game_id,) = played_games(service, settings)
    service.store.close()
    out = invoke("review", game_id, "--db", url, "--no-chart").output
    assert "Loss per decision: ≈" in out and "an estimate (several columns" in out
    stats = invoke("stats", "Bo", "--db", url).output
    assert "(estimates: several columns)" in stats
