"""The settings of a game as players ask for them: one check and one message for each.

Every front end (the terminal app, the plain mode, the web pages and API, the command line)
reads the same choices: who sits at the table and at which CPU level, who starts, and
whether a score needs a "really score 0?" first. This module is where each is decided, so
a choice is refused with the same reason wherever it is made.

* Levels: `fivedice.strategy.levels` (`DEFAULT_LEVEL`, `check_level`); `game_settings`
  checks every CPU seat with it.
* Names: `fivedice.core.names` (`check_name`, `name_key`, `MAX_NAME_LENGTH`); the human's
  default name (`default_human_name`, "You" in the language in force) and the one profile
  every default name counts for (`is_default_human_name`, `profile_of`).
* First player: `parse_first_player`.
* Seat lists: `game_settings` (a played game) and `build_table_settings` (real dice).
* A score of 0: `zero_score_to_confirm`.

>>> parse_first_player("Highest-Die")
<FirstPlayer.HIGHEST_DIE: 'highest_die'>
>>> parse_first_player("bob", ["Ann", "Bob"])
1
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import overload

from fivedice.core.actions import Action, Score, parse_action
from fivedice.core.card import Placement
from fivedice.core.errors import N_, FivediceError, SettingsError
from fivedice.core.game import FirstPlayer, GameKind, GameSettings, GameState, Seat
from fivedice.core.names import name_key
from fivedice.core.rules import RuleSet
from fivedice.i18n import LANGUAGES, load_translations
from fivedice.service.lookalikes import check_lookalikes, check_scripts
from fivedice.strategy.levels import DEFAULT_LEVEL, LEVELS, Level, check_level, parse_level
from fivedice.wording.labels import FORMER_DEFAULT_NAMES, YOU, you_name

__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "FirstPlayerError",
    "Level",
    "build_table_settings",
    "check_level",
    "default_human_name",
    "game_settings",
    "is_default_human_name",
    "parse_first_player",
    "parse_level",
    "profile_of",
    "shown_name",
    "zero_score_to_confirm",
]


def default_human_name() -> str:
    """The name of the person at the keyboard when nobody typed one: "You" ("あなた", "Du"),
    the same in the terminal app, `--cpu` and the plain mode (in the language in force)."""
    return you_name()


@cache
def _default_name_keys() -> frozenset[str]:
    """The profile keys of every default human name in every language, the former defaults
    ("Player", "プレイヤー") included."""
    keys = set()
    for language in LANGUAGES:
        translations = load_translations(language)
        for message in (YOU, *FORMER_DEFAULT_NAMES):
            keys.add(name_key(translations.gettext(message)))
    return frozenset(keys)


def is_default_human_name(name: str) -> bool:
    """Whether `name` is a default name of the human ("You", "Du", "あなた", or a former
    default "Player", "プレイヤー"), in any language and any case.

    The log then speaks to the player ("You roll"), and statistics count every such name as
    one profile (`profile_of`).
    """
    return name_key(name) in _default_name_keys()


def shown_name(name: str) -> str:
    """A seat's name as shown now: a default human name in the language in force ("You"
    becomes "あなた" once the player switches to Japanese), any other name as it is."""
    return default_human_name() if is_default_human_name(name) else name


def profile_of(name: str) -> str:
    """The profile a stored result counts for: every default human name is one person, shown
    as the default name of the language in force; any other name is its own profile.

    Decided at read time, so the profiles already stored need no migration: a game played as
    "Player" in English and one played as "あなた" in Japanese are the same player's.
    """
    return shown_name(name)


class FirstPlayerError(SettingsError):
    """Neither a way to choose the first player nor (where names count) a player's name."""


@overload
def parse_first_player(text: str) -> FirstPlayer: ...


@overload
def parse_first_player(text: str, names: Sequence[str]) -> FirstPlayer | int: ...


