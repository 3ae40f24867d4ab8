"""The terminal apps' only door to the game: the application service, and the coach.

`Backend` (one per App, handed to the screens that need it; no module state) opens the
service on the chosen database and answers for saved games, statistics and lessons; the
games it starts or resumes (`SavedGame`, `UnsavedGame`: each a `GameInPlay`; `TableGame`)
send every action to the service. Nothing here changes game state by itself, and the coach
only reads a state and asks the service what each choice is worth (`coach_hints`: one
`Hint` type for one or several columns).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from fivedice.core.categories import Category
from fivedice.core.game import GameSettings, GameState
from fivedice.core.rules import RuleSet
from fivedice.i18n import _

if TYPE_CHECKING:
    from fivedice.service.games import GameService, GameView, Hint, LocalGame, SkillStats
    from fivedice.store.stats import HighScore, ProfileStats


class GameInPlay(Protocol):
    """A game the app plays, saved or in memory: the state, actions, CPU steps, and the
    app's session saved with it."""

    @property
    def state(self) -> GameState: ...

    @property
    def is_cpu_turn(self) -> bool: ...

    @property
    def practice(self) -> bool: ...

    @property
    def saved(self) -> bool: ...

    @property
    def game_id(self) -> int | None:
        """The saved game's id (None: played in memory only)."""
        ...

    def act(self, action: str) -> GameState: ...

    def cpu_step(self) -> Any: ...

    def save_session(self, data: dict[str, Any]) -> None: ...

    def load_session(self) -> dict[str, Any] | None: ...


class ServiceGame:
    """A saved game seen through the service: keeps the last view, so each action is sent
    against its version (the service refuses stale ones)."""

    def __init__(self, service: GameService, view: GameView) -> None:
        self.service = service
        self.view = view

    @property
    def state(self) -> GameState:
        """The game as last saved."""
        return self.view.state

    @property
    def game_id(self) -> int:
        """The saved game's id."""
        return int(self.view.game_id)


class SavedGame(ServiceGame):
    """A game of the application service: every action is saved before the state is shown."""

    @property
    def is_cpu_turn(self) -> bool:
        return bool(self.view.is_cpu_turn)

    @property
    def practice(self) -> bool:
        return bool(self.view.practice)

    @property
    def saved(self) -> bool:
        return True

    def save_session(self, data: dict[str, Any]) -> None:
        """Saves the app's session of this game (raises the service's errors)."""
        self.service.save_session(self.view.game_id, data)

    def load_session(self) -> dict[str, Any] | None:
        """The session saved with this game, if any (raises the service's errors)."""
        found: dict[str, Any] | None = self.service.load_session(self.view.game_id)
        return found

    def act(self, action: str) -> GameState:
        """Applies an action through the service (raises its errors; nothing changes then)."""
        self.view = self.service.apply_action(self.view.game_id, action, self.view.version)
        return self.state

    def cpu_step(self) -> Any:
        """Lets the CPU seat to move take one action through the service."""
        action, self.view = self.service.cpu_step(self.view.game_id, self.view.version)
        return action


class TableGame(ServiceGame):
    """A game at the table (`fivedice table`) through the service: entries of real dice,
    undo, and the coach for typed dice."""

    def act(self, action: str) -> GameView:
        """Sends an entry to the service (raises its errors; nothing changes then)."""
        from fivedice.service.table import table_entry

        entry = table_entry(action)  # boxes named as on the card, in any language
        self.view = self.service.apply_action(self.view.game_id, entry, self.view.version)
        return self.view

    def undo(self) -> GameView:
        """Takes back the last entry in effect through the service."""
        self.view = self.service.undo(self.view.game_id, self.view.version)
        return self.view

    def hint(self, dice: Sequence[int] | None, rolls_left: int) -> list[Hint]:
        """The coach's options for typed (or entered) dice with `rolls_left`."""
        hints: list[Hint] = self.service.hint(self.view.game_id, dice, rolls_left, explain=True)
        return hints


