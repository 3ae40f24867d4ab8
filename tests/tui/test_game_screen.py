"""The game screen: the card and its cursor, the bonus row, the hint panel, switches in words,
practice, undo, the end screen, and the session kept for a resumed game.

Each test drives the app headless through its keys (Textual's `run_test` and `Pilot`).
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from fivedice.core.categories import Category
from fivedice.core.game import GameSettings, Seat
from fivedice.i18n import _, set_language
from fivedice.tui.app import FivediceApp
from fivedice.tui.screens.dialogs import ConfirmScreen
from fivedice.tui.screens.game import GameScreen, advice_text
from fivedice.tui.widgets.board import ScoreTable
from fivedice.tui.widgets.wrapped import ELLIPSIS
from fivedice.wording.reasons import chance_text, difference_lines, why_short
from tests.tui.support import (
    assert_whole_words,
    finish_game,
    game_screen,
    lines,
    log_lines,
    move_to,
    open_service,
    record_notes,
    run,
    screen_text,
    wait_for,
    wrapped_lines,
)

SOLO = GameSettings(seats=(Seat("Ann"),))
DUEL = GameSettings(seats=(Seat("Ann"), Seat("Bot", "beginner")))


# The card keeps its box names after a confirmed 0 -----------------------------------------------


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_box_names_stay_after_confirming_a_zero(size: tuple[int, int]) -> None:
    app = FivediceApp(SOLO, seed=3, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("r")
        state = app.service.state
        zero = next(p for p in state.placements() if p.points == 0)
        await move_to(pilot, app, zero.category.key)
        await pilot.press("enter")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen))
        await pilot.pause()
        text = screen_text(app)
        assert "Ones" in text and "Three of a kind" in text and "Chance" in text

    run(app, script, size)


# The bonus row once the bonus is out of reach ---------------------------------------------------


def test_the_upper_bonus_row_says_0_once_out_of_reach() -> None:
    service = open_service()
    view = service.create_game(SOLO, seed=1)
    for box in ("ones", "twos", "threes", "fours", "fives", "sixes"):
        view = service.apply_action(view.game_id, "roll", view.version)
        view = service.apply_action(view.game_id, f"score {box}", view.version)
    column = view.state.cards[0].columns[0]
    assert column.upper_total < 63  # (seed 1: no luck)
    app = FivediceApp(resume=view.game_id)

    async def script(pilot: Pilot[None]) -> None:
        row = next(line for line in lines(app) if "Upper bonus" in line)
        assert "↑" not in row and row.split()[-1] == "0"

    run(app, script)


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_the_upper_bonus_row_counts_down_while_reachable() -> None:
    app = FivediceApp(SOLO, seed=1, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        row = next(line for line in lines(app) if "Upper bonus" in line)
        assert row.split()[-1] == "63↑"

    run(app, script)


# Resume restores the session --------------------------------------------------------------------


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_resume_restores_pace_coach_language_and_log() -> None:
    app = FivediceApp(DUEL, seed=5, pace=0.7, start_now=True)
    kept: dict[str, object] = {}

    async def first(pilot: Pilot[None]) -> None:
        await pilot.press("minus", "minus", "c", "l", "r", "2")  # slower, coach, Dutch
        kept["log"] = log_lines(app)
        kept["pace"] = app.play.pace_index
        await pilot.press("q")

    run(app, first)
    set_language("en")  # a new process starts in its own language
    again = FivediceApp(resume=True)
    assert again.play.pace_index != kept["pace"]

    async def second(pilot: Pilot[None]) -> None:
        assert isinstance(again.screen, GameScreen)
        assert again.play.pace_index == kept["pace"]
        assert again.play.coach_mode
        assert "Beurt: Ann" in screen_text(again) and "coach aan" in screen_text(again)
        assert log_lines(again) == kept["log"]

    run(again, second)


# Practice ---------------------------------------------------------------------------------------


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_practice_is_chosen_shown_resumable_and_n_asks() -> None:
    from textual.widgets import Switch

    from fivedice.tui.screens.setup import SetupScreen

    app = FivediceApp()

    async def first(pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, SetupScreen)
        assert "Practice game" in screen_text(app)
        app.screen.query_one("#practice", Switch).value = True
        await pilot.pause()
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen))
        assert app.service.practice
        assert "practice" in lines(app)[0]
        await pilot.press("r", "n")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")  # no: the game goes on
        assert isinstance(app.screen, GameScreen)
        await pilot.press("n", "y")
        assert isinstance(app.screen, SetupScreen)
        assert "practice" in screen_text(app) and "Resume: #1" in screen_text(app)
        await pilot.click("#resume-0")
        assert isinstance(app.screen, GameScreen) and app.service.practice

    run(app, first)


# The hint panel, the cursor, Escape on the end screen, switches in words ------------------------


def hint_lines(app: FivediceApp) -> tuple[list[str], list[str]]:
    """The game's coach panel as drawn (see `wrapped_lines`)."""
    return wrapped_lines(game_screen(app).query_one("#hint"))


