"""Games created from settings as a front end submits them (forms, the JSON API).

`game_settings` is the one place submitted settings are checked and turned into
`GameSettings`: CPU levels, the rule set and its options, the first player, the match length.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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


def game_settings(
    players: Sequence[PlayerSpec],
    *,
    rules: str = "classic",
    settings: dict[str, object] | None = None,
    first_player: str = "first_seat",
    match_length: int = 1,
    seed: int | None = None,
    practice: bool = False,
) -> GameSettings:
    """The settings of a game as submitted, checked (`seed` and `practice` are taken so a
    form's options pass as they are; they are not settings).

    Raises:
        SettingsError: a CPU level that does not exist; RuleSetError: unknown rules or
            options; FivediceError: an unknown first-player mode.
    """
    for player in players:
        if player.level is not None:
            check_level(player.level)
    ruleset = find_ruleset(rules, settings or None)
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
        match_length=match_length,
    )


def create_game(
    games: GameService,
    players: Sequence[PlayerSpec],
    *,
    rules: str = "classic",
    settings: dict[str, object] | None = None,
    first_player: str = "first_seat",
    match_length: int = 1,
    seed: int | None = None,
    practice: bool = False,
    client_seeds: Sequence[str | None] = (),
) -> GameView:
    """Starts and saves a game from submitted settings. `client_seeds`: each seat's own
    dice seed, in seat order.

    Raises:
        FivediceError (RuleSetError, SettingsError, DiceSeedError, ...): the settings
            cannot be played, or a client seed cannot be used.
    """
    checked = game_settings(
        players, rules=rules, settings=settings, first_player=first_player,
        match_length=match_length,
    )  # fmt: skip
    return games.create_game(checked, seed=seed, practice=practice, client_seeds=client_seeds)
