"""The application service the front ends call: games that are saved as they are played.

`GameService` is the one entry point: create a game, apply an action (validate → write it in
one transaction → only then return the new state), let a CPU seat take one step, ask for a
hint, list, resume and abandon games. Front ends never touch core state transitions or the
store directly; they send action text here and render the `GameView` they get back.

Every action carries the `version` (the number of actions applied) it was made against; an
action against any other version is refused with `StaleVersionError` (a double click, a
second window), so nothing is ever applied twice. A failed write raises the retryable
`StoreUnavailableError` and the game stays as it was.

Undo (`can_undo`, `undo`): an ``undo`` entry appended to the log takes back the most recent
action in effect; the game is rebuilt by replaying the log without the undone actions (see
`fivedice.core.record`). When it is allowed is decided in one place, `undo_refusal`.

Dice: a new game rolls verifiable dice (`fivedice.core.fairdice`): a secret server seed,
committed to from the start (`GameView.dice_commitment`) and revealed once the game is over
(`GameView.server_seed`), mixed with the seats' client seeds. A game created with a `seed`
of the client's rolls from that seed instead; its dice are known in advance, so it is always
a practice game (kept out of statistics and high scores).

`LocalGame` is the same game held in memory only (no saving), for simulations and tests.
"""

from __future__ import annotations

import contextlib
import json
import random
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol

from fivedice.core.actions import (
    Action,
    EnterDice,
    Hold,
    Release,
    Roll,
    Score,
    parse_action,
)
from fivedice.core.card import Placement, ScoreCard
from fivedice.core.dice import DiceSource, RandomDice
from fivedice.core.errors import N_, FivediceError, SettingsError
from fivedice.core.fairdice import (
    LEGACY_SCHEME,
    SCHEME,
    DiceSeedError,
    DiceSeeds,
    HmacDice,
    client_seed_list,
)
from fivedice.core.game import GameKind, GameSettings, GameState, apply, new_game
from fivedice.core.record import (
    UNDO,
    RecordingDice,
    UndoTarget,
    apply_logged,
    parse_record,
    verify_record,
)
from fivedice.core.rules import RuleSet
from fivedice.service.tutorial import LESSONS, TutorialRun, find_lesson
from fivedice.service.tutorial import engine as tutorial_engine
from fivedice.store import (
    ABANDONED,
    DAMAGED,
    FINISHED,
    IN_PROGRESS,
    ActionEntry,
    GameClosedError,
    GameDamagedError,
    GameRecord,
    GameSummary,
    NewGame,
    RecordError,
    StaleVersionError,
    Store,
    StoreUnavailableError,
    dice_for,
    record_to_text,
)
from fivedice.store.stats import HighScore, ProfileStats, high_scores, profile_stats
from fivedice.store.tutorial_progress import (
    DONE,
    LOCAL,
    SKIPPED,
    LessonProgress,
    TutorialStore,
)
from fivedice.strategy.hints import Hint, HintKind, estimated_hints, hints_for, hold_positions
from fivedice.strategy.levels import LEVELS
from fivedice.strategy.limits import (
    SolveNotAllowedError,
    SolverBusyError,
    check_coached,
    check_cpu_levels,
    check_supported,
    has_win_chances,
    waiting_at_most,
)

if TYPE_CHECKING:  # the review's types, named here so front ends need not import strategy
    from fivedice.core.verify import Verification
    from fivedice.store.pg_async import AsyncStatements
    from fivedice.strategy.review import CurvePoint as CurvePoint
    from fivedice.strategy.review import Decision as Decision
    from fivedice.strategy.review import GameReview as GameReview
    from fivedice.strategy.review import SeatReview as SeatReview

__all__ = [
    "TABLE_KIND",
    "CpuFactory",
    "CpuLevelError",
    "CpuPlayer",
    "GameService",
    "GameView",
    "Hint",
    "HintKind",
    "HintsUnavailableError",
    "LessonNotFoundError",
    "LocalGame",
    "NotCpuTurnError",
    "ReviewRefusedError",
    "StaleVersionError",
    "StoreUnavailableError",
    "UndoRefusedError",
    "chances_are_estimates",
    "cpu_next_action",
    "game_win_chances",
    "hold_positions",
    "make_cpu_player",
    "state_hints",
    "table_coach_state",
    "undo_refusal",
    "warm_up_hints",
]


class CpuPlayer(Protocol):
    """What a CPU seat needs to decide: which dice to keep, and where to score."""

    def choose_keep(
        self, rules: RuleSet, card: ScoreCard, dice: tuple[int, ...], rolls_left: int
    ) -> tuple[int, ...]:
        """The dice values to keep before the next roll (all five: stop rolling)."""
        ...

    def choose_box(self, rules: RuleSet, card: ScoreCard, dice: tuple[int, ...]) -> Placement:
        """Where to score the dice."""
        ...


CpuFactory = Callable[[str, int | None, RuleSet], CpuPlayer]
"""Makes the CPU player of a seat: (level, seed, rules) -> player."""


class CpuLevelError(SettingsError):
    """A CPU seat of a level that does not exist (the levels: `fivedice.strategy.levels`)."""