class UnsavedGame:
    """A game held in memory only, because the player chose to play without saving."""

    def __init__(self, game: LocalGame, practice: bool) -> None:
        self.game = game
        self.practice = practice
        self.saved = False
        self.game_id: int | None = None

    @property
    def state(self) -> GameState:
        state: GameState = self.game.state
        return state

    @property
    def is_cpu_turn(self) -> bool:
        return bool(self.game.is_cpu_turn)

    def act(self, action: str) -> GameState:
        state: GameState = self.game.act(action)
        return state

    def cpu_step(self) -> Any:
        return self.game.cpu_step()

    def save_session(self, data: dict[str, Any]) -> None:
        """Nothing to save to."""

    def load_session(self) -> dict[str, Any] | None:
        return None


class Backend:
    """The terminal apps' door to the application service: which database, whether new
    games are practice games, and whether the player chose to play without saving.

    The App owns one and hands it to the screens that need it (no module state). The service
    is opened on first use; a database that cannot be opened raises, so the app can say why
    and let the player choose (`StoreProblemScreen`), never silently playing unsaved.
    """

    def __init__(self, url: str | None = None, practice: bool = False) -> None:
        """Args:
        url: the database URL (None: the service's default, `$FIVEDICE_DATABASE_URL` or
            the user data directory).
        practice: whether new games are practice games unless the new-game screen says
            otherwise.
        """
        self.url = url
        self.practice = practice
        self.unsaved = False
        self._service: GameService | None = None
        # The lessons' service once the player chose to play unsaved (see `lesson_service`).
        self._memory: GameService | None = None

    def database_description(self) -> str:
        """The database the app saves to, as the player can find it (a path, or a URL)."""
        from fivedice.service.opening import describe_database

        return describe_database(self.url)

    def open_service(self) -> GameService | None:
        """The application service on the chosen database; None once the player chose to
        play without saving (`play_unsaved`).

        Raises:
            StoreError: the database cannot be opened (damaged, foreign, locked, too new, a
                server that does not answer); the app shows it and lets the player choose.
        """
        if self.unsaved:
            return None
        if self._service is None:
            from fivedice.core.errors import N_
            from fivedice.service.errors import StoreError
            from fivedice.service.games import GameService as Service

            try:
                self._service = Service.open(self.url)
            except StoreError:
                raise
            except Exception as error:  # e.g. a database driver that is not installed
                raise StoreError(
                    N_("cannot use the database {database}: {reason}"),
                    database=self.database_description(),
                    reason=str(error) or type(error).__name__,
                ) from error
        return self._service

    def lesson_service(self) -> GameService:
        """The service the tutorial plays its lessons through: the saved one, or, once the
        player chose to play without saving, one in memory (the lessons work; what was done
        is forgotten when the app ends, like the games).

        Raises:
            StoreError: as `open_service`.
        """
        service = self.open_service()
        if service is not None:
            return service
        if self._memory is None:
            from fivedice.service.games import GameService as Service

            self._memory = Service.open("sqlite://")
        return self._memory

    def play_unsaved(self) -> None:
        """From now on games are played in memory only (the player chose so, knowing why)."""
        self.unsaved = True

    def latest_unfinished(self) -> int | None:
        """The id of the newest unfinished saved game, if any."""
        games = self.unfinished_games()
        return games[0][1] if games else None

    def start_game(
        self, settings: GameSettings, seed: int | None = None, practice: bool | None = None
    ) -> GameInPlay:
        """Starts a game through the service: saved, or in memory once the player chose that.

        Raises the service's errors (a store that cannot be written).
        """
        practice = self.practice if practice is None else practice
        service = self.open_service()
        if service is not None:
            return SavedGame(service, service.create_game(settings, seed=seed, practice=practice))
        from fivedice.service.games import LocalGame

        return UnsavedGame(LocalGame.start(settings, seed=seed), practice)

    def unfinished_games(self) -> list[tuple[str, int]]:
        """Saved games in progress, newest first, as (description, game id); practice games
        say so.

        Raises the service's errors (a store that cannot be read), so the screen can say so.
        """
        service = self.open_service()
        if service is None:
            return []
        from fivedice.i18n import formats
        from fivedice.service.opening import IN_PROGRESS

        games = [g for g in service.list_games(IN_PROGRESS) if g.kind == "play"][:5]
        practice = _("practice")
        return [
            (
                f"#{g.game_id} {formats.moment(g.started)} · {', '.join(g.players)} · "
                f"{self._rules_title(service, g.rules, g.game_id)}"
                + (f" · {practice}" if g.practice else ""),
                int(g.game_id),
            )
            for g in games  # games at the table resume with `fivedice table`
        ]

    @staticmethod
    def _rules_title(service: GameService, key: str, game_id: int) -> str:
        """A saved game's rules by name; custom rules by what differs ("Classic, bonus at
        70"), read from the game itself."""
        from fivedice.service.records import find_preset_rules
        from fivedice.wording.rules import rules_title

        rules = find_preset_rules(key)
        if rules is None:
            try:
                rules = service.load(game_id).state.rules
            except Exception:  # a damaged game: its key is all there is
                return key
        return rules_title(rules)

    def rules_titles(self) -> dict[str, str]:
        """The names of the rules of the stored results, by key (empty without a database)."""
        service = self.open_service()
        if service is None:
            return {}
        titles: dict[str, str] = service.rules_titles()
        return titles

    def abandon_game(self, game_id: int) -> None:
        """Marks a saved game abandoned through the service (raises its errors)."""
        service = self.open_service()
        if service is None:
            from fivedice.core.errors import N_, FivediceError

            raise FivediceError(N_("there is no database to abandon a game in"))
        service.abandon(game_id)

    def statistics(self, profile: str | None = None) -> list[ProfileStats]:
        """Statistics per profile and rule preset (empty without a database).

        Raises the service's errors (a store that cannot be read), so the screen can say so.
        """
        service = self.open_service()
        if service is None:
            return []
        found: list[ProfileStats] = service.stats(profile)
        return found

    def skill(self, profile: str | None = None) -> list[SkillStats]:
        """Each player's proficiency over their games per rules (empty without a database).

        Raises the service's errors (a store that cannot be read), so the screen can say so.
        """
        service = self.open_service()
        if service is None:
            return []
        found: list[SkillStats] = service.skill(profile)
        return found

    def high_score_lists(self) -> dict[str, list[HighScore]]:
        """The top solo results per rule preset (empty without a database)."""
        service = self.open_service()
        if service is None:
            return {}
        lists: dict[str, list[HighScore]] = service.high_scores()
        return lists

    def resume_game(self, game_id: int) -> GameInPlay:
        """Loads a saved game through the service (its own settings and dice)."""
        service = self.open_service()
        if service is None:
            from fivedice.core.errors import N_, FivediceError

            raise FivediceError(N_("there is no database to resume a game from"))
        return SavedGame(service, service.load(game_id))


