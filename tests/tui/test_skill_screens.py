"""The loss per decision in the terminal app: the review screen's headline, and each
player's skill (figures and a chart) on the statistics screen."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.pilot import Pilot

from fivedice.core.game import GameSettings, Seat
from fivedice.i18n import set_language
from fivedice.service.games import GameService
from fivedice.tui.app import FivediceApp
from fivedice.tui.screens.records import SkillScreen, StatsScreen
from fivedice.tui.screens.review import ReviewApp
from tests.support.players import played_games
from tests.tui.support import SIZE, run, screen_text, use_database, wait_for

pytestmark = pytest.mark.tables  # reviews need the classic table


@pytest.fixture
def url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    use_database(monkeypatch, url)
    yield url
    set_language("en")


def test_the_review_screen_is_headed_by_the_loss_per_decision(url) -> None:
    service = GameService.open(url)
    (game_id,) = played_games(service, GameSettings(seats=(Seat("Ann"),)))
    (seat,) = service.review(game_id).seats
    service.store.close()
    per = seat.proficiency.loss_per_decision
    app = ReviewApp(game_id)

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: "Loss per decision" in screen_text(app), seconds=60)
            text = " ".join(screen_text(app).split())
            assert f"Loss per decision: {per:.2f} points ({seat.proficiency.decisions}" in text

    asyncio.run(main())


def test_the_skill_screen_shows_each_players_skill_with_a_chart(url) -> None:
    service = GameService.open(url)
    played_games(service, GameSettings(seats=(Seat("Ann"),)), 2)
    played_games(service, GameSettings(seats=(Seat("Bea"),)))
    ann, bea = service.skill()
    service.store.close()
    app = FivediceApp()

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("s")
        assert isinstance(app.screen, StatsScreen)
        await pilot.press("k")  # from the statistics to the skill page
        assert isinstance(app.screen, SkillScreen)
        text = " ".join(screen_text(app).split())
        assert "Skill: every player" in text and "Ann · Classic" in text
        assert "Skill over 2 games" in text
        assert f"Loss per decision: {ann.overall.loss_per_decision:.2f} points" in text
        assert "games played" in text  # the chart's x axis
        await pilot.press("p")  # Ann alone
        await pilot.press("p")  # Bea alone
        text = " ".join(screen_text(app).split())
        assert "Skill: Bea" in text and "Ann ·" not in text
        assert f"Loss per decision: {bea.overall.loss_per_decision:.2f} points" in text
        assert "Trend: after two games." in text  # one game: no trend, and no chart
        assert "games played" not in text

    run(app, script, (80, 40))