def _unknown_level(level: str | None, number: int) -> CpuLevelError | None:
    """The error for seat `number` (from 1) with CPU `level`, if that level does not exist."""
    if level is None or level in LEVELS:
        return None
    return CpuLevelError(
        N_("seat {seat}: a CPU level is one of {levels}, not {level!r}"),
        seat=number,
        levels=", ".join(LEVELS),
        level=level,
    )


class NotCpuTurnError(FivediceError):
    """`cpu_step` was asked for while a human seat is to move (or the game is over)."""


class ReviewRefusedError(FivediceError):
    """A game in progress is not reviewed (that would coach a seat against the others)."""


class HintsUnavailableError(FivediceError):
    """No hint can be given (the strategy layer is not installed, or no dice are rolled)."""


class LessonNotFoundError(FivediceError):
    """No tutorial lesson has the key asked for."""


class UndoRefusedError(FivediceError):
    """An undo that `undo_refusal` does not allow here; nothing was changed."""


TABLE_KIND = GameKind.TABLE.value
"""The `kind` of a table (score-keeper) game: there any action in effect may be taken back."""

CPUS_KEPT = 4096
"""CPU players a service keeps (games' seats and guided lessons), the least recently used
dropped first: a few kB each, so some megabytes at most."""


def undo_refusal(
    record: GameRecord, target: UndoTarget | None, *, table: bool = False
) -> UndoRefusedError | None:
    """Why an undo is not allowed now (None: it is). The one place the undo policy lives.

    Undo is offered where it cannot be abused:

    - in solo games (one seat) and practice games; never in other games with several seats,
      whose results count against other players;
    - for the last action only (an undo right after an undo is refused), and only if a human
      seat made it and it is not a roll (taking back a roll would be a free re-roll);
    - never once the game is over, nor for the score that ended a game of a match (its
      result is recorded).

    Table games (`table=True`, a game whose kind is `TABLE_KIND`) keep score for dice rolled
    at a real table: there any action still in effect may be taken back, one after another,
    as long as it did not end a game.

    Args:
        record: the game's saved record (settings, practice flag, status, log).
        target: `record.undo_target()`: what an undo would take back now.
        table: whether the game is a table game.
    """
    if record.status not in (None, IN_PROGRESS):
        return UndoRefusedError(N_("the game is over; nothing can be taken back"))
    if target is None:
        return UndoRefusedError(N_("there is nothing to take back yet"))
    if target.finished_a_game:
        return UndoRefusedError(
            N_("that score ended a game and its result is recorded; it cannot be taken back")
        )
    if table:
        return None
    seats = record.settings.seats
    if len(seats) > 1 and not record.practice:
        return UndoRefusedError(
            N_("undo is offered in solo and practice games only, not in games against others")
        )
    if target.follows_undo:
        return UndoRefusedError(N_("only the last action can be taken back, and only once"))
    seat = seats[target.entry.seat]
    if seat.is_cpu:
        return UndoRefusedError(
            N_("the last action was {name}'s; only your own can be taken back"), name=seat.name
        )
    if isinstance(parse_action(target.entry.action, None), Roll):
        return UndoRefusedError(N_("a roll cannot be taken back (that would be a free re-roll)"))
    return None


def _is_table_game(record: GameRecord) -> bool:
    # The kind is part of the game's settings (`games.kind` in the store).
    return record.settings.kind.value == TABLE_KIND


def _check_solvable(settings: GameSettings) -> None:
    try:
        check_cpu_levels(settings.rules, (seat.cpu_level for seat in settings.seats))
    except SolveNotAllowedError as error:
        raise SettingsError(error.template, **error.params) from None


def strategy_refusal(rules: RuleSet) -> SolveNotAllowedError | None:
    """Why the coach and the CPU players cannot play these rules (None: they can), for
    front ends that offer the coach before anything is asked of it."""
    try:
        check_coached(rules)
    except SolveNotAllowedError as error:
        return error
    return None


def cpu_next_action(state: GameState, player: CpuPlayer) -> Action:
    """The CPU's next single action: a release, a hold, a roll or a score, one step at a time."""
    turn = state.turn
    if turn.dice is None:
        return Roll()
    observe = getattr(player, "observe", None)
    if observe is not None:  # a player that plays to win looks at the other seats first
        observe(state)
    card = state.cards[turn.seat]
    if state.rolls_left > 0:
        keep = player.choose_keep(state.rules, card, turn.dice, state.rolls_left)
        if len(keep) < len(turn.dice):
            target = hold_positions(turn.dice, turn.held, keep)
            current = set(turn.held_positions)
            if current - target:
                return Release(tuple(sorted(current - target)))
            if target - current:
                return Hold(tuple(sorted(target - current)))
            return Roll()
    placement = player.choose_box(state.rules, card, turn.dice)
    return Score(placement.category, placement.column)


