"""The terminal app of `fivedice table`: one screen that keeps the score of real dice.

A small app of its own (not a mode of the game app): it holds the service and the view of
one game at the table and shows `TableScreen`; every entry is saved by the service before
the screen shows it.
"""

from __future__ import annotations

from textual.app import App

from fivedice.core.game import GameSettings
from fivedice.service.games import GameService, GameView
from fivedice.tui.screens.table import TableScreen
from fivedice.tui.session import TableGame


class TableApp(App[None]):
    """Keeps the score of a game played with real dice."""

    CSS_PATH = "table.tcss"
    TITLE = "fivedice"
    ENABLE_COMMAND_PALETTE = False  # Textual's palette speaks only English

    def __init__(self, service: GameService, view: GameView) -> None:
        super().__init__()
        self.game = TableGame(service, view)

    @property
    def view(self) -> GameView:
        """The game as last saved."""
        view: GameView = self.game.view
        return view

    def on_mount(self) -> None:
        self.push_screen(TableScreen(self.game))


def run_table_app(
    service: GameService,
    settings: GameSettings | None,
    *,
    seed: int | None = None,
    practice: bool = False,
    resume: bool = False,
    resume_game: int | None = None,
) -> None:
    """Opens (or resumes) a game at the table and runs the app until the players quit.

    Raises:
        FivediceError: bad settings or nothing to resume (before the app starts).
    """
    from fivedice.service.table import open_table_game

    view = open_table_game(
        service, settings, seed=seed, practice=practice, resume=resume, resume_game=resume_game
    )
    TableApp(service, view).run()
