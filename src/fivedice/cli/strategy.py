"""The `solve` and `advise` commands: the optimal strategy from the command line.

numpy and numba are imported inside the commands so that `fivedice --help` stays fast.
"""

from __future__ import annotations

import json
import sys
import time
from typing import TYPE_CHECKING, Annotated

import typer

from fivedice.cli.common import (
    CardOption,
    JsonOption,
    RulesOption,
    SetOption,
    fail_with,
    parse_column,
    parse_rules,
)
from fivedice.core.errors import N_, FivediceError
from fivedice.i18n import _

if TYPE_CHECKING:
    from fivedice.core.card import Column
    from fivedice.core.dice import Roll
    from fivedice.core.rules import RuleSet
    from fivedice.strategy.advisor import Option
    from fivedice.strategy.solver import StrategyTable

__all__ = ["register"]


def _rules(preset: str, settings: list[str] | None) -> RuleSet:
    rules = parse_rules(preset, settings)
    if rules.columns != 1:
        raise FivediceError(
            N_("the solver handles one score column; these rules have {columns}"),
            columns=rules.columns,
        )
    return rules


def _load(rules: RuleSet, *, use_cache: bool, show_progress: bool) -> StrategyTable:
    from fivedice.strategy.cache import load_or_solve

    if not show_progress:
        return load_or_solve(rules, use_cache=use_cache)
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    with Progress(
        TextColumn("solving"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("states"),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task("solve", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return load_or_solve(rules, use_cache=use_cache, progress=progress)


def solve_command(
    rules: RulesOption = "classic",
    settings: SetOption = None,
    as_json: JsonOption = False,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Solve again; neither read nor write the cache.")
    ] = False,
) -> None:
    """Solve a rule set: the optimal expected score (the table is cached for later use)."""
    try:
        ruleset = _rules(rules, settings)
        start = time.perf_counter()
        table = _load(ruleset, use_cache=not no_cache, show_progress=not as_json)
        seconds = time.perf_counter() - start
    except FivediceError as error:
        fail_with(error)
    if as_json:
        payload = {
            "expected_score": table.expected_score,
            "seconds": round(seconds, 3),
            "states": table.states,
        }
        typer.echo(json.dumps(payload))
    else:
        typer.echo(_("optimal expected score: {score}").format(score=f"{table.expected_score:.7f}"))
        typer.echo(
            _("{states} states, {seconds} s").format(
                states=f"{table.states:,}", seconds=f"{seconds:.2f}"
            ),
            err=True,
        )


def advise_command(
    dice: Annotated[str, typer.Option("--dice", help="The five dice, e.g. 11666.")],
    rolls_left: Annotated[
        int,
        typer.Option(
            "--rolls-left",
            help="Rolls still allowed this turn: 0 (must score) to rolls_per_turn - 1.",
        ),
    ],
    rules: RulesOption = "classic",
    settings: SetOption = None,
    card: CardOption = None,
    as_json: JsonOption = False,
) -> None:
    """Every option for the dice with its expected points to come, best first."""
    from fivedice.core.dice import parse_dice

    try:
        ruleset = _rules(rules, settings)
        roll = parse_dice(dice, ruleset.dice)
        column = parse_column(ruleset, card)
        if column.is_complete:
            raise FivediceError(N_("the card is complete: there is nothing to decide"))
        most = ruleset.rolls_per_turn - 1
        if not 0 <= rolls_left <= most:
            # Checked before the solver sees it: a huge count would loop for ever or overflow.
            raise FivediceError(
                N_("--rolls-left must be from 0 to {most} with {rolls} rolls a turn, not {value}"),
                most=most,
                rolls=ruleset.rolls_per_turn,
                value=rolls_left,
            )
        options = _advise(
            ruleset, column, roll, rolls_left, show_progress=not as_json and sys.stderr.isatty()
        )
    except FivediceError as error:
        fail_with(error)
    if as_json:
        items: list[dict[str, object]] = []
        for option in options:
            item: dict[str, object] = (
                {"keep": list(option.keep)}
                if option.keep is not None
                else {"score": option.category.key if option.category else None}
            )
            item["value"] = option.value  # full float64 precision; the text rounds
            items.append(item)
        typer.echo(json.dumps({"options": items}))
        return
    from fivedice.wording.text import choice_text

    labels = [choice_text(option.keep, option.category) for option in options]
    heading = (_("option"), _("points to come"), _("loss"))
    width = max(len(heading[0]), *(len(label) for label in labels))
    typer.echo(f"{heading[0]:<{width}}  {heading[1]:>9}  {heading[2]:>8}")
    for label, option in zip(labels, options, strict=True):
        typer.echo(f"{label:<{width}}  {option.value:9.4f}  {option.loss:8.4f}")


def _advise(
    rules: RuleSet, column: Column, roll: Roll, rolls_left: int, *, show_progress: bool
) -> list[Option]:
    """The advisor's options, through the uncompiled kernel when the cache has the table.

    A process that has not loaded numba yet (this command on its own) answers one query from a
    cached table faster without it: numba's import alone costs more than the interpreted query
    (`fivedice.strategy.interpreted`). Solving always takes the compiled path.
    """
    from fivedice.strategy.interpreted import interpreted, numba_loaded

    if not numba_loaded():
        try:
            cache, advisor = interpreted("fivedice.strategy.cache", "fivedice.strategy.advisor")
        except (ImportError, AttributeError):  # a kernel that needs more of numba: compile it
            pass
        else:
            table = cache.load_cached(rules)
            if table is not None:
                options: list[Option] = advisor.advise(table, column, roll, rolls_left)
                return options
    from fivedice.strategy.advisor import advise

    table = _load(rules, use_cache=True, show_progress=show_progress)
    return advise(table, column, roll, rolls_left)


def register(app: typer.Typer) -> None:
    """Adds the `solve` and `advise` commands to a Typer app."""
    app.command("solve")(solve_command)
    app.command("advise")(advise_command)
