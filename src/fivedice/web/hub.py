"""The web side of the service: public ids, seat tokens, one lock per game, the event cache.

The use cases (games, rooms, seats, CPU steps, hints) are the service's (`fivedice.service`);
the hub puts them behind public ids and seat tokens, takes the game's lock, keeps each
version's JSON for the event streams and announces every change.

`GameService` keeps a cache of game views (`GameService.view`) and is not meant to be entered
by two threads for the same game at once, so every call about one game holds that game's lock
(FastAPI runs the synchronous endpoints in a thread pool). Each game has its own lock
(`fivedice.service.locks.GameLocks`: made on demand, dropped when unused), and no lock is
held while a table is solved: a CPU step makes its tables ready first (`prepare_cpu`).
Across worker processes the store's version check keeps a game consistent.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Unpack

import orjson

from fivedice.core.errors import N_, FivediceError, MalformedActionError, RuleSetError
from fivedice.core.fairdice import DiceSeedError
from fivedice.core.game import SettingsError
from fivedice.core.record import UNDO
from fivedice.service.creation import Commitments, GameOptions, PlayerSpec, create_game
from fivedice.service.errors import SolverBusyError
from fivedice.service.games import GameService, GameView, Hint
from fivedice.service.locks import GameLocks
from fivedice.service.rights import Right, SeatFacts, SeatRightError, seat_refusal
from fivedice.service.rooms import FILL_LEVEL, RoomSeatSpec, RoomService
from fivedice.service.seats import NotYourTurnError, game_facts, hand_to_cpu, turn_refusal
from fivedice.service.undo import is_undo
from fivedice.store import (
    ABANDONED,
    ActionEntry,
    DatabaseDamagedError,
    GameNotFoundError,
    StoreUnavailableError,
)
from fivedice.store.browser_seats import BrowserSeats
from fivedice.store.notices import Topic
from fivedice.store.rooms import Room, RoomError
from fivedice.web.metrics import CPU, action_kind, timed_action
from fivedice.web.rates import RateLimitedError
from fivedice.web.security import Signer
from fivedice.web.views import game_data

if TYPE_CHECKING:
    from fivedice.store.pg_async import AsyncStatements

NO_ROOM = N_("no game has the code {code!r}")
LATEST_CACHED = 1024  # games whose latest versions the hub keeps for the event streams
RECENT_VERSIONS = 32  # ... how many of each one's latest versions (views: small, shared)
RECENT_TEXTS = 8  # ... and of those, how many keep their JSON text too (a CPU turn is 3-4)
MAX_SEED = 2**53 - 1  # the largest whole number a JSON number carries exactly: API and form


@dataclass(frozen=True, eq=False)  # (found by identity; a view is compared by value)
class _Kept:
    """One version of a game as the hub keeps it for the event streams."""

    version: int
    view: GameView
    text: str | None  # the JSON the API gives (None: made again from the view if asked)

    def without_text(self) -> _Kept:
        return _Kept(self.version, self.view, None)


def _ended(view: GameView, text: str) -> list[tuple[int, str, str]]:
    """What a stream that has the newest version gets: nothing, or, for an abandoned game,
    the game once more as an "abandoned" event (its status changed, not its version)."""
    return [(view.version, text, "abandoned")] if view.status == ABANDONED else []


def _trimmed(recent: tuple[_Kept, ...]) -> tuple[_Kept, ...]:
    """A game's kept versions with room for one more: at most `RECENT_VERSIONS` - 1, the
    newest `RECENT_TEXTS` - 1 with their text."""
    recent = recent[-(RECENT_VERSIONS - 1) :]
    textless = len(recent) - (RECENT_TEXTS - 1)
    return tuple(
        kept.without_text() if index < textless and kept.text is not None else kept
        for index, kept in enumerate(recent)
    )


class UnknownGameError(FivediceError):
    """No game has this public id (or the id was not made by this server): 404."""


class SeatError(FivediceError):
    """The caller may not act now: no token (401) or another seat's token (403)."""

    def __init__(self, template: str, status: int, /, **params: Any) -> None:
        super().__init__(template, **params)
        self.status = status


MAX_CLIENTS_KEPT = 100_000
"""Clients whose game of CPUs alone is remembered (`GameHub.create`), the oldest forgotten."""


def hmac_equal(a: str, b: str) -> bool:
    import hmac

    return hmac.compare_digest(a.encode(), b.encode())


def error_status(error: FivediceError) -> int:
    """The HTTP status of a refused request (API and pages alike)."""
    if isinstance(error, UnknownGameError):
        return 404
    if isinstance(error, RoomError):
        return 404 if error.template == NO_ROOM else 409
    if isinstance(error, SeatError):
        return error.status
    if isinstance(error, SeatRightError):
        return 403
    if isinstance(error, MalformedActionError | RuleSetError | SettingsError | DiceSeedError):
        return 422
    if isinstance(error, RateLimitedError):
        return 429
    if isinstance(error, StoreUnavailableError | SolverBusyError):
        return 503
    if isinstance(error, DatabaseDamagedError):
        return 500
    return 409  # illegal action, stale version, closed game, no hint possible