def coach_hints(state: GameState, explain: bool = False, goal: str | None = None) -> list[Hint]:
    """The coach's options for the seat to move in `state` (the game's now, or a decision
    just made, for the coach's verdict), best first, from the service; `explain`: with
    their breakdown (`Hint.parts`: the reasons); with a goal ("300", "beat Ann"), ranked by
    the chance of reaching it.

    May solve the rules' table on first use: call it from a worker thread.

    Raises:
        HintsUnavailableError: no strategy layer, or nothing to decide. Other service errors
            (a table that may not be solved here).
    """
    from fivedice.service.games import state_hints

    return state_hints(state, explain=explain, goal=goal)


def warm_up(rules: RuleSet, progress: Callable[[int, int], None] | None = None) -> None:
    """Readies the coach for these rules (loads or solves the table, compiles the code);
    `progress(states_done, states_total)` is told how far a solve has come."""
    from fivedice.service.games import warm_up_hints

    warm_up_hints(rules, progress)


def decision_loss(
    options: list[Hint],
    keep: tuple[int, ...] | None,
    category: Category | None,
    column: int | None = None,
) -> float | None:
    """Expected points a choice (a keep, or a box) loses against the best option.

    With several columns a box is matched in its `column` (0-based) too.
    """
    found = next((option for option in options if option.is_choice(keep, category, column)), None)
    return None if found is None else found.loss
