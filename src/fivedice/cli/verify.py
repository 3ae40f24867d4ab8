"""`fivedice verify RECORD`: checks a game record's signature and every roll of its dice.

Registered on the main app by `fivedice.cli` (`register(app)`). Exit status 0: verified (the
signature holds, by a key you trust, and every roll was committed to and recomputed); 1: the
record does not match (altered: the signature, the commitment, a roll, the log or a total,
or signed by another key than `--key`); 2: the record or the key cannot be read; 3: not
verifiable (a game in progress, a practice game with a seed of its own, dice from before
verifiable dice, or an unsigned record); 4: signed by a key you did not name (`--key`: a
fingerprint, a file, or the address of the server's /fairness/key) and that is not this
installation's own - anyone can sign an edited record with a key of their own.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from fivedice.cli.common import fail
from fivedice.core.errors import FivediceError
from fivedice.i18n import _

MAX_KEY_FILE = 64 * 1024
"""A key file is a few lines (`GET /fairness/key`, or a PEM): anything larger is not one."""
KEY_FETCH_SECONDS = 10.0
"""How long `--key https://…/fairness/key` waits for the server."""


def verify(
    file: Annotated[
        Path, typer.Argument(help="A record written by `fivedice export` (- reads stdin).")
    ],
    key: Annotated[
        str | None,
        typer.Option(
            "--key",
            help="The key you trust: its fingerprint, its public key in hex, a file"
            " holding it (what the server's /fairness/key serves, or a PEM), or the"
            " address of a server's /fairness/key. A record signed by any other key is"
            " refused. Without it only this installation's own key is trusted.",
        ),
    ] = None,
) -> None:
    """Checks a game record: its signature over every line, the dice commitment, and \
every roll recomputed from the seeds.

    Exit status: 0 verified (it prints the fingerprint of the key that signed the record); \
1 the record does not match (a line changed after signing, a key other than --key, a roll, \
the log or a total); 2 the record or the key cannot be read; 3 not verifiable (a game in \
progress, a practice game with a seed of its own or one saved before verifiable dice, or a \
record without a signature); 4 signed by a key you did not say you trust (name it with \
--key).
    """
    from fivedice.service.records import check_record_text
    from fivedice.service.signing import TrustedKey, trusted_key
    from fivedice.wording.text import error_text
    from fivedice.wording.verdicts import verdict_lines

    trusted: TrustedKey | None = None
    if key is not None:
        try:
            trusted = trusted_key(_key_text(key))
        except FivediceError as error:
            fail(error_text(error))
    try:
        text = sys.stdin.read() if str(file) == "-" else file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        fail(_("cannot read {file}: {error}").format(file=file, error=error))
    try:
        check = check_record_text(text, trusted)
    except FivediceError as error:
        fail(_("{file} cannot be verified: {error}").format(file=file, error=error_text(error)))
    for line in verdict_lines(
        check.verdict,
        rolls=check.rolls,
        fingerprint=check.signature.fingerprint,
        pinned=trusted is not None,
        refused=check.refused,
        server_alone=check.server_alone,
    ):
        typer.echo(line)
    if not check.problems or check.ok:
        raise typer.Exit(check.verdict.exit_status)
    for problem in check.problems:
        typer.echo(f"- {error_text(problem.error)}")
    first = check.first_bad_action
    if first is not None:
        typer.echo(_("The first action that does not match: {number}.").format(number=first))
    raise typer.Exit(check.verdict.exit_status)


def _key_text(key: str) -> str:
    """The text of `--key`: what the address serves (a server's /fairness/key), the file's
    when it names a file, else the option itself."""
    if key.startswith(("http://", "https://")):
        return _fetched_key(key)
    path = Path(key)
    try:
        is_file = path.is_file()
    except (OSError, ValueError):  # a name too long, or with a NUL, is no file's
        is_file = False
    if not is_file:
        return key
    try:
        with path.open("rb") as source:
            data = source.read(MAX_KEY_FILE + 1)
    except OSError as error:
        fail(_("cannot read {file}: {error}").format(file=key, error=error))
    if len(data) > MAX_KEY_FILE:
        return ""  # refused by trusted_key as not a key
    return data.decode("utf-8", errors="replace")


def _fetched_key(address: str) -> str:
    """What a server publishes at `address` (its /fairness/key), read up to MAX_KEY_FILE."""
    import urllib.request

    try:
        with urllib.request.urlopen(address, timeout=KEY_FETCH_SECONDS) as answer:
            data = answer.read(MAX_KEY_FILE + 1)
    except (OSError, ValueError) as error:
        fail(_("cannot read {file}: {error}").format(file=address, error=error))
    if len(data) > MAX_KEY_FILE:
        return ""  # refused by trusted_key as not a key
    return bytes(data).decode("utf-8", errors="replace")


def register(app: typer.Typer) -> None:
    """Adds `verify` to the `fivedice` app."""
    app.command("verify")(verify)
