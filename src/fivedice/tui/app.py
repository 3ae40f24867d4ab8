"""The Textual application: a new-game screen, the game screen, and the service between them.

The app owns one service object (the game in play) and the game's session: CPU pace, coach
mode and its running total, and the move log. The session is saved with the game after every
change, so a resumed game comes back as it was left, in the language it was played in.
Screens read the state from the service and send it actions.
"""

from __future__ import annotations

from typing import Any

from textual.app import App

from fivedice.core.errors import FivediceError
from fivedice.core.game import GameSettings
from fivedice.i18n import LANGUAGES, current_language, set_language
from fivedice.text import error_text
from fivedice.tui.dialogs import StoreProblemScreen
from fivedice.tui.game_screen import PACES, GameScreen
from fivedice.tui.move_log import MoveLog
from fivedice.tui.session import (
    GameService,
    database_description,
    latest_unfinished,
    open_service,
    play_unsaved,
    practice_default,
    resume_game,
    start_game,
)
from fivedice.tui.setup_screen import SetupForm, SetupScreen

SESSION_FORMAT = 1
"""The version of the session data saved with a game (see `FivediceApp.session_data`)."""


class FivediceApp(App[None]):
    """Five dice in the terminal: play against CPU players, with a coach."""

    CSS_PATH = "app.tcss"
    TITLE = "fivedice"
    ENABLE_COMMAND_PALETTE = False  # Textual's palette speaks only English

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
        self.pace_index = self._pace_index(pace)
        self.coach_mode = False
        self.coach_loss = 0.0
        self.coach_decisions = 0
        self.coach_estimated = False  # a judged decision was valued by estimate (columns)
        self.move_log = MoveLog()
        self._service: GameService | None = None
        self._form: SetupForm | None = None

    @staticmethod
    def _pace_index(pace: float) -> int:
        return min(range(len(PACES)), key=lambda i: abs(PACES[i] - pace))

    @property
    def service(self) -> GameService:
        """The game in play (only game screens ask, and only once a game is started)."""
        if self._service is None:
            raise RuntimeError("no game has been started")
        return self._service

    def on_mount(self) -> None:
        self._open_store()

    def _open_store(self) -> None:
        """Opens the saved games; when they cannot be, says why and lets the player choose."""
        try:
            open_service()
        except FivediceError as error:
            screen = StoreProblemScreen(database_description(), error_text(error))
            self.push_screen(screen, self._after_store_problem)
            return
        self._first_screen()

    def _after_store_problem(self, choice: str | None) -> None:
        if choice == "retry":
            self.call_later(self._open_store)
        elif choice == "unsaved":
            play_unsaved()
            self.call_later(self._first_screen)
        else:
            self.exit()

    def _first_screen(self) -> None:
        """Resumes the game asked for, starts the one asked for, or shows the new-game form."""
        try:
            game_id = latest_unfinished() if self.resume is True else (self.resume or None)
        except FivediceError as error:
            self.notify(error_text(error), severity="error", timeout=10)
            game_id = None
        if game_id is not None and self.resume_game(int(game_id)):
            return
        settings = self.initial_settings
        if self.start_now and settings is not None and self.start_game(settings):
            return
        form = SetupForm.from_settings(self.initial_settings) if self.initial_settings else None
        self.push_screen(SetupScreen(form))

    def start_game(self, settings: GameSettings, form: SetupForm | None = None) -> bool:
        """Starts a game through the service and shows it; False (and says why) when the
        service refuses."""
        if form is not None:
            self._form = form
        practice = form.practice if form is not None else practice_default()
        seed = self.seed
        try:
            game = start_game(settings, seed, practice)
        except FivediceError as error:
            self.notify(error_text(error), severity="error", timeout=10)
            return False
        if self.seed is not None:
            self.seed += 1  # a rematch with the same seed would replay the same dice
        self._begin(game)
        return True

    def resume_game(self, game_id: int) -> bool:
        """Resumes a saved game, and the session it was played with; False (and says why)
        when it cannot be loaded."""
        try:
            game = resume_game(game_id)
            saved = game.load_session()
        except FivediceError as error:
            self.notify(error_text(error), severity="error", timeout=10)
            return False
        self._begin(game, saved)
        return True

    def _begin(self, game: GameService, saved: dict[str, Any] | None = None) -> None:
        self._service = game
        self.coach_loss = 0.0
        self.coach_decisions = 0
        self.coach_estimated = False
        self.move_log = MoveLog()
        if saved is not None:
            self.restore_session(saved)
        if len(self.screen_stack) > 1:
            self.switch_screen(GameScreen())
        else:
            self.push_screen(GameScreen())

    # The session ---------------------------------------------------------------------------

    def session_data(self) -> dict[str, Any]:
        """What is saved with the game besides the game: pace, coach, language, the log."""
        return {
            "format": SESSION_FORMAT,
            "pace": PACES[self.pace_index],
            "coach": self.coach_mode,
            "coach_loss": round(self.coach_loss, 4),
            "coach_decisions": self.coach_decisions,
            "coach_estimated": self.coach_estimated,
            "language": current_language(),
            "log": self.move_log.entries,
        }

    def restore_session(self, data: dict[str, Any]) -> None:
        """Takes back a saved session; a value of the wrong kind keeps its default."""
        pace = data.get("pace")
        if isinstance(pace, int | float) and not isinstance(pace, bool):
            self.pace_index = self._pace_index(float(pace))
        if isinstance(data.get("coach"), bool):
            self.coach_mode = data["coach"]
        loss = data.get("coach_loss")
        if isinstance(loss, int | float) and not isinstance(loss, bool) and loss >= 0:
            self.coach_loss = float(loss)
        decisions = data.get("coach_decisions")
        if isinstance(decisions, int) and not isinstance(decisions, bool) and decisions >= 0:
            self.coach_decisions = decisions
        if isinstance(data.get("coach_estimated"), bool):
            self.coach_estimated = data["coach_estimated"]
        language = data.get("language")
        if isinstance(language, str) and language in LANGUAGES:
            set_language(language)
        self.move_log = MoveLog.from_json(data.get("log"))

    def show_setup(self) -> None:
        """Back to the new-game screen, with the last game's choices filled in."""
        form = self._form
        if form is None and self._service is not None:
            form = SetupForm.from_settings(self._service.state.settings)
            form.practice = self._service.practice
        self.switch_screen(SetupScreen(form))
