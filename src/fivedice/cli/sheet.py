"""`fivedice sheet`: a printable score sheet as a PDF, blank or filled in from a saved game.

Registered by `fivedice.cli`; fpdf2 and the store load only when the command runs.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from fivedice.cli.common import (
    DbOption,
    RulesOption,
    SetOption,
    check_game_id,
    fail,
    fail_with,
    load_rules,
    use_lang_option,
)
from fivedice.core.errors import FivediceError
from fivedice.i18n import _, current_language


def _check_output(output: str) -> Path | None:
    """The file to write (None: standard output), or a clean exit when it cannot be written."""
    if output == "-":
        return None
    path = Path(output).expanduser()
    if path.is_dir():
        fail(
            _("{path} is a directory; give a file name, e.g. {example}").format(
                path=path, example=path / "sheet.pdf"
            )
        )
    if not path.parent.is_dir():
        fail(
            _("cannot write {path}: the directory {folder} does not exist").format(
                path=path, folder=path.parent
            )
        )
    return path


def sheet(
    output: Annotated[
        str, typer.Option("--output", "-o", help="The PDF file to write ('-': standard output).")
    ],
    rules_name: RulesOption = "classic",
    settings: SetOption = None,
    players: Annotated[
        str | None,
        typer.Option("--players", help='Names for the column headings, e.g. "Ann,Bob".'),
    ] = None,
    columns: Annotated[
        int | None,
        typer.Option(
            "--columns",
            help="How many columns (games or players); default one per player, else 6.",
        ),
    ] = None,
    game: Annotated[
        int | None,
        typer.Option(
            "--game", help="Fill the sheet in from this saved game (see `fivedice games`)."
        ),
    ] = None,
    paper: Annotated[str, typer.Option("--paper", help="Paper size: a4 or letter.")] = "a4",
    lang: Annotated[
        str | None,
        typer.Option("--lang", help="Language of the sheet: en, nl, de, ja, fr or es."),
    ] = None,
    db: DbOption = None,
) -> None:
    """A printable score sheet (PDF): the boxes of the rules in force, one column per game.

    Up to six columns fit on one page; more continue on further pages.
    """
    if lang is not None:
        use_lang_option(lang)
    from fivedice.sheet.model import (
        blank_columns,
        build_sheet,
        game_sheet,
        parse_names,
        parse_paper,
    )

    try:
        size = parse_paper(paper)
    except FivediceError as error:
        fail_with(error)
    path = _check_output(output)
    language = current_language()
    check_game_id(game)
    if game is not None:
        if players is not None or columns is not None or settings or rules_name != "classic":
            fail(
                _(
                    "--game takes the players and the rules from the saved game; "
                    "leave out --players, --columns, --rules and --set"
                )
            )
        from fivedice.service.games import GameService

        try:
            service = GameService.open(db)
            state = service.load(game).state
            content = game_sheet(state, language=language)
        except FivediceError as error:
            fail_with(error)
    else:
        rules = load_rules(rules_name, settings)
        try:
            content = build_sheet(
                rules, blank_columns(parse_names(players), columns), language=language
            )
        except FivediceError as error:
            fail_with(error)
    from fivedice.sheet.pdf import render_pdf

    try:
        data = render_pdf(content, size)
    except FivediceError as error:
        fail_with(error)
    if path is None:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    try:
        path.write_bytes(data)
    except OSError as error:
        fail(_("cannot write {path}: {reason}").format(path=path, reason=error.strerror or error))
    typer.echo(_("Wrote the score sheet to {path}.").format(path=path))


def register(app: typer.Typer) -> None:
    """Adds `sheet` to the main command."""
    app.command("sheet")(sheet)
