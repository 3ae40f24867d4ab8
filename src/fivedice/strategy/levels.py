"""The names of the CPU levels, importable without numpy (for argument checking)."""

from __future__ import annotations

from fivedice.core.errors import N_, FivediceError

LEVELS: tuple[str, ...] = ("beginner", "casual", "strong", "expert", "master")


def parse_level(text: str) -> str:
    """The level named by `text` (any case).

    Raises:
        FivediceError: not a level.
    """
    level = text.strip().lower()
    if level not in LEVELS:
        raise FivediceError(
            N_("a CPU level is one of {names}, not {text!r}"), names=", ".join(LEVELS), text=text
        )
    return level