def game_win_chances(state: GameState, *, wait: bool = True) -> tuple[float, ...] | None:
    """Each seat's chance of winning from `state` (None solo or without the strategy layer).

    The review of a game calls this on the state after each turn. Under rules with several
    columns the chances are an estimate (`fivedice.strategy.chances.is_estimate`).

    Args:
        state: any position.
        wait: solve the tables the chances need if they are not at hand (the first time for
            a rule set: about as long as a solve). False: None instead, while they are
            prepared in the background (for a web page).
    """
    if len(state.seats) < 2 or not has_win_chances(state.rules):
        return None
    try:
        from fivedice.strategy.chances import win_chances
        from fivedice.strategy.moments import moments_if_ready
    except ImportError:
        return None
    if wait or (state.is_game_over and state.is_match_over):
        return win_chances(state)
    moments = moments_if_ready(state.rules.replace(column_multipliers=(1,)))
    return None if moments is None else win_chances(state, moments)


def chances_are_estimates(rules: RuleSet) -> bool:
    """Whether `game_win_chances` under these rules are an estimate (several columns)."""
    from fivedice.strategy.chances import is_estimate

    return is_estimate(rules)


def make_cpu_player(level: str, seed: int | None = None, rules: RuleSet | None = None) -> CpuPlayer:
    """A CPU player of a named level (imports the strategy layer only when a CPU plays)."""
    from fivedice.strategy.bots import make_bot

    player: CpuPlayer = make_bot(level, rules or RuleSet(), seed)
    return player


def _reseed(player: CpuPlayer, seed: str) -> None:
    # A bot's only randomness is its `rng`; reseeding it from (game seed, seat, version)
    # before every decision makes a CPU decide the same after a resume as without one.
    rng = getattr(player, "rng", None)
    if isinstance(rng, random.Random):
        rng.seed(seed)


@dataclass(frozen=True)
class GameView:
    """A saved game at one version, as the service returns it (front ends render this)."""

    game_id: int
    state: GameState
    version: int
    status: str
    seed: int
    practice: bool
    dice_scheme: str = LEGACY_SCHEME
    dice_commitment: str | None = None
    """SHA-256 of the secret server seed (hex), shown from the start; None: legacy dice."""
    client_seeds: tuple[str, ...] = ()
    _server_seed: bytes | None = field(default=None, repr=False)

    @property
    def is_over(self) -> bool:
        return self.status != IN_PROGRESS

    @classmethod
    def of_record(
        cls, game_id: int, record: GameRecord, state: GameState, version: int, status: str
    ) -> GameView:
        """The view of a saved game at `version` (its dice seeds included)."""
        return cls(
            game_id,
            state,
            version,
            status,
            record.seed,
            record.practice,
            record.dice_scheme,
            record.dice_commitment,
            record.client_seeds,
            record.server_seed,
        )

    @property
    def server_seed(self) -> str | None:
        """The server seed (hex) once the game is over; None while it is played (or legacy)."""
        if self._server_seed is None or not self.is_over:
            return None
        return self._server_seed.hex()

    def dice_for_action(self, number: int) -> DiceSource:
        """The dice source of action `number` of this game (0: the first-player roll-off)."""
        if self._server_seed is not None:
            return HmacDice(self._server_seed, self.client_seeds, number)
        return dice_for(self.seed, number)

    @property
    def is_cpu_turn(self) -> bool:
        state = self.state
        return self.status == IN_PROGRESS and state.seats[state.current_seat].is_cpu


