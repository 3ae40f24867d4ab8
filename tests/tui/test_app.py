"""The terminal app driven headless through its keys (Textual's `run_test` and `Pilot`).

pytest-asyncio is not a dependency: each test runs its coroutine with `asyncio.run`.
"""

from __future__ import annotations

import re

import pytest
from textual.pilot import Pilot
from textual.widgets import RichLog, Select, Static

from fivedice.core.categories import Category
from fivedice.core.game import GameSettings, Seat
from fivedice.core.rules import RuleSet
from fivedice.i18n import set_language
from fivedice.strategy.hints import estimated_hints
from fivedice.tui.app import FivediceApp
from fivedice.tui.screens.dialogs import ConfirmScreen, EndScreen, TextScreen
from fivedice.tui.screens.game import GameScreen
from fivedice.tui.screens.records import HighScoresScreen, StatsScreen
from fivedice.tui.screens.setup import SetupScreen
from fivedice.tui.widgets.board import ScoreTable, die_face
from tests.tui.support import finish_game, open_service, run, screen_text, wait_for

SETTINGS = GameSettings(seats=(Seat("Ann"), Seat("Bot", "beginner")))


async def play_human_turn(pilot: Pilot[None], app: FivediceApp, hold: bool) -> None:
    """Roll, hold the first die, roll again, and score the box under the cursor."""
    await pilot.press("r")
    if hold:
        await pilot.press("1")
        assert app.service.state.turn.held[0]
        await pilot.press("space")
    await pilot.press("enter")
    if isinstance(app.screen, ConfirmScreen):
        await pilot.press("y")
    await pilot.pause()


