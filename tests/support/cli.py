"""The command line run in-process, as a player would type it."""

from __future__ import annotations

from click.testing import Result
from typer.testing import CliRunner

from fivedice.cli import app

runner = CliRunner()


def run(*args: str, input: str | None = None, color: bool = False) -> Result:
    """Runs `fivedice ARGS...` in-process with `input` on stdin; returns the click result."""
    return runner.invoke(app, list(args), input=input, color=color)