class GameService:
    """Saved games: the one entry point of every front end.

    Args:
        store: the database.
        cpu_factory: makes CPU players (default: the strategy layer's bots); tests inject
            simple ones.
        solve_wait: how long a hint or CPU move waits for another thread's table solve before
            `SolverBusyError` (None: as long as it takes; the web app sets a few seconds).
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
    def open(cls, url: str | None = None, **options: Any) -> GameService:
        """A service on the database at `url` (default: `$FIVEDICE_DATABASE_URL` or the user
        data directory), migrated to the current schema."""
        return cls(Store(url), **options)

    # -- games ----------------------------------------------------------------------------

    def create_game(
        self,
        settings: GameSettings,
        *,
        seed: int | None = None,
        practice: bool = False,
        client_seeds: Sequence[str | None] = (),
        server_seed: bytes | None = None,
        save: Callable[[NewGame], GameRecord] | None = None,
    ) -> GameView:
        """Saves a new game (with its first-player roll-off, if any) and returns it.

        Args:
            settings: the seats, rules, first-player mode and match length.
            seed: dice from this seed, for a repeatable game. Whoever chose it knows the dice
                in advance, so the game is a practice game whatever `practice` says (not so
                at the table, where the players roll real dice and no seed chooses them).
            practice: keep the game out of statistics and high scores.
            client_seeds: each seat's own seed, in seat order (None or "" for none; missing
                seats have none), mixed into the verifiable dice of a game without `seed`.
            server_seed: the secret server seed, when it was drawn (and its commitment shown)
                before the game was created - a room's, before its friends added seeds;
                None draws a fresh one.
            save: writes the game and returns its record (default: the store's own
                transaction); a room's start passes one that also marks the room started.

        Raises:
            DiceSeedError: a client seed cannot be used, or client seeds with a `seed`.
            CpuLevelError: a CPU seat has a level that does not exist (nothing is saved).
            SettingsError: a strong or expert CPU seat on rules this process may not solve
                (`$FIVEDICE_SOLVE_RULES`): it could never move.
        """
        for number, seat in enumerate(settings.seats, start=1):
            unknown = _unknown_level(seat.cpu_level, number)
            if unknown is not None:
                raise unknown
        _check_solvable(settings)
        seeds: DiceSeeds | None = None
        if settings.is_table:
            # Real dice, typed in: nothing of the app's to verify, and a seed chooses no dice.
            if any(client_seeds):
                raise DiceSeedError(N_("a game at the table takes no client seeds: you roll"))
            seed = random.SystemRandom().getrandbits(62) if seed is None else seed
        elif seed is not None:
            if any(client_seeds):
                raise DiceSeedError(
                    N_("a game with a chosen seed takes no client seeds: its dice are known")
                )
            practice = True  # the client chose the dice
        else:
            seeds = (
                DiceSeeds.new(client_seeds, len(settings.seats))
                if server_seed is None
                else DiceSeeds(server_seed, client_seed_list(client_seeds, len(settings.seats)))
            )
            seed = random.SystemRandom().getrandbits(62)  # seeds the CPU players' choices
        dice_fields: dict[str, Any] = {}
        if seeds is not None:
            dice_fields = {
                "dice_scheme": SCHEME,
                "dice_commitment": seeds.commitment,
                "client_seeds": seeds.client_seeds,
                "_server_seed": seeds.server_seed,
            }
        opening = RecordingDice(seeds.dice(0) if seeds is not None else dice_for(seed, 0))
        state = new_game(settings, opening)
        game = NewGame(settings, seed, practice, tuple(opening.values), (), seeds)
        record = (save or self.store.save_new_game)(game)
        assert record.game_id is not None  # the store always assigns one
        view = GameView(record.game_id, state, 0, IN_PROGRESS, seed, practice, **dice_fields)
        self._remember(view)
        return view

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
            unknown = _unknown_level(seat.cpu_level, number)
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

    def apply_action(self, game_id: int, action: Action | str, version: int) -> GameView:
        """Validates the action, saves it, and only then returns the new state.

        Args:
            game_id: the game.
            action: an action of the seat to move, or its notation.
            version: the version the action was made against (`GameView.version`).

        Raises:
            MalformedActionError, IllegalActionError: nothing is saved.
            StaleVersionError: the game is not at `version` (a repeated or concurrent
                submission); reload and decide again.
            GameClosedError: the game is finished or abandoned.
            StoreUnavailableError: the write failed; nothing changed, the same call may be
                retried.
            UndoRefusedError: the action was ``undo`` (see `undo`) and it is not allowed.
        """
        if isinstance(action, str) and action.strip().lower() == UNDO:
            return self.undo(game_id, version)
        view = self.view(game_id)
        if version != view.version:
            view = self.latest(game_id)  # perhaps another process moved the game on
            if version != view.version:
                raise StaleVersionError(game_id, version, view.version)
        entry, after, finished = self._prepared(view, action)
        try:
            self.store.append_action(game_id, view.version, entry, after, finished)
        except GameClosedError:
            self.forget(game_id)
            raise
        except StaleVersionError:
            # The cached view is only behind: brought up to date from the log's tail (one
            # short read; dropping it would cost a replay of the whole log next time).
            with contextlib.suppress(FivediceError):
                self.latest(game_id)
            raise
        return self._applied(view, after)

    async def apply_action_async(
        self, statements: AsyncStatements, game_id: int, action: Action | str, version: int
    ) -> GameView | None:
        """`apply_action` in the event loop (PostgreSQL, see `fivedice.store.pg_async`) for
        the usual action on a game this service keeps. None, with nothing saved, for what
        only `apply_action` does (a game not kept, an undo, an action that ends a game of
        the match): call it in a thread then.

        Raises:
            As `apply_action`.
        """
        if isinstance(action, str) and action.strip().lower() == UNDO:
            return None
        view = self.kept(game_id)
        if view is None:
            return None
        if version != view.version:
            view = await self.latest_async(statements, game_id)
            if view is None:
                return None
            if version != view.version:
                raise StaleVersionError(game_id, version, view.version)
        entry, after, finished = self._prepared(view, action)
        if finished:
            return None
        try:
            await statements.append(game_id, view.version, entry, after)
        except GameClosedError:
            self.forget(game_id)
            raise
        except StaleVersionError:  # (as `apply_action`: the view caught up, not dropped)
            with contextlib.suppress(FivediceError):
                await self.latest_async(statements, game_id)
            raise
        return self._applied(view, after)

    def _prepared(
        self, view: GameView, action: Action | str
    ) -> tuple[ActionEntry, GameState, tuple[int, ...]]:
        """The log entry of `action` on `view`, the state after it and the games of the
        match it finishes (nothing is saved).

        Raises:
            GameClosedError, MalformedActionError, IllegalActionError.
        """
        if view.status != IN_PROGRESS:
            raise GameClosedError(
                N_("game {game_id} is {status}; it takes no more actions"),
                game_id=view.game_id,
                status=view.status,
            )
        if isinstance(action, str):
            action = parse_action(action, view.state.rules.dice)
        state = view.state
        number = view.version + 1
        dice = RecordingDice(view.dice_for_action(number))
        after = apply(state, action, dice)  # raises before anything is written
        finished = _finished_game_numbers(state, after)
        entry = ActionEntry(number, state.current_seat, str(action), tuple(dice.values))
        return entry, after, finished

    def _applied(self, view: GameView, after: GameState) -> GameView:
        """The view after a saved action, kept."""
        status = FINISHED if after.is_match_over else IN_PROGRESS
        new_view = replace(view, state=after, version=view.version + 1, status=status)
        self._remember(new_view)
        return new_view

    def can_undo(self, game_id: int) -> UndoRefusedError | None:
        """Why `undo` would be refused now (None: it would be allowed); see `undo_refusal`.

        Reads the game's log (one query and a replay): call it when the answer is shown,
        not in a tight loop. The refusal is an error to show with
        `fivedice.wording.text.error_text`.

        Raises:
            GameNotFoundError; RecordError when the log does not replay.
        """
        record = self.store.load_game(game_id)
        return undo_refusal(record, record.undo_target(), table=_is_table_game(record))

    def undo(self, game_id: int, version: int) -> GameView:
        """Takes back the most recent action in effect, if `undo_refusal` allows it.

        The undo is appended to the log as an entry of its own (nothing is deleted), and the
        game returned is the log replayed without the undone action.

        Raises:
            UndoRefusedError: the policy does not allow it; nothing was saved.
            StaleVersionError: the game is not at `version`.
            StoreUnavailableError, GameClosedError: as `apply_action`.
        """
        view = self.view(game_id)
        if version != view.version:
            view = self.latest(game_id)
            if version != view.version:
                raise StaleVersionError(game_id, version, view.version)
        record = self.store.load_game(game_id)
        if record.version != version:
            self.forget(game_id)
            raise StaleVersionError(game_id, version, record.version)
        target = record.undo_target()
        refusal = undo_refusal(record, target, table=_is_table_game(record))
        if refusal is not None:
            raise refusal
        assert target is not None  # undo_refusal refuses when there is nothing to undo
        entry = ActionEntry(version + 1, target.entry.seat, UNDO, ())
        try:
            self.store.append_action(game_id, version, entry, target.before)
        except (StaleVersionError, GameClosedError):
            self.forget(game_id)
            raise
        new_view = replace(view, state=target.before, version=version + 1, status=IN_PROGRESS)
        self._remember(new_view)
        return new_view

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

    def cpu_action(self, view: GameView) -> Action:
        """What the CPU seat to move would do next (nothing is applied)."""
        if not view.is_cpu_turn:
            raise NotCpuTurnError(N_("it is not a CPU seat's turn"))
        seat = view.state.current_seat
        level = view.state.seats[seat].cpu_level
        assert level is not None  # is_cpu_turn checked it
        unknown = _unknown_level(level, seat + 1)
        if unknown is not None:  # (`load` refuses such a game; a view may be built elsewhere)
            raise GameDamagedError(view.game_id, unknown)
        key = (view.game_id, seat)
        with waiting_at_most(self.solve_wait):  # a strong or expert CPU may need a solve
            player = self._cpu(
                key, lambda: self.cpu_factory(level, view.seed + seat, view.state.rules)
            )
            _reseed(player, f"fivedice/{view.seed}/cpu/{seat}/{view.version}")
            return cpu_next_action(view.state, player)

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

    def cpu_step(self, game_id: int, version: int) -> tuple[Action, GameView]:
        """Lets the CPU seat to move take one action (saved like any other) and returns it.

        Raises:
            NotCpuTurnError: a human is to move. Otherwise as `apply_action`.
        """
        view = self.view(game_id)
        if version != view.version:
            view = self.latest(game_id)
            if version != view.version:
                raise StaleVersionError(game_id, version, view.version)
        action = self.cpu_action(view)
        return action, self.apply_action(game_id, action, version)

    async def cpu_step_async(
        self, statements: AsyncStatements, game_id: int, version: int
    ) -> GameView | None:
        """`cpu_step` in the event loop (PostgreSQL) for a game this service keeps at
        `version`, with a CPU that decides at once (the web driver's beginner and casual
        seats): None, with nothing saved, when only `cpu_step` can do it."""
        view = self.kept(game_id)
        if view is None or view.version != version:
            return None
        action = self.cpu_action(view)
        return await self.apply_action_async(statements, game_id, action, version)

    def hint(
        self,
        game_id: int,
        dice: Sequence[int] | None = None,
        rolls_left: int | None = None,
    ) -> list[Hint]:
        """The options for the seat to move, best first (needs the strategy layer).

        One column: exact values (the advisor's). Several columns: values as the expert CPU
        estimates them (`Hint.estimate`). See `fivedice.strategy.hints`.

        Args:
            game_id: the game.
            dice: at the table, the dice typed for the coach (default: the dice entered).
            rolls_left: at the table, the rolls the player still has (default 0: choose a
                box); with rolls left the keeps are ranked too.

        Raises:
            HintsUnavailableError: no advisor here, or nothing to decide.
            SolveNotAllowedError: the rules are not on `$FIVEDICE_SOLVE_RULES`, or the
                strategy layer cannot play them (`UnsupportedByStrategyError`).
            SolverBusyError: another table is being solved (longer than `solve_wait`).
        """
        view = self.view(game_id)
        state = view.state
        check_coached(state.rules)
        if state.settings.is_table and not view.is_over:
            state = table_coach_state(state, dice, rolls_left)
        elif dice is not None or rolls_left is not None:
            raise HintsUnavailableError(
                N_("typed dice are for games at the table; here the coach uses the dice rolled")
            )
        if view.is_over:
            raise HintsUnavailableError(N_("hints are given once the dice are rolled"))
        return state_hints(state, self.solve_wait)

    def review(self, game_id: int) -> GameReview:
        """Every decision of every seat of a finished or abandoned game against the best one.

        Returns a `fivedice.strategy.review.GameReview` (exact for one column; estimates,
        marked so, for several). With several seats every curve point has the winning
        chances of its moment (`game_win_chances`). Abandoned games can be reviewed too:
        they can no longer be played on, so a review helps no one against the others.

        Raises:
            GameNotFoundError; ReviewRefusedError: the game is still in progress;
            HintsUnavailableError: no strategy layer here;
            SolverBusyError: a new table is needed while another is solved (`solve_wait`).
        """
        record = self.store.load_game(game_id)
        if (record.status or IN_PROGRESS) == IN_PROGRESS:
            raise ReviewRefusedError(
                N_("game {game_id} is still in progress: it can be reviewed once it is over"),
                game_id=game_id,
            )
        try:
            check_supported(record.settings.rules)
        except SolveNotAllowedError as error:
            raise ReviewRefusedError(error.template, **error.params) from None
        try:
            from fivedice.strategy.review import review_game
        except ImportError as error:
            raise HintsUnavailableError(
                N_("the strategy layer is not available: {reason}"), reason=str(error)
            ) from None
        replay = ((entry.action if entry else None, state) for entry, state in record.states())
        with waiting_at_most(self.solve_wait):  # unusual rules need a table: bounded, as hints
            return review_game(
                replay,
                game_id=game_id,
                status=record.status or "",
                estimate_options=estimated_hints,
                win_chances=game_win_chances,
            )

    def win_chances(self, game_id: int) -> tuple[float, ...] | None:
        """Each seat's chance of winning the game (or match) from the current position.

        None with a single seat, or when the strategy layer is not installed. The chances sum
        to 1; ties share the win. See `game_win_chances` and `fivedice.strategy.chances`.
        """
        return game_win_chances(self.view(game_id).state)

    def abandon(self, game_id: int) -> None:
        """Marks an unfinished game abandoned; it stays listed but is not resumed."""
        self.store.abandon_game(game_id)
        self.forget(game_id)

    def save_session(self, game_id: int, session: dict[str, Any]) -> None:
        """Saves a front end's session of a game (settings such as pace and language, and
        its move log) as JSON, so a resume can restore it. The game itself never needs it.

        Raises:
            GameNotFoundError; StoreUnavailableError (nothing changed, try again).
        """
        self.store.save_session(game_id, json.dumps(session, ensure_ascii=False))

    def load_session(self, game_id: int) -> dict[str, Any] | None:
        """The session saved with a game, or None (none saved, or not a JSON object)."""
        text = self.store.load_session(game_id)
        if text is None:
            return None
        try:
            session = json.loads(text)
        except ValueError:  # a damaged session is dropped: the game itself is intact
            return None
        return session if isinstance(session, dict) else None

    def list_games(self, status: str | None = None) -> list[GameSummary]:
        """Saved games, newest first (optionally only those with `status`).

        A damaged game is listed with its `damage` (and status ``damaged``); so is a game with
        a CPU seat of an unknown level. Its log is not replayed here (`load` does that).
        """
        return [_with_level_check(game) for game in self.store.list_games(status)]

    def latest_unfinished(self, kind: str = GameKind.PLAY.value) -> GameSummary | None:
        """The newest game still in progress of a kind (default: rolled by the app), if any
        (perhaps damaged: `load` says how)."""
        games = self.store.list_games(IN_PROGRESS, limit=1, kind=kind)
        return _with_level_check(games[0]) if games else None

    def export(self, game_id: int) -> str:
        """The game record as text (settings, seed, and every action with its dice).

        Raises:
            GameNotFoundError; GameDamagedError as `load` (a damaged game is not exported,
            so every exported record replays).
        """
        record = self.store.load_game(game_id)
        self._checked_state(game_id, record)
        return record_to_text(record)

    def verify_dice(self, game_id: int) -> Verification:
        """Checks a game's dice as anyone else would: from its exported record alone (the
        commitment, and every roll recomputed from the revealed seeds).

        Raises:
            GameNotFoundError; GameDamagedError as `export`; VerifyRefusedError: the game
            is in progress (its server seed is still secret).
        """
        from fivedice.core.verify import verify_record as check_dice

        return check_dice(parse_record(self.export(game_id), check=False))

    def stats(self, profile: str | None = None) -> list[ProfileStats]:
        """Statistics per profile and rule preset (practice games excluded)."""
        return profile_stats(self.store.results(profile))

    def high_scores(self) -> dict[str, list[HighScore]]:
        """The top 10 solo results per rule preset (practice games excluded)."""
        return high_scores(self.store.results())

    # -- the tutorial (fivedice.service.tutorial): nothing of it is saved as a game -----------

    # The tutorial methods take the `owner` of the progress: "" (the default) for the local
    # user of the command line and terminal app, a browser session's key for a web visitor.

    def tutorial_progress(self, owner: str = LOCAL) -> dict[str, LessonProgress]:
        """Every lesson the owner did or skipped, by key (its own table, apart from games
        and stats)."""
        return TutorialStore(self.store).tutorial_progress(owner)

    def tutorial_start(
        self,
        lesson: str,
        rules: RuleSet | None = None,
        *,
        seed: int | None = None,
        player: str | None = None,
    ) -> TutorialRun:
        """A lesson at its first step (again, for a replay) under the rules in force.

        Raises:
            LessonNotFoundError: no lesson has that key.
        """
        found = find_lesson(lesson)
        if found is None:
            raise LessonNotFoundError(
                N_("there is no lesson {lesson!r}; the lessons are {lessons}"),
                lesson=lesson,
                lessons=", ".join(item.key for item in LESSONS),
            )
        seed = random.SystemRandom().getrandbits(62) if seed is None else seed
        return tutorial_engine.start(found, rules or RuleSet(), seed=seed, player=player)

    def tutorial_act(
        self, run: TutorialRun, action: Action | str, owner: str | None = LOCAL
    ) -> TutorialRun:
        """The run after the player's action (see `fivedice.service.tutorial.attempt`); a lesson
        finished by it is recorded as done for the owner (not at all when it is None: a
        web visitor without a session).

        Raises:
            MalformedActionError: the text is not an action. StoreUnavailableError: the
            action would finish the lesson but its progress could not be saved; the caller
            keeps the run it had, so the same action can be tried again.
        """
        if isinstance(action, str):
            action = parse_action(action)
        cpu = None
        if run.lesson.guided:
            level = tutorial_engine.GUIDED_CPU_LEVEL
            player = self._cpu(
                (-1, run.seed), lambda: self.cpu_factory(level, run.seed + 1, run.rules)
            )

            def cpu(state: GameState) -> Action:
                return cpu_next_action(state, player)

        after = tutorial_engine.attempt(run, action, coach=self.tutorial_coach, cpu=cpu)
        if after.finished and not run.finished:
            if owner is not None:
                self.tutorial_mark_done(after.lesson.key, owner)
            with self._cpus_lock:
                self._cpus.pop((-1, run.seed), None)  # the guided game's CPU is done too
        return after

    def tutorial_mark_done(self, lesson: str, owner: str = LOCAL) -> LessonProgress:
        """Records a lesson as done for the owner."""
        return TutorialStore(self.store).mark_lesson(owner, lesson, DONE)

    def tutorial_skip(self, lesson: str, owner: str = LOCAL) -> LessonProgress:
        """Records a lesson as skipped for the owner (a lesson done stays done).

        Raises:
            LessonNotFoundError: no lesson has that key.
        """
        if find_lesson(lesson) is None:
            raise LessonNotFoundError(
                N_("there is no lesson {lesson!r}; the lessons are {lessons}"),
                lesson=lesson,
                lessons=", ".join(item.key for item in LESSONS),
            )
        return TutorialStore(self.store).mark_lesson(owner, lesson.strip().casefold(), SKIPPED)

    def tutorial_reset(self, owner: str = LOCAL) -> None:
        """Forgets the owner's tutorial progress (other owners' progress, the games and the
        statistics stay as they are)."""
        TutorialStore(self.store).reset_tutorial(owner)

    def tutorial_coach(self, state: GameState) -> list[Hint]:
        """The coach's options for the seat to move, best first (empty when it cannot say:
        no dice yet, or no strategy layer)."""
        if state.dice is None or state.is_match_over:
            return []
        table = self._coach_tables.get(state.rules) if state.rules.columns == 1 else None
        try:
            if table is None and state.rules.columns == 1:
                from fivedice.strategy.cache import load_or_solve

                # Bounded like a hint; where no table may be had (allow-list, busy) the lesson
                # goes on with the coach silent rather than failing the player's action.
                with waiting_at_most(self.solve_wait):
                    table = load_or_solve(state.rules)
                self._coach_tables[state.rules] = table
            return hints_for(state, table)
        except (ImportError, SolveNotAllowedError, SolverBusyError):
            return []

    def tutorial_coach_line(self, run: TutorialRun) -> str:
        """The coach's suggestion for the decision now in the guided game ("" otherwise)."""
        if not run.lesson.guided:
            return ""
        return tutorial_engine.coach_line(run, self.tutorial_coach)


