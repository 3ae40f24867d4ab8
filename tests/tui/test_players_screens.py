"""The game screen as a player meets it: at 80×24 and 60×20, in English and Japanese, with
the default name and numbered CPUs; Maxi Yatzy whole at 80×24; hints by dice positions that
`a` applies; the number style of the language in force.

Each screen is also kept as a text snapshot (`snapshots/`, refreshed with
FIVEDICE_UPDATE_SNAPSHOTS=1) and as an SVG in test-artifacts/ to look at.
"""

from __future__ import annotations

import html
import re

import pytest
from rich.cells import cell_len
from textual.pilot import Pilot
from textual.widgets import RichLog

from fivedice.core.game import GameSettings, Seat
from fivedice.core.rules import find_ruleset
from fivedice.i18n import set_language
from fivedice.service.settings import default_human_name
from fivedice.tui.app import FivediceApp
from fivedice.tui.screens.dialogs import ConfirmScreen, EndScreen
from fivedice.tui.screens.game import GameScreen
from fivedice.tui.widgets.board import Die
from fivedice.tui.widgets.chances_bar import short_tags
from fivedice.wording.labels import cpu_name
from tests.tui.support import finish_game, open_service, run, wait_for
from tests.tui.test_snapshots import check, save_svg, settle

TEXT = re.compile(r'<text class="[^"]*-r\d+" x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)</text>')
CELL_WIDTH, LINE_HEIGHT = 12.2, 24.4  # Textual's SVG cell size


def screen_grid(svg: str, size: tuple[int, int]) -> str:
    """The screen as lines of cells, rebuilt from the SVG screenshot (wide characters fill
    two cells), for any terminal size."""
    width, height = size
    grid = [[" "] * width for _ in range(height)]
    for x, y, text in TEXT.findall(svg):
        row = round((float(y) - 20) / LINE_HEIGHT)
        column = round(float(x) / CELL_WIDTH)
        for char in html.unescape(text).replace("\xa0", " ").rstrip("\n"):
            if 0 <= row < height and 0 <= column < width:
                grid[row][column] = char
                if cell_len(char) == 2 and column + 1 < width:
                    grid[row][column + 1] = ""
            column += cell_len(char)
    return "\n".join("".join(line).rstrip() for line in grid) + "\n"


