"""The move log: the coach's verdicts, holds by position, language switches and the bonus."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from fivedice.core.categories import Category
from fivedice.core.game import GameSettings, Seat
from fivedice.tui.app import FivediceApp
from fivedice.tui.screens.dialogs import ConfirmScreen
from tests.tui.support import log_lines, run, wait_for

SOLO = GameSettings(seats=(Seat("Ann"),))
DUEL = GameSettings(seats=(Seat("Ann"), Seat("Bot", "beginner")))


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_the_coach_verdict_follows_the_move_it_judges() -> None:
    app = FivediceApp(DUEL, seed=5, pace=0.05, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("c", "r", "enter")  # coach on; the CPU moves at once after this
        if isinstance(app.screen, ConfirmScreen):
            await pilot.press("y")
        entries = app.play.move_log.entries
        await wait_for(pilot, lambda: any(e["kind"] == "coach" for e in entries), seconds=60)
        await wait_for(pilot, lambda: not app.service.is_cpu_turn)
        kinds = [(e["kind"], e.get("name")) for e in app.play.move_log.entries]
        score = kinds.index(("score", "Ann"))
        assert kinds[score + 1] == ("coach", None)  # before the CPU's first move
        assert kinds[score + 2] == ("roll", "Bot")
        shown = " ".join(log_lines(app))  # (long lines wrap in the log)
        assert shown.index("Ann scores ") < shown.index("Coach:") < shown.index("Bot rolls ")

    run(app, script)


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_holds_are_logged_by_position_with_their_faces() -> None:
    app = FivediceApp(SOLO, seed=5, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("r", "1", "2")
        dice = app.service.state.dice
        assert dice is not None
        assert log_lines(app)[-2:] == [
            f"Ann holds die 1 ({dice[0]})",
            f"Ann holds die 2 ({dice[1]})",
        ]
        await pilot.press("1")
        assert log_lines(app)[-1] == f"Ann releases die 1 ({dice[0]})"

    run(app, script)


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_switching_language_rewrites_the_whole_log() -> None:
    app = FivediceApp(SOLO, seed=5, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("r", "3")
        english = log_lines(app)
        assert english[0].startswith("Ann rolls ") and "holds die 3" in english[1]
        await pilot.press("l")  # Nederlands
        dutch = log_lines(app)
        assert len(dutch) == len(english)
        assert not any("roll" in line or "hold" in line for line in dutch), dutch
        assert "houdt steen 3 vast" in dutch[1]

    run(app, script)


def test_a_score_with_the_upper_bonus_says_so() -> None:
    from fivedice.core.dice import ScriptedDice
    from fivedice.core.game import apply, new_game
    from fivedice.tui.widgets.move_log import action_entry, entry_text

    dice = ScriptedDice([6, 6, 6, 6, 1, 5, 5, 5, 5, 1, 3, 3, 3, 3, 1, 4, 4, 4, 4, 1])
    state = new_game(SOLO, dice)
    for box in ("sixes", "fives", "threes"):
        state = apply(apply(state, "roll", dice), f"score {box}", dice)
    state = apply(state, "roll", dice)
    after = apply(state, "score fours", dice)
    text = entry_text(action_entry(state, "score fours", after))
    assert text == "Ann scores 16 in Fours, +35 upper bonus"  # the card shows 16 in Fours
    assert after.cards[0].columns[0].score(Category.FOURS) == 16