def state_hints(state: GameState, solve_wait: float | None = None) -> list[Hint]:
    """The hints for the seat to move in a state, best first: the one path from the strategy
    layer to every front end (`GameService.hint`, `LocalGame.hint`).

    Args:
        state: the position (a game, or a table game's coach state).
        solve_wait: how long to wait for another thread's table solve (None: as needed).

    Raises:
        HintsUnavailableError: no dice rolled, the game is over, or no strategy layer.
        SolveNotAllowedError, SolverBusyError: as `GameService.hint`.
    """
    if state.dice is None or state.is_match_over:
        raise HintsUnavailableError(N_("hints are given once the dice are rolled"))
    try:
        with waiting_at_most(solve_wait):
            return hints_for(state)
    except ImportError as error:
        raise HintsUnavailableError(
            N_("the strategy layer is not available: {reason}"), reason=str(error)
        ) from None


def warm_up_hints(rules: RuleSet) -> None:
    """Readies hints for these rules ahead of the first one (loads or solves the table,
    compiles the kernels), so the first hint comes at once. Silent when it cannot: the
    hint itself will say why."""
    from fivedice.core.card import Column

    try:
        if rules.columns != 1:
            from fivedice.strategy.bots import level_values

            level_values(rules, "expert")
            return
        from fivedice.strategy.advisor import advise
        from fivedice.strategy.cache import load_or_solve

        advise(load_or_solve(rules), Column(), (1, 2, 3, 4, 4), 2)
    except (ImportError, FivediceError):  # no strategy layer, or not allowed here
        return


