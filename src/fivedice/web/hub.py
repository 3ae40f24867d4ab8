"""The web side of the service: public ids, seat checks and one lock per game.

`GameService` keeps a cache of game views (`GameService.view`) and is not meant to be entered
by two threads for the same game at once, so every call about one game holds that game's lock
(FastAPI runs the synchronous endpoints in a thread pool). Across worker processes the
store's version check keeps a game consistent.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from fivedice.core.actions import Score
from fivedice.core.errors import N_, FivediceError, MalformedActionError, RuleSetError
from fivedice.core.game import FirstPlayer, GameSettings, Seat, SettingsError
from fivedice.core.rules import find_ruleset
from fivedice.service import GameService, GameView, hold_positions
from fivedice.store import (
    DatabaseDamagedError,
    GameClosedError,
    GameNotFoundError,
    StoreUnavailableError,
)
from fivedice.store.browser_seats import BrowserSeats
from fivedice.strategy.levels import LEVELS
from fivedice.strategy.limits import SolverBusyError
from fivedice.web.security import Signer
from fivedice.web.views import game_data

MAX_SEED = 2**53 - 1  # the largest whole number a JSON number carries exactly: API and form


class UnknownGameError(FivediceError):
    """No game has this public id (or the id was not made by this server): 404."""


class SeatError(FivediceError):
    """The caller may not act now: no token (401) or another seat's token (403)."""

    def __init__(self, template: str, status: int, /, **params: Any) -> None:
        super().__init__(template, **params)
        self.status = status


def error_status(error: FivediceError) -> int:
    """The HTTP status of a refused request (API and pages alike)."""
    if isinstance(error, UnknownGameError):
        return 404
    if isinstance(error, SeatError):
        return error.status
    if isinstance(error, MalformedActionError | RuleSetError | SettingsError):
        return 422
    if isinstance(error, StoreUnavailableError | SolverBusyError):
        return 503
    if isinstance(error, DatabaseDamagedError):
        return 500
    return 409  # illegal action, stale version, closed game, no hint possible


@dataclass(frozen=True)
class PlayerSpec:
    """A seat as a front end asks for it."""

    name: str
    level: str | None = None  # None: a human


