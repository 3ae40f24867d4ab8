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

The service is one class made of cohesive parts, each in its own module: `saved` (the view
cache and every way to read a game), this module (the lifecycle: create, act, undo, CPU
steps, abandon), `coach` (hints, chances), `review`, `records` (listings, exports, stats,
sessions) and `tutorial.service`. `LocalGame` (`local`) is the same game held in memory
only (no saving), for simulations and tests. Front ends import every public name from here.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from fivedice.core.actions import Action, Hold, Release, parse_action
from fivedice.core.errors import N_, FivediceError, IllegalActionError, SettingsError
from fivedice.core.fairdice import DiceSeedError, DiceSeeds, client_seed_list
from fivedice.core.game import GameSettings, GameState, apply, new_game
from fivedice.core.record import UNDO, RecordingDice, terms_digest
from fivedice.core.rules import RuleSet
from fivedice.service.coach import (
    Coaching,
    chances_are_estimates,
    game_win_chances,
    goal_table_cost,
    goal_total,
    state_hints,
    strategy_refusal,
    table_coach_state,
    warm_up_hints,
)
from fivedice.service.cpu import (
    CpuFactory,
    CpuPlayer,
    cpu_next_action,
    make_cpu_player,
    reseed,
    unknown_level,
)
from fivedice.service.drills import Drills
from fivedice.service.errors import (
    CpuLevelError,
    HintsUnavailableError,
    LessonNotFoundError,
    NotCpuTurnError,
    ReviewRefusedError,
    UndoRefusedError,
)
from fivedice.service.local import LocalGame
from fivedice.service.records import Records
from fivedice.service.review import Reviews
from fivedice.service.saved import SavedGames
from fivedice.service.tutorial.service import Tutorials
from fivedice.service.undo import TABLE_KIND, is_table_game, is_undo, undo_refusal
from fivedice.service.view import GameView, action_dice
from fivedice.store import (
    FINISHED,
    IN_PROGRESS,
    ActionEntry,
    GameClosedError,
    GameDamagedError,
    GameRecord,
    NewGame,
    StaleVersionError,
    StoreUnavailableError,
)
from fivedice.store.expiry import Expired
from fivedice.strategy.hints import Hint, HintKind, hold_positions
from fivedice.strategy.limits import (
    OPTIMAL_LEVELS,
    SolveNotAllowedError,
    check_cpu_levels,
    waiting_at_most,
)

if TYPE_CHECKING:  # the review's types, named here so front ends need not import strategy
    from fivedice.store.pg_async import AsyncStatements
    from fivedice.strategy.review import CurvePoint as CurvePoint
    from fivedice.strategy.review import Decision as Decision
    from fivedice.strategy.review import GameReview as GameReview
    from fivedice.strategy.review import Proficiency as Proficiency
    from fivedice.strategy.review import SeatReview as SeatReview
    from fivedice.strategy.review import SkillStats as SkillStats
    from fivedice.strategy.review import SkillTrend as SkillTrend

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
    "goal_table_cost",
    "goal_total",
    "hold_positions",
    "make_cpu_player",
    "state_hints",
    "strategy_refusal",
    "table_coach_state",
    "undo_refusal",
    "warm_up_hints",
]


