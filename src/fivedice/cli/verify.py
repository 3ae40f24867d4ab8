"""`fivedice verify RECORD`: recomputes every roll of a game record from its revealed seeds.

Registered on the main app by `fivedice.cli` (`register(app)`). Exit status 0: every roll
verified; 1: something does not match (the first action that does not is named); 2: the
record cannot be read, or cannot be verified yet (a game in progress).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from fivedice.cli.common import fail
from fivedice.core.errors import FivediceError
from fivedice.i18n import _


def verify(
    file: Annotated[
        Path, typer.Argument(help="A record written by `fivedice export` (- reads stdin).")
    ],
) -> None:
    """Checks a finished game's dice: the commitment, and every roll recomputed from the seeds."""
    from fivedice.core.record import parse_record
    from fivedice.core.verify import verify_record
    from fivedice.wording.text import error_text

    try:
        text = sys.stdin.read() if str(file) == "-" else file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        fail(_("cannot read {file}: {error}").format(file=file, error=error))
    try:
        record = parse_record(text, check=False)
        verification = verify_record(record)
    except FivediceError as error:
        fail(_("{file} cannot be verified: {error}").format(file=file, error=error_text(error)))
    if verification.ok:
        if verification.committed:
            typer.echo(
                _(
                    "Verified: all rolls ({count} in all) are the ones the seeds give, and the"
                    " server seed matches the commitment."
                ).format(count=verification.rolls)
            )
        else:
            typer.echo(
                _(
                    "Verified from the game's seed: all rolls ({count} in all). Its dice were"
                    " known in advance (a practice game, or one saved before verifiable dice):"
                    " there is no commitment to check."
                ).format(count=verification.rolls)
            )
        return
    typer.echo(_("The record does not verify:"))
    for problem in verification.problems:
        typer.echo(f"- {error_text(problem.error)}")
    first = verification.first_bad_action
    if first is not None:
        typer.echo(_("The first action that does not match: {number}.").format(number=first))
    raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Adds `verify` to the `fivedice` app."""
    app.command("verify")(verify)
