"""`fivedice review GAME`: every decision of a finished game against the best one.

Registered on the main app by `fivedice.cli` (`register(app)`). The review comes from the
service (`GameService.review`); this module only prints it, as text with a chart or as JSON.
"""

from __future__ import annotations

import json
import shutil
from typing import Annotated

import typer

from fivedice.cli.common import DbOption, JsonOption, check_game_id, fail_with
from fivedice.core.errors import FivediceError


def review(
    game: Annotated[int, typer.Argument(help="The finished game's id (see `fivedice games`).")],
    db: DbOption = None,
    as_json: JsonOption = False,
    chart: Annotated[
        bool, typer.Option("--chart/--no-chart", help="Draw the score chart of each seat.")
    ] = True,
    in_app: Annotated[
        bool, typer.Option("--app", help="Show the review in the terminal app instead.")
    ] = False,
    winning_total: Annotated[
        bool,
        typer.Option(
            "--winning-total",
            help="Judge each decision also by its chance of reaching the score that would "
            "have won (the best other total + 1; solo: the high score to beat).",
        ),
    ] = False,
) -> None:
    """Every keep and box of a finished game against the best option, with the points lost.

    Exact for one column; estimates (marked ≈) for several columns. Games in progress are
    not reviewed.
    """
    from fivedice.service.games import GameService
    from fivedice.wording.review import review_lines

    check_game_id(game)
    if in_app and not as_json:
        from fivedice.tui.screens.review import run_review_app

        run_review_app(game, db)
        return
    try:
        found = GameService.open(db).review(game, against_winning_total=winning_total)
    except FivediceError as error:
        fail_with(error)
    if as_json:
        typer.echo(json.dumps(found.to_json()))
        return
    width = min(max(shutil.get_terminal_size((80, 24)).columns - 4, 40), 100)
    for line in review_lines(found, chart_width=width, chart=chart):
        typer.echo(line)


def register(app: typer.Typer) -> None:
    """Adds `review` to the `fivedice` app."""
    app.command("review")(review)
