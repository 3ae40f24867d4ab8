"""Names of things the player picks or sees listed: rule presets, seats nobody named, CPU
levels, saved games' statuses and first-player modes, in the current language (or the
`gettext` a caller passes: the web translates per request).
"""

from __future__ import annotations

from collections.abc import Callable

from fivedice.core.errors import N_
from fivedice.core.game import FirstPlayer
from fivedice.i18n import _

STATUS_NAMES: dict[str, str] = {
    "in_progress": N_("in progress"),
    "finished": N_("finished"),
    "abandoned": N_("abandoned"),
}
"""A saved game's status in words, by the status the store keeps."""


def status_text(status: str, gettext: Callable[[str], str] | None = None) -> str:
    """A saved game's status ("in_progress", "finished", "abandoned") in words, translated
    by `gettext` (default: the current language)."""
    name = STATUS_NAMES.get(status)
    return (gettext or _)(name) if name is not None else status


PRESET_TITLES: dict[str, str] = {
    "classic": N_("Classic"),
    "free-choice": N_("Free choice"),
    "simple": N_("Simple"),
    "classic-five": N_("Classic Five"),
    "triple": N_("Triple Yahtzee"),
    "yatzy": N_("Yatzy"),
    "maxi-yatzy": N_("Maxi Yatzy"),
    "yacht": N_("Yacht"),
    "yacht-dice": N_("Yacht Dice"),
    "generala": N_("Generala"),
    "kismet": N_("Kismet"),
}
"""A rule preset's name as players see it, by its key."""

PRESET_DESCRIPTIONS: dict[str, str] = {
    "classic": N_("Official rules: extra-Yahtzee bonus 100, forced joker"),
    "free-choice": N_("Classic with the free-choice joker (Verhoeff's rules)"),
    "simple": N_("No extra-Yahtzee bonus and no joker"),
    "classic-five": N_("Classic Five: no bonus, no joker, fixed straights"),
    "triple": N_("Triple Yahtzee: three columns counting 1x, 2x and 3x"),
    "yatzy": N_("Scandinavian: 15 boxes, pairs, straights 15 and 20, bonus 50 at 63"),
    "maxi-yatzy": N_("six dice, 20 boxes, bonus 100 at 84, unused rolls saved"),
    "yacht": N_(
        "The Yacht Game (1938): 12 boxes, full house and four of a kind score sums, no bonus"
    ),
    "yacht-dice": N_(
        "Yacht Dice (51 Worldwide Games): 12 boxes, bonus 35 at 63, straights 15 and 30"
    ),
    "generala": N_("Generala: 11 boxes, served hands +5, Generala 50, Double Generala 100"),
    "kismet": N_("Kismet (as GNOME Tali): colours of pips, bonus 35/55/75 at 63/71/78"),
}
"""What a rule preset is, in a few words, by its key."""


def preset_title(name: str) -> str:
    """A rule preset's name as players see it, in the current language (the key, e.g.
    `classic`, stays what `--rules` and the API take)."""
    title = PRESET_TITLES.get(name)
    return _(title) if title is not None else name


def preset_description(name: str) -> str:
    """What a rule preset is, in a few words, in the current language."""
    description = PRESET_DESCRIPTIONS.get(name)
    return _(description) if description is not None else name


YOU = N_("You")
"""The default name of the person at the keyboard, in every front end and every language."""
FORMER_DEFAULT_NAMES: tuple[str, ...] = (N_("Player"),)
"""Default names the front ends gave the human before `YOU` ("Player", "プレイヤー")."""


def you_name(gettext: Callable[[str], str] | None = None) -> str:
    """The human's default name in the current language ("You", "あなた")."""
    return (gettext or _)(YOU)


def player_name(number: int) -> str:
    """The name of a person's seat nobody named: "Player 2"."""
    return _("Player {number}").format(number=number)


def cpu_name(number: int, level: str | None = None) -> str:
    """The name of a CPU seat nobody named: "CPU 2", or "CPU 2 (casual)" with its level."""
    if level is None:
        return _("CPU {number}").format(number=number)
    return _("CPU {number} ({level})").format(number=number, level=level_name(level))


LEVEL_NAMES: dict[str, str] = {
    "beginner": N_("beginner"),
    "casual": N_("casual"),
    "guide": N_("guide"),
    "strong": N_("strong"),
    "expert": N_("expert"),
    "master": N_("master"),
}
"""Each CPU level's name, by the level's value (`strategy.levels.Level`)."""


def level_name(level: str, gettext: Callable[[str], str] | None = None) -> str:
    """A CPU level's name, translated by `gettext` (default: the current language); an
    unknown level as it is."""
    name = LEVEL_NAMES.get(str(level))
    return (gettext or _)(name) if name is not None else str(level)


def first_player_name(mode: FirstPlayer) -> str:
    """How the first player of a game is chosen, in words."""
    return {
        FirstPlayer.FIRST_SEAT: _("the first seat starts"),
        FirstPlayer.HIGHEST_DIE: _("everyone rolls one die, highest starts"),
        FirstPlayer.HIGHEST_SUM: _("everyone rolls five dice, highest sum starts"),
    }[mode]