@pytest.mark.slow  # (a whole flow through the app, and the classic table)
@pytest.mark.parametrize("size", [(80, 24), (120, 40), (60, 20)])
@pytest.mark.parametrize("language", ["en", "de"])
def test_coach_lines_wrap_by_whole_words_at_every_size(
    classic_table, size: tuple[int, int], language: str
) -> None:
    set_language(language)
    app = FivediceApp(SOLO, seed=5, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("r", "h")
        screen = game_screen(app)
        await wait_for(pilot, lambda: screen._advice is not None, seconds=60)
        await pilot.pause()
        state, options = screen.state, screen._options
        why = why_short(state.rules, options)
        assert why is not None
        texts = [advice_text(option, state) for option in options[:4]]
        drawn, figures = hint_lines(app)
        assert_whole_words(drawn, *texts, why, *drawn[:1], *(f for f in figures if f.strip()))
        assert not any(line.endswith(ELLIPSIS) for line in drawn[:-1])
        if size[0] >= 120:  # a wide window has the room: the reasons are said in full
            assert ELLIPSIS not in " ".join(drawn)
        await pilot.press("y")
        await pilot.pause()
        best, other = options[:2]
        reasons = difference_lines(state.rules, best, other)
        chances = chance_text(state.rules, best)
        assert chances is not None
        drawn, figures = hint_lines(app)
        title = _("{better} rather than {other}:").format(
            better=advice_text(best, state), other=advice_text(other, state)
        )
        assert_whole_words(drawn, title, *reasons, chances, *(f for f in figures if f.strip()))
        assert ELLIPSIS not in " ".join(drawn)

    run(app, script, size)


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_the_cursor_skips_rows_that_cannot_be_scored() -> None:
    app = FivediceApp(SOLO, seed=5, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("r")
        await move_to(pilot, app, "sixes")
        table = game_screen(app).query_one(ScoreTable)
        table.focus()
        await pilot.press("down")
        target = table.target_at(*table.cursor_coordinate)
        assert target is not None and target.category is Category.THREE_OF_A_KIND
        assert "Three of a kind:" in str(game_screen(app).query_one("#preview").render())
        await pilot.press("up")
        target = table.target_at(*table.cursor_coordinate)
        assert target is not None and target.category is Category.SIXES
        await pilot.press("left")  # the names are not a box: stay
        assert table.target_at(*table.cursor_coordinate) == target

    run(app, script)


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_escape_on_the_end_screen_asks_before_quitting() -> None:
    from fivedice.tui.screens.dialogs import EndScreen

    game_id = finish_game(SOLO, 3, rounds=12)
    app = FivediceApp(resume=game_id)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("r", "enter")
        if isinstance(app.screen, ConfirmScreen):
            await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, EndScreen))
        await pilot.press("escape")
        assert isinstance(app.screen, ConfirmScreen)
        assert "Quit fivedice?" in screen_text(app)
        await pilot.press("n")
        assert isinstance(app.screen, EndScreen) and app.is_running

    run(app, script)


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_switches_say_on_or_off_in_words() -> None:
    from textual.widgets import Label, Switch

    app = FivediceApp()

    async def script(pilot: Pilot[None]) -> None:
        screen = app.screen
        state = screen.query_one("#practice-state", Label)
        assert str(state.render()) == "off"
        screen.query_one("#practice", Switch).value = True
        await pilot.pause()
        assert str(state.render()) == "on"
        joker = screen.query_one("#opt-five_of_a_kind_is_full_house-state", Label)
        assert str(joker.render()) in ("on", "off")

    run(app, script)