def parse_first_player(text: str, names: Sequence[str] = ()) -> FirstPlayer | int:
    """Who starts, as a player wrote it.

    Args:
        text: a mode (`first_seat`, `highest_die`, `highest_sum`; any case, `-` for `_`),
            or empty for the first seat; where `names` are given, a player's name too.
        names: the players' names, in seat order, when a name may say who starts (at the
            table); matched as names are everywhere (`name_key`).

    Returns:
        The mode, or the index of the named player's seat.

    Raises:
        FirstPlayerError: neither a mode nor one of `names`; the message lists both.
    """
    wanted = text.strip()
    if not wanted:
        return FirstPlayer.FIRST_SEAT
    keys = [name_key(name) for name in names]
    if name_key(wanted) in keys:
        return keys.index(name_key(wanted))
    try:
        return FirstPlayer(wanted.lower().replace("-", "_"))
    except ValueError:
        choices = [*names, *(mode.value for mode in FirstPlayer)]
        raise FirstPlayerError(
            N_("first player mode must be one of {modes}, not {first!r}"),
            modes=", ".join(choices),
            first=text,
        ) from None


def game_settings(
    seats: Sequence[tuple[str, str | None]],
    rules: RuleSet,
    *,
    first_player: str = FirstPlayer.FIRST_SEAT.value,
    match_length: int = 1,
) -> GameSettings:
    """The settings of a game the app rolls for, checked.

    Args:
        seats: each seat's name and CPU level (None: a person), in seat order.
        rules: the rule set.
        first_player: how the first player is chosen (`parse_first_player`).
        match_length: the number of games in the match.

    Raises:
        CpuLevelError: a CPU level that does not exist (the seat is in its parameters).
        FirstPlayerError: an unknown way to choose the first player.
        SettingsError: the core refuses the seats or the match (`GameSettings`), e.g. a
            bad name or two seats with one name; a name that mixes scripts, or looks like
            another seat's (`fivedice.service.lookalikes`).
    """
    for number, (_name, level) in enumerate(seats, start=1):
        if level is not None:
            check_level(level, seat=number)
    chosen = tuple(Seat(name, level) for name, level in seats)  # (each name checked)
    for seat in chosen:
        check_scripts(seat.name)
    check_lookalikes([seat.name for seat in chosen])
    return GameSettings(
        seats=chosen,
        rules=rules,
        first_player=parse_first_player(first_player),
        match_length=match_length,
    )


def build_table_settings(rules: RuleSet, players: Sequence[str], first: str = "") -> GameSettings:
    """Settings of a game at the table: the seats in the order given.

    Args:
        rules: the rule set.
        players: the players' names, in the order they play.
        first: who starts: empty (the first seat), a player's name (play then goes on in
            the order given, from that player), or a mode as in `parse_first_player`
            (`highest_die`, `highest_sum`: the app rolls the roll-off).

    Raises:
        SettingsError: no players, or the core refuses the seats (two with one name, ...).
        FirstPlayerError: neither a player's name nor a mode.
    """
    if not players:
        raise SettingsError(N_("name the players at the table, e.g. --player Ann --player Bob"))
    seats = [Seat(name) for name in players]  # `Seat` trims and checks each name
    chosen = parse_first_player(first, [seat.name for seat in seats])
    mode = FirstPlayer.FIRST_SEAT
    if isinstance(chosen, FirstPlayer):
        mode = chosen
    else:
        seats = seats[chosen:] + seats[:chosen]
    return GameSettings(tuple(seats), rules, mode, kind=GameKind.TABLE)


def zero_score_to_confirm(state: GameState, action: Action | str) -> Placement | None:
    """The placement of a legal score of 0 that `action` would make now, else None.

    Every front end asks before a box takes a 0 (the box is then used up); any other
    action, a score of points, or an action the rules refuse (the service says why) needs
    no question.
    """
    if state.is_match_over:
        return None
    if isinstance(action, str):
        try:
            action = parse_action(action, state.rules.dice)
        except FivediceError:
            return None
    if not isinstance(action, Score):
        return None
    for placement in state.placements():
        if (placement.category, placement.column) == (action.category, action.column):
            return placement if placement.points == 0 else None
    return None