class GameService(Coaching, Reviews, Records, Tutorials, Drills, SavedGames):
    """Saved games: the one entry point of every front end (made as `SavedGames` is: a
    store, a CPU factory, and how long a hint or CPU move waits for another's solve)."""

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
            SolverBusyError: such a seat on rules nobody solved yet, and the current permit
                (`permitting_new_solves`: the web client's quota) refuses a new rule set.
        """
        for number, seat in enumerate(settings.seats, start=1):
            unknown = unknown_level(seat.cpu_level, number)
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
            # The rules and players are bound into every die (scheme hmac-sha256-v2).
            seeds = replace(seeds, terms=terms_digest(settings, practice))
        dice_fields: dict[str, Any] = {}
        if seeds is not None:
            dice_fields = {
                "dice_scheme": seeds.scheme,
                "dice_commitment": seeds.commitment,
                "client_seeds": seeds.client_seeds,
                "_server_seed": seeds.server_seed,
            }
        opening = RecordingDice(
            action_dice(
                None if seeds is None else seeds.server_seed,
                () if seeds is None else seeds.client_seeds,
                seed,
                0,
                None if seeds is None else seeds.terms,
            )
        )
        state = new_game(settings, opening)
        game = NewGame(settings, seed, practice, tuple(opening.values), (), seeds)
        record = (save or self.store.save_new_game)(game)
        assert record.game_id is not None  # the store always assigns one
        view = GameView(record.game_id, state, 0, IN_PROGRESS, seed, practice, **dice_fields)
        self._remember(view)
        return view

    def _view_at(self, game_id: int, version: int) -> GameView:
        """The game at `version`, the version an action was made against: the cached view,
        or, when that is at another version, the game as saved now (`latest`: perhaps
        another process moved it on).

        Raises:
            StaleVersionError: the game as saved now is at another version.
            GameNotFoundError; GameDamagedError as `load`.
        """
        view = self.view(game_id)
        if version != view.version:
            view = self.latest(game_id)
            _check_version(view, version)
        return view

    def apply_action(
        self,
        game_id: int,
        action: Action | str,
        version: int,
        *,
        by_seats: Collection[int] | None = None,
    ) -> GameView:
        """Validates the action, saves it, and only then returns the new state.

        Args:
            game_id: the game.
            action: an action of the seat to move, or its notation.
            version: the version the action was made against (`GameView.version`).
            by_seats: the seats whoever asks holds (for ``undo``; None: every seat).

        Raises:
            MalformedActionError, IllegalActionError: nothing is saved.
            StaleVersionError: the game is not at `version` (a repeated or concurrent
                submission); reload and decide again.
            GameClosedError: the game is finished or abandoned.
            StoreUnavailableError: the write failed; nothing changed, the same call may be
                retried.
            UndoRefusedError: the action was ``undo`` (see `undo`) and it is not allowed.
        """
        if is_undo(action):
            return self.undo(game_id, version, by_seats=by_seats)
        view = self._view_at(game_id, version)
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
        applied = self._applied(view, after)
        if after.is_match_over:
            # The statistics' proficiency of its players, while the table is at hand
            # (a summary that fails now is made when the statistics first need it).
            with contextlib.suppress(FivediceError):
                self.summarize_game(game_id, may_solve=False)
        return applied

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
        if is_undo(action):
            return None
        view = self.kept(game_id)
        if view is None:
            return None
        if version != view.version:
            view = await self.latest_async(statements, game_id)
            if view is None:
                return None
            _check_version(view, version)
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
        if isinstance(action, Hold | Release):
            _check_toggles(view)
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
        before = view.state.turn
        toggled = after.turn.held != before.held and after.turn == replace(
            before, held=after.turn.held
        )
        new_view = replace(
            view,
            state=after,
            version=view.version + 1,
            status=status,
            toggles=view.toggles + 1 if toggled else 0,
        )
        self._remember(new_view)
        return new_view

    def can_undo(
        self, game_id: int, by_seats: Collection[int] | None = None
    ) -> UndoRefusedError | None:
        """Why `undo` would be refused now (None: it would be allowed); see `undo_refusal`.

        Reads the game's log (one query and a replay): call it when the answer is shown,
        not in a tight loop. The refusal is an error to show with
        `fivedice.wording.text.error_text`.

        Raises:
            GameNotFoundError; RecordError when the log does not replay.
        """
        record = self.store.load_game(game_id)
        return undo_refusal(
            record, record.undo_target(), table=is_table_game(record), by_seats=by_seats
        )

    def undo(
        self, game_id: int, version: int, *, by_seats: Collection[int] | None = None
    ) -> GameView:
        """Takes back the most recent action in effect, if `undo_refusal` allows it.

        The undo is appended to the log as an entry of its own (nothing is deleted), and the
        game returned is the log replayed without the undone action.

        Raises:
            UndoRefusedError: the policy does not allow it; nothing was saved.
            StaleVersionError: the game is not at `version`.
            StoreUnavailableError, GameClosedError: as `apply_action`.
        """
        view = self._view_at(game_id, version)
        if view.version >= log_bound(view.state):
            raise TooManyActionsError(
                N_("this game has taken {most} actions: no more undo, roll or score now"),
                most=log_bound(view.state),
            )
        record = self.store.load_game(game_id)
        if record.version != version:
            self.forget(game_id)
            raise StaleVersionError(game_id, version, record.version)
        target = record.undo_target()
        refusal = undo_refusal(record, target, table=is_table_game(record), by_seats=by_seats)
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

    def cpu_action(self, view: GameView) -> Action:
        """What the CPU seat to move would do next (nothing is applied)."""
        if not view.is_cpu_turn:
            raise NotCpuTurnError(N_("it is not a CPU seat's turn"))
        seat = view.state.current_seat
        level = view.state.seats[seat].cpu_level
        assert level is not None  # is_cpu_turn checked it
        unknown = unknown_level(level, seat + 1)
        if unknown is not None:  # (`load` refuses such a game; a view may be built elsewhere)
            raise GameDamagedError(view.game_id, unknown)
        key = (view.game_id, seat)
        with waiting_at_most(self.solve_wait):  # a strong or expert CPU may need a solve
            player = self._cpu(
                key, lambda: self.cpu_factory(level, view.seed + seat, view.state.rules)
            )
            reseed(player, f"fivedice/{view.seed}/cpu/{seat}/{view.version}")
            return cpu_next_action(view.state, player)

    def cpu_tables_ready(self, view: GameView) -> bool:
        """Whether the CPU seat to move (if any) decides without solving anything: the
        tables its level plays from are at hand. Never solves."""
        level = _cpu_to_move(view)
        if level is None:
            return True
        from fivedice.strategy.players import tables_ready  # (numpy: only when needed)

        return tables_ready(level, view.state.rules)

    def prepare_cpu(self, view: GameView, patient: bool = False) -> None:
        """Makes ready the tables the CPU seat to move plays from (a solve if nobody solved
        these rules yet, waiting for the solver at most `solve_wait` - as long as it takes
        if `patient` -, as the current permit allows), so that its step - under the game's
        lock - solves nothing. Called outside any game's lock.

        Raises:
            SolverBusyError: the solver stayed busy, or the permit refuses a new table.
            SolveNotAllowedError: rules this process may not solve.
        """
        level = _cpu_to_move(view)
        if level is None or self.cpu_tables_ready(view):
            return
        from fivedice.strategy.players import prepare_tables

        with waiting_at_most(None if patient else self.solve_wait):
            prepare_tables(level, view.state.rules)

    def cpu_step(self, game_id: int, version: int) -> tuple[Action, GameView]:
        """Lets the CPU seat to move take one action (saved like any other) and returns it.

        Raises:
            NotCpuTurnError: a human is to move. Otherwise as `apply_action`.
        """
        view = self._view_at(game_id, version)
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

    def expire_unstarted(self, *, game_age: timedelta, room_age: timedelta) -> Expired:
        """Deletes games nobody played within `game_age` of their creation and rooms nobody
        started within `room_age` (`Store.expire_unstarted`, batch after batch); a game with
        any action and a started room are never touched. The views kept of deleted games are
        dropped, so they read as games that never existed.

        Raises:
            StoreUnavailableError: the database is unreachable (earlier batches stay deleted).
        """
        now = datetime.now(UTC)
        games: list[int] = []
        rooms: list[int] = []
        for _batch in range(100):  # (bounded: 50,000 of each per call at most)
            expired, full = self.store.expire_unstarted(
                games_made_before=now - game_age, rooms_made_before=now - room_age
            )
            games += expired.game_ids
            rooms += expired.room_ids
            for game_id in expired.game_ids:
                self.forget(game_id)
            if not full:
                break
        return Expired(tuple(games), tuple(rooms))

    def abandon(self, game_id: int) -> None:
        """Marks an unfinished game abandoned; it stays listed but is not resumed."""
        self.store.abandon_game(game_id)
        self.forget(game_id)


def _check_solvable(settings: GameSettings) -> None:
    check_cpu_seats(settings.rules, [seat.cpu_level for seat in settings.seats])


def check_cpu_seats(rules: RuleSet, levels: Sequence[str | None]) -> None:
    """Refuses CPU seats of these levels on these rules where they could never move (rules
    this process may not solve), or where they need a table nobody solved and the current
    permit refuses a new one (a game's creation, a seat handed to a CPU: every path that
    sets a CPU to play spends the same permit; its moves are made later, in the background).

    Raises:
        SettingsError: rules this process may not solve (`$FIVEDICE_SOLVE_RULES`).
        SolverBusyError: the permit refuses (`SolveQuotaSpentError`: the quota is spent).
    """
    try:
        check_cpu_levels(rules, levels)
    except SolveNotAllowedError as error:
        raise SettingsError(error.template, **error.params) from None
    if any(level in OPTIMAL_LEVELS for level in levels):
        from fivedice.strategy.cache import permit_cpu_tables  # (numpy: only when needed)

        permit_cpu_tables(rules, levels)  # a new rule set spends the client's permit


TOGGLES_PER_ROLL = 24
"""Holds and releases in a row a seat may make before it rolls or scores (Maxi Yatzy's six
dice each held and released twice: 24): enough for anyone; beyond it, only a roll or a score
(an alternating `hold 1`/`release 1` once grew a log by ~165 actions a second)."""
UNDOS_PER_TURN = 4
"""Undos a game's log makes room for per turn (`log_bound`)."""


class TooManyActionsError(IllegalActionError):
    """A seat toggled its holds too often before rolling or scoring, or the game's log is at
    its bound (`log_bound`): only progress (a roll, a score) is taken now."""


def log_bound(state: GameState) -> int:
    """The most actions a game's log takes before an undo is refused: every turn of the
    match with each roll's holds and releases at their bound, and a few undos per turn."""
    rules, settings = state.rules, state.settings
    turns = len(rules.boxes) * rules.columns * len(settings.seats) * settings.match_length
    per_turn = rules.rolls_per_turn * (TOGGLES_PER_ROLL + 1) + 1 + UNDOS_PER_TURN
    return turns * per_turn


def _check_toggles(view: GameView) -> None:
    """Refuses a hold or release past `TOGGLES_PER_ROLL` in a row."""
    if view.toggles >= TOGGLES_PER_ROLL:
        raise TooManyActionsError(
            N_("{most} holds and releases in a row: roll or score now"), most=TOGGLES_PER_ROLL
        )


def _cpu_to_move(view: GameView) -> str | None:
    """The level of the CPU seat to move (None: a person, or nobody, is to move)."""
    if not view.is_cpu_turn:
        return None
    return view.state.seats[view.state.current_seat].cpu_level


def _finished_game_numbers(before: GameState, after: GameState) -> tuple[int, ...]:
    """Which games of the match the last action finished (at most one)."""
    if after.game_number > before.game_number or (after.is_match_over and not before.is_match_over):
        return (before.game_number,)
    return ()


def _check_version(view: GameView, version: int) -> None:
    """Raises `StaleVersionError` unless the game as saved now (`view`) is at `version`."""
    if version != view.version:
        raise StaleVersionError(view.game_id, version, view.version)
