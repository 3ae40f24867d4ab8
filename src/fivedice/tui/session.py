"""The terminal app's only door to the game: the application service, and the coach.

Nothing here changes game state by itself: actions go through the service (`act`,
`cpu_step`), and the coach only reads a state and asks the advisor (or the service's own
`hint`) what each choice is worth. The advisor is optional (it needs the strategy layer);
every function says so by returning None when it cannot answer.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from fivedice.core.categories import Category
from fivedice.core.errors import FivediceError
from fivedice.core.game import GameSettings, GameState
from fivedice.core.rules import RuleSet
from fivedice.i18n import _

if TYPE_CHECKING:
    from fivedice.store.stats import HighScore, ProfileStats


class GameService(Protocol):
    """What the app needs from a game: the state, actions, CPU steps, its saved session."""

    @property
    def state(self) -> GameState: ...

    @property
    def is_cpu_turn(self) -> bool: ...

    @property
    def practice(self) -> bool: ...

    @property
    def saved(self) -> bool: ...

    def act(self, action: str) -> GameState: ...

    def cpu_step(self) -> Any: ...

    def save_session(self, data: dict[str, Any]) -> None: ...

    def load_session(self) -> dict[str, Any] | None: ...


class SavedGame:
    """A game of the application service: every action is saved before the state is shown.

    Keeps the version of the last view, so each action is sent against it (the service
    refuses stale ones).
    """

    def __init__(self, service: Any, view: Any) -> None:
        self.service = service
        self.view = view

    @property
    def state(self) -> GameState:
        state: GameState = self.view.state
        return state

    @property
    def game_id(self) -> int:
        return int(self.view.game_id)

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

    def hint(self) -> list[Any]:
        """The service's advice for the decision the seat to move faces."""
        return list(self.service.hint(self.view.game_id))


class UnsavedGame:
    """A game held in memory only, because the player chose to play without saving."""

    def __init__(self, game: Any, practice: bool) -> None:
        self.game = game
        self.practice = practice
        self.saved = False

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


_service: Any = None
_database_url: str | None = None
_practice = False
_unsaved = False


def configure(url: str | None = None, practice: bool = False) -> None:
    """Chooses the database (None: the service's default) and whether games are practice."""
    global _service, _database_url, _practice, _unsaved
    _service, _database_url, _practice, _unsaved = None, url, practice, False


def practice_default() -> bool:
    """Whether new games are practice games unless the new-game screen says otherwise."""
    return _practice


def database_description() -> str:
    """The database the app saves to, as the player can find it (a path, or a URL)."""
    from fivedice.store import default_database_url

    text = _database_url or default_database_url()
    try:
        from sqlalchemy.engine import make_url

        url = make_url(text)
    except Exception:  # not a URL at all: show it as it was given
        return text
    if url.get_backend_name() == "sqlite":
        return str(url.database or ":memory:")
    return url.render_as_string(hide_password=True)


def open_service() -> Any:
    """The application service on the chosen database; None once the player chose to play
    without saving (`play_unsaved`).

    Raises:
        StoreError: the database cannot be opened (damaged, foreign, locked, too new, a
            server that does not answer); the app shows it and lets the player choose.
    """
    global _service
    if _unsaved:
        return None
    if _service is None:
        from fivedice.core.errors import N_
        from fivedice.service import GameService as Service
        from fivedice.store import StoreError

        try:
            _service = Service.open(_database_url)
        except StoreError:
            raise
        except Exception as error:  # e.g. a database driver that is not installed
            raise StoreError(
                N_("cannot use the database {database}: {reason}"),
                database=database_description(),
                reason=str(error) or type(error).__name__,
            ) from error
    return _service


def play_unsaved() -> None:
    """From now on games are played in memory only (the player chose so, knowing why)."""
    global _unsaved
    _unsaved = True


def is_unsaved() -> bool:
    """Whether the player chose to play without saving."""
    return _unsaved


def latest_unfinished() -> int | None:
    """The id of the newest unfinished saved game, if any."""
    games = unfinished_games()
    return games[0][1] if games else None


def start_game(
    settings: GameSettings, seed: int | None = None, practice: bool | None = None
) -> GameService:
    """Starts a game through the service: saved, or in memory once the player chose that.

    Raises the service's errors (a store that cannot be written).
    """
    practice = _practice if practice is None else practice
    service = open_service()
    if service is not None:
        return SavedGame(service, service.create_game(settings, seed=seed, practice=practice))
    from fivedice.service import LocalGame

    return UnsavedGame(LocalGame.start(settings, seed=seed), practice)


def unfinished_games() -> list[tuple[str, int]]:
    """Saved games in progress, newest first, as (description, game id); practice games
    say so.

    Raises the service's errors (a store that cannot be read), so the screen can say so.
    """
    service = open_service()
    if service is None:
        return []
    from fivedice.store import IN_PROGRESS

    games = service.list_games(IN_PROGRESS)
    practice = _("practice")
    return [
        (
            f"#{g.game_id} {g.started:%Y-%m-%d %H:%M} · {', '.join(g.players)} · {g.rules}"
            + (f" · {practice}" if g.practice else ""),
            int(g.game_id),
        )
        for g in games[:5]
        if g.kind == "play"  # games at the table resume with `fivedice table`
    ]


