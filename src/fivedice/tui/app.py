"""The Textual application: a new-game screen, the game screen, and the service between them.

The app owns one service object (the game in play) and a few table preferences (CPU pace,
coach mode); screens read the state from the service and send it actions.
"""

from __future__ import annotations

from textual.app import App

from fivedice.core.errors import FivediceError
from fivedice.core.game import GameSettings
from fivedice.text import error_text
from fivedice.tui.game_screen import PACES, GameScreen
from fivedice.tui.session import GameService, latest_unfinished, resume_game, start_game
from fivedice.tui.setup_screen import SetupForm, SetupScreen

CSS = """
Screen { layout: vertical; }
#status { height: 1; background: $boost; padding: 0 1; }
#main { height: 1fr; }
#card { width: 1fr; height: 100%; scrollbar-size: 1 1; }
#side { width: 51; padding: 0 0 0 1; }
#dice { height: 6; width: auto; }
.die {
    width: 9; height: 6; margin-right: 1;
    border: round $foreground 40%; border-title-align: center; border-subtitle-align: center;
}
.die.held {
    border: heavy $warning; color: $warning; background: $warning 15%; text-style: bold;
}
.narrow #side { width: 36; }
.narrow .die { width: 7; margin-right: 0; }
#buttons { height: 1; margin-top: 0; }
#buttons Button { margin-right: 1; min-width: 6; }
#preview { height: 2; }
#buttons { margin-bottom: 0; }
#hint { height: auto; max-height: 6; display: none; border-left: thick $success; padding-left: 1; }
#log { height: 1fr; min-height: 3; border-top: solid $foreground 30%; scrollbar-size: 1 1; }
#page { padding: 0 1; }
.title { text-style: bold; width: auto; margin-right: 2; }
.section { text-style: bold; margin-top: 1; color: $accent; }
.row { height: auto; }
.row > * { margin-right: 1; }
.field { width: 26; padding-top: 0; }
.seat-number { width: 3; }
Input { height: 1; border: none; padding: 0 1; width: 24; background: $boost; }
Input.num { width: 12; }
Input:focus { background: $accent 30%; }
Select { width: 1fr; max-width: 60; }
Switch { height: 1; border: none; padding: 0; }
Collapsible { padding-bottom: 0; }
ConfirmScreen { align: center middle; }
#dialog { width: 50; height: auto; border: thick $warning; padding: 1 2; background: $surface; }
#answers { height: auto; margin-top: 1; }
#answers Button { margin-right: 2; }
#end-buttons { height: auto; margin-top: 1; }
/* Five buttons must fit in 80 columns, so narrower than Textual's 16-cell minimum. */
#end-buttons Button { margin-right: 2; min-width: 10; }
#ranking { margin-bottom: 1; text-style: bold; }
#standings, #coach-total { margin-bottom: 1; }
"""


class FivediceApp(App[None]):
    """Five dice in the terminal: play against CPU players, with a coach."""

    CSS = CSS
    TITLE = "fivedice"

    def __init__(
        self,
        settings: GameSettings | None = None,
        seed: int | None = None,
        *,
        pace: float = 0.7,
        start_now: bool = False,
        resume: bool | int = False,
    ) -> None:
        """Args:
        settings: what the new-game form starts with (None: you and one casual CPU).
        seed: dice seed, for reproducible games (a rematch uses the next seed).
        pace: seconds between CPU actions (the nearest step of PACES).
        start_now: skip the new-game screen and play `settings` at once.
        resume: True to continue the latest unfinished game, or the id of a saved game.
        """
        super().__init__()
        self.initial_settings = settings
        self.seed = seed
        self.start_now = start_now
        self.resume = resume
        self.pace_index = min(range(len(PACES)), key=lambda i: abs(PACES[i] - pace))
        self.coach_mode = False
        self.coach_loss = 0.0
        self.coach_decisions = 0
        self.coach_estimated = False  # a judged decision was valued by estimate (columns)
        self._service: GameService | None = None
        self._form: SetupForm | None = None

    @property
    def service(self) -> GameService:
        """The game in play (only game screens ask, and only once a game is started)."""
        if self._service is None:
            raise RuntimeError("no game has been started")
        return self._service

    def on_mount(self) -> None:
        game_id = latest_unfinished() if self.resume is True else (self.resume or None)
        if game_id is not None:
            try:
                self.resume_game(int(game_id))
                return
            except FivediceError as error:
                self.notify(error_text(error), severity="error")
        if self.start_now and self.initial_settings is not None:
            self.start_game(self.initial_settings)
        else:
            form = SetupForm.from_settings(self.initial_settings) if self.initial_settings else None
            self.push_screen(SetupScreen(form))

    def start_game(self, settings: GameSettings, form: SetupForm | None = None) -> None:
        """Starts a game through the service and shows it."""
        if form is not None:
            self._form = form
        seed = self.seed
        if self.seed is not None:
            self.seed += 1  # a rematch with the same seed would replay the same dice
        self._begin(start_game(settings, seed))

    def resume_game(self, game_id: int) -> None:
        """Resumes a saved game through the service."""
        self._begin(resume_game(game_id))

    def _begin(self, game: GameService) -> None:
        self._service = game
        self.coach_loss = 0.0
        self.coach_decisions = 0
        self.coach_estimated = False
        if len(self.screen_stack) > 1:
            self.switch_screen(GameScreen())
        else:
            self.push_screen(GameScreen())

    def show_setup(self) -> None:
        """Back to the new-game screen, with the last game's choices filled in."""
        form = self._form
        if form is None and self._service is not None:
            form = SetupForm.from_settings(self._service.state.settings)
        self.switch_screen(SetupScreen(form))
