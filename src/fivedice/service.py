"""The application service the front ends call: games that are saved as they are played.

`GameService` is the one entry point: create a game, apply an action (validate → write it in
one transaction → only then return the new state), let a CPU seat take one step, ask for a
hint, list, resume and abandon games. Front ends never touch core state transitions or the
store directly; they send action text here and render the `GameView` they get back.

Every action carries the `version` (the number of actions applied) it was made against; an
action against any other version is refused with `StaleVersionError` (a double click, a
second window), so nothing is ever applied twice. A failed write raises the retryable
`StoreUnavailableError` and the game stays as it was.

`LocalGame` is the same game held in memory only (no saving), for simulations and tests.
"""

from __future__ import annotations

import random
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple, Protocol

from fivedice.core.actions import Action, Hold, Release, Roll, Score, parse_action
from fivedice.core.card import Placement, ScoreCard
from fivedice.core.categories import Category
from fivedice.core.dice import RandomDice
from fivedice.core.errors import N_, FivediceError
from fivedice.core.game import GameSettings, GameState, apply, new_game
from fivedice.core.rules import RuleSet
from fivedice.store import (
    FINISHED,
    IN_PROGRESS,
    ActionEntry,
    GameClosedError,
    GameRecord,
    GameSummary,
    StaleVersionError,
    Store,
    StoreUnavailableError,
    dice_for,
    record_to_text,
)
from fivedice.store.records import RecordingDice
from fivedice.store.stats import HighScore, ProfileStats, high_scores, profile_stats

