"""`fivedice guide`: the strategy guide distilled from the solver, as text, JSON or a PDF.

Registered by `fivedice.cli`; fpdf2 loads only when a PDF is asked for.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from fivedice.cli.common import JsonOption, fail, fail_with, use_lang_option
from fivedice.core.errors import FivediceError
from fivedice.i18n import _


def guide(
    rules_name: Annotated[
        str, typer.Option("--rules", "-r", help="The rules the guide is for: classic.")
    ] = "classic",
    as_json: JsonOption = False,
    output: Annotated[
        str | None,
        typer.Option("--output", "-o", help="Write the guide as a PDF to this file ('-': stdout)."),
    ] = None,
    paper: Annotated[str, typer.Option("--paper", help="Paper size: a4 or letter.")] = "a4",
    lang: Annotated[
        str | None,
        typer.Option("--lang", help="Language of the guide: en, nl, de, ja, fr or es."),
    ] = None,
) -> None:
    """The strategy guide: at most 50 rules a person can follow at the table, derived from
    the solver, each with what it is worth; the `guide` CPU level plays exactly them."""
    if lang is not None:
        use_lang_option(lang)
    from fivedice.service.guide import guide_data
    from fivedice.wording.guide import guide_text

    try:
        data = guide_data(rules_name)
    except FivediceError as error:
        fail_with(error)
    if as_json:
        typer.echo(json.dumps(data, indent=1, ensure_ascii=False))
        return
    text = guide_text(data, data.get("optimum"))
    if output is None:
        typer.echo(text.as_text(), nl=False)
        return
    from fivedice.sheet.guide_pdf import render_guide_pdf
    from fivedice.sheet.model import parse_paper

    try:
        data_pdf = render_guide_pdf(text, parse_paper(paper))
    except FivediceError as error:
        fail_with(error)
    if output == "-":
        sys.stdout.buffer.write(data_pdf)
        sys.stdout.buffer.flush()
        return
    path = Path(output).expanduser()
    try:
        path.write_bytes(data_pdf)
    except OSError as error:
        fail(_("cannot write {path}: {reason}").format(path=path, reason=error.strerror or error))
    typer.echo(_("Wrote the strategy guide to {path}.").format(path=path))


def register(app: typer.Typer) -> None:
    """Adds `guide` to the main command."""
    app.command("guide")(guide)
