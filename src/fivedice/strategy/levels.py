"""The CPU levels: the one list every part reads (bots, the CLI, the web API, the fronts).

Importable without numpy (for argument checking).

>>> LEVELS
('beginner', 'casual', 'strong', 'expert', 'master')
>>> Level.parse("Expert")
<Level.EXPERT: 'expert'>
"""

from __future__ import annotations

from enum import StrEnum

from fivedice.core.errors import N_, FivediceError

__all__ = ["LEVELS", "Level", "parse_level"]


class Level(StrEnum):
    """The CPU strengths, weakest first; the values are the names used everywhere."""

    BEGINNER = "beginner"
    CASUAL = "casual"
    STRONG = "strong"
    EXPERT = "expert"
    MASTER = "master"

    @classmethod
    def parse(cls, text: str | Level) -> Level:
        """The level named by `text` (any case).

        Raises:
            FivediceError: not a level.
        """
        if isinstance(text, Level):
            return text
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise FivediceError(
                N_("a CPU level is one of {names}, not {text!r}"),
                names=", ".join(LEVELS),
                text=text,
            ) from None


LEVELS: tuple[str, ...] = tuple(level.value for level in Level)
"""The level names, weakest first."""


def parse_level(text: str) -> str:
    """The level named by `text` (any case), as its name.

    Raises:
        FivediceError: not a level.
    """
    return Level.parse(text).value
