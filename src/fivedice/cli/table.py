"""`fivedice table`: the score keeper for real dice (terminal app, or `--plain` lines).

Registered on the main app by `fivedice.cli` (`register(app)`).
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from fivedice.cli.common import (
    DbOption,
    PracticeOption,
    RulesOption,
    SetOption,
    check_game_id,
    check_seed,
    fail_with,
    load_rules,
)
from fivedice.core.errors import FivediceError


def table(
    players: Annotated[
        list[str] | None,
        typer.Option(
            "--player",
            "-p",
            help="A player at the table, in order of play (repeatable).",
        ),
    ] = None,
    rules_name: RulesOption = "classic",
    settings: SetOption = None,
    first: Annotated[
        str,
        typer.Option(
            "--first",
            help="Who starts: a player's name, or first_seat, highest_die, highest_sum.",
        ),
    ] = "",
    plain: Annotated[
        bool, typer.Option("--plain", help="Line-based score keeping on stdin/stdout.")
    ] = False,
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue GAME, or the latest unfinished table game.")
    ] = False,
    game: Annotated[
        int | None, typer.Argument(help="The saved table game to resume (see `fivedice games`).")
    ] = None,
    practice: PracticeOption = False,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed of the app's roll-off for --first.")
    ] = None,
    db: DbOption = None,
) -> None:
    """Keep the score of a game played with real dice: enter the dice, the app keeps the card.

    Each turn the player enters what they rolled (`dice 3 3 3 5 5`) and picks a box, or enters
    the points alone (`score full_house 25`). `--plain` reads one entry per line.
    """
    from fivedice.plain.table import run_table_plain
    from fivedice.service.games import GameService
    from fivedice.service.settings import build_table_settings

    check_seed(seed)
    check_game_id(game)
    ruleset = load_rules(rules_name, settings)
    resuming = resume or game is not None
    try:
        initial = None if resuming else build_table_settings(ruleset, players or [], first)
        service = GameService.open(db)
    except FivediceError as error:
        fail_with(error)
    try:
        if not plain:
            from fivedice.tui import run_table

            run_table(
                service, initial, seed=seed, practice=practice, resume=resume, resume_game=game
            )
            return
        code = run_table_plain(
            service,
            initial,
            stdin=sys.stdin,
            stdout=sys.stdout,
            seed=seed,
            practice=practice,
            resume=resume,
            resume_game=game,
        )
    except FivediceError as error:
        fail_with(error)
    raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    """Adds the `table` command to the `fivedice` app."""
    app.command("table")(table)
