"""`fivedice drill`: practise the positions of your own costliest decisions, line by line.

Each position is a puzzle (the card, the dice, "what would you keep?" or "which box?"),
answered as in a game (`hold 1 3` or `1 3`, `roll`, `score chance`); the verdict gives the
best move, the points the answer loses and the options ranked. A missed position comes back
a few positions later until it is answered right twice in a row (the schedule:
`fivedice.service.drills`). `--app` opens the terminal app's Practice screen instead;
`--progress [--json]` says how far you are; `--reset` forgets it. Registered by
`fivedice.cli`; the store and the front ends load only when the command runs.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, TextIO

import typer

from fivedice.cli.common import DbOption, JsonOption, fail_with
from fivedice.core.errors import FivediceError
from fivedice.i18n import _

if TYPE_CHECKING:
    from fivedice.plain.game import LineReader
    from fivedice.service.games import GameService

QUIT_WORDS = ("quit", "exit", "q")
HELP_WORDS = ("help", "?")
SHOW_WORDS = ("show", "v")


@dataclass
class PlainDrills:
    """The drills on text streams: one puzzle at a time until the player quits, every
    position is mastered, or the input ends."""

    service: GameService
    reader: LineReader
    stdout: TextIO

    def say(self, *lines: str) -> None:
        from fivedice.plain.game import write_lines

        write_lines(self.stdout, *lines)

    def ask(self) -> str | None:
        """The next line, cleaned ("" for a line that was refused and said so)."""
        from fivedice.plain.game import (
            MAX_COMMAND,
            MAX_LINE,
            LineReader,
            ask_line,
            clean_line,
            too_long_text,
        )

        line = ask_line(self.stdout, self.reader, "> ")
        if line is LineReader.TOO_LONG or (line is not None and len(line.strip()) > MAX_COMMAND):
            self.say(too_long_text(MAX_LINE if line is LineReader.TOO_LONG else MAX_COMMAND))
            return ""
        if line is None:
            return None
        text = clean_line(line)
        if text is None:
            self.say(_("That line has characters no command uses."))
            return ""
        return text

    def run(self) -> int:
        from fivedice.wording.drills import (
            all_mastered_text,
            answer_help,
            exact_note,
            position_lines,
            practice_title,
            progress_text,
            result_lines,
        )
        from fivedice.wording.errors import refused_text
        from fivedice.wording.text import error_text

        self.say(f"== {practice_title()} ==", exact_note(), answer_help(), _drill_commands())
        last: str | None = None
        while True:
            drill = self.service.drill_next(after=last)
            self.say("", progress_text(self.service.drill_progress()))
            if drill is None:
                self.say(all_mastered_text())
                return 0
            self.say("", *position_lines(drill))
            while True:
                text = self.ask()
                if text is None or text.casefold() in QUIT_WORDS:
                    self.say(_("Goodbye. Your progress is saved."))
                    return 0
                if not text:
                    continue
                if text.casefold() in HELP_WORDS:
                    self.say(answer_help(), _drill_commands())
                    continue
                if text.casefold() in SHOW_WORDS:
                    self.say(*position_lines(drill))
                    continue
                try:
                    result = self.service.drill_answer(drill.key, text)
                except FivediceError as error:  # nothing was recorded: answer again
                    self.say(refused_text(error_text(error)))
                    continue
                self.say(*result_lines(result))
                last = drill.key
                break


def _drill_commands() -> str:
    return _("Also: show (the position again), help, quit.")


def drill(
    in_app: Annotated[
        bool, typer.Option("--app", help="Practise in the terminal app instead.")
    ] = False,
    progress: Annotated[
        bool, typer.Option("--progress", help="Say how far you are, and stop.")
    ] = False,
    as_json: JsonOption = False,
    reset: Annotated[
        bool, typer.Option("--reset", help="Forget the drills' progress (games stay).")
    ] = False,
    db: DbOption = None,
) -> None:
    """Practise positions from your own costliest decisions (and classic teaching ones).

    A position you miss comes back a few positions later until you answer it right twice in
    a row. Nothing here touches your games or statistics.
    """
    from fivedice.plain.game import LineReader
    from fivedice.service.games import GameService
    from fivedice.wording.drills import progress_text

    if in_app and not (progress or reset or as_json):
        from fivedice.tui import run_practice

        run_practice(db=db)
        return
    try:
        service = GameService.open(db)
        if reset:
            service.drill_reset()
            typer.echo(_("The drills' progress is forgotten."))
            return
        if progress or as_json:
            found = service.drill_progress()
            if as_json:
                typer.echo(
                    json.dumps(
                        {
                            "total": found.total,
                            "mastered": found.mastered,
                            "waiting": found.waiting,
                            "new": found.new,
                            "own": found.own,
                        }
                    )
                )
            else:
                typer.echo(progress_text(found))
            return
        code = PlainDrills(service, LineReader(sys.stdin), sys.stdout).run()
    except FivediceError as error:
        fail_with(error)
    raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    app.command("drill")(drill)
