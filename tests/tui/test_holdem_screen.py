"""The Texas Hold'em Yahtzee table in the terminal app, driven headless through its keys."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from fivedice.core.game import Seat
from fivedice.core.holdem import HoldemRules
from fivedice.i18n import LANGUAGES, set_language
from fivedice.service.holdem import HoldemService
from fivedice.tui.app import FivediceApp
from fivedice.tui.screens.holdem import HoldemScreen, HoldemTable, holdem_binding_texts
from fivedice.tui.widgets.holdem import ColourDie
from fivedice.wording.holdem import colour_name
from tests.tui.support import SIZE, lines, run, screen_text, wait_for

KEYS = ("Fold", "Check/Call", "Bet/Raise", "All-in", "Coach", "Help", "Quit")


def make_app(cpus: tuple[str, ...] = ("casual", "casual"), seed: int = 5) -> FivediceApp:
    service = HoldemService(sign=False)
    seats = [Seat("You")] + [Seat(f"CPU {n}", level) for n, level in enumerate(cpus, 1)]
    game_id = service.new_game(seats, seed=seed)
    return FivediceApp(holdem=HoldemTable(service, game_id), pace=0.05)


def holdem_screen(app: FivediceApp) -> HoldemScreen:
    screen = app.screen
    assert isinstance(screen, HoldemScreen)
    return screen


def my_turn_or_over(app: FivediceApp) -> bool:
    view = holdem_screen(app).view
    return view.my_turn or view.winner is not None


@pytest.mark.slow  # (a whole game through the app: `make test`, not the fast lane)
def test_a_whole_game_to_a_winner_through_the_keys():
    app = make_app()
    service = app.holdem.service if app.holdem else None
    assert service is not None
    total = 3 * HoldemRules().starting_stack

    async def script(pilot: Pilot[None]) -> None:
        screen = holdem_screen(app)
        turns = 0
        while screen.view.winner is None:
            await wait_for(pilot, lambda: my_turn_or_over(app), seconds=60)
            if screen.view.winner is not None:
                break
            # Every other turn all-in, else check or call: the game ends in a few hands.
            await pilot.press("a" if turns % 2 else "c")
            await pilot.pause()
            turns += 1
            assert turns < 500
        await pilot.pause()
        view = screen.view
        winner = view.seats[view.winner]
        assert winner.stack == total  # every chip with the last seat left
        assert all(seat.stack == 0 for seat in view.seats if seat is not winner)
        text = screen_text(app)
        assert f"{winner.name} wins the game." in text
        assert "The game is over." in text
        assert "New game" in text  # the footer offers another game once it is over
        last = view.last_hand
        assert last is not None
        board = list(screen.query("#hd-board ColourDie"))
        shown = [die for die in board if not die.has_class("unknown")]
        assert len(shown) == len(last.board) == 5  # the last hand's board stays on the table
        for widget, die in zip(shown, last.board, strict=True):
            assert widget.has_class(die.colour.value)
        log = [strip.text for strip in screen.query_one("#hd-log").lines]  # type: ignore[attr-defined]
        assert any("pot" in line.lower() for line in log)  # who won which pot, said
        # `n` starts another game with the same seats, on a new table.
        await pilot.press("n")
        await pilot.pause()
        again = holdem_screen(app)
        assert again is not screen and again.view.winner is None
        assert [s.name for s in again.view.seats] == [s.name for s in view.seats]
        assert again.table.game_id != screen.table.game_id

    run(app, script)


def test_a_bet_out_of_range_is_refused_with_the_range_and_changes_nothing():
    app = make_app()

    async def script(pilot: Pilot[None]) -> None:
        screen = holdem_screen(app)
        await wait_for(pilot, lambda: screen.view.my_turn)
        before = screen.view
        assert before.raise_range is not None
        low, high = before.raise_range
        await pilot.press("b")
        await pilot.pause()
        assert f"({low} to {high}" in screen_text(app)
        for amount in (str(low - 1), str(high + 1)):
            await pilot.press("ctrl+u", *amount, "enter")
            await pilot.pause()
            message = f"The amount must be a whole number from {low} to {high} chips."
            assert message in screen_text(app)
            assert screen.view == before  # nothing sent
            assert screen.view.my_turn
        # A key of the table does nothing while the amount is typed; Esc closes the line.
        await pilot.press("f")
        await pilot.pause()
        assert screen.view == before
        await pilot.press("escape")
        await pilot.pause()
        assert f"to {high}" not in screen.query_one("#hd-message").render().plain  # type: ignore[union-attr]
        # A good amount goes through: the seat's bet this round becomes it.
        amount = low + 5
        await pilot.press("b", "ctrl+u", *str(amount), "enter")
        await wait_for(
            pilot,
            lambda: (
                screen.view.seats[0].street_bet == amount
                or screen.view.hand_number != before.hand_number
                or screen.view.street != before.street
            ),
        )
        assert screen.view.seats[0].committed >= amount

    run(app, script)


@pytest.mark.parametrize(
    "language",
    # English and one other in the fast lane; every language in the slow one.
    [
        language if language in ("en", "ja") else pytest.param(language, marks=pytest.mark.slow)
        for language in sorted(LANGUAGES)
    ],
)
def test_the_table_fits_80_by_24_with_pocket_board_pot_and_keys(language):
    set_language(language)
    app = make_app(cpus=("casual",) * 5)  # six seats: the most rows the table takes

    async def script(pilot: Pilot[None]) -> None:
        screen = holdem_screen(app)
        await wait_for(pilot, lambda: screen.view.my_turn)
        await pilot.pause()
        shown = lines(app)
        assert len(shown) == SIZE[1]
        text = "\n".join(shown)
        pocket = screen.view.seats[0].pocket
        assert pocket is not None
        for die in pocket:  # the pocket dice with their colours' names
            assert colour_name(die.colour)[:3] in text
        dice = list(screen.query(ColourDie))
        assert len(dice) == 7 and all(die.region.bottom <= SIZE[1] - 1 for die in dice)
        assert all(die.region.right <= SIZE[0] for die in dice)
        assert str(screen.view.pot) in text
        # Every seat has its line; the log keeps some rows above the footer.
        for seat in screen.view.seats:
            assert seat.name in text
        log = screen.query_one("#hd-log")
        assert log.region.height >= 3 and log.region.bottom <= SIZE[1] - 1
        # The keys of a turn, all in the footer (the last line), none cut.
        footer = shown[-1]
        texts = holdem_binding_texts()
        for key in KEYS:
            assert texts[key] in footer, (key, footer)
        assert "…" not in footer

    run(app, script)


def test_the_coach_speaks_on_the_players_turn_in_words():
    app = make_app()

    async def script(pilot: Pilot[None]) -> None:
        screen = holdem_screen(app)
        await wait_for(pilot, lambda: screen.view.my_turn)
        await pilot.press("h")
        coach = screen.query_one("#hd-coach")
        await wait_for(pilot, lambda: "strongest CPU would" in str(coach.render()), seconds=60)
        said = str(coach.render())
        assert "Your share of the pot now" in said
        # Once the table moves on, the coach's words of that moment are put away.
        await pilot.press("c")
        await pilot.pause()
        assert not coach.display

    run(app, script)
