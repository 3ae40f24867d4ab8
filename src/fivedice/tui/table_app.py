"""The terminal app of `fivedice table`: one screen that keeps the score of real dice.

A small app of its own (not a mode of the game app): it holds the service and the view of
one game at the table and shows `TableScreen`; every entry is saved by the service before
the screen shows it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.app import App

from fivedice.core.game import GameSettings
from fivedice.plain_table import table_entry
from fivedice.service import GameService, GameView
from fivedice.tui.table_screen import TableScreen

CSS = """
Screen { layout: vertical; }
#status { height: 1; background: $boost; padding: 0 1; }
#main { height: 1fr; }
#card { width: 1fr; height: 100%; scrollbar-size: 1 1; }
#side { width: 42; padding: 0 0 0 1; }
#entry { height: auto; }
#boxes { height: auto; max-height: 13; border: none; padding: 0; scrollbar-size: 1 1; }
#boxes:focus { border: none; }
#message { height: auto; color: $warning; }
#coach { height: auto; border-left: thick $success; padding-left: 1; }
PointsScreen { align: center middle; }
#dialog { width: 60; height: auto; border: thick $accent; padding: 1 2; background: $surface; }
"""


class TableApp(App[None]):
    """Keeps the score of a game played with real dice."""

    CSS = CSS
    TITLE = "fivedice"
    ENABLE_COMMAND_PALETTE = False  # Textual's palette speaks only English

    def __init__(self, service: GameService, view: GameView) -> None:
        super().__init__()
        self.service = service
        self.view = view

    def on_mount(self) -> None:
        self.push_screen(TableScreen())

    def act(self, action: str) -> GameView:
        """Sends an entry to the service (raises its errors; nothing changes then)."""
        entry = table_entry(action)  # boxes named as on the card, in any language
        self.view = self.service.apply_action(self.view.game_id, entry, self.view.version)
        return self.view

    def undo(self) -> GameView:
        """Takes back the last entry in effect through the service."""
        self.view = self.service.undo(self.view.game_id, self.view.version)
        return self.view

    def hint(self, dice: Sequence[int] | None, rolls_left: int) -> list[Any]:
        """The coach's options for typed (or entered) dice with `rolls_left`."""
        return self.service.hint(self.view.game_id, dice, rolls_left)


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
    from fivedice.plain_table import open_table_game

    view = open_table_game(
        service, settings, seed=seed, practice=practice, resume=resume, resume_game=resume_game
    )
    TableApp(service, view).run()