__all__ = [
    "ColumnOption",
    "CpuFactory",
    "CpuPlayer",
    "GameService",
    "GameView",
    "HintsUnavailableError",
    "LocalGame",
    "NotCpuTurnError",
    "StaleVersionError",
    "StoreUnavailableError",
    "cpu_next_action",
    "game_win_chances",
    "hold_positions",
    "make_cpu_player",
    "multi_column_hint",
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


class NotCpuTurnError(FivediceError):
    """`cpu_step` was asked for while a human seat is to move (or the game is over)."""


class HintsUnavailableError(FivediceError):
    """No hint can be given (the strategy layer is not installed, or no dice are rolled)."""


def hold_positions(dice: Sequence[int], held: Sequence[bool], keep: Sequence[int]) -> set[int]:
    """Positions (1-5) to hold so that exactly the values in `keep` are held.

    Dice already held are preferred, so a CPU changes as few holds as it can.
    """
    wanted = Counter(keep)
    chosen: set[int] = set()
    order = sorted(range(len(dice)), key=lambda i: not held[i])
    for index in order:
        if wanted[dice[index]] > 0:
            wanted[dice[index]] -= 1
            chosen.add(index + 1)
    if sum(wanted.values()):
        raise ValueError(f"cannot keep {tuple(keep)} from {tuple(dice)}")
    return chosen


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
    if len(state.seats) < 2:
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

    @property
    def is_over(self) -> bool:
        return self.status != IN_PROGRESS

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
    """

    CACHED_VIEWS = 10_000
    """How many games' latest views a service keeps (least recently used are dropped)."""

    def __init__(self, store: Store, cpu_factory: CpuFactory = make_cpu_player) -> None:
        self.store = store
        self.cpu_factory = cpu_factory
        self._views: OrderedDict[int, GameView] = OrderedDict()
        self._views_lock = threading.Lock()
        self._cpus: dict[tuple[int, int], CpuPlayer] = {}

    @classmethod
    def open(cls, url: str | None = None, **options: Any) -> GameService:
        """A service on the database at `url` (default: `$FIVEDICE_DATABASE_URL` or the user
        data directory), migrated to the current schema."""
        return cls(Store(url), **options)

    # -- games ----------------------------------------------------------------------------

    def create_game(
        self, settings: GameSettings, *, seed: int | None = None, practice: bool = False
    ) -> GameView:
        """Saves a new game (with its first-player roll-off, if any) and returns it."""
        seed = random.SystemRandom().getrandbits(62) if seed is None else seed
        opening = RecordingDice(dice_for(seed, 0))
        state = new_game(settings, opening)
        record = self.store.create_game(
            settings, seed=seed, practice=practice, opening_dice=opening.values
        )
        assert record.game_id is not None  # the store always assigns one
        view = GameView(record.game_id, state, 0, IN_PROGRESS, seed, practice)
        self._remember(view)
        return view

    def load(self, game_id: int) -> GameView:
        """The game as saved now, rebuilt by replaying its log.

        Raises:
            GameNotFoundError; RecordError when the log does not replay.
        """
        record = self.store.load_game(game_id)
        view = self._view_of(record)
        self._remember(view)
        return view

    def record(self, game_id: int) -> GameRecord:
        """The saved record of a game (settings, seed, the action log with its dice)."""
        return self.store.load_game(game_id)

    @staticmethod
    def _view_of(record: GameRecord) -> GameView:
        assert record.game_id is not None
        return GameView(
            record.game_id,
            record.rebuild(),
            record.version,
            record.status or IN_PROGRESS,
            record.seed,
            record.practice,
        )

    def view(self, game_id: int) -> GameView:
        """The latest view of the game this service knows: cached, or loaded when not.

        Cheap (no database read when cached), but it may be behind the database when another
        process or service moved the game on. That is safe for deciding an action: every write
        (`apply_action`, `cpu_step`) is checked against the version in the database and
        refused with `StaleVersionError` if the game has moved on, and a refused write drops
        the cached view. Use `load` to see the game as saved now.

        Raises:
            GameNotFoundError; RecordError when the log does not replay (as `load`).
        """
        with self._views_lock:
            cached = self._views.get(game_id)
            if cached is not None:
                self._views.move_to_end(game_id)
                return cached
        return self.load(game_id)

    def _forget(self, game_id: int) -> None:
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
        """
        view = self.view(game_id)
        if version != view.version:
            view = self.load(game_id)  # perhaps another process moved the game on
            if version != view.version:
                raise StaleVersionError(game_id, version, view.version)
        if view.status != IN_PROGRESS:
            raise GameClosedError(
                N_("game {game_id} is {status}; it takes no more actions"),
                game_id=game_id,
                status=view.status,
            )
        if isinstance(action, str):
            action = parse_action(action)
        state = view.state
        number = view.version + 1
        dice = RecordingDice(dice_for(view.seed, number))
        after = apply(state, action, dice)  # raises before anything is written
        finished = _finished_game_numbers(state, after)
        entry = ActionEntry(number, state.current_seat, str(action), tuple(dice.values))
        try:
            self.store.append_action(game_id, view.version, entry, after, finished)
        except (StaleVersionError, GameClosedError):
            self._forget(game_id)
            raise
        status = FINISHED if after.is_match_over else IN_PROGRESS
        new_view = replace(view, state=after, version=number, status=status)
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
        key = (view.game_id, seat)
        if key not in self._cpus:
            self._cpus[key] = self.cpu_factory(level, view.seed + seat, view.state.rules)
        player = self._cpus[key]
        _reseed(player, f"fivedice/{view.seed}/cpu/{seat}/{view.version}")
        return cpu_next_action(view.state, player)

    def cpu_step(self, game_id: int, version: int) -> tuple[Action, GameView]:
        """Lets the CPU seat to move take one action (saved like any other) and returns it.

        Raises:
            NotCpuTurnError: a human is to move. Otherwise as `apply_action`.
        """
        view = self.view(game_id)
        if version != view.version:
            view = self.load(game_id)
            if version != view.version:
                raise StaleVersionError(game_id, version, view.version)
        action = self.cpu_action(view)
        return action, self.apply_action(game_id, action, version)

    def hint(self, game_id: int) -> list[Any]:
        """The options for the seat to move, best first (needs the strategy layer).

        One column: the advisor's exact `Option`s. Several columns: `ColumnOption`s valued
        as the expert CPU values them (see `multi_column_hint`): estimates, not exact values.

        Raises:
            HintsUnavailableError: no advisor here, or nothing to decide.
        """
        view = self.view(game_id)
        state = view.state
        if view.is_over or state.dice is None:
            raise HintsUnavailableError(N_("hints are given once the dice are rolled"))
        if state.rules.columns != 1:
            return multi_column_hint(state)
        try:
            from fivedice.strategy.advisor import advise
            from fivedice.strategy.cache import load_or_solve
        except ImportError as error:
            raise HintsUnavailableError(
                N_("the strategy layer is not available: {reason}"), reason=str(error)
            ) from None
        table = load_or_solve(state.rules)
        column = state.cards[state.current_seat].columns[0]
        return list(advise(table, column, state.dice, state.rolls_left))

    def win_chances(self, game_id: int) -> tuple[float, ...] | None:
        """Each seat's chance of winning the game (or match) from the current position.

        None with a single seat, or when the strategy layer is not installed. The chances sum
        to 1; ties share the win. See `game_win_chances` and `fivedice.strategy.chances`.
        """
        return game_win_chances(self.view(game_id).state)

    def abandon(self, game_id: int) -> None:
        """Marks an unfinished game abandoned; it stays listed but is not resumed."""
        self.store.abandon_game(game_id)
        self._forget(game_id)

    def list_games(self, status: str | None = None) -> list[GameSummary]:
        """Saved games, newest first (optionally only those with `status`)."""
        return self.store.list_games(status)

    def latest_unfinished(self) -> GameSummary | None:
        """The newest game still in progress, if any."""
        games = self.store.list_games(IN_PROGRESS, limit=1)
        return games[0] if games else None

    def export(self, game_id: int) -> str:
        """The game record as text (settings, seed, and every action with its dice)."""
        return record_to_text(self.store.load_game(game_id))

    def stats(self, profile: str | None = None) -> list[ProfileStats]:
        """Statistics per profile and rule preset (practice games excluded)."""
        return profile_stats(self.store.results(profile))

    def high_scores(self) -> dict[str, list[HighScore]]:
        """The top 10 solo results per rule preset (practice games excluded)."""
        return high_scores(self.store.results())


class ColumnOption(NamedTuple):
    """One choice of a several-column hint: keep dice, or score in a box of a column.

    Shaped like the advisor's `Option` (keep, category, value, loss, label) plus `column`
    (0-based; None for a keep) and `estimate` (always True: the values are the expert CPU's
    estimates - optimal one-column values per column times its multiplier - not exact).
    """

    keep: tuple[int, ...] | None
    category: Category | None
    value: float
    loss: float = 0.0
    column: int | None = None
    estimate: bool = True

    @property
    def label(self) -> str:
        """The option as notation-like words: "keep 6 6", "keep nothing", "score 2:sixes"."""
        if self.category is not None:
            return f"score {(self.column or 0) + 1}:{self.category.key}"
        return "keep " + (" ".join(map(str, self.keep)) if self.keep else "nothing")


def multi_column_hint(state: GameState) -> list[ColumnOption]:
    """Every keep and every legal (column, box) of the seat to move, best first.

    Valued exactly as the expert CPU decides (`Bot.keep_options` and the same placement
    kernel as `Bot.choose_box`): per column, the optimal one-column state values times the
    column's multiplier. `value` is the estimated points still to come (the card's current
    estimate plus the option's gain), `loss` the difference to the best option. Equal values
    list boxes (columns left to right, card order) before keeps (largest first).

    Raises:
        HintsUnavailableError: no dice rolled, the game is over, or no strategy layer.
    """
    if state.dice is None or state.is_match_over:
        raise HintsUnavailableError(N_("hints are given once the dice are rolled"))
    try:
        import numpy as np

        from fivedice.core.categories import CATEGORIES
        from fivedice.strategy import heuristics as h
        from fivedice.strategy.bots import Level, make_bot
    except ImportError as error:
        raise HintsUnavailableError(
            N_("the strategy layer is not available: {reason}"), reason=str(error)
        ) from None
    rules = state.rules
    card = state.cards[state.current_seat]
    dice = state.dice
    bot = make_bot(Level.EXPERT, rules)
    values = bot.values_for(rules)
    rt = h.rule_tables(rules)
    boxes, _ = h.card_arrays(card.columns)
    base = 0.0  # the card's estimated points to come: the zero of the options' values
    for index, column_boxes in enumerate(boxes):
        mask, up, armed = h.column_key(column_boxes, rt.params)
        base += rules.column_multipliers[index] * float(values[mask, up, armed])
    raw: list[tuple[float, int, ColumnOption]] = []
    size = rules.columns * h.N_BOXES
    cols = np.empty(size, dtype=np.int64)
    box_ids = np.empty(size, dtype=np.int64)
    jokers = np.empty(size, dtype=np.int64)
    option_values = np.empty(size)
    count = h.placement_options(
        boxes, rt.multipliers, h.dice_tables().roll_of[tuple(sorted(dice))], False,
        rt.scores, rt.joker_scores, rt.five, rt.params, values,
        np.array(h.TYPICAL_BOX_VALUE), cols, box_ids, jokers, option_values,
    )  # fmt: skip
    for i in range(count):
        option = ColumnOption(
            None, CATEGORIES[int(box_ids[i])], base + float(option_values[i]), 0.0, int(cols[i])
        )
        raw.append((option.value, len(raw), option))
    if state.rolls_left > 0:
        for keep, gain in bot.keep_options(rules, card, dice, state.rolls_left):
            raw.append((base + gain, len(raw), ColumnOption(tuple(keep), None, base + gain)))
    raw.sort(key=lambda item: (-round(item[0], 9), item[1]))
    best = raw[0][0]
    return [option._replace(loss=max(best - value, 0.0)) for value, _, option in raw]


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

    def cpu_step(self) -> Action:
        """Lets the CPU seat to move take one action, and returns it."""
        player = self.cpu_players[self.state.current_seat]
        action = cpu_next_action(self.state, player)
        self.act(action)
        return action