def table_coach_state(
    state: GameState, dice: Sequence[int] | None, rolls_left: int | None
) -> GameState:
    """The decision the coach ranks at the table: typed (or entered) dice, rolls left.

    Nothing is applied: the state only carries the dice and rolls to the advisor.

    Raises:
        HintsUnavailableError: no dice, or more rolls left than a turn has after its first.
    """
    most = state.rules.rolls_per_turn - 1
    left = 0 if rolls_left is None else rolls_left
    if isinstance(left, bool) or not isinstance(left, int) or not 0 <= left <= most:
        raise HintsUnavailableError(
            N_("rolls left is a number from 0 to {most}, not {value!r}"), most=most, value=left
        )
    if dice is None:
        if state.dice is None:
            raise HintsUnavailableError(
                N_("type the dice for the coach, or enter them first (e.g. 'dice 3 3 3 5 5')")
            )
        roll = state.dice
    else:
        try:
            roll = EnterDice(tuple(sorted(dice))).dice
        except FivediceError as error:
            raise HintsUnavailableError(error.template, **error.params) from None
    turn = replace(state.turn, dice=roll, rolls_used=state.rules.rolls_per_turn - left)
    return replace(state, turn=turn)


def _with_level_check(game: GameSummary) -> GameSummary:
    """The listing line, marked damaged when a CPU seat has an unknown level."""
    if game.damage is not None:
        return game
    for number, level in enumerate(game.cpu_levels, start=1):
        unknown = _unknown_level(level, number)
        if unknown is not None:
            damage = GameDamagedError(game.game_id, unknown)
            return replace(game, status=DAMAGED, totals=(), damage=damage)
    return game


