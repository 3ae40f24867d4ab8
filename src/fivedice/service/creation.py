"""Games created from settings as a front end submits them (forms, the JSON API).

`game_settings` turns submitted settings into `GameSettings`: the rule set and its options
here, the seats, CPU levels and first player by `service.settings` (one check, one message).

Fair dice: a client seed is only worth something if the server committed to its own seed
before the client chose it. So a game with client seeds is made in two steps: `Commitments.draw`
hands out a commitment and a handle (the API's `POST /api/commitments`, the new-game page
when the form is shown), and `create_game` takes the handle with the seeds; the game's
server seed is the committed one, and the store lets each commitment make one game.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TypedDict, Unpack

from fivedice.core.errors import N_
from fivedice.core.fairdice import (
    COMMITMENT_LIFETIME,
    HANDLE_NONCE_BYTES,
    Commitment,
    CommitmentHandleError,
    DiceSeedError,
    Keyed,
    issue_commitment,
    open_commitment,
)
from fivedice.core.game import FirstPlayer, GameSettings
from fivedice.core.rules import find_ruleset
from fivedice.service.games import GameService, GameView
from fivedice.service.settings import game_settings as settings_of_seats
from fivedice.store import GameRecord, NewGame

CLOCK_SKEW = 300
"""Seconds the workers' clocks may differ: used commitments are kept this much longer than
a handle lives, so no worker still takes a handle whose use was forgotten."""


class Commitments:
    """Commitments drawn before the client seeds, and their handles opened again.

    Stateless: a handle carries its nonce, its expiry and an HMAC under the server's secret
    (`fivedice.core.fairdice.issue_commitment`), so drawing one writes nothing (the new-game
    page draws one for every visit) and any worker sharing the secret opens it. That a
    handle makes one game only is the store's part (`Store.save_committed_game`).
    """

    def __init__(
        self,
        mac: Keyed,
        *,
        lifetime: int = COMMITMENT_LIFETIME,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._mac = mac
        self.lifetime = lifetime
        self._clock = clock

    def draw(self) -> Commitment:
        """A fresh commitment, usable for `lifetime` seconds."""
        nonce = secrets.token_bytes(HANDLE_NONCE_BYTES)
        return issue_commitment(self._mac, nonce, int(self._clock()) + self.lifetime)

    def server_seed(self, handle: str) -> bytes:
        """The server seed a handle commits to.

        Raises:
            CommitmentHandleError: not this server's handle, or expired.
        """
        return open_commitment(self._mac, handle, now=self._clock())

    def forget_before(self) -> datetime:
        """Uses older than this can be forgotten: their handles have expired everywhere."""
        return datetime.fromtimestamp(self._clock() - self.lifetime - CLOCK_SKEW, UTC)


def commitment_refusal(
    client_seeds: Sequence[str | None], handle: str | None, seed: int | None
) -> DiceSeedError | None:
    """Why a game's seeds cannot be taken as sent, or None.

    A client seed without a handle is refused: its server seed would be drawn after the
    client seed was known, and a server could draw until the dice suit it. A handle with a
    chosen `seed` is refused too: those dice are known, there is nothing to commit to. A
    game with neither client seeds nor handle keeps the one step (a server seed drawn now).
    """
    if seed is not None:  # client seeds with it: `GameService.create_game` refuses them
        if handle is None:
            return None
        return DiceSeedError(
            N_("a game with a chosen seed takes no commitment: its dice are known")
        )
    if handle is None and any(client_seeds):
        return CommitmentHandleError(
            N_(
                "a seed of your own needs a commitment drawn before you chose it: draw one"
                " (POST /api/commitments) and send its handle with your seed"
            )
        )
    return None


@dataclass(frozen=True)
class PlayerSpec:
    """A seat as a front end asks for it."""

    name: str
    level: str | None = None  # None: a human


class GameOptions(TypedDict, total=False):
    """The options of a new game as a form or the API submits them (all optional)."""

    rules: str  # a preset's name (default "classic")
    settings: dict[str, object] | None  # rule options overriding the preset
    first_player: str  # a `FirstPlayer` value (default "first_seat")
    match_length: int  # games in the match (default 1)
    seed: int | None  # dice from this seed: a practice game, its dice known in advance
    practice: bool  # kept out of statistics and high scores


def game_settings(players: Sequence[PlayerSpec], **options: Unpack[GameOptions]) -> GameSettings:
    """The settings of a game as submitted, checked (`seed` and `practice` are options of
    the game, not of its settings: taken, so a form's options pass as they are).

    Raises:
        CpuLevelError, FirstPlayerError, SettingsError: as `service.settings.game_settings`;
        RuleSetError: unknown rules or options.
    """
    ruleset = find_ruleset(options.get("rules", "classic"), options.get("settings") or None)
    return settings_of_seats(
        [(player.name.strip(), player.level) for player in players],
        ruleset,
        first_player=options.get("first_player", FirstPlayer.FIRST_SEAT.value),
        match_length=options.get("match_length", 1),
    )


def create_game(
    games: GameService,
    players: Sequence[PlayerSpec],
    *,
    client_seeds: Sequence[str | None] = (),
    handle: str | None = None,
    commitments: Commitments | None = None,
    **options: Unpack[GameOptions],
) -> GameView:
    """Starts and saves a game from submitted options. `client_seeds`: each seat's own
    dice seed, in seat order; `handle`: the commitment drawn before they were chosen
    (`commitments` opens it), needed whenever a client seed is given.

    Raises:
        FivediceError (RuleSetError, SettingsError, DiceSeedError, ...): the settings
            cannot be played, or a client seed cannot be used;
        CommitmentHandleError: client seeds without a handle, or a handle not drawn here
            or expired; CommitmentUsedError: the handle already made a game.
    """
    settings = game_settings(players, **options)
    refusal = commitment_refusal(client_seeds, handle, options.get("seed"))
    if refusal is not None:
        raise refusal
    if handle is None:
        return games.create_game(
            settings,
            seed=options.get("seed"),
            practice=options.get("practice", False),
            client_seeds=client_seeds,
        )
    if settings.is_table:
        raise DiceSeedError(N_("a game at the table takes no client seeds: you roll"))
    if commitments is None:
        raise TypeError("create_game: a handle needs the commitments that drew it")
    opened = commitments

    def save_once(game: NewGame) -> GameRecord:
        return games.store.save_committed_game(game, forget_before=opened.forget_before())

    return games.create_game(
        settings,
        practice=options.get("practice", False),
        client_seeds=client_seeds,
        server_seed=commitments.server_seed(handle),
        save=save_once,
    )
