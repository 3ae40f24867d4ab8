"""The Textual application of every terminal command: the game (`fivedice play`: a new-game
screen, the game screen), the lessons (`fivedice tutorial`) and the score keeper for real dice
(`fivedice table`), each opened as the app's first screen.

The app owns the door to the service (`Backend`: which database, practice, unsaved play), the
game in play, and the game's session (`PlaySession`: CPU pace, coach mode and its running
total, the move log). Screens get what they need as constructor arguments and tell the app
what the player wants by posting messages (`SetupScreen.Start`, `SetupScreen.Resume`,
`GameScreen.NewGame`, `GameScreen.Rematch`); no screen reaches into the app. The session is
saved with the game after every change, so a resumed game comes back as it was left, in the
language it was played in.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from textual import on
from textual.app import App

from fivedice.core.errors import FivediceError
from fivedice.core.game import GameSettings
from fivedice.core.rules import RuleSet
from fivedice.i18n import _
from fivedice.service.tutorial.progress import pick_lesson
from fivedice.tui.play import PlaySession, pace_index
from fivedice.tui.screens.dialogs import StoreProblemScreen
from fivedice.tui.screens.game import GameScreen
from fivedice.tui.screens.holdem import HoldemScreen, HoldemTable
from fivedice.tui.screens.practice import PracticeScreen
from fivedice.tui.screens.setup import SetupForm, SetupScreen
from fivedice.tui.screens.table import TableScreen
from fivedice.tui.screens.tutorial import TutorialScreen
from fivedice.tui.session import Backend, GameInPlay, TableGame
from fivedice.wording.text import error_text

TABLE_CSS_PATH = "table.tcss"
"""The styles of the score keeper for real dice (its card, entry and coach; its own dialog)."""
HOLDEM_CSS_PATHS: list[str | PurePath] = ["app.tcss", "holdem.tcss"]
"""The styles of the Hold'em table: the app's (its pages), then the table's own."""


@dataclass(frozen=True)
class TutorialStart:
    """What `fivedice tutorial` opens: the lessons under `rules`, starting `lesson` if named
    (its number in the list, or its key)."""

    rules: RuleSet
    lesson: str | None = None


