"""The CPU levels: the one list every part reads (bots, the CLI, the web API, the fronts).

Importable without numpy (for argument checking). A level typed by a player is read with
`Level.parse` (any case); a level that comes from settings or a saved game must be one of
the names exactly (`check_level`). Both refuse with the one message of `CpuLevelError`.

>>> LEVELS
('beginner', 'casual', 'guide', 'strong', 'expert', 'master')
>>> Level.parse("Expert")
<Level.EXPERT: 'expert'>
>>> check_level("casual") is DEFAULT_LEVEL
True
"""

from __future__ import annotations

from enum import StrEnum

from fivedice.core.errors import N_, SettingsError

__all__ = ["DEFAULT_LEVEL", "LEVELS", "CpuLevelError", "Level", "check_level", "parse_level"]


class CpuLevelError(SettingsError):
    """A CPU level that does not exist.

    Its parameters: `names` (the levels), `text` (what was asked for) and, when the level
    belongs to a seat, `seat` (numbered from 1) so a caller can point at the seat.
    """


class Level(StrEnum):
    """The CPU strengths, weakest first; the values are the names used everywhere."""

    BEGINNER = "beginner"
    CASUAL = "casual"
    # Plays the printed strategy guide (`strategy.guide`): rules a person can follow, which
    # score more than casual's rules of thumb and less than strong's optimal values.
    GUIDE = "guide"
    STRONG = "strong"
    EXPERT = "expert"
    MASTER = "master"

    @classmethod
    def parse(cls, text: str | Level) -> Level:
        """The level named by `text` (any case, outer spaces ignored): a player's input.

        Raises:
            CpuLevelError: not a level.
        """
        if isinstance(text, Level):
            return text
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise _unknown_level(text) from None


LEVELS: tuple[str, ...] = tuple(level.value for level in Level)
"""The level names, weakest first."""

DEFAULT_LEVEL = Level.CASUAL
"""The level of a CPU seat nobody chose a level for (new-game forms, a seat handed to a CPU)."""


def _unknown_level(text: object, seat: int | None = None) -> CpuLevelError:
    # The one message for a level that does not exist, wherever it was found.
    context = {} if seat is None else {"seat": seat}
    return CpuLevelError(
        N_("a CPU level is one of {names}, not {text!r}"),
        names=", ".join(LEVELS),
        text=text,
        **context,
    )


def check_level(level: str, seat: int | None = None) -> Level:
    """The level named exactly `level` (as settings and saved games hold it).

    Args:
        level: a level's name, exactly as in `LEVELS` (no other case, no spaces).
        seat: the seat (from 1) the level is for, kept in the error's parameters.

    Raises:
        CpuLevelError: not a level's name.

    >>> check_level("expert")
    <Level.EXPERT: 'expert'>
    """
    try:
        return Level(level)
    except ValueError:
        raise _unknown_level(level, seat) from None


def parse_level(text: str) -> str:
    """The level named by `text` (any case), as its name.

    Raises:
        CpuLevelError: not a level.
    """
    return Level.parse(text).value
