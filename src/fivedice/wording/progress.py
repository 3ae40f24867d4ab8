"""The words of a table's build under way: what is built, how far, about how long is left.

Every front end says the same (`build_progress_text`): the terminal app's coach panel, the
plain mode's progress line, the command line's line on stderr and the web's coach panel.

>>> from fivedice.strategy.derived import BuildProgress
>>> build_progress_text(BuildProgress("goal", 0.42, 330.0, 240.0))
'Computing the goal table: 42% done, about 6 min left'
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, TextIO

from fivedice.core.errors import N_
from fivedice.i18n import _

if TYPE_CHECKING:
    from fivedice.strategy.derived import BuildProgress

__all__ = ["ProgressLine", "build_progress_text", "duration_text"]

_KINDS = {
    "strategy": N_("Solving the strategy table"),
    "moments": N_("Computing the winning chances"),
    "breakdown": N_("Computing the breakdown by box"),
    "goal": N_("Computing the goal table"),
}


def duration_text(seconds: float) -> str:
    """A rounded duration: seconds under a minute and a half, minutes under 90, else hours."""
    if seconds < 90:
        return _("{count} s").format(count=max(1, round(seconds)))
    if seconds < 90 * 60:
        return _("{count} min").format(count=round(seconds / 60))
    return _("{count} h").format(count=f"{seconds / 3600:.1f}")


def build_progress_text(progress: BuildProgress) -> str:
    """One line: what is built, the percentage done and the time left (when known), and
    whether this process waits for another's build of the same table."""
    label = _(_KINDS.get(progress.kind, _KINDS["strategy"]))
    percent = f"{min(progress.fraction, 1.0) * 100:.0f}"
    if progress.seconds_left is None:
        line = _("{label}: {percent}% done").format(label=label, percent=percent)
    else:
        line = _("{label}: {percent}% done, about {time} left").format(
            label=label, percent=percent, time=duration_text(progress.seconds_left)
        )
    if progress.waiting:
        line = _("{line} (another process builds it; this one waits for it)").format(line=line)
    return line


class ProgressLine:
    """Shows builds' progress on a text stream: one line rewritten in place (`\\r`, at most
    twice a second) on a terminal, else a line every tenth of the way; `suffix` is added
    (say "Ctrl+C cancels")."""

    def __init__(self, stream: TextIO, suffix: str = "") -> None:
        self.stream = stream
        self.suffix = suffix
        self.terminal = stream.isatty()
        self.shown = False
        self._last_time = 0.0
        self._last_tenth = -1
        self._width = 0

    def __call__(self, progress: BuildProgress) -> None:
        text = build_progress_text(progress) + (f" ({self.suffix})" if self.suffix else "")
        if self.terminal:
            now = time.monotonic()
            if now - self._last_time < 0.5 and progress.fraction < 1.0:
                return
            self._last_time = now
            self.stream.write("\r" + text + " " * max(0, self._width - len(text)))
            self._width = len(text)
        else:
            tenth = int(progress.fraction * 10)
            if tenth == self._last_tenth:
                return
            self._last_tenth = tenth
            self.stream.write(text + "\n")
        self.stream.flush()
        self.shown = True

    def end(self) -> None:
        """Clears a terminal's line (the next output starts on a clean line)."""
        if self.terminal and self.shown:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
