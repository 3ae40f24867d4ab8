"""The terminal app, finished: small windows, failed saves in sight, the session on resume.

Each test drives the app headless through its keys (Textual's `run_test` and `Pilot`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from fivedice.core.categories import Category
from fivedice.core.game import GameSettings, Seat
from fivedice.i18n import set_language
from fivedice.tui.app import FivediceApp
from fivedice.tui.screens.dialogs import ConfirmScreen
from fivedice.tui.screens.game import GameScreen
from fivedice.tui.widgets.board import ScoreTable
from tests.tui.support import open_service, use_database

from .test_app import screen_text, wait_for

SOLO = GameSettings(seats=(Seat("Ann"),))
DUEL = GameSettings(seats=(Seat("Ann"), Seat("Bot", "beginner")))


@pytest.fixture(autouse=True)
def database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Every test saves its games in its own SQLite file."""
    use_database(monkeypatch, f"sqlite:///{tmp_path / 'games.sqlite3'}")
    yield
    set_language("en")


def run(
    app: FivediceApp,
    script: Callable[[Pilot[None]], Awaitable[None]],
    size: tuple[int, int] = (80, 24),
) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(main())


def record_notes(app: FivediceApp) -> list[str]:
    """Collects the messages the app notifies (toasts are off in headless tests)."""
    notes: list[str] = []
    original = app.notify

    def notify(message: str, *args: object, **kwargs: object) -> None:
        notes.append(str(message))
        original(message, *args, **kwargs)  # type: ignore[arg-type]

    app.notify = notify  # type: ignore[method-assign]
    return notes


def lines(app: FivediceApp) -> list[str]:
    """The screen's text, one string per line."""
    return screen_text(app).splitlines()


def game_screen(app: FivediceApp) -> GameScreen:
    screen = app.screen
    assert isinstance(screen, GameScreen)
    return screen


async def move_to(pilot: Pilot[None], app: FivediceApp, category_key: str) -> None:
    """Puts the card's cursor on a box of the first seat."""
    from fivedice.core.categories import Category

    table = game_screen(app).query_one(ScoreTable)
    cell = table.cell_of(0, 0, Category.parse(category_key))
    assert cell is not None
    table.move_cursor(row=cell[0], column=cell[1])
    await pilot.pause()


# Item 1: the card keeps its box names after a confirmed 0 ------------------------------


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


# Item 2 and the banner: a failed save is a state, with a retry; CPU turns resume by themselves