@pytest.mark.slow
def test_full_game_against_a_cpu_through_the_keys() -> None:
    # The slowest pace for the first CPU turn, so the rules screen opens in its middle even on
    # a busy machine (at 0.2 s a step the CPU could finish its turn between two key presses).
    app = FivediceApp(SETTINGS, seed=7, pace=2.5, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, GameScreen)
        text = screen_text(app)
        assert "Turn: Ann" in text and "Three of a kind" in text
        # Hint on the first turn: the coach's ranking appears.
        await pilot.press("r")
        await pilot.press("h")
        hint = app.screen.query_one("#hint")
        await wait_for(pilot, lambda: "expected points" in str(hint.render()), seconds=40)
        await pilot.press("enter")
        if isinstance(app.screen, ConfirmScreen):
            await pilot.press("y")
        # The rules screen pauses the CPU: nothing moves while it is open.
        await pilot.press("u")
        assert isinstance(app.screen, TextScreen)
        assert "Rules: Classic" in screen_text(app)
        before = app.service.state
        assert app.service.is_cpu_turn
        await pilot.pause(0.6)
        assert app.service.state is before
        await pilot.press("escape")
        app.play.pace_index = 0
        turns = 1
        while not app.service.state.is_match_over:
            if app.service.is_cpu_turn:
                await wait_for(pilot, lambda: not app.service.is_cpu_turn)
                continue
            await play_human_turn(pilot, app, hold=turns % 2 == 0)
            turns += 1
            assert turns <= 13
        assert turns == 13
        await wait_for(pilot, lambda: isinstance(app.screen, EndScreen))
        await wait_for(pilot, lambda: "Game over" in screen_text(app))
        text = screen_text(app)
        assert "Game over" in text and "1. " in text and "Ann" in text
        await pilot.press("q")

    run(app, script)


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_quit_and_resume_keeps_the_game() -> None:
    # No seed: a seeded game is practice, and the app offers no practice game for resuming.
    app = FivediceApp(SETTINGS, seed=None, pace=0.05, start_now=True)
    saved: dict[str, object] = {}

    async def first(pilot: Pilot[None]) -> None:
        await play_human_turn(pilot, app, hold=True)
        await wait_for(pilot, lambda: not app.service.is_cpu_turn)
        await pilot.press("r")
        saved["state"] = app.service.state
        await pilot.press("q")

    run(app, first)
    again = FivediceApp(resume=True, pace=0.05)

    async def second(pilot: Pilot[None]) -> None:
        assert isinstance(again.screen, GameScreen)
        state = again.service.state
        assert state == saved["state"]
        assert state.dice is not None and state.turn.rolls_used == 1

    run(again, second)


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_setup_screen_offers_every_rule_option_and_switches_language() -> None:
    app = FivediceApp()

    async def script(pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, SetupScreen)
        for name in RuleSet().settings():
            app.screen.query_one(f"#opt-{name}")
        text = screen_text(app)
        assert "New game" in text and "Players" in text and "CPU: casual" in text
        app.screen.query_one("#language", Select).value = "nl"
        await wait_for(pilot, lambda: "Spelers" in screen_text(app))
        text = screen_text(app)
        assert "Nieuw spel" in text and "Spelers" in text
        await pilot.press("enter")  # Start has the focus: the default game begins
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen))
        await wait_for(pilot, lambda: "beurt" in screen_text(app))
        text = screen_text(app)
        assert (
            "Kleine straat" in text and "Drie gelijke" in text and "Jij bent aan de beurt" in text
        )

    run(app, script)


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_game_screen_in_german_marks_held_dice() -> None:
    set_language("de")
    app = FivediceApp(GameSettings(seats=(Seat("Eva"),)), seed=1, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("r", "2")
        text = screen_text(app)
        assert "Dreierpasch" in text and "Kniffel" in text and "fest" in text
        await pilot.press("question_mark")
        assert "würfeln" in screen_text(app)

    run(app, script)


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_scratch_asks_once() -> None:
    settings = GameSettings(seats=(Seat("Ann"),))
    app = FivediceApp(settings, seed=11, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("r")
        state = app.service.state
        zero = next(p for p in state.placements() if p.points == 0)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        table = screen.query_one("#card")
        row = 1 + [p.category for p in state.placements()].index(zero.category)
        del row
        from fivedice.tui.widgets.board import ScoreTable

        assert isinstance(table, ScoreTable)
        r, c = table.cell_of(0, 0, zero.category)
        table.move_cursor(row=r, column=c)
        await pilot.press("enter")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        assert app.service.state is state
        await pilot.press("enter", "y")
        assert app.service.state.cards[0].columns[0].score(zero.category) == 0

    run(app, script)


def test_die_faces() -> None:
    assert die_face(5).count("●") == 5
    assert all(len(line) == 7 for line in die_face(6).splitlines())


# Statistics, high scores, abandoning, the language key, keyboard focus, the mouse ------------


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_statistics_and_high_scores_on_an_empty_database() -> None:
    app = FivediceApp()

    async def script(pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, SetupScreen)
        await pilot.press("s")
        assert isinstance(app.screen, StatsScreen)
        assert "No games yet" in screen_text(app)
        await pilot.press("t")  # the other page replaces this one
        assert isinstance(app.screen, HighScoresScreen)
        assert "No games yet" in screen_text(app)
        await pilot.press("escape")
        assert isinstance(app.screen, SetupScreen)
        await pilot.click("#top")
        assert isinstance(app.screen, HighScoresScreen)
        await pilot.press("escape")
        await pilot.click("#stats")
        assert isinstance(app.screen, StatsScreen)

    run(app, script)


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_statistics_and_high_scores_show_finished_games() -> None:
    solo = GameSettings(seats=(Seat("Ann"),))
    for _ in (1, 2):
        finish_game(solo, None)
    finish_game(SETTINGS, None)  # against a CPU: counts in the statistics, not in the high scores
    service = open_service()
    stats = {(s.profile, s.rules): s for s in service.stats()}
    ann = stats[("Ann", "classic")]
    top = service.high_scores()["classic"]
    assert ann.games == 3 and len(top) == 2
    app = FivediceApp()

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("s")
        text = screen_text(app)
        assert "Ann · Classic" in text and "Average per box" in text
        assert f"{ann.average:.1f}" in text and str(ann.best) in text and str(ann.worst) in text
        assert "of 1" in text  # wins against others: one game had two seats
        assert "Chance" in text and f"{ann.box_averages['chance']:.1f}" in text
        await pilot.press("t")
        text = screen_text(app)
        assert "High scores" in text and "Classic" in text
        lines = [line for line in text.splitlines() if "Ann" in line]
        assert len(lines) == 2
        assert str(top[0].total) in lines[0] and str(top[1].total) in lines[1]

    run(app, script)


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_end_screen_opens_statistics_and_high_scores() -> None:
    # No seed: a seeded game is practice, kept out of the statistics and high scores.
    app = FivediceApp(GameSettings(seats=(Seat("Ann"),)), seed=None, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        # Finish the game quickly through the service, then let the screen show the end.
        while not app.service.state.is_match_over:
            app.service.act("roll")
            best = max(app.service.state.placements(), key=lambda p: p.points)
            app.service.act(f"score {best.category.key}")
        screen.refresh_view()
        await wait_for(
            pilot, lambda: isinstance(app.screen, EndScreen) and bool(app.screen.query("#top"))
        )
        total = app.service.state.totals[0]
        await pilot.press("s")
        assert isinstance(app.screen, StatsScreen)
        assert "Ann · Classic" in screen_text(app)
        await pilot.press("escape")
        assert isinstance(app.screen, EndScreen)
        await pilot.click("#top")
        assert isinstance(app.screen, HighScoresScreen)
        assert re.search(rf"\b1\s*{total}\s*Ann", screen_text(app))
        await pilot.press("escape")
        assert isinstance(app.screen, EndScreen)

    run(app, script)


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_language_key_cycles_during_a_game_and_is_kept() -> None:
    app = FivediceApp(GameSettings(seats=(Seat("Eva"),)), seed=2, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("r", "1")
        state = app.service.state
        assert "Turn: Eva" in screen_text(app)
        await pilot.press("l")
        text = screen_text(app)
        assert "Beurt: Eva" in text and "Drie gelijke" in text and "vast" in text
        assert "Gooien" in text and "l Taal" in text  # the button and the footer
        await pilot.press("l")
        text = screen_text(app)
        assert "Am Zug: Eva" in text and "Kniffel" in text and "Würfeln" in text
        assert app.service.state is state  # switching language is not a game action
        await pilot.press("l")
        text = screen_text(app)
        assert "手番：Eva" in text and "スリーカード" in text and "振る" in text
        await pilot.press("l", "l", "l", "l")  # fr, es, en, then nl again
        await pilot.press("n")
        assert isinstance(app.screen, ConfirmScreen)  # leaving a game asks first
        await pilot.press("y")
        assert isinstance(app.screen, SetupScreen)
        assert "Nieuw spel" in screen_text(app)

    run(app, script)


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_abandon_an_unfinished_game_from_the_new_game_screen() -> None:
    older = finish_game(SETTINGS, None, rounds=1)  # seeded games are practice: not offered
    newer = finish_game(GameSettings(seats=(Seat("Cas"),)), None, rounds=2)
    service = open_service()
    app = FivediceApp()

    async def script(pilot: Pilot[None]) -> None:
        text = screen_text(app)
        assert f"Resume: #{newer}" in text and f"Resume: #{older}" in text
        await pilot.click("#abandon-0")  # the newest game comes first
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        assert service.load(newer).status == "in_progress"
        await pilot.click("#abandon-0")
        await pilot.press("y")
        await wait_for(pilot, lambda: f"Resume: #{newer}" not in screen_text(app))
        assert service.load(newer).status == "abandoned"
        assert f"Resume: #{older}" in screen_text(app)
        await pilot.click("#resume-0")
        assert isinstance(app.screen, GameScreen)
        assert app.service.state.seats[0].name == "Ann"

    run(app, script)


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_tab_reaches_the_buttons_and_arrows_return_to_the_card() -> None:
    app = FivediceApp(GameSettings(seats=(Seat("Ann"),)), seed=8, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        table = screen.query_one(ScoreTable)
        assert screen.focused is table
        await pilot.press("tab")
        assert screen.focused is screen.query_one("#roll")
        await pilot.press("enter")  # presses Roll
        assert app.service.state.turn.rolls_used == 1
        row = table.cursor_coordinate.row
        await pilot.press("tab")
        assert screen.focused is screen.query_one("#hint-button")
        await pilot.press("down")  # back on the card, one box further
        assert screen.focused is table and table.cursor_coordinate.row == row + 1
        await pilot.press("tab")  # the card is first in the focus chain, Roll next
        assert screen.focused is screen.query_one("#roll")
        await pilot.press("enter")
        await pilot.pause(0.25)  # a button ignores a second press during its 0.2 s flash
        await pilot.press("enter")  # the last roll disables Roll ...
        assert app.service.state.rolls_left == 0
        assert screen.focused is table  # ... and the focus goes back to the card

    run(app, script)


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_clicking_a_die_holds_and_releases_it() -> None:
    app = FivediceApp(GameSettings(seats=(Seat("Ann"),)), seed=9, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("r")
        await pilot.click("#die-3")
        assert app.service.state.turn.held == (False, False, True, False, False)
        assert "held" in screen_text(app)
        await pilot.click("#die-3")
        assert not any(app.service.state.turn.held)

    run(app, script)


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_triple_with_three_seats_fits_and_hints_estimates() -> None:
    settings = GameSettings(
        seats=(Seat("Ann"), Seat("Cleo", "expert"), Seat("Dirk", "beginner")),
        rules=RuleSet(column_multipliers=(1, 2, 3)),
    )
    app = FivediceApp(settings, seed=4, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        table = screen.query_one(ScoreTable)
        await pilot.press("r")
        await pilot.pause()
        # Not every column fits 80 cells: Ann's three columns, one column per other seat.
        assert table.level > 0 and table.shown_seat == 0
        assert table.virtual_size.width <= table.size.width
        assert [m for m in table.columns_meaning if m] == [(0, 0), (0, 1), (0, 2)]
        text = screen_text(app)
        assert "Cleo Σ" in text and "Dirk Σ" in text and "Ones" in text
        await pilot.press("h")
        hint = screen.query_one("#hint")
        await wait_for(pilot, lambda: "estimated points" in str(hint.render()), seconds=40)
        assert "not exact" in str(hint.render())
        await pilot.press("v")  # Cleo's card in full
        await pilot.pause()
        assert table.shown_seat == 1
        assert [m for m in table.columns_meaning if m] == [(1, 0), (1, 1), (1, 2)]
        assert "Ann Σ" in screen_text(app)
        await pilot.press("v", "v")  # Dirk's, then back to the seat to move
        await pilot.pause()
        assert table.shown_seat == 0
        # Scoring a box in the third column through the cursor.
        table.focus()
        cell = table.cell_of(0, 2, Category.CHANCE)
        assert cell is not None
        table.move_cursor(row=cell[0], column=cell[1])
        await pilot.press("enter")
        await pilot.pause()
        assert app.service.state.cards[0].columns[2].score(Category.CHANCE) is not None

    run(app, script)


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_classic_with_six_seats_fits_at_80_columns() -> None:
    seats = (Seat("Ann"), *(Seat(f"CPU {i} (expert)", "beginner") for i in range(1, 6)))
    app = FivediceApp(GameSettings(seats=seats), seed=4, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        table = app.screen.query_one(ScoreTable)
        await pilot.press("r")
        await pilot.pause()
        assert len(table.columns_meaning) == 7  # box names and six seats
        assert table.virtual_size.width <= table.size.width
        text = screen_text(app)
        assert all(f"CPU{i}" in text for i in range(1, 6))

    run(app, script)


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_coach_mode_judges_decisions_in_several_columns() -> None:
    settings = GameSettings(seats=(Seat("Ann"),), rules=RuleSet(column_multipliers=(1, 2, 3)))
    app = FivediceApp(settings, seed=6, start_now=True)

    def log_text() -> str:
        # The log wraps its lines: the words are joined back (a space where a line broke).
        return " ".join(line.text.strip() for line in app.screen.query_one("#log", RichLog).lines)

    async def script(pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("c")
        assert app.play.coach_mode
        await pilot.press("r", "1", "r")  # a keep, judged before the second roll
        await wait_for(pilot, lambda: log_text().count("Coach:") == 1, seconds=40)
        # The worst box there is: scoring it costs points, said as an estimate.
        state = app.service.state
        options = estimated_hints(state)
        worst = max((o for o in options if o.category is not None), key=lambda o: o.loss)
        assert worst.category is not None and worst.column is not None and worst.loss > 0.5
        table = screen.query_one(ScoreTable)
        table.focus()
        cell = table.cell_of(0, worst.column, worst.category)
        assert cell is not None
        table.move_cursor(row=cell[0], column=cell[1])
        await pilot.press("enter")
        if isinstance(app.screen, ConfirmScreen):
            await pilot.press("y")
        await wait_for(pilot, lambda: log_text().count("Coach:") == 2, seconds=40)
        line = log_text().rsplit("Coach:", 1)[1]
        assert f"≈{worst.loss:.2f}" in line and "estimate" in line
        assert app.play.coach_decisions == 2 and app.play.coach_loss >= worst.loss - 1e-9
        # Finish through the service: the end screen's total is an estimate too.
        while not app.service.state.is_match_over:
            app.service.act("roll")
            best = max(app.service.state.placements(), key=lambda p: p.points)
            app.service.act(f"score {best.column + 1}:{best.category.key}")
        screen.refresh_view()
        # Wait for the end screen's widgets too, not only for the screen (it composes later).
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, EndScreen) and bool(app.screen.query("#coach-total")),
        )

        # The total is the review's, over every decision of the game (an estimate here).
        def total() -> str:
            return str(app.screen.query_one("#coach-total", Static).render())

        await wait_for(pilot, lambda: "as in the review" in total(), seconds=120)
        review = open_service().review(app.service.game_id).seats[0]
        assert f"≈{review.total_loss:,.2f}" in total()
        assert len(review.decisions) > app.play.coach_decisions

    run(app, script)


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_statistics_cycle_the_player_and_show_the_score_distribution() -> None:
    solo = GameSettings(seats=(Seat("Ann"),))
    for _ in (1, 2, 3):
        finish_game(solo, None)
    finish_game(GameSettings(seats=(Seat("Bea"),)), None)
    service = open_service()
    stats = {s.profile: s for s in service.stats()}
    ann, bea = stats["Ann"], stats["Bea"]
    assert sum(ann.distribution.values()) == 3
    app = FivediceApp()

    def shows_distribution(distribution: dict[str, int]) -> bool:
        # The screenshot's text drops the padding between cells: "150–199" then its count.
        text = screen_text(app).replace(" ", "")
        return all(
            f"{span.replace('-', '–')}{count}" in text for span, count in distribution.items()
        )

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("s")
        assert isinstance(app.screen, StatsScreen)
        text = screen_text(app)
        assert "every player" in text and "Ann · Classic" in text and "Bea · Classic" in text
        assert "games per 50 points" in text
        await pilot.press("p")
        text = screen_text(app)
        assert "Statistics: Ann" in text and "Ann · Classic" in text and "Bea ·" not in text
        # The whole block, distribution included, fits 80×24 without scrolling.
        assert shows_distribution(ann.distribution)
        page = app.screen.query_one("#page")
        assert page.virtual_size.height <= page.size.height
        await pilot.press("p")
        text = screen_text(app)
        assert "Statistics: Bea" in text and "Bea · Classic" in text and "Ann ·" not in text
        assert shows_distribution(bea.distribution)
        await pilot.press("p")  # back to every player
        text = screen_text(app)
        assert "every player" in text and "Ann · Classic" in text and "Bea · Classic" in text

    run(app, script)
