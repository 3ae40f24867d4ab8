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
    from fivedice.strategy.breakdown import OptionBreakdown
    from fivedice.strategy.hints import Hint
    from fivedice.strategy.solver import StrategyTable

__all__ = ["register"]

ExplainOption = Annotated[
    bool,
    typer.Option(
        "--explain",
        help="Split the expected points by box and bonus under optimal play (and, for a keep,"
        " each box's chance this turn).",
    ),
]


def _rules(preset: str, settings: list[str] | None) -> RuleSet:
    rules = parse_rules(preset, settings)
    if rules.columns != 1:
        raise FivediceError(
            N_("the solver handles one score column; these rules have {columns}"),
            columns=rules.columns,
        )
    return rules


def _load(rules: RuleSet, *, use_cache: bool, show_progress: bool) -> StrategyTable:
    """The rules' table, its solve shown on stderr with an estimate of the time left (Ctrl+C
    cancels it: exit 130, nothing saved)."""
    from fivedice.cli.progress import building
    from fivedice.strategy.cache import load_or_solve

    with building(show_progress) as listener:
        return load_or_solve(rules, use_cache=use_cache, listener=listener)


def solve_command(
    rules: RulesOption = "classic",
    settings: SetOption = None,
    as_json: JsonOption = False,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Solve again; neither read nor write the cache.")
    ] = False,
    explain: ExplainOption = False,
) -> None:
    """Solve a rule set: the optimal expected score (the table is cached for later use)."""
    start_parts: dict[str, float] = {}
    try:
        ruleset = _rules(rules, settings)
        start = time.perf_counter()
        table = _load(ruleset, use_cache=not no_cache, show_progress=not as_json)
        seconds = time.perf_counter() - start
        if explain:
            from fivedice.strategy.breakdown import load_or_compute

            start_parts = load_or_compute(table, use_cache=not no_cache).state(0, 0, False)
    except FivediceError as error:
        fail_with(error)
    if as_json:
        payload: dict[str, object] = {
            "expected_score": table.expected_score,
            "seconds": round(seconds, 3),
            "states": table.states,
        }
        if explain:
            payload["breakdown"] = start_parts
            payload["bonuses"] = _bonus_rates(ruleset, start_parts)
        typer.echo(json.dumps(payload))
    else:
        typer.echo(_("optimal expected score: {score}").format(score=f"{table.expected_score:.7f}"))
        if explain:
            for line in _breakdown_lines(ruleset, start_parts):
                typer.echo(line)
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
    explain: ExplainOption = False,
    target: Annotated[
        str | None,
        typer.Option(
            "--target",
            help="A goal: the final total to reach (300) or 'beat 245'; the options are "
            "then ranked by their chance of reaching it.",
        ),
    ] = None,
) -> None:
    """Every option for the dice with its expected points to come, best first (with
    --target: with its chance of reaching the goal)."""
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
        show_progress = not as_json and sys.stderr.isatty()
        if target is not None:
            hints = _goal_hints(ruleset, column, roll, rolls_left, target, show=not as_json)
            _print_goal(hints, as_json)
            return
        if explain:
            _explain_options(ruleset, column, roll, rolls_left, as_json, show_progress)
            return
        options = _advise(ruleset, column, roll, rolls_left, show_progress=show_progress)
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
    from fivedice.wording.coach import choice_text  # not all of `wording.text`: a light import

    labels = [choice_text(option.keep, option.category) for option in options]
    heading = (_("option"), _("points to come"), _("loss"))
    width = max(len(heading[0]), *(len(label) for label in labels))
    typer.echo(f"{heading[0]:<{width}}  {heading[1]:>9}  {heading[2]:>8}")
    for label, option in zip(labels, options, strict=True):
        typer.echo(f"{label:<{width}}  {option.value:9.4f}  {option.loss:8.4f}")


def _print_goal(hints: list[Hint], as_json: bool) -> None:
    """The options for a goal with their chances: JSON, or a table with percentages."""
    if as_json:
        items: list[dict[str, object]] = []
        for hint in hints:
            item: dict[str, object] = (
                {"keep": list(hint.keep)} if hint.keep is not None else {"score": hint.box}
            )
            item["chance"] = hint.value
            items.append(item)
        goal = hints[0].goal if hints else None
        typer.echo(json.dumps({"goal": goal, "options": items}))
        return
    from fivedice.i18n import formats
    from fivedice.wording.text import choice_text

    labels = [choice_text(hint.keep, hint.category) for hint in hints]
    heading = (_("option"), _("chance of the goal"), _("loss"))
    width = max(len(heading[0]), *(len(label) for label in labels))
    chance_width = max(len(heading[1]), 8)
    loss_width = max(len(heading[2]), 8)
    typer.echo(f"{heading[0]:<{width}}  {heading[1]:>{chance_width}}  {heading[2]:>{loss_width}}")
    for label, hint in zip(labels, hints, strict=True):
        chance = formats.number(100 * hint.value, 2) + "%"
        loss = formats.number(100 * hint.loss, 2) + "%"
        typer.echo(f"{label:<{width}}  {chance:>{chance_width}}  {loss:>{loss_width}}")