def _no_live(topic: Topic, ident: int, version: int, *, notified: bool = False) -> None:
    """Where changes go when no `Live` is attached (a hub used without the app)."""


class GameHub:
    """What the API and the pages call: the service, behind public ids and seat tokens."""

    def __init__(self, service: GameService, signer: Signer) -> None:
        self.service = service
        self.signer = signer
        self.browser_seats = BrowserSeats(service.store)
        self.rooms = RoomService(service)
        # Fair dice in two steps: commitments drawn before the client seeds are chosen.
        self.commitments = Commitments(signer.mac)
        self._locks = GameLocks()
        # Whether the event loop may read and write the database itself (`try_act` and the
        # other `try_` calls): on SQLite a write is tens of microseconds in this process; on
        # PostgreSQL each statement waits for a round trip to another process, which on a
        # busy machine can take milliseconds: the loop would stall for all its clients, so
        # those calls go to the thread pool, where they overlap.
        self.inline_database = service.store.is_sqlite
        # PostgreSQL: the hot statements awaited in the event loop (set by the app while it
        # runs; see `fivedice.store.pg_async`); the game locks have a kind for coroutines,
        # so two coroutines of one game take turns instead of one of them falling back to
        # a thread.
        self.statements: AsyncStatements | None = None
        # Every committed change is announced here (`Live.changed`, set by the app).
        self.changed = _no_live
        # The recent versions per game, as the streams send them: each version's view, and
        # the JSON text of the newest few (older ones: made again from the view if a
        # stream that fell behind asks; never by replaying the log).
        self._latest: OrderedDict[int, tuple[_Kept, ...]] = OrderedDict()
        self._latest_lock = threading.Lock()
        # Each game's seat generations (its tokens carry them), read once per game and
        # dropped when its seats change (here, or in another worker: `forget_older`).
        self._generations: OrderedDict[int, dict[int, int]] = OrderedDict()
        # Someone looked at a game (`look`): the app's CPU driver plays a game nobody plays
        # only while someone watches it (web/driver.py).
        self.looked: Callable[[GameView], None] = lambda _view: None
        # Each client's game of CPUs alone (by session or address): one at a time, a new
        # one ends the one before (`create`).
        self._nobodys: OrderedDict[str, int] = OrderedDict()
        self._nobodys_lock = threading.Lock()

    @contextmanager
    def _found(self, game_id: int) -> Iterator[None]:
        """Turns the store's "no such game" into the web's (under the game's public id)."""
        try:
            yield
        except GameNotFoundError:
            raise UnknownGameError(
                N_("no game has the id {game}"), game=self.public_id(game_id)
            ) from None

    @contextmanager
    def _locked(self, game_id: int) -> Iterator[None]:
        """The game's lock, waited for."""
        with self._locks.held(game_id):
            yield

    @contextmanager
    def _locked_now(self, game_id: int) -> Iterator[bool]:
        """The game's lock if the event loop may take it without waiting: yields False
        (holding nothing) when another thread holds it, or when the database is not one
        the loop may use itself (`inline_database`)."""
        if not self.inline_database:
            yield False
            return
        with self._locks.held(game_id, blocking=False) as taken:
            yield taken

    # -- ids and seats ---------------------------------------------------------------------

    def game_id(self, public_id: str) -> int:
        """The store id of a public id.

        Raises:
            UnknownGameError: not an id of this server.
        """
        game_id = self.signer.game_id(public_id)
        if game_id is None:
            raise UnknownGameError(N_("no game has the id {game!r}"), game=public_id)
        return game_id

    def public_id(self, game_id: int) -> str:
        return self.signer.public_id(game_id)

    def seat_tokens(self, view: GameView) -> list[dict[str, Any]]:
        """The token of every human seat of a new game."""
        return [
            {
                "seat": index,
                "name": seat.name,
                "token": self.seat_token(view.game_id, index),
            }
            for index, seat in enumerate(view.state.seats)
            if not seat.is_cpu
        ]

    def generations(self, game_id: int) -> dict[int, int]:
        """Each seat's generation in a game (0: never changed hands), read once per game."""
        with self._latest_lock:
            known = self._generations.get(game_id)
            if known is not None:
                self._generations.move_to_end(game_id)
                return known
        found = self.rooms.generations(game_id)
        with self._latest_lock:
            self._generations[game_id] = found
            while len(self._generations) > LATEST_CACHED * 4:
                self._generations.popitem(last=False)
        return found

    def generations_known(self, game_id: int) -> bool:
        """Whether the seat generations of a game are in memory (no read to check a token)."""
        with self._latest_lock:
            return game_id in self._generations

    def _forget_generations(self, game_id: int) -> None:
        with self._latest_lock:
            self._generations.pop(game_id, None)

    def seat_token(self, game_id: int, seat: int) -> str:
        """The token of a game's seat now (with its current generation)."""
        return self.signer.seat_token(game_id, seat, self.generations(game_id).get(seat, 0))

    def seat_of(self, view: GameView, token: str | None) -> int | None:
        """The seat a token is for in this game now, or None (a token of an earlier
        generation of its seat - before it was handed to a CPU - is none)."""
        if not token:
            return None
        return self.signer.seat_of(
            view.game_id, token, len(view.state.seats), self.generations(view.game_id)
        )

    def check_turn(self, view: GameView, token: str | None) -> int:
        """The seat to move, if `token` is its token.

        Raises:
            SeatError: 401 without a token of this game, 403 when another seat (perhaps a
                CPU) is to move (`fivedice.service.seats.turn_refusal`).
            GameClosedError: the game is over; nobody is to move.
        """
        seat = self.check_member(view, token)
        kind = "cpu" if view.state.seats[seat].is_cpu else "me"
        right = seat_refusal(Right.ACT, SeatFacts(is_host=False, holds_seat=True, seat_kind=kind))
        if right is not None:
            raise SeatError(right.template, 403, **right.params)
        refusal = turn_refusal(view, seat)
        if isinstance(refusal, NotYourTurnError):  # a seat's holder, refused: forbidden
            raise SeatError(refusal.template, 403, **refusal.params)
        if refusal is not None:  # 409 like every closed game (README): the request was fine
            raise refusal
        return seat

    def check_member(self, view: GameView, token: str | None) -> int:
        """Any seat of this game (for letting a CPU seat move).

        Raises:
            SeatError: 401 without a token of this game.
        """
        if not token:
            raise SeatError(
                N_("this needs a seat token: send 'Authorization: Bearer <token>'"), 401
            )
        seat = self.seat_of(view, token)
        if seat is None:
            raise SeatError(N_("this token is not a seat token of this game"), 401)
        return seat

    # -- the service -----------------------------------------------------------------------

    def create(
        self,
        players: Sequence[PlayerSpec],
        *,
        client_seeds: Sequence[str | None] = (),
        handle: str | None = None,
        client: str | None = None,
        **options: Unpack[GameOptions],
    ) -> GameView:
        """Starts and saves a game (`fivedice.service.creation.create_game`); `handle`: a
        commitment `commitments` drew before the client seeds were chosen.

        A game with no person at it (CPUs alone) is bounded: one game long, and one at a
        time per `client` (a session, or an address): a new one ends the client's one
        before, if that is still in progress; and the CPUs play it only while someone
        watches it (web/driver.py; docs/host/limits.md).

        Raises:
            SettingsError: a game of CPUs alone with a longer match; as `create_game`.
        """
        nobody = all(player.level is not None for player in players)
        if nobody and options.get("match_length", 1) != 1:
            raise SettingsError(N_("a game of CPUs alone is one game long (match length 1)"))
        view = create_game(
            self.service,
            players,
            client_seeds=client_seeds,
            handle=handle,
            commitments=self.commitments,
            **options,
        )
        if nobody and client is not None:
            self._replace_nobodys(client, view.game_id)
        self.looked(view)  # (its creator looks at it)
        if view.is_cpu_turn:  # this worker's CPU driver starts it now, not at its next scan
            self.changed(Topic.GAME, view.game_id, view.version, notified=True)
        return view

    def _replace_nobodys(self, client: str, game_id: int) -> None:
        """`game_id` is now `client`'s game of CPUs alone: the one before is abandoned."""
        with self._nobodys_lock:
            before = self._nobodys.pop(client, None)
            self._nobodys[client] = game_id
            while len(self._nobodys) > MAX_CLIENTS_KEPT:
                self._nobodys.popitem(last=False)  # (its game waits, unwatched, unplayed)
        if before is None:
            return
        with contextlib.suppress(FivediceError):  # (gone, or over already)
            earlier = self.load(before)
            if not earlier.is_over and not earlier.has_person:
                self.abandon(before)

    def look(self, view: GameView) -> GameView:
        """Someone looked at the game (its page, its JSON): see `looked`."""
        self.looked(view)
        return view

    def load(self, game_id: int) -> GameView:
        """The game as saved now (a cached view caught up with the database, see
        `GameService.latest`), under the game's lock.

        Raises:
            UnknownGameError: the store has no such game.
        """
        with self._locked(game_id):
            return self._current(game_id)

    def act(self, game_id: int, token: str | None, action: str, version: int) -> GameView:
        """Applies a seat's action after checking its token and turn."""
        with self._locked(game_id):
            after = self._act(game_id, token, action, version)
        self._published(after)
        return after

    def undo(self, game_id: int, tokens: Sequence[str], version: int) -> GameView:
        """Takes back the last action if one of the seats of `tokens` made it (and
        `undo_refusal` allows it): a page acts with every seat its browser holds.

        Raises:
            SeatError: 401 without a token of this game; UndoRefusedError: as `undo_refusal`.
        """
        with self._locked(game_id):
            after = self._undo(self._view_at(game_id, version), tokens, version)
        self._published(after)
        return after

    def _undo(self, view: GameView, tokens: Sequence[str], version: int) -> GameView:
        seats = {seat for token in tokens if (seat := self.seat_of(view, token)) is not None}
        if not seats:
            self.check_member(view, None)  # (raises: 401)
        people = {seat for seat in seats if not view.state.seats[seat].is_cpu}
        with timed_action(action_kind(UNDO)):
            return self.service.apply_action(view.game_id, UNDO, version, by_seats=people)

    def try_act(
        self, game_id: int, token: str | None, action: str, version: int
    ) -> GameView | None:
        """`act`, unless another thread holds the game's lock: then None at once (the event
        loop calls this, and runs `act` in a thread only when it would have to wait)."""
        with self._locked_now(game_id) as locked:
            after = self._act(game_id, token, action, version) if locked else None
        if after is not None:
            self._published(after)
        return after

    def _act(self, game_id: int, token: str | None, action: str, version: int) -> GameView:
        """`act`'s step under the game's lock."""
        view = self._view_at(game_id, version)
        if is_undo(action):  # the token's own last action, whoever is to move
            return self._undo(view, [token] if token else [], version)
        self.check_turn(view, token)
        with timed_action(action_kind(action)):
            return self.service.apply_action(game_id, action, version)

    @contextlib.asynccontextmanager
    async def _locked_async(self, game_id: int) -> AsyncIterator[bool]:
        """The game's locks for a coroutine: its stripe of the loop's locks, then (without
        waiting) the threads' lock. Yields False when a thread holds it."""
        async with self._locks.held_async(game_id) as taken:
            yield taken

    @contextlib.asynccontextmanager
    async def _inline_async(self, game_id: int) -> AsyncIterator[AsyncStatements | None]:
        """The database's statements for a coroutine, under the game's locks; None (holding
        nothing) when only a thread can do it: no such statements, or a thread holds the
        game's lock."""
        statements = self.statements
        if statements is None:
            yield None
            return
        async with self._locked_async(game_id) as locked:
            yield statements if locked else None

    async def _current_async(
        self, statements: AsyncStatements, game_id: int, *, keep: bool = False
    ) -> GameView | None:
        """`_current` awaited (None: only `_current` can say); `keep`: keep the JSON of every
        version caught up with even when none is kept yet."""
        steps: list[GameView] = []
        with self._found(game_id):
            view = await self.service.latest_async(statements, game_id, steps)
        if view is not None:
            self._keep_caught_up(steps, view, always=keep)
        return view

    async def act_async(
        self, game_id: int, token: str | None, action: str, version: int
    ) -> GameView | None:
        """`act` awaited in the event loop (PostgreSQL). None, with nothing done, when
        only `act` can do it (call it in a thread then)."""
        async with self._inline_async(game_id) as statements:
            if statements is None:
                return None
            view = self.service.kept(game_id)
            if view is not None and view.version != version:
                view = await self._current_async(statements, game_id)
            if view is None or not self.generations_known(game_id) or is_undo(action):
                return None  # (the generations are read once, in a thread; undo: one too)
            self.check_turn(view, token)
            with timed_action(action_kind(action)) as timing:
                after = await self.service.apply_action_async(statements, game_id, action, version)
                if after is None:
                    timing.not_done()
        if after is not None:
            self._published(after)
        return after

    async def drive_cpu_async(self, game_id: int, version: int) -> GameView | None:
        """`drive_cpu` awaited in the event loop (PostgreSQL; a CPU that decides at once).
        None, with nothing done, when only `drive_cpu` can do it."""
        async with self._inline_async(game_id) as statements:
            if statements is None:
                return None
            with timed_action(CPU) as timing:
                after = await self.service.cpu_step_async(statements, game_id, version)
                if after is None:
                    timing.not_done()
        if after is not None:
            self._published(after)
        return after

    async def load_async(self, game_id: int) -> GameView | None:
        """`load` awaited in the event loop (PostgreSQL); None: ask `load` in a thread."""
        async with self._inline_async(game_id) as statements:
            if statements is None:
                return None
            return await self._current_async(statements, game_id)

    async def events_async(
        self, game_id: int, after: int | None, known: int | None
    ) -> list[tuple[int, str, str]] | None:
        """`events_since` awaited in the event loop (PostgreSQL): from memory, or after one
        catch-up read. None: ask `events_since` in a thread (a game not kept, versions
        older than the kept ones)."""
        statements = self.statements
        if statements is None:
            return None
        async with self._locked_async(game_id) as locked:
            if after is not None and known is not None:
                ready = self._recent(game_id, after + 1, known)  # (another stream's read)
                if ready is not None:
                    return ready
            if not locked:
                return None
            view = await self._current_async(statements, game_id, keep=True)
            if view is None:
                return None
            text = self.json_text(view)
        if after is None:
            return [(view.version, text, "game")]
        if after == view.version:
            return _ended(view, text)
        if after < view.version:
            return self._recent(game_id, after + 1, view.version)
        return None

    def _prepared_cpu(self, game_id: int, token: str | None = None) -> None:
        """Makes the tables of the CPU seat to move ready, outside the game's lock: a solve
        never holds it (`GameService.prepare_cpu`); with a `token`, only for a seat of the
        game (checked first: a stranger starts nothing)."""
        view = self.service.kept(game_id)
        if view is None:
            view = self.load(game_id)
        if token is not None:
            self.check_member(view, token)
        if not self.service.cpu_tables_ready(view):
            self.service.prepare_cpu(view)

    def cpu_step(self, game_id: int, token: str | None, version: int) -> tuple[str, GameView]:
        """Lets the CPU seat to move take one action; any seat of the game may ask."""
        self._prepared_cpu(game_id, token or "")
        with self._locked(game_id):
            view = self._view_at(game_id, version)
            self.check_member(view, token)
            with timed_action(CPU):
                action, after = self.service.cpu_step(game_id, version)
        self._published(after)
        return str(action), after

    def drive_cpu(self, game_id: int, version: int) -> GameView:
        """One step of the CPU seat to move, taken by the server's CPU driver (driver.py)."""
        self._prepared_cpu(game_id)
        with self._locked(game_id), timed_action(CPU):
            _action, after = self.service.cpu_step(game_id, version)
        self._published(after)
        return after

    def try_drive_cpu(self, game_id: int, version: int) -> GameView | None:
        """`drive_cpu`, unless another thread holds the game's lock: then None at once."""
        with self._locked_now(game_id) as locked, timed_action(CPU) as timing:
            after = self.service.cpu_step(game_id, version)[1] if locked else None
            if after is None:
                timing.not_done()
        if after is not None:
            self._published(after)
        return after

    def try_load(self, game_id: int) -> GameView | None:
        """`load`, unless another thread holds the game's lock: then None at once."""
        with self._locked_now(game_id) as locked:
            return self._current(game_id) if locked else None

    def forget_older(self, game_id: int, version: int, *, seats_changed: bool = False) -> None:
        """Another worker changed the game. A newer version needs nothing: the cached view
        catches up with the new actions when next asked (`GameService.latest`). Changed
        seats are not in the log: the view is dropped and the game loaded again."""
        if seats_changed:
            self.service.forget(game_id)
            self._drop_json(game_id)
            self._forget_generations(game_id)

    def heard_action(self, game_id: int, entry: ActionEntry) -> bool:
        """Another worker saved `entry` (its notice carried it): if this worker keeps the
        version before, the game moves on here without a database read, and the streams of
        it find the new version in memory (its JSON made when the first one sends it).
        Whether it did; skipped (the streams read the tail as before) while a thread or a
        coroutine holds the game's lock: it may be catching the game up itself. Runs in the
        event loop."""
        if self._locks.busy_async(game_id):
            return False
        with self._locks.held(game_id, blocking=False) as taken:
            view = self.service.advance_kept(game_id, entry) if taken else None
            if view is not None:
                self._keep(view)
        return view is not None

    def _drop_json(self, game_id: int) -> None:
        """Forgets the game's kept JSON (its seats changed without a new version)."""
        with self._latest_lock:
            self._latest.pop(game_id, None)

    # -- the event stream ------------------------------------------------------------------

    def _published(self, view: GameView, *, appended: bool = True) -> None:
        """A write committed: keep its JSON for the streams and announce it (`appended`: an
        action the store saved, whose statement notified the other workers already when
        the store does that, see `Store.announces_changes`)."""
        self._keep(view, self._json(view))
        notified = appended and self.service.store.announces_changes
        self.changed(Topic.GAME, view.game_id, view.version, notified=notified)

    def _json(self, view: GameView) -> str:
        # orjson: the same compact JSON (UTF-8 text rather than \u escapes), 5-10x faster
        return orjson.dumps(self.data(view)).decode()

    def json_text(self, view: GameView) -> str:
        """The game as the API returns it, as JSON text: made once per version and status
        (the streams and the answers to the action share it)."""
        with self._latest_lock:
            recent = self._latest.get(view.game_id, ())
        for kept in reversed(recent):
            if kept.version == view.version and kept.view.status == view.status:
                if kept.text is None:  # (kept as a view only: its text made now, once)
                    text = self._json(kept.view)
                    self._set_text(kept, text)
                    return text
                return kept.text
        text = self._json(view)
        self._keep(view, text)
        return text

    def _keep(self, view: GameView, text: str | None = None) -> None:
        """Keeps a version: the last `RECENT_VERSIONS` consecutive versions of a game (the
        JSON text of the last `RECENT_TEXTS`), for the `LATEST_CACHED` games used last."""
        version = view.version
        with self._latest_lock:
            recent = self._latest.get(view.game_id, ())
            newest = recent[-1] if recent else None
            if newest is not None and version == newest.version:
                if view.status == newest.view.status:
                    return  # kept already (its text, if missing, comes with `_set_text`)
                recent = (_Kept(version, view, text),)  # abandoned: same version, new status
            elif newest is not None and version == newest.version + 1:
                recent = (*_trimmed(recent), _Kept(version, view, text))
            elif newest is None or version > newest.version:
                recent = (_Kept(version, view, text),)
            else:  # an older version: kept only if it is missing (and fits) in the run
                if version != recent[0].version - 1 or len(recent) >= RECENT_VERSIONS:
                    return
                recent = (_Kept(version, view, text), *recent)
            self._latest[view.game_id] = recent
            self._latest.move_to_end(view.game_id)
            while len(self._latest) > LATEST_CACHED:
                self._latest.popitem(last=False)

    def _recent(self, game_id: int, first: int, last: int) -> list[tuple[int, str, str]] | None:
        """The events of versions `first`..`last`, if every one is kept (the JSON of a
        version older than the kept texts is made again from its view)."""
        with self._latest_lock:
            kept = {entry.version: entry for entry in self._latest.get(game_id, ())}
        if not all(version in kept for version in range(first, last + 1)):
            return None
        events = []
        for version in range(first, last + 1):
            entry = kept[version]
            text = entry.text
            if text is None:  # made once: the worker's other streams of the game share it
                text = self._json(entry.view)
                self._set_text(entry, text)
            events.append((version, text, "game"))
        return events

    def _set_text(self, entry: _Kept, text: str) -> None:
        """Gives a kept version its JSON text (if it is kept still, without one)."""
        with self._latest_lock:
            recent = self._latest.get(entry.view.game_id, ())
            for at, kept in enumerate(recent):
                if kept is entry:
                    changed = _Kept(entry.version, entry.view, text)
                    self._latest[entry.view.game_id] = (*recent[:at], changed, *recent[at + 1 :])
                    return

    def events_since(
        self, game_id: int, after: int | None, known: int | None
    ) -> list[tuple[int, str, str]]:
        """The events a stream that has seen version `after` must send now, in order:
        (version, game JSON, event name).

        `known` is the newest version announced to the stream (None: not known; the
        database decides). Recent versions come from memory (the game is kept current,
        each version's JSON made once); a few older missed versions are rebuilt from the
        log's tail, so a reconnecting client gets every one once; a stream further behind
        than `RECENT_VERSIONS`, or whose `after` is not a version of this game (beyond its
        newest), gets one "reset" event with the game now (made from the current state,
        never by replaying a long log).

        Raises:
            UnknownGameError: no such game.
        """
        events = self._events(game_id, after, known, blocking=True)
        assert events is not None  # (only a call that may not wait gets None)
        return events

    def events_now(
        self, game_id: int, after: int | None, known: int | None
    ) -> list[tuple[int, str, str]] | None:
        """`events_since` if it can answer without waiting (for the event loop): None when
        another thread holds the game's lock or the whole log must be read again."""
        return self._events(game_id, after, known, blocking=False)

    def _events(
        self, game_id: int, after: int | None, known: int | None, *, blocking: bool
    ) -> list[tuple[int, str, str]] | None:
        if after is not None and known is not None and known <= after:
            return []
        if after is not None and known is not None:
            ready = self._recent(game_id, after + 1, known)
            if ready is not None:  # (this worker's own writes: no database read at all)
                return ready
        if not blocking and not self.inline_database:
            return None
        with self._locks.held(game_id, blocking=blocking) as taken:
            if not taken:
                return None
            steps: list[GameView] = []
            with self._found(game_id):
                view = self.service.latest(game_id, steps)
            for step in steps:  # the versions another worker saved (JSON made when sent)
                self._keep(step)
            text = self.json_text(view)
        if after is None:  # a new stream: the game now
            return [(view.version, text, "game")]
        if after == view.version:
            return _ended(view, text)
        if after < view.version:
            ready = self._recent(game_id, after + 1, view.version)
            if ready is not None:
                return ready
        if after is not None and view.version - after > RECENT_VERSIONS:
            # Far behind (`Last-Event-ID: 0` on a long game): the game now, as one reset
            # event, never every version replayed from the log.
            return [(view.version, text, "reset")]
        if not blocking:
            return None  # the log's tail is read again: not in the event loop
        with self._found(game_id):
            views = self.service.versions_after(game_id, after)
        if after is None or (views and after > views[-1].version):  # new, or not a version
            view = views[0]
            text = self._json(view)
            self._keep(view, text)
            return [(view.version, text, "game" if after is None else "reset")]
        return [(view.version, self._json(view), "game") for view in views]

    # -- rooms -----------------------------------------------------------------------------

    def invitation(self, room: Room, seat: int) -> str:
        """The secret of one friend's seat (the invitation link carries it)."""
        return self.signer.mac(f"room:{room.room_id}:seat:{seat}")[:24]

    def host_key(self, room: Room) -> str:
        """The host's secret of a room made over the API (start, hand seats to CPUs)."""
        return self.signer.mac(f"room:{room.room_id}:host")[:32]

    def seat_of_invitation(self, room: Room, invitation: str | None) -> int | None:
        if not invitation:
            return None
        for seat in room.seats:
            if seat.kind == "friend" and hmac_equal(self.invitation(room, seat.seat), invitation):
                return seat.seat
        return None

    def create_room(
        self,
        seats: list[RoomSeatSpec],
        *,
        host_session: str | None,
        options: dict[str, Any],
        handle: str | None = None,
    ) -> Room:
        """A waiting room (`RoomService.create`); `handle`: a commitment `commitments` drew
        before the host's seeds were chosen (the room's server seed is the committed one)."""
        return self.rooms.create(
            seats,
            host_session=host_session,
            options=options,
            handle=handle,
            commitments=self.commitments,
        )

    def room(self, code: str) -> Room:
        """Raises: RoomError: no such room."""
        return self.rooms.by_code(code)

    def join_room(
        self,
        code: str,
        session: str,
        *,
        invitation: str | None = None,
        name: str | None = None,
        client_seed: str = "",
    ) -> tuple[Room, int]:
        """Claims a seat by invitation (a friend's) or by the room code (an open seat)
        (`RoomService.join`).

        Raises:
            RoomError: unknown code, a wrong invitation, the seat is taken, or no open seat.
            DiceSeedError: a seed that cannot be used.
        """
        room = self.rooms.by_code(code)
        after, seat = self.rooms.join(
            room,
            session,
            by_invitation=invitation is not None,
            seat=self.seat_of_invitation(room, invitation),
            name=name,
            client_seed=client_seed,
        )
        if after.version != room.version:
            self.changed(Topic.ROOM, room.room_id, after.version)
        return after, seat

    def add_device(self, code: str, session: str, device_code: str) -> tuple[Room, int]:
        """Gives the seat of a one-time device code to one more device of its player.

        Raises:
            RoomError: unknown room, or a wrong, used or replaced code.
        """
        room = self.rooms.by_code(code)
        after, seat = self.rooms.add_device(room, session, device_code)
        self.changed(Topic.ROOM, room.room_id, after.version)
        return after, seat

    def set_client_seed(self, room: Room, seat: int, client_seed: str, *, holds_seat: bool) -> Room:
        """A seat's own dice seed, set by its own device before the start (everyone in the
        room sees it at once).

        Raises:
            SeatRightError: not the seat's own device; DiceSeedError: an unusable seed.
        """
        kind = next((s.kind for s in room.seats if s.seat == seat), "cpu")
        facts = SeatFacts(
            is_host=False, holds_seat=holds_seat, seat_kind=kind, started=room.started
        )
        after = self.rooms.set_client_seed(room, seat, client_seed, facts)
        self.changed(Topic.ROOM, room.room_id, after.version)
        return after

    def start_room(self, code: str, version: int, *, fill_with_cpus: bool) -> tuple[Room, GameView]:
        """Starts the game of a waiting room (`RoomService.start`: one game however many
        start it at once).

        Raises:
            RoomError: started already, or someone joined since `version`.
            FivediceError: no seat would be left.
        """
        started, view = self.rooms.start(code, version, fill_with_cpus=fill_with_cpus)
        self.changed(Topic.ROOM, started.room_id, started.version)
        self._published(view, appended=False)
        return started, view

    def hand_to_cpu(
        self,
        game_id: int,
        seat: int,
        level: str = FILL_LEVEL,
        *,
        right: Right = Right.HAND_OVER,
        held: Collection[int] = (),
        is_host: bool = True,
    ) -> GameView:
        """A human seat is played by a CPU from now on: the host hands it over, or its
        player leaves (`fivedice.service.seats.hand_to_cpu`, as `seat_refusal` allows). Its
        old tokens are refused from now on.

        Raises:
            SettingsError: not a human seat, or a level a seat is not handed to;
            SeatRightError: not allowed (see `fivedice.service.rights`); GameClosedError.
        """
        with self._locked(game_id):
            try:
                with self._found(game_id):
                    after = hand_to_cpu(
                        self.service, self.rooms, game_id, seat, level,
                        right=right, held=held, is_host=is_host,
                    )  # fmt: skip
            finally:
                self._drop_json(game_id)
                self._forget_generations(game_id)
        self.changed(Topic.SEATS, game_id, after.version)
        return after

    def abandon_refusal(
        self, view: GameView, *, held: Collection[int], is_host: bool
    ) -> FivediceError | None:
        """Why someone holding the game seats `held` may not abandon the game (None: they
        may): in a game others play, only the host abandons (`Right.ABANDON`)."""
        room = self.rooms.of_game(view.game_id)
        facts = game_facts(view, room, held=held, is_host=is_host)
        return seat_refusal(Right.ABANDON, facts)

    def abandon(self, game_id: int) -> GameView:
        """Abandons a game in progress; every open page of it hears so at once (an event
        named "abandoned", with the game now: its status, and its revealed dice seed).

        Raises:
            GameClosedError: the game is over already; GameNotFoundError.
        """
        with self._locked(game_id):
            self.service.abandon(game_id)
            self._drop_json(game_id)
            after = self._current(game_id)
        self._keep(after, self._json(after))
        self.changed(Topic.ENDED, game_id, after.version)
        return after

    def room_data(self, room: Room, *, member: bool = False) -> dict[str, Any]:
        """A room as JSON-friendly data (no secrets): its game's id only for a `member` (a
        holder of one of its seats), every seat's dice seed for all to see."""
        return {
            "code": room.code,
            "status": room.status,
            "version": room.version,
            "game": None if room.game_id is None or not member else self.public_id(room.game_id),
            "dice_commitment": room.commitment if room.options.get("seed") is None else None,
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "name": s.name,
                    "level": s.level,
                    "joined": s.joined,
                    "game_seat": s.game_seat,
                    "client_seed": s.client_seed,
                }
                for s in room.seats
            ],
        }

    def room_events_since(self, room_id: int, after: int | None) -> list[tuple[int, str, str]]:
        """The room now, if it changed since version `after`."""
        room = self.rooms.by_id(room_id)
        if after is not None and room.version == after:
            return []
        kind = "room" if after is None or after < room.version else "reset"
        return [(room.version, json.dumps(self.room_data(room), separators=(",", ":")), kind)]

    def _view_at(self, game_id: int, version: int) -> GameView:
        """The game at `version` if that is the service's cached view, else as saved now.

        The cached view (seats never change) checks the caller's token and turn without
        reading the database: if another worker moved the game on meanwhile, the store's
        version check refuses the write (StaleVersionError, and the service drops its
        cached view), so a stale view can never let a wrong action in.
        """
        with self._found(game_id):
            seen = self.service.view(game_id)
        if seen.version == version:
            return seen
        return self._current(game_id)

    def hint(
        self, game_id: int, token: str | None, goal: str | None = None
    ) -> tuple[GameView, list[dict[str, Any]]]:
        """The advisor's options for the seat to move, best first, with the holds each needs
        (with a goal, "beat 245": ranked by the chance of reaching it)."""
        view, options = self.hints(game_id, token, goal)
        return view, [hint_data(option) for option in options]

    def hints(
        self, game_id: int, token: str | None, goal: str | None = None
    ) -> tuple[GameView, list[Hint]]:
        """The seat to move's options as the service's hints, with their breakdowns (the
        reasons) when they are at hand: a page never waits for them (they are prepared in
        the background for the next hint). With a goal: ranked by the chance of reaching it
        (no breakdown)."""
        with self._locked(game_id):
            view = self._current(game_id)
            self.check_turn(view, token)
            options = self.service.hint(game_id, explain=None, goal=goal)
        return view, options

    def _current(self, game_id: int) -> GameView:
        """The game as saved now (kept current: see `GameService.latest`).

        When the game's JSON is kept for the streams (another worker moved it on), the JSON
        of every version caught up with is kept too: the streams of this worker send them
        from memory instead of replaying the whole log for the versions in between.
        """
        steps: list[GameView] = []
        with self._found(game_id):
            view = self.service.latest(game_id, steps)
        self._keep_caught_up(steps, view)
        return view

    def _keep_caught_up(
        self, steps: list[GameView], view: GameView, *, always: bool = False
    ) -> None:
        """Keeps the versions a catch-up went through (`steps`, then `view`) when some of
        the game's versions are kept already (its streams will want them), or `always`;
        their JSON is made when a stream asks for it."""
        with self._latest_lock:
            kept = self._latest.get(view.game_id, ())
        newest = kept[-1].version if kept else -1
        if (kept or always) and newest < view.version:
            for step in steps:
                if step.version > newest:
                    self._keep(step)
            self._keep(view)

    def data(self, view: GameView) -> dict[str, Any]:
        """The game as JSON-friendly data under its public id."""
        return game_data(view, self.public_id(view.game_id))


def hint_data(hint: Hint) -> dict[str, Any]:
    """A hint as the JSON API gives it (`HintOut`): a keep names the dice and the positions
    to hold, a box its key and its column (from 1; None in a one-column game)."""
    return {
        "kind": hint.kind.value,
        "box": hint.box,
        "column": None if hint.column is None else hint.column + 1,
        "keep": None if hint.keep is None else list(hint.keep),
        "hold": None if hint.hold is None else list(hint.hold),
        "action": hint.action,
        "value": float(hint.value),  # exact: the float64 value as it is
        "loss": float(hint.loss),
        "estimate": hint.estimate,
        "breakdown": None if hint.parts is None else dict(hint.parts),
        "chances_this_turn": None if hint.chances is None else dict(hint.chances),
        "goal": hint.goal,
    }


def reasons_data(options: Sequence[Hint]) -> list[dict[str, Any]] | None:
    """What makes the best option better than the next, component by component (signed
    expected points), as the JSON API gives it; None without breakdowns."""
    if len(options) < 2 or options[0].parts is None:
        return None
    return [{"component": key, "points": points} for key, points in options[0].reasons(options[1])]
