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
from fivedice.core.game import GameSettings, GameState
from fivedice.core.rules import RuleSet

if TYPE_CHECKING:
    from fivedice.store.stats import HighScore, ProfileStats


class GameService(Protocol):
    """What the app needs from a game: the state, actions, CPU steps."""

    @property
    def state(self) -> GameState: ...

    @property
    def is_cpu_turn(self) -> bool: ...

    def act(self, action: str) -> GameState: ...

    def cpu_step(self) -> Any: ...


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


_service: Any = None
_database_url: str | None = None
_practice = False


def configure(url: str | None = None, practice: bool = False) -> None:
    """Chooses the database (None: the service's default) and whether games are practice."""
    global _service, _database_url, _practice
    _service, _database_url, _practice = None, url, practice


def open_service() -> Any:
    """The application service on the chosen database, or None when it cannot be opened."""
    global _service
    if _service is None:
        try:
            from fivedice.service import GameService as Service

            _service = Service.open(_database_url)
        except Exception:  # no database: the app still plays, unsaved
            return None
    return _service


def latest_unfinished() -> int | None:
    """The id of the newest unfinished saved game, if any."""
    games = unfinished_games()
    return games[0][1] if games else None


def start_game(settings: GameSettings, seed: int | None = None) -> GameService:
    """Starts a game through the service: saved when the store opens, in memory otherwise."""
    service = open_service()
    if service is not None:
        return SavedGame(service, service.create_game(settings, seed=seed, practice=_practice))
    from fivedice.service import LocalGame

    return LocalGame.start(settings, seed=seed)


def unfinished_games() -> list[tuple[str, int]]:
    """Saved games in progress, newest first, as (description, game id)."""
    service = open_service()
    if service is None:
        return []
    try:
        from fivedice.store import IN_PROGRESS

        games = service.list_games(IN_PROGRESS)
    except Exception:  # a broken store must not stop a new game
        return []
    return [
        (
            f"#{g.game_id} {g.started:%Y-%m-%d %H:%M} · {', '.join(g.players)} · {g.rules}",
            int(g.game_id),
        )
        for g in games[:5]
        if not g.practice and g.kind == "play"  # games at the table: `fivedice table`
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
        with _table_lock:
            level_values(rules, "expert")
        return
    try:
        from fivedice.core.card import Column
        from fivedice.strategy.advisor import advise
        from fivedice.strategy.cache import load_or_solve
    except ImportError:
        return
    with _table_lock:
        table = load_or_solve(rules)
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
            and option.category is category
            and (option.column is None or column is None or option.column == column)
        ):
            return option.loss
        if keep is not None and option.keep is not None and option.keep == tuple(sorted(keep)):
            return option.loss
    return None