class FivediceApp(App[None]):
    """Five dice in the terminal: play against CPU players with a coach, learn by playing, or
    keep the score of a game played with real dice."""

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
        backend: Backend | None = None,
        tutorial: TutorialStart | None = None,
        table: TableGame | None = None,
        drills: bool = False,
        holdem: HoldemTable | None = None,
    ) -> None:
        """Args:
        settings: what the new-game form starts with (None: you and one casual CPU).
        seed: dice seed, for reproducible games (a rematch uses the next seed).
        pace: seconds between CPU actions (the nearest step of PACES).
        start_now: skip the new-game screen and play `settings` at once.
        resume: True to continue the latest unfinished game, or the id of a saved game.
        backend: the database and practice choice (default: the service's default database).
        tutorial: open the lessons instead of a game (Back on the lesson list quits).
        table: keep the score of this game at the table instead, on its one screen with its
            own styles.
        drills: open the Practice screen (`fivedice drill --app`; Back on it quits).
        holdem: play this Texas Hold'em Yahtzee game instead, on its own screen
            (`fivedice holdem play`), CPUs at `pace`.
        """
        css: str | list[str | PurePath] | None = TABLE_CSS_PATH if table is not None else None
        super().__init__(css_path=HOLDEM_CSS_PATHS if holdem is not None else css)
        self.holdem = holdem
        self.initial_settings = settings
        self.seed = seed
        self.start_now = start_now
        self.resume = resume
        self.backend = backend or Backend()
        self.play = PlaySession(pace_index(pace))
        self.tutorial = tutorial
        self.table = table
        self.drills = drills
        self._service: GameInPlay | None = None
        self._form: SetupForm | None = None

    @property
    def service(self) -> GameInPlay:
        """The game in play (once a game is started)."""
        if self._service is None:
            raise RuntimeError("no game has been started")
        return self._service

    def on_mount(self) -> None:
        if self.table is not None:  # its game is open already: nothing else to choose
            self.push_screen(TableScreen(self.table))
        elif self.holdem is not None:
            self.push_screen(HoldemScreen(self.holdem, self.play.pace))
        else:
            self._open_store()

    def _open_store(self) -> None:
        """Opens the saved games; when they cannot be, says why and lets the player choose."""
        try:
            self.backend.open_service()
        except FivediceError as error:
            screen = StoreProblemScreen(self.backend.database_description(), error_text(error))
            self.push_screen(screen, self._after_store_problem)
            return
        self._first_screen()

    def _after_store_problem(self, choice: str | None) -> None:
        if choice == "retry":
            self.call_later(self._open_store)
        elif choice == "unsaved":
            self.backend.play_unsaved()
            self.call_later(self._first_screen)
        else:
            self.exit()

    def _first_screen(self) -> None:
        """The lessons when asked for; else resumes the game asked for, starts the one asked
        for, or shows the new-game form."""
        if self.tutorial is not None:
            self._open_lessons(self.tutorial)
            return
        if self.drills:
            self.push_screen(PracticeScreen(self.backend))
            return
        try:
            game_id = (
                self.backend.latest_unfinished() if self.resume is True else (self.resume or None)
            )
        except FivediceError as error:
            self.notify(error_text(error), severity="error", timeout=10)
            game_id = None
        if game_id is not None and self.resume_game(int(game_id)):
            return
        settings = self.initial_settings
        if self.start_now and settings is not None and self.start_game(settings):
            return
        form = (
            SetupForm.from_settings(settings, self.backend.practice)
            if settings is not None
            else None
        )
        self.push_screen(SetupScreen(self.backend, form))

    def _open_lessons(self, tutorial: TutorialStart) -> None:
        """Shows the lesson list, and starts the lesson named, if any."""
        screen = TutorialScreen(tutorial.rules, self.backend, seed=self.seed)
        self.push_screen(screen)
        if tutorial.lesson:
            lesson = pick_lesson(tutorial.lesson)
            if lesson is None:
                self.notify(_("There is no lesson {name!r}.").format(name=tutorial.lesson))
            else:
                screen.open_lesson(lesson.key)

    def start_game(self, settings: GameSettings, form: SetupForm | None = None) -> bool:
        """Starts a game through the service and shows it; False (and says why) when the
        service refuses."""
        if form is not None:
            self._form = form
        practice = form.practice if form is not None else self.backend.practice
        try:
            game = self.backend.start_game(settings, self.seed, practice)
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
            game = self.backend.resume_game(game_id)
            saved = game.load_session()
        except FivediceError as error:
            self.notify(error_text(error), severity="error", timeout=10)
            return False
        self._begin(game, saved)
        return True

    def _begin(self, game: GameInPlay, saved: dict[str, Any] | None = None) -> None:
        self._service = game
        self.play = self.play.for_new_game()
        if saved is not None:
            self.play.restore(saved)
        screen = GameScreen(game, self.play, self.backend)
        if len(self.screen_stack) > 1:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def show_setup(self) -> None:
        """Back to the new-game screen, with the last game's choices filled in."""
        form = self._form
        if form is None and self._service is not None:
            form = SetupForm.from_settings(self._service.state.settings, self._service.practice)
        self.switch_screen(SetupScreen(self.backend, form))

    # What the screens ask for ----------------------------------------------------------------

    @on(SetupScreen.Start)
    def _start_from_form(self, message: SetupScreen.Start) -> None:
        self.start_game(message.settings, message.form)

    @on(SetupScreen.Resume)
    def _resume_from_form(self, message: SetupScreen.Resume) -> None:
        self.resume_game(message.game_id)

    @on(GameScreen.NewGame)
    def _new_game(self, _message: GameScreen.NewGame) -> None:
        self.show_setup()

    @on(HoldemScreen.Rematch)
    def _holdem_rematch(self, message: HoldemScreen.Rematch) -> None:
        """Another Hold'em game with the same seats, through the same service."""
        if self.holdem is None:
            return
        try:
            game_id = self.holdem.service.new_game(message.seats)
        except FivediceError as error:
            self.notify(error_text(error), severity="error", timeout=10)
            return
        self.holdem = HoldemTable(self.holdem.service, game_id, self.holdem.seat)
        self.switch_screen(HoldemScreen(self.holdem, self.play.pace))

    @on(GameScreen.Rematch)
    def _rematch(self, message: GameScreen.Rematch) -> None:
        self.start_game(message.settings)
