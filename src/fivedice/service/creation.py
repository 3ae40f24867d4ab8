"""Games created from settings as a front end submits them (forms, the JSON API).

`game_settings` is the one place submitted settings are checked and turned into
`GameSettings`: CPU levels, the rule set and its options, the first player, the match length.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict, Unpack

from fivedice.core.errors import N_, FivediceError
from fivedice.core.game import FirstPlayer, GameSettings, Seat, SettingsError
from fivedice.core.rules import find_ruleset
from fivedice.service.games import GameService, GameView
from fivedice.strategy.levels import LEVELS


@dataclass(frozen=True)
class PlayerSpec:
    """A seat as a front end asks for it."""

    name: str
    level: str | None = None  # None: a human


def check_level(level: str) -> None:
    """Raises `SettingsError` if no CPU level has this name."""
    if level not in LEVELS:
        raise SettingsError(
            N_("there is no CPU level {level!r}; the levels are {levels}"),
            level=level,
            levels=", ".join(LEVELS),
        )


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
        SettingsError: a CPU level that does not exist; RuleSetError: unknown rules or
            options; FivediceError: an unknown first-player mode.
    """
    first_player = options.get("first_player", "first_seat")
    for player in players:
        if player.level is not None:
            check_level(player.level)
    ruleset = find_ruleset(options.get("rules", "classic"), options.get("settings") or None)
    try:
        mode = FirstPlayer(first_player)
    except ValueError:
        modes = ", ".join(m.value for m in FirstPlayer)
        raise FivediceError(
            N_("first_player is one of {modes}, not {value!r}"), modes=modes, value=first_player
        ) from None
    return GameSettings(
        seats=tuple(Seat(p.name.strip(), p.level) for p in players),
        rules=ruleset,
        first_player=mode,
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
