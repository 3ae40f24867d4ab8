"""A table's build on the command line: one progress line on stderr, Ctrl+C cancels.

`building()` gives a listener (`wording.progress.ProgressLine` on stderr); a Ctrl+C during
the build stops it (the build leaves no file) and exits with 130 after saying so.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

import typer

from fivedice.i18n import _
from fivedice.strategy.derived import BuildCancelled, ProgressListener, reporting_builds
from fivedice.wording.progress import ProgressLine

__all__ = ["building"]


@contextmanager
def building(show: bool = True) -> Iterator[ProgressListener | None]:
    """A listener printing the builds' progress on stderr (None when not `show`), also for
    the builds started inside without one; Ctrl+C (or a cancelled build) ends the command
    with a word and exit status 130."""
    line = ProgressLine(sys.stderr) if show else None
    try:
        with reporting_builds(line):
            yield line
    except (KeyboardInterrupt, BuildCancelled):
        if line is not None:
            line.end()
        typer.echo(_("Cancelled: nothing was saved."), err=True)
        raise typer.Exit(130) from None
    finally:
        if line is not None:
            line.end()
