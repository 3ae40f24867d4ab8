"""The loss per decision on the web: the review page's headline, and each player's skill on
the statistics page (figures, trend, a chart), in the visitor's language."""

from __future__ import annotations

import base64
import re
from html import escape

import pytest

from fivedice.core.game import GameSettings, Seat
from fivedice.core.rules import find_ruleset
from fivedice.i18n import formats
from tests.support.players import played_games

pytestmark = pytest.mark.tables  # reviews need the classic table


def charts(page: str) -> list[bytes]:
    found = re.findall(r'<img src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"', page)
    return [base64.b64decode(chart) for chart in found]


def test_the_review_page_is_headed_by_the_loss_per_decision(client, app, service):
    (game_id,) = played_games(service, GameSettings(seats=(Seat("Ann"),)))
    public_id = app.state.hub.public_id(game_id)
    html = client.get(f"/g/{public_id}/review").text
    (seat,) = service.review(game_id).seats
    per = seat.proficiency.loss_per_decision
    headline = (
        f"Loss per decision: {per:.2f} points ({seat.proficiency.decisions} decisions, "
        f"{seat.proficiency.optimal} optimal)"
    )
    assert f'<p class="headline"><strong>{escape(headline)}</strong></p>' in html
    client.cookies.set("fd_lang", "de")
    german = client.get(f"/g/{public_id}/review").text
    assert "Verlust pro Entscheidung" in german and formats.number(per, 2, "de") in german


def test_the_statistics_page_shows_each_players_skill_with_a_chart(client, service):
    played_games(service, GameSettings(seats=(Seat("Ann"),)), 2)
    played_games(service, GameSettings(seats=(Seat("Ann"),), rules=find_ruleset("triple")))
    html = client.get("/stats").text
    found = {entry.rules: entry for entry in service.skill("Ann")}
    classic, triple = found["classic"], found["triple"]
    assert "Skill: points lost per decision against optimal play" in html
    assert "Skill over 2 games" in html
    assert f"Loss per decision: {classic.overall.loss_per_decision:.2f} points" in html
    assert "Skill over 1 game (estimates: several columns)" in html
    assert f"Loss per decision: ≈{triple.overall.loss_per_decision:.2f} points" in html
    (chart,) = charts(html)  # the classic games' (one game alone draws none)
    assert b"points lost per decision" in chart and b"<script" not in chart
    assert ' style="' not in html
    client.cookies.set("fd_lang", "ja")
    japanese = client.get("/stats").text
    assert "Skill over" not in japanese and "Loss per decision" not in japanese