def _explain_options(
    rules: RuleSet,
    column: Column,
    roll: Roll,
    rolls_left: int,
    as_json: bool,
    show_progress: bool,
) -> None:
    """`advise --explain`: every option with its breakdown (JSON), or the options, then why
    the best beats the next and the best keep's chances this turn (text)."""
    from fivedice.strategy.breakdown import load_or_compute, option_breakdowns

    table = _load(rules, use_cache=True, show_progress=show_progress)
    explained = option_breakdowns(load_or_compute(table), column, roll, rolls_left)
    if as_json:
        best = explained[0].value
        typer.echo(json.dumps({"options": [_option_json(o, best) for o in explained]}))
        return
    from fivedice.strategy.hints import Hint
    from fivedice.wording.reasons import why_lines
    from fivedice.wording.text import choice_text

    hints = [
        Hint(
            option.keep,
            option.category,
            option.value,
            explained[0].value - option.value,
            parts=tuple(option.parts.items()),
            chances=tuple(sorted(option.chances.items(), key=lambda item: -item[1]))
            if option.keep is not None
            else None,
        )
        for option in explained
    ]
    labels = [choice_text(hint.keep, hint.category) for hint in hints]
    heading = (_("option"), _("points to come"), _("loss"))
    width = max(len(heading[0]), *(len(label) for label in labels))
    typer.echo(f"{heading[0]:<{width}}  {heading[1]:>9}  {heading[2]:>8}")
    for label, hint in zip(labels, hints, strict=True):
        typer.echo(f"{label:<{width}}  {hint.value:9.4f}  {hint.loss:8.4f}")
    for line in why_lines(rules, hints):
        typer.echo(line)


def _option_json(option: OptionBreakdown, best: float) -> dict[str, object]:
    item: dict[str, object] = (
        {"keep": list(option.keep)}
        if option.keep is not None
        else {"score": option.category.key if option.category else None}
    )
    item["value"] = option.value
    item["loss"] = best - option.value
    item["breakdown"] = option.parts
    if option.keep is not None:
        item["chances_this_turn"] = option.chances
    return item


def _bonus_rates(rules: RuleSet, parts: dict[str, float]) -> dict[str, dict[str, float]]:
    """Each bonus's expected points, and how often optimal play earns it: the upper bonus's
    probability (its points are fixed), the extra-Yahtzee bonuses' expected count."""
    from fivedice.strategy.breakdown import EXTRA_BONUS, UPPER_BONUS

    rates: dict[str, dict[str, float]] = {}
    if UPPER_BONUS in parts and rules.upper_bonus_value > 0:
        points = parts[UPPER_BONUS]
        rates[UPPER_BONUS] = {"points": points, "probability": points / rules.upper_bonus_value}
    if EXTRA_BONUS in parts and rules.yahtzee_bonus_value > 0:
        points = parts[EXTRA_BONUS]
        rates[EXTRA_BONUS] = {
            "points": points,
            "expected_count": points / rules.yahtzee_bonus_value,
        }
    return rates


def _breakdown_lines(rules: RuleSet, parts: dict[str, float]) -> list[str]:
    """`solve --explain` in words: each box's and bonus's mean points, and the bonuses' rates."""
    from fivedice.wording.reasons import component_name

    names = {key: component_name(rules, key) for key in parts}
    width = max(len(name) for name in names.values())
    lines = [_("points by box under optimal play:")]
    lines += [f"  {names[key]:<{width}}  {points:8.4f}" for key, points in parts.items()]
    for key, rate in _bonus_rates(rules, parts).items():
        if "probability" in rate:
            lines.append(
                _("{bonus}: earned in {share} of games").format(
                    bonus=names[key], share=f"{100 * rate['probability']:.1f}%"
                )
            )
        else:
            lines.append(
                _("{bonus}: {count} per game on average").format(
                    bonus=names[key], count=f"{rate['expected_count']:.4f}"
                )
            )
    return lines


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


def _goal_hints(
    rules: RuleSet, column: Column, roll: Roll, rolls_left: int, target: str, *, show: bool
) -> list[Hint]:
    """The goal coach's options; a goal table not built yet is announced with its cost, its
    build shown on stderr (Ctrl+C cancels it: exit 130, nothing saved)."""
    from fivedice.cli.progress import building
    from fivedice.service.coach import column_goal_hints, goal_table_cost
    from fivedice.wording.progress import duration_text

    show = show or sys.stderr.isatty()
    cost = goal_table_cost(rules) if show else None
    if cost is not None:
        typer.echo(
            _(
                "The goal table of these rules is built once on this machine: about {time} of"
                " CPU, {size} MB on disk. Ctrl+C cancels."
            ).format(time=duration_text(cost.cpu_seconds), size=f"{cost.size / 1e6:,.0f}"),
            err=True,
        )
    with building(show) as listener:
        return column_goal_hints(rules, column, roll, rolls_left, target, listener=listener)


def warm_command(
    rules: RulesOption = "classic",
    settings: SetOption = None,
) -> None:
    """Get ready to play: compile the dice kernels and solve the rules' tables (once)."""
    from fivedice.cli.progress import building
    from fivedice.service.warmup import warm_up

    start = time.perf_counter()
    try:
        ruleset = _rules(rules, settings)
        with building() as listener:
            warm_up(ruleset, listener=listener)
    except FivediceError as error:
        fail_with(error)
    typer.echo(
        _("Ready to play: kernels compiled, tables solved ({seconds} s).").format(
            seconds=f"{time.perf_counter() - start:.1f}"
        ),
        err=True,
    )


def register(app: typer.Typer) -> None:
    """Adds the `solve`, `advise` and `warm` commands to a Typer app."""
    app.command("solve")(solve_command)
    app.command("advise")(advise_command)
    app.command("warm")(warm_command)
