"""Which game a front end opens: the unfinished one to resume, or a new one.

The line-based game, the terminal app's score keeper and the line-based score keeper all
start this way; the resume step is one function whatever the kind of game, with the
words of each kind (a game at the table says so, and refuses a game the app rolls for).
"""

from __future__ import annotations

from collections.abc import Sequence

from fivedice.core.errors import N_, FivediceError, SettingsError
from fivedice.core.game import GameKind, GameSettings
from fivedice.service.games import GameService, GameView
from fivedice.store import IN_PROGRESS as IN_PROGRESS
from fivedice.store import GameClosedError, StoreError
from fivedice.store import describe_database as describe_database


class NothingToResumeError(StoreError):
    """`--resume` without a game, and no game is unfinished."""


# What a resume is refused with, by the kind of game asked for.
_NOTHING_TO_RESUME: dict[GameKind, tuple[type[FivediceError], str]] = {
    GameKind.PLAY: (NothingToResumeError, N_("there is no unfinished game to resume")),
    GameKind.TABLE: (SettingsError, N_("there is no unfinished game at the table to resume")),
}
_OVER: dict[GameKind, str] = {
    GameKind.PLAY: N_("game {id} is {status}; it cannot be resumed"),
    GameKind.TABLE: N_("game {game_id} is {status}; it takes no more actions"),
}


def resumed_game(service: GameService, game_id: int | None, kind: GameKind) -> GameView:
    """The game to resume: `game_id`, else the latest unfinished game of this kind.

    Raises:
        NothingToResumeError (SettingsError at the table): no unfinished game;
        GameNotFoundError; SettingsError: at the table, a game the app rolls for;
        GameClosedError: the game is over.
    """
    if game_id is None:
        waiting = service.latest_unfinished(kind.value)
        if waiting is None:
            error, message = _NOTHING_TO_RESUME[kind]
            raise error(message)
        game_id = waiting.game_id
    view = service.load(game_id)
    if kind is GameKind.TABLE and not view.state.settings.is_table:
        raise SettingsError(
            N_("game {id} is not a game at the table; 'fivedice play --resume' continues it"),
            id=game_id,
        )
    if view.is_over:
        raise GameClosedError(_OVER[kind], id=game_id, game_id=game_id, status=view.status)
    return view


def open_game(
    service: GameService,
    settings: GameSettings | None,
    *,
    kind: GameKind = GameKind.PLAY,
    seed: int | None,
    practice: bool,
    resume: bool,
    resume_game: int | None,
    client_seeds: Sequence[str] = (),
) -> GameView:
    """The game to play or keep: the one to resume (`resume_game`, else the latest
    unfinished game of this `kind`), or a new one with `settings` (`client_seeds`: one per
    human seat, in order; a game at the table has none).

    Raises:
        as `resumed_game`; SettingsError: at the table, no players named; more client seeds
            than human seats; and what `GameService.create_game` refuses.
    """
    if resume or resume_game is not None:
        return resumed_game(service, resume_game, kind)
    if settings is None:
        if kind is GameKind.TABLE:
            raise SettingsError(N_("name the players at the table, e.g. --player Ann --player Bob"))
        raise TypeError("open_game: a new game needs its settings")
    if kind is GameKind.TABLE:
        return service.create_game(settings, seed=seed, practice=practice)
    seeds = seat_client_seeds(settings, client_seeds)
    return service.create_game(settings, seed=seed, practice=practice, client_seeds=seeds)


def seat_client_seeds(settings: GameSettings, client_seeds: Sequence[str]) -> list[str]:
    """The client seeds given for the human seats, in order, spread over every seat.

    Raises:
        SettingsError: more client seeds than human seats.
    """
    humans = [index for index, seat in enumerate(settings.seats) if not seat.is_cpu]
    if len(client_seeds) > len(humans):
        raise SettingsError(
            N_("{count} client seeds for {humans} human seats: at most one each"),
            count=len(client_seeds),
            humans=len(humans),
        )
    seeds = [""] * len(settings.seats)
    for index, seed in zip(humans, client_seeds, strict=False):
        seeds[index] = seed
    return seeds