def abandon_game(game_id: int) -> None:
    """Marks a saved game abandoned through the service (raises its errors)."""
    service = open_service()
    if service is None:
        from fivedice.core.errors import N_, FivediceError

        raise FivediceError(N_("there is no database to abandon a game in"))
    service.abandon(game_id)


def statistics(profile: str | None = None) -> list[ProfileStats]:
    """Statistics per profile and rule preset (empty without a database).

    Raises the service's errors (a store that cannot be read), so the screen can say so.
    """
    service = open_service()
    if service is None:
        return []
    found: list[ProfileStats] = service.stats(profile)
    return found


def high_score_lists() -> dict[str, list[HighScore]]:
    """The top solo results per rule preset (empty without a database)."""
    service = open_service()
    if service is None:
        return {}
    lists: dict[str, list[HighScore]] = service.high_scores()
    return lists


def resume_game(game_id: int) -> GameService:
    """Loads a saved game through the service (its own settings and dice)."""
    service = open_service()
    if service is None:
        from fivedice.core.errors import N_, FivediceError

        raise FivediceError(N_("there is no database to resume a game from"))
    return SavedGame(service, service.load(game_id))


@dataclass(frozen=True)
class Advice:
    """One option of the coach's ranking, already in the app's terms."""

    keep: tuple[int, ...] | None
    category: Category | None
    value: float
    loss: float
    column: int | None = None
    """The column (0-based) of a box in a several-column game; None otherwise."""
    estimate: bool = False
    """True when the values are the expert CPU's estimates rather than exact optima."""


_table_lock = threading.Lock()


def _options(state: GameState) -> list[Advice] | None:
    """The advisor's ranking for the decision the seat to move faces now (blocking)."""
    if state.dice is None or state.is_match_over:
        return None
    if not state.rules.is_single_column:
        try:
            from fivedice.service import multi_column_hint

            with _table_lock:
                found = multi_column_hint(state)
        except Exception:  # no strategy layer: no ranking
            return None
        return [Advice(o.keep, o.category, o.value, o.loss, o.column, True) for o in found]
    try:
        from fivedice.strategy.advisor import advise
        from fivedice.strategy.cache import load_or_solve
    except ImportError:
        return None
    with _table_lock:  # two hints at once must not solve the same rules twice
        table = load_or_solve(state.rules)
    column = state.cards[state.current_seat].columns[0]
    options = advise(table, column, state.dice, state.rolls_left)
    return [Advice(o.keep, o.category, o.value, o.loss) for o in options]


def warm_up(rules: RuleSet) -> None:
    """Prepares the advisor for these rules (loads or solves the table, compiles the code)."""
    if not rules.is_single_column:
        try:
            from fivedice.strategy.bots import level_values
        except ImportError:
            return
        try:
            with _table_lock:
                level_values(rules, "expert")
        except FivediceError:  # not allowed here: the hint will say so
            pass
        return
    try:
        from fivedice.core.card import Column
        from fivedice.strategy.advisor import advise
        from fivedice.strategy.cache import load_or_solve
    except ImportError:
        return
    try:
        with _table_lock:
            table = load_or_solve(rules)
    except FivediceError:  # not allowed here ($FIVEDICE_SOLVE_RULES): the hint will say so
        return
    advise(table, Column(), (1, 2, 3, 4, 4), 2)


def advise_state(state: GameState, service: object | None = None) -> list[Advice] | None:
    """The ranking, best first; prefers the service's `hint()` when it has one.

    Runs the solver on first use of a rule set, so call it from a worker thread.
    """
    hint = getattr(service, "hint", None)
    if hint is not None and service is not None and getattr(service, "state", None) is state:
        try:
            answer = hint()
        except Exception:  # fall back to asking the advisor directly
            answer = None
        if answer:
            return [
                Advice(
                    getattr(o, "keep", None),
                    getattr(o, "category", None),
                    float(getattr(o, "value", 0.0)),
                    float(getattr(o, "loss", 0.0)),
                    getattr(o, "column", None),
                    bool(getattr(o, "estimate", False)),
                )
                for o in answer
            ]
    return _options(state)


def decision_loss(
    options: list[Advice],
    keep: tuple[int, ...] | None,
    category: Category | None,
    column: int | None = None,
) -> float | None:
    """Expected points a choice (a keep, or a box) loses against the best option.

    With several columns a box is matched in its `column` (0-based) too.
    """
    for option in options:
        if (
            category is not None
            and option.category == category
            and (option.column is None or column is None or option.column == column)
        ):
            return option.loss
        if keep is not None and option.keep is not None and option.keep == tuple(sorted(keep)):
            return option.loss
    return None