class GameHub:
    """What the API and the pages call: the service, behind public ids and seat tokens."""

    def __init__(self, service: GameService, signer: Signer) -> None:
        self.service = service
        self.signer = signer
        self.browser_seats = BrowserSeats(service.store)
        self._locks: dict[int, threading.Lock] = {}
        self._locks_lock = threading.Lock()

    @contextmanager
    def _locked(self, game_id: int) -> Iterator[None]:
        with self._locks_lock:
            lock = self._locks.setdefault(game_id, threading.Lock())
        with lock:
            yield

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
                "token": self.signer.seat_token(view.game_id, index),
            }
            for index, seat in enumerate(view.state.seats)
            if not seat.is_cpu
        ]

    def seat_of(self, view: GameView, token: str | None) -> int | None:
        """The seat a token is for in this game, or None."""
        if not token:
            return None
        return self.signer.seat_of(view.game_id, token, len(view.state.seats))

    def check_turn(self, view: GameView, token: str | None) -> int:
        """The seat to move, if `token` is its token.

        Raises:
            SeatError: 401 without a token of this game, 403 with another seat's token or
                when a CPU or nobody (game over) is to move.
        """
        if not token:
            raise SeatError(
                N_("this needs a seat token: send 'Authorization: Bearer <token>'"), 401
            )
        seat = self.seat_of(view, token)
        if seat is None:
            raise SeatError(N_("this token is not a seat token of this game"), 401)
        state = view.state
        if view.is_over:  # 409 like every closed game (README): the request was fine
            raise GameClosedError(N_("the game is {status}; nobody is to move"), status=view.status)
        if seat != state.current_seat:
            mover = state.seats[state.current_seat]
            who = f"{mover.name} (CPU)" if mover.is_cpu else mover.name
            raise SeatError(
                N_("it is {mover}'s turn, not {name}'s (seat {seat})"),
                403,
                mover=who,
                name=state.seats[seat].name,
                seat=seat,
            )
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
        players: list[PlayerSpec],
        *,
        rules: str = "classic",
        settings: dict[str, object] | None = None,
        first_player: str = "first_seat",
        match_length: int = 1,
        seed: int | None = None,
        practice: bool = False,
    ) -> GameView:
        """Starts and saves a game.

        Raises:
            FivediceError (RuleSetError, SettingsError, ...): the settings cannot be played.
        """
        for player in players:
            if player.level is not None and player.level not in LEVELS:
                raise SettingsError(
                    N_("there is no CPU level {level!r}; the levels are {levels}"),
                    level=player.level,
                    levels=", ".join(LEVELS),
                )
        ruleset = find_ruleset(rules, settings or None)
        try:
            mode = FirstPlayer(first_player)
        except ValueError:
            modes = ", ".join(m.value for m in FirstPlayer)
            raise FivediceError(
                N_("first_player is one of {modes}, not {value!r}"), modes=modes, value=first_player
            ) from None
        game_settings = GameSettings(
            seats=tuple(Seat(p.name.strip(), p.level) for p in players),
            rules=ruleset,
            first_player=mode,
            match_length=match_length,
        )
        return self.service.create_game(game_settings, seed=seed, practice=practice)

    def load(self, game_id: int) -> GameView:
        """The game now.

        Raises:
            UnknownGameError: the store has no such game.
        """
        with self._locked(game_id):
            return self._load(game_id)

    def act(self, game_id: int, token: str | None, action: str, version: int) -> GameView:
        """Applies a seat's action after checking its token and turn."""
        with self._locked(game_id):
            view = self._view_at(game_id, version)
            self.check_turn(view, token)
            return self.service.apply_action(game_id, action, version)

    def cpu_step(self, game_id: int, token: str | None, version: int) -> tuple[str, GameView]:
        """Lets the CPU seat to move take one action; any seat of the game may ask."""
        with self._locked(game_id):
            view = self._view_at(game_id, version)
            self.check_member(view, token)
            action, after = self.service.cpu_step(game_id, version)
            return str(action), after

    def _view_at(self, game_id: int, version: int) -> GameView:
        """The game at `version` if that is the service's cached view, else as saved now.

        The cached view (seats never change) checks the caller's token and turn without
        reading the database: if another worker moved the game on meanwhile, the store's
        version check refuses the write (StaleVersionError, and the service drops its
        cached view), so a stale view can never let a wrong action in.
        """
        try:
            seen = self.service.view(game_id)
        except GameNotFoundError:
            raise UnknownGameError(
                N_("no game has the id {game}"), game=self.public_id(game_id)
            ) from None
        if seen.version == version:
            return seen
        return self._load(game_id)

    def hint(self, game_id: int, token: str | None) -> tuple[GameView, list[dict[str, Any]]]:
        """The advisor's options for the seat to move, best first, with the holds each needs."""
        with self._locked(game_id):
            view = self._load(game_id)
            self.check_turn(view, token)
            options = self.service.hint(game_id)
        state = view.state
        dice = state.dice or ()
        result = []
        for option in options:
            # Several-column hints name their column and are estimates, not exact values.
            column = getattr(option, "column", None)
            estimate = bool(getattr(option, "estimate", False))
            if option.category is not None:
                result.append(
                    {
                        "kind": "score",
                        "box": option.category.key,
                        "column": None if column is None else column + 1,
                        "keep": None,
                        "hold": None,
                        "action": str(Score(option.category, column or 0)),
                        "value": round(float(option.value), 4),
                        "loss": round(float(option.loss), 4),
                        "estimate": estimate,
                    }
                )
            else:
                keep = tuple(option.keep or ())
                positions = sorted(hold_positions(dice, state.turn.held, keep))
                result.append(
                    {
                        "kind": "keep",
                        "box": None,
                        "column": None,
                        "keep": list(keep),
                        "hold": positions,
                        "action": "roll",
                        "value": round(float(option.value), 4),
                        "loss": round(float(option.loss), 4),
                        "estimate": estimate,
                    }
                )
        return view, result

    def _load(self, game_id: int) -> GameView:
        try:
            return self.service.load(game_id)
        except GameNotFoundError:
            raise UnknownGameError(
                N_("no game has the id {game}"), game=self.public_id(game_id)
            ) from None

    def data(self, view: GameView) -> dict[str, Any]:
        """The game as JSON-friendly data under its public id."""
        return game_data(view, self.public_id(view.game_id))