# Undo -------------------------------------------------------------------------------------------


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_undo_takes_back_the_last_action_and_says_why_not_otherwise() -> None:
    app = FivediceApp(SOLO, seed=5, start_now=True)
    notes = record_notes(app)

    async def script(pilot: Pilot[None]) -> None:
        # (the footer is drawn a moment after the screen: wait for it on a loaded machine)
        await wait_for(pilot, lambda: "z Undo" in screen_text(app))
        await pilot.press("r")
        rolled = app.service.state
        await pilot.press("z")  # a roll cannot be taken back
        await pilot.pause()
        assert app.service.state == rolled
        assert "roll cannot be taken back" in notes[-1]
        await pilot.press("2")
        assert app.service.state.turn.held[1]
        await pilot.press("z")
        assert app.service.state == rolled  # the hold is taken back
        assert "Ann took back: Ann holds die 2" in log_lines(app)[-1]
        assert "Ann holds die 2" in log_lines(app)[-2]  # the log keeps what happened
        await pilot.press("enter")  # score the best box ...
        if isinstance(app.screen, ConfirmScreen):
            await pilot.press("y")
        scored = app.service.state
        assert scored.turn_number == 2
        await pilot.press("z")  # ... and take it back: the first turn again, same dice
        assert app.service.state == rolled
        saved = open_service().load(app.service.game_id)
        assert saved.state == app.service.state
        assert saved.version == 5  # roll, hold, undo, score, undo: all in the log

    run(app, script)


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_undo_is_refused_in_a_game_against_others() -> None:
    app = FivediceApp(DUEL, seed=None, start_now=True)  # seeded games are practice: undo
    notes = record_notes(app)

    async def script(pilot: Pilot[None]) -> None:
        assert "z Undo" not in screen_text(app)  # not offered ...
        await pilot.press("r", "1", "z")
        await pilot.pause()
        assert app.service.state.turn.held[0]  # ... and refused, saying why
        assert "solo and practice" in notes[-1]

    run(app, script)


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_an_undone_decision_leaves_the_coach_total() -> None:
    app = FivediceApp(SOLO, seed=5, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("c", "r")
        await move_to(pilot, app, "ones")  # rarely the best box: it costs something
        await pilot.press("enter")
        if isinstance(app.screen, ConfirmScreen):
            await pilot.press("y")
        entries = app.play.move_log.entries
        await wait_for(pilot, lambda: any(e["kind"] == "coach" for e in entries), seconds=60)
        assert app.play.coach_decisions == 1
        await pilot.press("z")
        assert app.service.state.turn_number == 1
        assert app.play.coach_decisions == 0 and app.play.coach_loss == 0.0
        assert any(e["kind"] == "coach" for e in app.play.move_log.entries)  # still logged

    run(app, script)


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_the_zero_question_names_the_column_in_a_several_column_game() -> None:
    """With three columns, "Scratch Yahtzee" alone does not say which of the three boxes."""
    from fivedice.core.rules import find_ruleset
    from fivedice.wording.text import box_name

    app = FivediceApp(GameSettings(seats=(Seat("Ann"),), rules=find_ruleset("triple")), seed=4,
                      start_now=True)  # fmt: skip

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("r")
        state = app.service.state
        zero = next(p for p in state.placements() if p.points == 0 and p.column == 1)
        table = game_screen(app).query_one(ScoreTable)
        cell = table.cell_of(0, 1, zero.category)
        assert cell is not None
        table.move_cursor(row=cell[0], column=cell[1])
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert f"{box_name(zero.category)} (2)" in app.screen.question

    run(app, script)


@pytest.mark.slow  # (a whole flow through the app, and the breakdown of the classic rules)
def test_the_hint_says_why_in_one_line_and_y_gives_the_reasons_box_by_box(classic_table) -> None:
    app = FivediceApp(SOLO, seed=5, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("r", "h")
        hint = game_screen(app).query_one("#hint")
        await wait_for(pilot, lambda: "Why: " in str(hint.render()), seconds=60)
        await pilot.pause()
        shown = str(hint.render()).splitlines()
        assert shown[0] == "Coach: expected points from here" and shown[-1].startswith("Why: ")
        await pilot.press("y")
        await pilot.pause()
        reasons = str(hint.render()).splitlines()
        assert " rather than " in reasons[0]
        signs = [line.split()[0][0] for line in reasons[1:] if line[:1] == " "]
        assert signs and signs[0] == "+"  # the best gains somewhere first
        assert all(sign in "+\u2212" for sign in signs)

    run(app, script)


@pytest.mark.slow  # (a whole flow through the app, and the breakdown of the classic rules)
def test_the_hint_of_several_columns_says_why_by_column_as_an_estimate(classic_table) -> None:
    from fivedice.core.rules import find_ruleset

    triple = GameSettings(seats=(Seat("Ann"),), rules=find_ruleset("triple"))
    app = FivediceApp(triple, seed=5, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("r", "h")
        hint = game_screen(app).query_one("#hint")
        await wait_for(pilot, lambda: "Why (estimated): " in str(hint.render()), seconds=60)
        await pilot.pause()
        shown = str(hint.render()).splitlines()
        assert shown[0] == "Coach: estimated points from here (not exact)"
        assert "(column " in shown[-1]
        assert "no exact breakdown" not in str(hint.render())
        await pilot.press("y")
        await pilot.pause()
        reasons = str(hint.render()).splitlines()
        assert " rather than " in reasons[0] and reasons[0].endswith("(estimated)")
        signs = [line.split()[0][0] for line in reasons[1:] if line[:1] == " "]
        assert signs and signs[0] == "+"
        assert all("(column " in line for line in reasons[1:] if line[:1] == " ")

    run(app, script)