def three_seats() -> GameSettings:
    """You against two numbered CPUs, as `fivedice play --cpu casual --cpu expert` seats."""
    return GameSettings(
        seats=(
            Seat(default_human_name()),
            Seat(cpu_name(1, "casual"), "casual"),
            Seat(cpu_name(2, "expert"), "expert"),
        )
    )


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_game_screen_keeps_its_status_tags_and_quit_key(
    language: str, size: tuple[int, int]
) -> None:
    set_language(language)
    app = FivediceApp(three_seats(), seed=5, start_now=True)
    width, height = size

    async def script(pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, GameScreen)
        await pilot.press("r", "2")
        await settle(pilot, app)
        svg = app.export_screenshot()
        name = f"game-3-seats-{language}-{width}x{height}"
        save_svg(f"tui-{name}", svg)
        text = screen_grid(svg, size)
        check(name, text)
        lines = text.splitlines()
        assert all(cell_len(line) <= width for line in lines)
        status = lines[0]
        yours = "Your turn" if language == "en" else "あなたの番"
        rolls = "2 of 3 rolls left" if language == "en" else "2/3"
        assert status.lstrip().startswith(yours) and rolls in status
        assert status.rstrip().endswith("]")  # the bracketed states end it: nothing is cut
        chances = next(line for line in lines if "%" in line and "·" in line)
        # Seat order, tags that differ: "You 34% · C1 33% · C2 33%" or the full names.
        shown = re.findall(r"(\S+(?: \d)?) \d+ ?%", chances)
        assert len(shown) == 3 and len(set(shown)) == 3, chances
        assert "…" not in chances
        assert "q" in lines[-1] and ("Quit" in lines[-1] or "終了" in lines[-1])

    run(app, script, size=size, settle=True)


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_maxi_yatzy_fits_80_by_24_with_its_last_box_and_total() -> None:
    # Solo: no chances bar to wait for (Maxi Yatzy's chances take minutes to prepare).
    app = FivediceApp(
        GameSettings(seats=(Seat("You"),), rules=find_ruleset("maxi")), seed=5, start_now=True
    )

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("r")
        await pilot.pause(0.5)
        svg = app.export_screenshot()
        save_svg("tui-maxi-yatzy-80x24", svg)
        text = screen_grid(svg, (80, 24))
        check("game-maxi-yatzy-en", text)
        rows = [line.split("  ")[0].strip() for line in text.splitlines()]
        assert "Maxi Yatzy" in rows and "Total" in rows
        assert "Your turn" in text  # the status, over the dice
        assert sum(line.count("╮") + line.count("┓") for line in text.splitlines()) == 6
        await pilot.press("question_mark")
        await pilot.pause()
        help_text = screen_grid(app.export_screenshot(), (80, 24))
        assert "1 to 6" in help_text and "all six" in help_text and "1 to 5" not in help_text

    run(app, script, settle=True)


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_a_hint_marks_its_dice_by_position_and_a_holds_them() -> None:
    app = FivediceApp(GameSettings(seats=(Seat("You"),)), seed=5, start_now=True)

    async def script(pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("r", "h")
        await wait_for(pilot, lambda: screen._advice is not None, seconds=120)
        advice = screen._advice
        assert advice is not None and advice.hold is not None
        marked = tuple(d.position for d in screen.query(Die) if d.has_class("suggested"))
        assert marked == advice.hold
        hint = str(screen.query_one("#hint").render())
        positions = " ".join(map(str, advice.hold))
        assert f"hold {positions} (" in hint  # by position, with the faces after
        await pilot.press("a")
        await pilot.pause()
        held = tuple(i for i, h in enumerate(app.service.state.turn.held, start=1) if h)
        assert held == advice.hold

    run(app, script, settle=True)


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_numbers_follow_the_language_switched_to_and_back() -> None:
    app = FivediceApp(
        GameSettings(seats=(Seat("Ann"), Seat("Bot", "beginner"))), seed=4, start_now=True
    )

    async def script(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        await pilot.press("l", "l")  # English → Dutch → German: "50 %"
        await pilot.pause()
        german = screen_grid(app.export_screenshot(), (80, 24))
        assert "Ann 50 %" in german and "CPU 0,7 s" in german
        await pilot.press("l", "l", "l", "l")  # Japanese, French, Spanish, English again
        await pilot.pause()
        english = screen_grid(app.export_screenshot(), (80, 24))
        assert "Ann 50%" in english and "50 %" not in english
        assert "CPU 0.7 s" in english

    run(app, script, settle=True)


def test_short_tags_tell_every_seat_apart() -> None:
    assert short_tags(["You", "CPU 1 (casual)", "CPU 2 (expert)"]) == ["You", "C1", "C2"]
    assert short_tags(["Annabel", "Annemarie", "Bob"]) == ["Anna", "Anne", "Bob"]
    tags = short_tags(["Maximilian", "Maximiliane"])
    assert len(set(tags)) == 2 and all(cell_len(t) <= 6 for t in tags)


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_the_log_wraps_again_to_its_new_width_after_a_resize() -> None:
    app = FivediceApp(
        GameSettings(seats=(Seat("Annemarie-Louise van Dijk"), Seat("Bot", "beginner"))),
        seed=5,
        start_now=True,
    )

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("r", "1", "2", "3")
        await pilot.pause()
        log = app.screen.query_one("#log", RichLog)
        wide = [strip.text.rstrip() for strip in log.lines]
        await pilot.resize_terminal(60, 20)
        for _ in range(50):  # the log reflows after the resize: on a loaded machine, later
            await pilot.pause(0.1)
            narrow = [strip.text.rstrip() for strip in log.lines]
            width = log.scrollable_content_region.width
            if all(cell_len(line) <= width for line in narrow):
                break
        assert all(cell_len(line) <= width for line in narrow), (width, narrow)
        assert len(narrow) > len(wide)  # the same sentences, on more lines
        assert "".join(narrow).replace(" ", "") == "".join(wide).replace(" ", "")
        assert not log.show_horizontal_scrollbar

    run(app, script, size=(120, 30), settle=True)


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_the_end_screen_coach_total_is_the_reviews_total_over_every_decision() -> None:
    settings = GameSettings(seats=(Seat("You"),))
    game_id = finish_game(settings, None, rounds=12)  # twelve turns without the coach

    app = FivediceApp(resume=game_id)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.pause()
        await pilot.press("c", "r", "enter")  # coach mode for the last decision only
        if isinstance(app.screen, ConfirmScreen):
            await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, EndScreen), seconds=60)
        total = app.screen.query_one("#coach-total")
        await wait_for(pilot, lambda: "as in the review" in str(total.render()), seconds=120)
        review = open_service().review(game_id).seats[0]
        expected = (
            f"Coach: your {len(review.decisions)} decisions cost"
            f" {review.total_loss:.2f} expected points in all (as in the review)."
        )
        assert str(total.render()) == expected
        assert len(review.decisions) > 1  # every decision, not the one judged in coach mode

    run(app, script, settle=True)
