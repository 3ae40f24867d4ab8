"""Yatzy and Maxi Yatzy played to the end in the terminal app (Textual's pilot, 80×24): the
card lists the rule set's boxes (translated), six dice fit, the coach refuses cleanly."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from fivedice.core.game import GameSettings, Seat
from fivedice.core.rules import find_ruleset
from fivedice.i18n import set_language
from fivedice.tui.app import FivediceApp
from fivedice.tui.screens.dialogs import ConfirmScreen, EndScreen
from fivedice.tui.screens.game import GameScreen
from fivedice.tui.widgets.board import Die, ScoreTable, die_face
from fivedice.wording.text import box_name
from tests.support.players import human_move
from tests.tui.support import SIZE, open_service, run, screen_text


async def wait_for(pilot: Pilot[None], condition, seconds: float = 20) -> None:
    for _ in range(int(seconds / 0.05)):
        if condition():
            return
        await pilot.pause(0.05)
    raise AssertionError("timed out waiting for the app")


async def press_until(pilot: Pilot[None], key: str, condition, tries: int = 10) -> None:
    """Presses `key` until `condition` holds (a key that comes while the app is still busy
    with the last action is dropped by the screen, so it is pressed again)."""
    for _ in range(tries):
        await pilot.press(key)
        for _ in range(40):
            if condition():
                return
            await pilot.pause(0.05)
    raise AssertionError(f"pressing {key!r} did not do it")


ROUNDS_IN_THE_APP = 1
"""The rounds each game ends with in the app: one, a turn of each seat through the keys to the
end screen. The keys of a turn are the same every turn, and a whole game through the keys is
played by tests/tui/test_app.py: the middle of these games goes through the service, so a
preset's long card costs the suite seconds, not a minute."""


@pytest.mark.slow
@pytest.mark.parametrize(
    "preset",
    ["yatzy", "maxi-yatzy", "yacht", "yacht-dice", "generala", "kismet", "yatzy+wild"],
)
def test_two_people_play_a_preset_to_the_end(preset: str) -> None:
    """The game starts in the app (the preset's boxes, translated; six dice that fit; the
    wild die drawn apart; the coach), goes on through the service, and its last rounds are
    played in the app again, through the keys, to the end screen."""
    name, _, wild = preset.partition("+")
    rules = find_ruleset(name, {"wild_die": "on"} if wild else None)
    settings = GameSettings(seats=(Seat("Ann"), Seat("Bob")), rules=rules)
    app = FivediceApp(settings, seed=11, pace=0.05, start_now=True)
    set_language("nl")

    async def start(pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, GameScreen)
        table = app.screen.query_one(ScoreTable)
        named = [label for label, box in table._row_labels(app.service.state) if box]
        assert len(named) == len(rules.boxes)
        await pilot.press("r")
        await pilot.pause()
        dice = [die for die in app.screen.query(Die) if die.display]
        assert len(dice) == rules.dice
        for die in dice:  # every die is inside the 80-column screen
            assert die.region.right <= SIZE[0] and die.region.width > 0
        # The wild die, the last, in its own colour (class) and starred title; no other.
        assert [die.has_class("wild") for die in dice] == [False] * (rules.dice - 1) + [
            rules.wild_die
        ]
        assert dice[-1].border_title == str(rules.dice)
        assert (dice[-1].border_subtitle == "★") is rules.wild_die
        text = screen_text(app)
        lower = box_name(rules.boxes[6])  # the first lower box, in Dutch ("Eén paar")
        assert lower in text or lower in " ".join(named)
        if rules.saved_rolls:
            # Maxi Yatzy has no exact solve (saved rolls): the coach advises with the expert
            # CPU's estimates (≈). Yatzy's exact coach: tests/strategy, tests/web.
            await pilot.press("h")
            hint = app.screen.query_one("#hint")
            await wait_for(pilot, lambda: "≈" in str(hint.render()), seconds=60)
            await pilot.press("c")
            assert app.play.coach_mode
            await pilot.press("c")

    run(app, start)
    game_id = app.service.view.game_id
    service = open_service()
    view = service.load(game_id)
    assert view.state.dice is not None  # the roll made in the app was saved
    while sum(len(rules.boxes) - card.boxes_filled for card in view.state.cards) > (
        2 * ROUNDS_IN_THE_APP
    ):
        view = service.apply_action(game_id, human_move(view.state), view.version)
    service.store.close()
    again = FivediceApp(resume=game_id, pace=0.05)

    async def finish(pilot: Pilot[None]) -> None:
        assert isinstance(again.screen, GameScreen)
        assert again.service.state == view.state
        turns = 0
        # The end screen comes a moment after the last score: the game's state says when
        # to stop pressing keys, then the screen is awaited.
        while not again.service.state.is_game_over:
            before = again.service.state.cards
            if again.service.state.dice is None:
                await press_until(pilot, "r", lambda: again.service.state.dice is not None)
            if rules.dice == 6 and again.service.state.rolls_left > 0:
                # Die 6 has a key.
                await press_until(pilot, "6", lambda: again.service.state.turn.held[5])
                rolls = again.service.state.turn.rolls_used
                await press_until(
                    pilot,
                    "space",
                    lambda rolls=rolls: again.service.state.turn.rolls_used > rolls,
                )

            def scored(before=before) -> bool:
                return isinstance(again.screen, EndScreen) or again.service.state.cards != before

            await press_until(
                pilot, "enter", lambda: isinstance(again.screen, ConfirmScreen) or scored()
            )
            if isinstance(again.screen, ConfirmScreen):
                await press_until(pilot, "y", scored)
            turns += 1
        assert turns == 2 * ROUNDS_IN_THE_APP
        await wait_for(pilot, lambda: isinstance(again.screen, EndScreen))
        final = again.service.state
        assert final.is_game_over
        assert [card.boxes_filled for card in final.cards] == [len(rules.boxes)] * 2

    run(again, finish)


def test_the_wild_die_shows_a_star_for_its_one() -> None:
    assert "★" in die_face(1, wild=True) and "●" not in die_face(1, wild=True)
    assert die_face(1) != die_face(1, wild=True) and die_face(4, wild=True) == die_face(4)
    assert "★" in die_face(1, 5, wild=True)
