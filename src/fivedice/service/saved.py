"""Saved games read through a cache of views: the base of `GameService`.

Every way to get a game lives here, each for one need:

- `view`: the latest view this service knows (cached; may be behind another process);
- `kept`: the cached view only, or None (never reads the database);
- `latest`: the game as saved now, caught up from the cached view with the log's tail;
- `load`: the game as saved now, rebuilt by replaying and checking its whole log;
- `versions_after`: every version a reader missed, rebuilt from the log;
- `record`: the saved record itself (settings, seeds, the action log).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Self

from fivedice.core.game import GameState
from fivedice.core.record import apply_logged, verify_record
from fivedice.core.rules import RuleSet
from fivedice.service.cpu import CPUS_KEPT, CpuFactory, CpuPlayer, make_cpu_player, unknown_level
from fivedice.service.view import GameView
from fivedice.store import (
    ABANDONED,
    FINISHED,
    IN_PROGRESS,
    ActionEntry,
    GameDamagedError,
    GameRecord,
    RecordError,
    Store,
)

if TYPE_CHECKING:
    from fivedice.store.pg_async import AsyncStatements


class SavedGames:
    """Saved games read through a cache of views (and the CPU players kept for them).

    Args:
        store: the database.
        cpu_factory: makes CPU players (default: the strategy layer's bots); tests inject
            simple ones.
        solve_wait: how long a hint or CPU move waits for another thread's table solve before
            `SolverBusyError` (None: as long as it takes; a web server's waits a few seconds).
    """

    CACHED_VIEWS = 10_000
    """How many games' latest views a service keeps (least recently used are dropped)."""

    CACHED_CPUS = CPUS_KEPT  # an instance may keep fewer; CPUS_KEPT caps every process
    """How many CPU players (one per game and seat) a service keeps (least recently used are
    dropped: a CPU is reseeded before every move, so a new one plays the same)."""

    def __init__(
        self,
        store: Store,
        cpu_factory: CpuFactory = make_cpu_player,
        solve_wait: float | None = None,
    ) -> None:
        self.store = store
        self.cpu_factory = cpu_factory
        self.solve_wait = solve_wait
        self._views: OrderedDict[int, GameView] = OrderedDict()
        self._views_lock = threading.Lock()
        # CPU players by (game id, seat), or (-1, seed) for a guided lesson: the most recently
        # used `CPUS_KEPT` (a lesson left half-way or a finished game would otherwise stay
        # for the life of the process, a few kB each, as many as visitors care to start).
        self._cpus: OrderedDict[tuple[int, int], CpuPlayer] = OrderedDict()
        self._cpus_lock = threading.Lock()
        self._coach_tables: dict[RuleSet, Any] = {}

    @classmethod
    def open(cls, url: str | None = None, **options: Any) -> Self:
        """A service on the database at `url` (default: `$FIVEDICE_DATABASE_URL` or the user
        data directory), migrated to the current schema."""
        return cls(Store(url), **options)

    def load(self, game_id: int) -> GameView:
        """The game as saved now, rebuilt by replaying its log.

        Raises:
            GameNotFoundError; GameDamagedError when its rows cannot be read, a CPU seat has
            an unknown level, or the log does not replay to its totals and status.
        """
        record = self.store.load_game(game_id)
        view = GameView.of_record(
            game_id,
            record,
            self._checked_state(game_id, record),
            record.version,
            record.status or IN_PROGRESS,
        )
        self._remember(view)
        return view

    def versions_after(self, game_id: int, after: int | None) -> list[GameView]:
        """The saved game at every version after `after`, oldest first, rebuilt from its
        whole log (the cache is neither read nor changed): what a reader that has seen
        version `after` missed. With `after` None, or beyond the newest version, only the
        game now.

        Raises:
            GameNotFoundError.
        """
        record = self.store.load_game(game_id)
        current = record.version
        status = record.status or IN_PROGRESS
        if after is None or after > current:
            return [GameView.of_record(game_id, record, record.rebuild(), current, status)]
        return [
            GameView.of_record(
                game_id, record, state, version, status if version == current else IN_PROGRESS
            )
            for version, (_entry, state) in enumerate(record.states())
            if version > after
        ]

    def record(self, game_id: int) -> GameRecord:
        """The saved record of a game (settings, seed, the action log with its dice)."""
        return self.store.load_game(game_id)

    @staticmethod
    def _checked_state(game_id: int, record: GameRecord) -> GameState:
        """The state the record replays to, after checking everything a front end relies on.

        Raises:
            GameDamagedError: an unknown CPU level, or the log does not replay to the totals
                and status stored with it (nothing is written).
        """
        for number, seat in enumerate(record.settings.seats, start=1):
            unknown = unknown_level(seat.cpu_level, number)
            if unknown is not None:
                raise GameDamagedError(game_id, unknown)
        try:
            return verify_record(record)
        except RecordError as error:
            raise GameDamagedError(game_id, error) from None

    def view(self, game_id: int) -> GameView:
        """The latest view of the game this service knows: cached, or loaded when not.

        Cheap (no database read when cached), but it may be behind the database when another
        process or service moved the game on. That is safe for deciding an action: every write
        (`apply_action`, `cpu_step`) is checked against the version in the database and
        refused with `StaleVersionError` if the game has moved on (and the cached view is
        caught up from the log's tail then). Use `load` to see the game as saved now.

        Raises:
            GameNotFoundError; RecordError when the log does not replay (as `load`).
        """
        with self._views_lock:
            cached = self._views.get(game_id)
            if cached is not None:
                self._views.move_to_end(game_id)
                return cached
        return self.load(game_id)

    def latest(self, game_id: int, steps: list[GameView] | None = None) -> GameView:
        """The game as saved now, like `load`, but without replaying its log when this
        service has a view of it: the view is brought up to date with the actions saved
        since (one short read of the version, status and new log rows), which are checked
        and applied as a replay would. A game not cached, or whose new entries only the
        whole log explains (an undo), is loaded and replayed once.

        `steps`, when given, receives the views of the versions in between (caught up
        from the cache only), oldest first.

        Raises:
            GameNotFoundError; GameDamagedError as `load`.
        """
        with self._views_lock:
            cached = self._views.get(game_id)
        if cached is None:
            return self.load(game_id)
        version, status, entries = self.store.game_tail(game_id, cached.version)
        view = self._caught_up(cached, version, status, entries, steps)
        return self.load(game_id) if view is None else view

    async def latest_async(
        self, statements: AsyncStatements, game_id: int, steps: list[GameView] | None = None
    ) -> GameView | None:
        """`latest` in the event loop (PostgreSQL, see `fivedice.store.pg_async`): None
        when the game must be loaded and replayed (call `latest` in a thread then)."""
        cached = self.kept(game_id)
        if cached is None:
            return None
        version, status, entries = await statements.game_tail(game_id, cached.version)
        return self._caught_up(cached, version, status, entries, steps)

    def _caught_up(
        self,
        cached: GameView,
        version: int,
        status: str,
        entries: Sequence[ActionEntry],
        steps: list[GameView] | None,
    ) -> GameView | None:
        """The cached view brought up to the game's tail (None: only `load` can say)."""
        if version == cached.version and status == cached.status:
            return cached
        if version < cached.version or len(entries) != version - cached.version:
            return None
        state = cached.state
        between = []
        try:
            for number, entry in enumerate(entries, start=cached.version + 1):
                if entry.seq != number:
                    return None
                if number > cached.version + 1:
                    between.append(replace(cached, state=state, version=number - 1))
                state = apply_logged(state, entry)
        except RecordError:
            return None  # an undo: the whole log decides (and checks)
        if status != ABANDONED and (status == FINISHED) != state.is_match_over:
            return None  # the status and the log disagree: let `load` say so
        view = replace(cached, state=state, version=version, status=status)
        self._remember(view)
        if steps is not None:
            steps.extend(between)
        return view

    def advance_kept(self, game_id: int, entry: ActionEntry) -> GameView | None:
        """The kept view one action on: `entry`, saved by another process (its notice
        carried it, `fivedice.store.notices`), applied without reading the database. None,
        with nothing changed, unless the kept view is the version just before and the
        action replays on it (the next read of the game catches up as usual then)."""
        cached = self.kept(game_id)
        if cached is None or cached.status != IN_PROGRESS or entry.seq != cached.version + 1:
            return None
        try:
            state = apply_logged(cached.state, entry)
        except RecordError:
            return None
        status = FINISHED if state.is_match_over else IN_PROGRESS
        view = replace(cached, state=state, version=entry.seq, status=status)
        self._remember(view)
        return view

    def kept(self, game_id: int) -> GameView | None:
        """The view this service keeps of the game, if any (no database read; it may be
        behind the database, see `view`)."""
        with self._views_lock:
            return self._views.get(game_id)

    def forget(self, game_id: int) -> None:
        """Drops the view this service keeps of the game: the next read loads it from the
        database (for a change the log does not carry, such as a seat handed to a CPU)."""
        with self._views_lock:
            self._views.pop(game_id, None)

    def _remember(self, view: GameView) -> None:
        # Threads of one service (a web server) may finish out of order: never let an older
        # view replace a newer one. A stale cache is harmless anyway: every write is checked
        # against the version in the database.
        with self._views_lock:
            cached = self._views.get(view.game_id)
            if cached is None or cached.version <= view.version:
                self._views[view.game_id] = view
            self._views.move_to_end(view.game_id)
            while len(self._views) > self.CACHED_VIEWS:
                self._views.popitem(last=False)

    def _cpu(self, key: tuple[int, int], make: Callable[[], CpuPlayer]) -> CpuPlayer:
        """The CPU player kept under `key`, made if there is none (the least recently used
        beyond `CPUS_KEPT` are dropped; a game's CPU is reseeded every move, so one made
        again plays the same)."""
        with self._cpus_lock:
            player = self._cpus.get(key)
            if player is not None:
                self._cpus.move_to_end(key)
                return player
        player = make()  # outside the lock: it may wait for a table solve
        with self._cpus_lock:
            player = self._cpus.setdefault(key, player)
            self._cpus.move_to_end(key)
            while len(self._cpus) > min(CPUS_KEPT, self.CACHED_CPUS):
                self._cpus.popitem(last=False)
        return player

    def _drop_cpu(self, key: tuple[int, int]) -> None:
        """Forgets the CPU player kept under `key` (its game or lesson is over)."""
        with self._cpus_lock:
            self._cpus.pop(key, None)
