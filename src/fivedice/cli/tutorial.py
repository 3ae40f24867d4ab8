"""`fivedice tutorial`: learn by playing, in the terminal app or line by line (`--plain`).

`--list [--json]` lists the lessons with their progress. Registered by `fivedice.cli`; the
store and the front ends load only when the command runs.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from fivedice.cli.common import DbOption, JsonOption, RulesOption, SetOption, fail_with, load_rules
from fivedice.core.errors import FivediceError
from fivedice.i18n import _


def tutorial(
    plain: Annotated[
        bool, typer.Option("--plain", help="Line-based lessons on stdin/stdout.")
    ] = False,
    list_lessons: Annotated[
        bool, typer.Option("--list", help="List the lessons and which are done.")
    ] = False,
    as_json: JsonOption = False,
    lesson: Annotated[
        str | None, typer.Option("--lesson", help="Start with this lesson (key or number).")
    ] = None,
    reset: Annotated[
        bool, typer.Option("--reset", help="Forget the tutorial progress (games stay).")
    ] = False,
    rules_name: RulesOption = "classic",
    settings: SetOption = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed for the guided game's dice.")
    ] = None,
    db: DbOption = None,
) -> None:
    """Learn by playing: short lessons with scripted dice, then a game with the coach.

    The lessons follow the rules in force (`--rules`, `--set`): the joker rule, the bonuses
    and the box values. Progress is kept apart from games and statistics.
    """
    from fivedice.plain.tutorial import progress_lines
    from fivedice.service.games import GameService
    from fivedice.service.tutorial import LESSONS
    from fivedice.service.tutorial.progress import lesson_state, lessons_done

    ruleset = load_rules(rules_name, settings)
    try:
        service = GameService.open(db)
        if reset:
            service.tutorial_reset()
            typer.echo(_("The tutorial progress is forgotten."))
            if not (list_lessons or plain):
                return
        if list_lessons or as_json:
            progress = service.tutorial_progress()
            if not as_json:
                for line in progress_lines(progress):
                    typer.echo(line)
                return
            lessons = []
            for item in LESSONS:
                found = progress.get(item.key)
                lessons.append(
                    {
                        "key": item.key,
                        "title": _(item.title),
                        "summary": _(item.summary),
                        "state": lesson_state(progress, item),
                        "times_done": found.times_done if found else 0,
                        "updated": found.updated.isoformat() if found else None,
                    }
                )
            done = lessons_done(progress)
            typer.echo(json.dumps({"lessons": lessons, "done": done, "count": len(lessons)}))
            return
        if plain:
            from fivedice.plain.tutorial import run_plain_tutorial

            code = run_plain_tutorial(
                service, ruleset, stdin=sys.stdin, stdout=sys.stdout, lesson=lesson, seed=seed
            )
            raise typer.Exit(code)
    except FivediceError as error:
        fail_with(error)
    from fivedice.tui import run_tutorial

    run_tutorial(ruleset, db=db, lesson=lesson, seed=seed)


def register(app: typer.Typer) -> None:
    app.command("tutorial")(tutorial)
