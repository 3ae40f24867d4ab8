"""The `fivedice` command line: one Typer app, its commands in one module per group.

Each group module (`game`, `strategy`, ...) defines its commands and a `register(app)` that
adds them; `COMMAND_GROUPS` lists them in the order `fivedice --help` shows. The modules import
only typer and the light core at the top: numpy, the solver, the store and the front ends load
inside the commands that use them. The console script (`main`) builds only the command it runs,
reads plain option values without pydantic and loads typer's rich help only to print help or a
refusal (`cli.startup`, `cli.help`), so that `fivedice advise` on a cached table stays well
under 0.2 s of CPU.
"""

from __future__ import annotations

import os
import sys
from types import ModuleType
from typing import Annotated

import typer

from fivedice.cli import (
    drill,
    game,
    guide,
    holdem,
    review,
    sheet,
    sim,
    store,
    strategy,
    table,
    tutorial,
    verify,
    web,
)
from fivedice.cli.common import use_lang_option

__all__ = ["COMMAND_GROUPS", "app", "main"]

app = typer.Typer(
    name="fivedice",
    help="Five dice, every house rule, and a coach that knows the best move.",
    no_args_is_help=False,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# The help names the languages of `fivedice.i18n.LANGUAGES` (a literal, so that it can be
# translated: cli_help.py; a test checks that the two agree).
LangOption = Annotated[
    str | None, typer.Option("--lang", help="Language: en, nl, de, ja, fr or es.")
]


@app.callback()
def main_callback(lang: LangOption = None) -> None:
    """Five dice, every house rule, and a coach that knows the best move."""
    use_lang_option(lang)


COMMAND_GROUPS: tuple[ModuleType, ...] = (
    game,  # score, rules, play
    strategy,  # solve, advise
    sim,  # simulate
    store,  # games, stats, highscores, export, replay
    table,  # table
    web,  # serve
    sheet,  # sheet
    guide,  # guide
    review,  # review
    tutorial,  # tutorial
    drill,  # drill
    holdem,  # holdem odds, simulate, play, rules
    verify,  # verify
)
"""The command groups, in the order of `fivedice --help`."""

for _group in COMMAND_GROUPS:
    _group.register(app)


def main() -> None:
    """Console-script entry point: the command line with its help in the player's language."""
    from fivedice.cli.help import localized_command

    # fivedice computes in numba kernels, its few matrix products small; OpenBLAS would start
    # a thread per core when numpy loads, a third of a one-off command's CPU (`fivedice
    # advise`: 0.22 s with them, 0.15 s without). A user's setting stands; workers inherit it.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

    localized_command(app, sys.argv[1:])()