class FlakyStore:
    """Makes the service's writes fail while `down` is set, as a locked database would."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from fivedice.store import Store, StoreUnavailableError

        self.down = False
        # Every store of the test fails alike: the app opens its own service (its Backend).
        for name in ("append_action", "save_session"):
            original = getattr(Store, name)

            def failing(*args: object, _original=original, **kwargs: object) -> object:
                if self.down:
                    raise StoreUnavailableError(
                        "could not save the action: database is locked; nothing was changed"
                    )
                return _original(*args, **kwargs)

            monkeypatch.setattr(Store, name, failing)


def banner_text(app: FivediceApp) -> str:
    banner = game_screen(app).query_one("#banner")
    return str(banner.render()) if banner.display else ""


def test_a_failed_save_of_a_cpu_turn_shows_a_banner_and_resumes_by_itself(monkeypatch) -> None:
    # No seed: a seeded game is practice (the header would say so, crowding the status).
    app = FivediceApp(DUEL, seed=None, pace=0.05, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        flaky = FlakyStore(monkeypatch)
        await pilot.press("p", "r", "enter")  # paused: the CPU waits for us
        if isinstance(app.screen, ConfirmScreen):
            await pilot.press("y")
        flaky.down = True
        await pilot.press("p")  # the CPU's turn goes on now, and cannot be saved
        await wait_for(pilot, lambda: "Not saved" in banner_text(app))
        before = app.service.state
        assert app.service.is_cpu_turn
        text = screen_text(app)
        assert "database is locked" in text and "waiting for the save" in text
        assert "t Try again" in text
        await pilot.pause(1.0)
        assert "Not saved" in banner_text(app)  # it stays, unlike a toast
        assert app.service.state is before
        flaky.down = False  # the lock is gone: no key needed
        await wait_for(pilot, lambda: not app.service.is_cpu_turn)
        assert banner_text(app) == ""
        assert "t Try again" not in screen_text(app)
        saved = open_service().load(app.service.game_id)
        assert saved.state == app.service.state  # nothing lost, nothing applied twice

    run(app, script)


def test_a_failed_save_of_a_human_action_is_retried_with_t(monkeypatch) -> None:
    app = FivediceApp(SOLO, seed=5, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        flaky = FlakyStore(monkeypatch)
        await pilot.press("r")
        rolled = app.service.state
        flaky.down = True
        await pilot.press("1")
        assert "Not saved" in banner_text(app) and "Press t" in banner_text(app)
        assert app.service.state is rolled and not rolled.turn.held[0]
        await pilot.press("t")  # still locked: still refused, still shown
        assert "Not saved" in banner_text(app) and app.service.state is rolled
        flaky.down = False
        await pilot.press("t")
        assert app.service.state.turn.held[0]
        assert banner_text(app) == ""
        assert open_service().load(app.service.game_id).state == app.service.state

    run(app, script)


# Item 3: a database that cannot be opened is shown, never silently unsaved ----------------


def damaged_file(path: Path) -> None:
    path.write_bytes(b"this is not a database at all, but it is someone's file" * 100)


def foreign_file(path: Path) -> None:
    import sqlite3

    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
    connection.close()


@pytest.mark.parametrize("make", [damaged_file, foreign_file])
def test_a_database_that_cannot_be_opened_is_shown(
    tmp_path: Path, make, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fivedice.tui.screens.dialogs import StoreProblemScreen

    path = tmp_path / "other.sqlite3"
    make(path)
    before = path.read_bytes()
    use_database(monkeypatch, f"sqlite:///{path}")
    app = FivediceApp(SOLO, seed=1, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, StoreProblemScreen)
        text = screen_text(app)
        assert "cannot be opened" in text and str(path) in text
        assert "not a fivedice database" in text
        assert "Play unsaved" in text and "Quit" in text
        await pilot.press("p")  # knowingly
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen))
        assert "not saved" in screen_text(app)
        await pilot.press("r")
        assert app.service.state.dice is not None  # playable, in memory

    run(app, script)
    if make is damaged_file:  # (a foreign file's header is the store's business: issue 10)
        assert path.read_bytes() == before  # left as it was


def test_quit_from_the_database_problem_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "bad.sqlite3"
    damaged_file(path)
    use_database(monkeypatch, f"sqlite:///{path}")
    app = FivediceApp()

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("q")
        await pilot.pause()
        assert app.return_code is not None or not app.is_running

    run(app, script)


# Item 4: 60×20 works, smaller says so ---------------------------------------------------


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_game_fits_60_by_20(language: str) -> None:
    set_language(language)
    app = FivediceApp(DUEL, seed=5, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("r")
        await pilot.pause()
        table = game_screen(app).query_one(ScoreTable)
        assert table.virtual_size.width <= table.size.width  # no cut-off columns
        assert table.virtual_size.height <= table.size.height
        text = screen_text(app)
        quit_key = "q Quit" if language == "en" else "q Beenden"
        assert quit_key in text
        names = [line.split()[0] for line in lines(app)[2:19] if line.strip()]
        assert not any(name.endswith("…") for name in names), names
        chance = next(line for line in lines(app) if line.startswith(("Chance",)))
        assert any(ch.isdigit() for ch in chance)  # numbers, not only names

    run(app, script, (60, 20))


def test_v_shows_one_seat_at_a_time_at_60_by_20() -> None:
    settings = GameSettings(
        seats=(Seat("Ann"), Seat("Bert"), Seat("Cleo"), Seat("Dirk"), Seat("Eefje"))
    )
    app = FivediceApp(settings, seed=5, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        table = game_screen(app).query_one(ScoreTable)
        assert table.virtual_size.width <= table.size.width
        assert [m for m in table.columns_meaning if m] == [(0, 0)]
        await pilot.press("v")
        await pilot.pause()
        assert [m for m in table.columns_meaning if m] == [(1, 0)]
        assert "Bert" in screen_text(app)

    run(app, script, (60, 20))


@pytest.mark.parametrize("size", [(40, 12), (59, 24), (80, 19)])
def test_a_smaller_window_says_how_large_it_must_be(size: tuple[int, int]) -> None:
    app = FivediceApp(DUEL, seed=5, pace=0.05, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        text = screen_text(app)
        assert "Make the window at least 60×20" in text
        assert f"{size[0]}×{size[1]}" in text
        await pilot.press("r")
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        text = screen_text(app)
        assert "Make the window" not in text and "Three of a kind" in text

    run(app, script, size)


# Item 5: the Abandon button stays on screen at 80 columns ---------------------------------


def test_abandon_stays_on_screen_with_long_names() -> None:
    service = open_service()
    long_names = GameSettings(
        seats=(Seat("Annemarie-Louise"), Seat("Bartholomeus Jr"), Seat("Cpu", "casual"))
    )
    service.create_game(long_names, seed=1)
    app = FivediceApp()

    async def script(pilot: Pilot[None]) -> None:
        button = app.screen.query_one("#abandon-0")
        region = button.region
        assert region.width > 0 and region.right <= 80
        await pilot.click("#abandon-0")
        assert isinstance(app.screen, ConfirmScreen)

    run(app, script)


# Items 6, 7, 9, 11, 12e: the move log -----------------------------------------------------


def log_lines(app: FivediceApp) -> list[str]:
    """The lines the log widget shows."""
    from textual.widgets import RichLog

    log = game_screen(app).query_one("#log", RichLog)
    return [strip.text.rstrip() for strip in log.lines]


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


# Item 8: the bonus row once the bonus is out of reach ------------------------------------


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


def test_the_upper_bonus_row_counts_down_while_reachable() -> None:
    app = FivediceApp(SOLO, seed=1, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        row = next(line for line in lines(app) if "Upper bonus" in line)
        assert row.split()[-1] == "63↑"

    run(app, script)


# Item 9: resume restores the session --------------------------------------------------


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


# Item 10: practice ----------------------------------------------------------------------


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


# Item 12: the hint panel, the cursor, Escape on the end screen, switches in words -----------


def test_hint_lines_are_never_wrapped() -> None:
    from fivedice.core.rules import RuleSet

    settings = GameSettings(
        seats=(Seat("Ann"), Seat("Cleo", "expert"), Seat("Dirk", "beginner")),
        rules=RuleSet(column_multipliers=(1, 2, 3)),
    )
    app = FivediceApp(settings, seed=4, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("r", "r", "r", "h")  # the last roll: every option is a box
        hint = game_screen(app).query_one("#hint")
        await wait_for(pilot, lambda: "estimated" in str(hint.render()), seconds=40)
        await pilot.pause()
        options = str(hint.render()).splitlines()[1:]
        assert any("in column" in option for option in options)
        assert len(options) >= 2
        assert hint.size.height == len(options) + 1  # one line each: nothing wrapped
        assert "best" in options[0]
        for option in options[1:]:
            value, loss = option.split()[:2]
            assert value.startswith("≈") and loss.startswith("−")

    run(app, script)


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


def test_escape_on_the_end_screen_asks_before_quitting() -> None:
    from fivedice.tui.screens.dialogs import EndScreen

    from .test_app import finish_game

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


# Item 14: undo in the terminal app ------------------------------------------------------


def test_undo_takes_back_the_last_action_and_says_why_not_otherwise() -> None:
    app = FivediceApp(SOLO, seed=5, start_now=True)
    notes = record_notes(app)

    async def script(pilot: Pilot[None]) -> None:
        assert "z Undo" in screen_text(app)
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


@pytest.mark.parametrize("size", [(40, 12), (59, 19)])
def test_keys_do_nothing_while_the_window_is_too_small(size: tuple[int, int]) -> None:
    """The message says the game waits: a roll, a hold or a score typed blind must not act."""
    app = FivediceApp(SOLO, seed=5, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        before = game_screen(app).state
        assert before.dice is not None
        await pilot.resize_terminal(*size)
        await pilot.pause()
        await pilot.pause()
        assert "Make the window at least 60×20" in screen_text(app)
        await pilot.press("r", "1", "enter", "space", "z")
        await pilot.pause()
        assert game_screen(app).state is before
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        assert game_screen(app).state.rolls_left == before.rolls_left - 1

    run(app, script, size)


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
