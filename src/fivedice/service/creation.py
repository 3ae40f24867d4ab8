"""Games created from settings as a front end submits them (forms, the JSON API).

`game_settings` turns submitted settings into `GameSettings`: the rule set and its options
here, the seats, CPU levels and first player by `service.settings` (one check, one message).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict, Unpack

from fivedice.core.game import FirstPlayer, GameSettings
from fivedice.core.rules import find_ruleset
from fivedice.service.games import GameService, GameView
from fivedice.service.settings import game_settings as settings_of_seats


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
    **options: Unpack[GameOptions],
) -> GameView:
    """Starts and saves a game from submitted options. `client_seeds`: each seat's own
    dice seed, in seat order.

    Raises:
        FivediceError (RuleSetError, SettingsError, DiceSeedError, ...): the settings
            cannot be played, or a client seed cannot be used.
    """
    return games.create_game(
        game_settings(players, **options),
        seed=options.get("seed"),
        practice=options.get("practice", False),
        client_seeds=client_seeds,
    )
