"""The score keeper's terminal screen, driven headless through its keys (Pilot)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList

from fivedice.core.categories import Category
from fivedice.core.rules import CLASSIC
from fivedice.service.games import GameService
from fivedice.service.settings import build_table_settings
from fivedice.store import Store
from fivedice.tui.app import FivediceApp
from fivedice.tui.screens.table import PointsScreen, TableScreen
from fivedice.tui.session import TableGame
from tests.tui.support import SIZE, assert_whole_words, run, screen_text, wait_for, wrapped_lines


def make_app(tmp_path: Path) -> tuple[FivediceApp, GameService]:
    service = GameService(Store(f"sqlite:///{tmp_path / 'table.sqlite3'}"))
    view = service.create_game(build_table_settings(CLASSIC, ["Ann", "Bob"]))
    return FivediceApp(table=TableGame(service, view)), service


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_typing_dice_picking_a_box_points_and_undo(tmp_path):
    app, service = make_app(tmp_path)

    async def script(pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, TableScreen)
        await pilot.press("3", "3", "3", "5")
        await pilot.pause()
        assert app.table.view.version == 0  # four dice: nothing sent yet
        assert "3 3 3 5 _" in screen_text(app)
        await pilot.press("backspace", "5", "5")
        await pilot.pause()
        assert app.table.view.state.dice == (3, 3, 3, 5, 5)
        boxes = app.screen.query_one("#boxes", OptionList)
        ids = [boxes.get_option_at_index(i).id for i in range(boxes.option_count)]
        assert len(ids) == 13 and "full_house" in ids
        assert "Full house         25" in screen_text(app)
        for _ in range(ids.index("full_house") - (boxes.highlighted or 0)):
            await pilot.press("down")
        await pilot.press("enter")
        await pilot.pause()
        state = app.table.view.state
        assert state.cards[0].columns[0].score(Category.FULL_HOUSE) == 25
        assert state.current_seat == 1 and "Bob's turn 1 of 13" in screen_text(app)
        # Points without dice: an impossible entry is refused and changes nothing.
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, PointsScreen)
        await pilot.press(*"full_house 30", "enter")
        await pilot.pause()
        assert app.table.view.version == 2
        assert "no roll scores 30 in Full house" in app.screen.message
        assert "no roll scores 30 in" in screen_text(app)
        before = app.table.view.state
        await pilot.press("p")
        await pilot.pause()
        await pilot.press(*"chance 22", "enter")
        await pilot.pause()
        assert app.table.view.state.totals == (25, 22)
        await pilot.press("u")
        await pilot.pause()
        assert app.table.view.state == before
        assert app.screen.message == "Taken back: Bob's 22 in Chance"
        assert "Taken back: Bob's 22 in Chance" in screen_text(app)

    run(app, script)
    assert [e.action for e in service.record(app.table.view.game_id).actions] == [
        "dice 3 3 3 5 5",
        "score full_house",
        "score chance 22",
        "undo",
    ]


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_the_coach_ranks_the_typed_dice_with_rolls_left(tmp_path, monkeypatch):
    seen = []

    def advise(table, column, dice, rolls_left):
        from fivedice.strategy.advisor import Option

        seen.append((tuple(dice), rolls_left))
        return [Option((6, 6, 6), None, 240.0), Option((1, 1, 6, 6, 6), None, 232.5, 7.5)]

    monkeypatch.setattr("fivedice.strategy.turn_cache.advise", advise)
    monkeypatch.setattr("fivedice.strategy.cache.load_or_solve", lambda rules: None)
    # No breakdown of the fake table: the coach's options come without reasons.
    monkeypatch.setattr("fivedice.strategy.breakdown.breakdown_for", lambda table, wait: None)
    app, _service = make_app(tmp_path)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("1", "1", "6", "6", "6", "r", "r", "h")
        for _ in range(100):
            await pilot.pause(0.05)
            if seen and "keep 6 6 6" in screen_text(app):
                break
        assert seen == [((1, 1, 6, 6, 6), 2)]
        assert "Rolls left for the coach: 2" in screen_text(app)
        assert "keep 1 1 6 6 6: 232.5 (−7.5)" in screen_text(app)

    run(app, script)


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_every_box_is_in_sight_and_the_best_one_is_highlighted(tmp_path):
    """At 80×24 a Yahtzee's 50 and the chance are on screen, and Enter does not put
    6-6-6-6-6 in the Ones for 0 (the first box in the list)."""
    app, _service = make_app(tmp_path)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("6", "6", "6", "6", "6")
        await pilot.pause()
        text = screen_text(app)
        assert re.search(r"Yahtzee +50", text) and re.search(r"Chance +30", text)
        await pilot.press("enter")
        await pilot.pause()
        column = app.table.view.state.cards[0].columns[0]
        assert column.score(Category.YAHTZEE) == 50 and column.score(Category.ONES) is None

    run(app, script)


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_points_for_a_box_named_in_the_players_language(tmp_path):
    """The points dialog takes the box as the card names it (German here), as the plain
    mode does."""
    from fivedice.i18n import set_language

    set_language("de")
    try:
        app, _service = make_app(tmp_path)

        async def script(pilot: Pilot[None]) -> None:
            await pilot.press("p")
            await pilot.pause()
            await pilot.press(*"Full House 25", "enter")
            await pilot.pause()
            column = app.table.view.state.cards[0].columns[0]
            assert column.score(Category.FULL_HOUSE) == 25, app.screen.message

        run(app, script)
    finally:
        set_language("en")


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_at_60_by_20_the_card_shows_every_players_scores(tmp_path):
    """A narrow window keeps the card readable (names and numbers) next to the boxes."""
    from textual.widgets import DataTable

    service = GameService(Store(f"sqlite:///{tmp_path / 'table.sqlite3'}"))
    view = service.create_game(build_table_settings(CLASSIC, ["Ann", "Bob", "Cy"]))
    app = FivediceApp(table=TableGame(service, view))

    async def script(pilot: Pilot[None]) -> None:
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        await pilot.press("6", "6", "6", "6", "6")
        await pilot.pause()
        await pilot.pause()
        card = app.screen.query_one("#card", DataTable)
        assert card.scrollable_content_region.width >= card.virtual_size.width
        boxes = app.screen.query_one("#boxes", OptionList)
        assert boxes.scrollable_content_region.width >= 20
        text = screen_text(app)
        assert re.search(r"Yahtzee +50", text)
        assert "q Quit" in text  # the footer keeps its last key in sight

    run(app, script)


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_a_failed_save_says_not_saved_and_keeps_the_dice(tmp_path, monkeypatch):
    """A locked database is not a refused entry: the screen says the entry was not saved
    and how to try again, and nothing changes."""
    from fivedice.core.errors import N_
    from fivedice.store import StoreUnavailableError

    app, service = make_app(tmp_path)

    def locked(*_args: object, **_kwargs: object) -> None:
        raise StoreUnavailableError(
            N_("could not save the action ({path}): {reason}"),
            path="x.sqlite3",
            reason="database is locked",
        )

    async def script(pilot: Pilot[None]) -> None:
        monkeypatch.setattr(service, "apply_action", locked)
        await pilot.press("6", "6", "6", "6", "6")
        await pilot.pause()
        message = app.screen.message
        assert message.startswith("Not saved:") and "Not allowed" not in message
        assert "database is locked" in message
        assert app.table.view.version == 0
        assert "Type it again to retry" in message
        monkeypatch.undo()
        await pilot.press("6", "6", "6", "6", "6")  # typed again once the lock is gone
        await pilot.pause()
        assert app.table.view.state.dice == (6, 6, 6, 6, 6) and app.screen.message == ""

    run(app, script)


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_the_footer_offers_only_quit_and_help_once_the_game_is_over(tmp_path):
    service = GameService(Store(f"sqlite:///{tmp_path / 'table.sqlite3'}"))
    view = service.create_game(build_table_settings(CLASSIC, ["Ann"]))
    boxes = [c.key for c in Category if c is not Category.CHANCE]
    for box in boxes:
        view = service.apply_action(view.game_id, f"score {box} 0", view.version)
    app = FivediceApp(table=TableGame(service, view))

    async def script(pilot: Pilot[None]) -> None:
        await wait_for(pilot, lambda: "p Points" in screen_text(app))  # (the footer, drawn)
        await pilot.press("p")
        await pilot.pause()
        await pilot.press(*"chance 20", "enter")
        await pilot.pause()
        await pilot.pause()
        assert app.table.view.state.is_match_over
        footer = screen_text(app)
        assert "q Quit" in footer
        assert "p Points" not in footer and "u Undo" not in footer and "h Hint" not in footer

    run(app, script)


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_with_six_long_names_the_entry_and_boxes_stay_in_sight(tmp_path):
    names = ["Alexandrina", "Bartholomew", "Christopher", "Dominique", "Evangeline", "Ferdinand"]
    service = GameService(Store(f"sqlite:///{tmp_path / 'table.sqlite3'}"))
    view = service.create_game(build_table_settings(CLASSIC, names))
    app = FivediceApp(table=TableGame(service, view))

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("3", "3", "3", "5", "5")
        await pilot.pause()
        await pilot.pause()
        side = app.screen.query_one("#side")
        assert side.region.right <= SIZE[0] and side.region.width >= 28
        assert re.search(r"Full house +25", screen_text(app))

    run(app, script)


def _pick(app: FivediceApp, key: str) -> list[str]:
    """The keys to press to move the highlight of the boxes to `key`."""
    boxes = app.screen.query_one("#boxes", OptionList)
    ids = [boxes.get_option_at_index(i).id for i in range(boxes.option_count)]
    steps = ids.index(key) - (boxes.highlighted or 0)
    return ["down"] * steps if steps >= 0 else ["up"] * -steps


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_a_box_the_dice_give_0_is_asked_about_first(tmp_path):
    from fivedice.tui.screens.dialogs import ConfirmScreen

    app, service = make_app(tmp_path)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press(*"12346")
        await pilot.pause()
        await pilot.press(*_pick(app, "yahtzee"), "enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "Score 0 in Yahtzee? The box is then used up." in screen_text(app)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and app.table.view.version == 1
        await pilot.press(*_pick(app, "yahtzee"), "enter")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        await pilot.pause()
        assert app.table.view.state.cards[0].columns[0].score(Category.YAHTZEE) == 0
        assert app.screen.message == "Ann: 0 in Yahtzee (total 0)"
        text = screen_text(app)
        assert "Ann: 0 in Yahtzee (total 0)" in text
        assert re.search(r"Yahtzee +0 +·", text)  # the card still names its boxes

    run(app, script)
    assert [e.action for e in service.record(1).actions] == ["dice 1 2 3 4 6", "score yahtzee"]


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_a_line_says_what_was_scored_and_the_heading_asks_for_a_box(tmp_path):
    app, _service = make_app(tmp_path)

    async def script(pilot: Pilot[None]) -> None:
        assert "Ann, type the dice you rolled:" in screen_text(app)
        await pilot.press(*"33355")
        await pilot.pause()
        text = screen_text(app)
        assert "Ann, pick a box" in text and "type the dice" not in text
        await pilot.press(*_pick(app, "full_house"), "enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Ann: 25 in Full house (total 25)" in text
        assert "Bob, type the dice you rolled:" in text

    run(app, script)


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_the_coachs_rolls_left_start_at_0_for_each_player(tmp_path):
    app, _service = make_app(tmp_path)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("r", "r")
        await pilot.pause()
        assert app.screen.rolls_left == 2
        assert "Rolls left for the coach: 2" in screen_text(app)
        await pilot.press("p")
        await pilot.pause()
        await pilot.press(*"chance 22", "enter")
        await pilot.pause()
        assert app.table.view.state.current_seat == 1  # Bob's turn: Ann's 2 is not his
        assert app.screen.rolls_left == 0
        assert "Rolls left for the coach: 0" in screen_text(app)
        await pilot.press("r")
        await pilot.pause()
        await pilot.press("u")  # back to Ann's turn: hers start at 0 again too
        await pilot.pause()
        assert app.table.view.state.current_seat == 0 and app.screen.rolls_left == 0

    run(app, script)


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_undo_says_what_it_took_back(tmp_path):
    app, _service = make_app(tmp_path)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press(*"66666")
        await pilot.pause()
        await pilot.press("u")
        await pilot.pause()
        assert app.screen.message == "Taken back: Ann's dice 6 6 6 6 6"
        assert "Taken back: Ann's dice 6 6 6 6 6" in screen_text(app)

    run(app, script)


def test_the_points_prompt_is_shown_whole_at_80_by_24(tmp_path):
    app, _service = make_app(tmp_path)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, PointsScreen)
        from textual.widgets import Label

        dialog = app.screen.query_one("#dialog")
        prompt = app.screen.query_one(Label)
        assert "e.g. full_house 25" in str(prompt.render())
        assert prompt.region.right <= dialog.content_region.right  # wrapped, not cut
        assert prompt.region.height == 2

    run(app, script)


@pytest.mark.slow  # (the classic table and a flow through the app)
@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
def test_the_coach_and_the_help_fit_the_window_and_the_help_closes(tmp_path, classic_table, size):
    app, _service = make_app(tmp_path)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("3", "3", "3", "5", "4", "h")
        coach = app.screen.query_one("#coach")
        await wait_for(pilot, lambda: "Why: " in str(coach.render()), seconds=60)
        await pilot.pause()
        drawn, _figures = wrapped_lines(coach)
        said = str(coach.render()).splitlines()
        assert_whole_words(drawn, *said)
        assert said[0].startswith("1. score Threes")
        await pilot.press("question_mark")
        await pilot.pause()
        drawn, _figures = wrapped_lines(coach)
        said = str(coach.render()).splitlines()
        assert said[-1] == "? or Esc: close this help"
        assert_whole_words(drawn, *said)
        await pilot.press("question_mark")  # ? again closes it
        await pilot.pause()
        assert not coach.display
        await pilot.press("question_mark", "escape")  # and so does Escape
        await pilot.pause()
        assert not coach.display
        assert app.table.view.state.dice == (3, 3, 3, 4, 5)  # (nothing else changed)

    run(app, script, size)
