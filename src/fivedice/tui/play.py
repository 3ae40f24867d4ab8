"""The app's session of one game: CPU pace, coach mode and its running total, the move log.

A small model the App owns (one per game) and hands to the game screen, which changes it as
the game goes; it is saved with the game after every change (`data`), so a resumed game comes
back as it was left, in the language it was played in (`restore`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fivedice.i18n import LANGUAGES, current_language, set_language
from fivedice.tui.widgets.move_log import MoveLog

PACES: tuple[float, ...] = (0.05, 0.2, 0.4, 0.7, 1.0, 1.5, 2.5)
"""Seconds between two CPU actions, slowest last; `+`/`-` move along this list."""

SESSION_FORMAT = 1
"""The version of the session data saved with a game (see `PlaySession.data`)."""


def pace_index(pace: float) -> int:
    """The step of `PACES` nearest to `pace` seconds."""
    return min(range(len(PACES)), key=lambda i: abs(PACES[i] - pace))


@dataclass
class PlaySession:
    """What the app keeps of a game besides the game itself."""

    pace_index: int = field(default_factory=lambda: pace_index(0.7))
    coach_mode: bool = False
    coach_loss: float = 0.0
    coach_decisions: int = 0
    coach_estimated: bool = False
    """A judged decision was valued by estimate (several columns)."""
    move_log: MoveLog = field(default_factory=MoveLog)

    @property
    def pace(self) -> float:
        """Seconds between two CPU actions."""
        return PACES[self.pace_index]

    def change_pace(self, step: int) -> None:
        """Slower (positive `step`) or faster, within `PACES`."""
        self.pace_index = min(max(self.pace_index + step, 0), len(PACES) - 1)

    def for_new_game(self) -> PlaySession:
        """The session a next game starts with: the same pace and coach mode, the rest anew."""
        return PlaySession(self.pace_index, self.coach_mode)

    def data(self) -> dict[str, Any]:
        """What is saved with the game: pace, coach, language, the log (JSON-friendly)."""
        return {
            "format": SESSION_FORMAT,
            "pace": self.pace,
            "coach": self.coach_mode,
            "coach_loss": round(self.coach_loss, 4),
            "coach_decisions": self.coach_decisions,
            "coach_estimated": self.coach_estimated,
            "language": current_language(),
            "log": self.move_log.entries,
        }

    def restore(self, data: dict[str, Any]) -> None:
        """Takes back a saved session; a value of the wrong kind keeps its default. The
        language it was played in becomes the app's again."""
        pace = data.get("pace")
        if isinstance(pace, int | float) and not isinstance(pace, bool):
            self.pace_index = pace_index(float(pace))
        if isinstance(data.get("coach"), bool):
            self.coach_mode = data["coach"]
        loss = data.get("coach_loss")
        if isinstance(loss, int | float) and not isinstance(loss, bool) and loss >= 0:
            self.coach_loss = float(loss)
        decisions = data.get("coach_decisions")
        if isinstance(decisions, int) and not isinstance(decisions, bool) and decisions >= 0:
            self.coach_decisions = decisions
        if isinstance(data.get("coach_estimated"), bool):
            self.coach_estimated = data["coach_estimated"]
        language = data.get("language")
        if isinstance(language, str) and language in LANGUAGES:
            set_language(language)
        self.move_log = MoveLog.from_json(data.get("log"))