def _finished_game_numbers(before: GameState, after: GameState) -> tuple[int, ...]:
    """Which games of the match the last action finished (at most one)."""
    if after.game_number > before.game_number or (after.is_match_over and not before.is_match_over):
        return (before.game_number,)
    return ()


@dataclass
class LocalGame:
    """A game held in memory only: the state, its dice, and the CPU players of its seats."""

    state: GameState
    dice: RandomDice
    cpu_players: dict[int, CpuPlayer] = field(default_factory=dict)
    log: list[tuple[str, tuple[int, ...] | None]] = field(default_factory=list)

    @classmethod
    def start(
        cls,
        settings: GameSettings,
        seed: int | None = None,
        cpu_factory: CpuFactory = make_cpu_player,
    ) -> LocalGame:
        dice = RandomDice(seed)
        players = {
            index: cpu_factory(
                seat.cpu_level, None if seed is None else seed + index, settings.rules
            )
            for index, seat in enumerate(settings.seats)
            if seat.cpu_level is not None
        }
        return cls(new_game(settings, dice), dice, players)

    @property
    def is_cpu_turn(self) -> bool:
        return not self.state.is_match_over and self.state.current_seat in self.cpu_players

    def act(self, action: Action | str) -> GameState:
        """Applies an action of the seat to move; on error the state is unchanged."""
        self.state = apply(self.state, action, self.dice)
        self.log.append((str(action), self.state.dice))
        return self.state

    def hint(self) -> list[Hint]:
        """The options for the seat to move, best first (see `state_hints`)."""
        return state_hints(self.state)

    def cpu_step(self) -> Action:
        """Lets the CPU seat to move take one action, and returns it."""
        player = self.cpu_players[self.state.current_seat]
        action = cpu_next_action(self.state, player)
        self.act(action)
        return action
