"""Words for the coach of a goal ("beat 245", "beat Ann", "reach 300"), in every front end."""

from __future__ import annotations

from fivedice.i18n import _
from fivedice.wording.review import percent

__all__ = [
    "goal_cleared_text",
    "goal_heading",
    "goal_help_text",
    "goal_set_text",
    "goal_value_text",
]


def goal_help_text() -> str:
    """How to set a goal for the coach (plain mode's help, the terminal app's prompt)."""
    return _(
        "goal 300, goal beat 245 or goal beat Ann: the coach then ranks the options by their"
        " chance of reaching that total; goal off: back to the most points on average."
    )


def goal_set_text(total: int) -> str:
    return _("Goal: a final total of {total} or more. The hints now play for it.").format(
        total=total
    )


def goal_cleared_text() -> str:
    return _("No goal: the hints play for the most points on average.")


def goal_heading(total: int) -> str:
    """The heading of the hints for a goal."""
    return _(
        "The coach's best options for a final total of {total} (chance of reaching it):"
    ).format(total=total)


def goal_value_text(chance: float, language: str | None = None) -> str:
    """An option's chance of reaching the goal: "37%", "<1%", ">99%"."""
    return percent(chance, language)
