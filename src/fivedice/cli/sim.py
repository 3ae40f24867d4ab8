"""`fivedice simulate`: CPU players' score statistics and head-to-head win rates.

numpy, numba and matplotlib load inside the command, so `fivedice --help` stays fast.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from fivedice.cli.common import check_seed, fail, fail_with, parse_rules
from fivedice.core.errors import FivediceError
from fivedice.i18n import _, ngettext
from fivedice.strategy.levels import LEVELS, parse_level

if TYPE_CHECKING:
    from fivedice.core.rules import RuleSet
    from fivedice.strategy.simulate import HeadToHead, SimulationResult

__all__ = ["register"]

MAX_GAMES = 100_000_000
PLOT_FORMATS = ("png", "svg", "pdf", "jpg", "jpeg", "webp", "tif", "tiff", "eps", "ps")
"""Image types `--plot` writes, chosen by the file name's extension."""


def register(app: typer.Typer) -> None:
    """Adds the `simulate` command to a Typer app."""
    app.command(name="simulate")(simulate_command)


def simulate_command(
    bots: Annotated[
        list[str] | None,
        typer.Option(
            "--bot",
            "-b",
            help=f"CPU level ({', '.join(LEVELS)}); repeat it to seat several at one table.",
        ),
    ] = None,
    versus: Annotated[
        list[str] | None,
        typer.Option("--vs", help="Opponent level for head-to-head win rates (repeatable)."),
    ] = None,
    games: Annotated[int, typer.Option("--games", "-n", help="Number of games.")] = 10_000,
    rules_name: Annotated[
        str, typer.Option("--rules", "-r", help="Rule preset: classic, free-choice, simple, ...")
    ] = "classic",
    settings: Annotated[
        list[str] | None,
        typer.Option("--set", "-s", help="Override a rule option, KEY=VALUE (repeatable)."),
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", help="Dice seed (0 to 2^63 - 1): same seed, same games.")
    ] = 0,
    paired: Annotated[
        bool,
        typer.Option(
            "--paired",
            help="Play each set of dice once per seating, the players swapped (expert, master).",
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON.")] = False,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Draw the score histogram to this image file.")
    ] = None,
) -> None:
    """Plays many solitaire games of CPU players and reports their scores."""

    try:
        levels = [parse_level(name) for name in (bots or ["expert"]) + (versus or [])]
        rules = parse_rules(rules_name, settings)
    except FivediceError as error:
        fail_with(error)
    if not 1 <= games <= MAX_GAMES:
        fail(
            _("--games must be from 1 to {limit:,}, not {games}").format(
                limit=MAX_GAMES, games=games
            )
        )
    check_seed(seed)
    if paired and len(levels) < 2:
        fail(_("--paired needs at least two players (--bot and --vs)"))
    if plot is not None:
        _check_plot_path(plot)

    try:
        results, match = _run(rules, levels, games, seed, paired, show_progress=not as_json)
    except FivediceError as error:
        fail_with(error)

    if plot is not None:
        try:
            _plot(results, rules_name, plot)
        except (OSError, ValueError) as error:
            fail(_("cannot write the plot {path}: {error}").format(path=plot, error=error))

    if as_json:
        payload = match.summary() if match is not None else results[0].summary()
        if plot is not None:
            payload["plot"] = str(plot)  # the file written, exactly
        typer.echo(json.dumps(payload, indent=2))
        return
    for result in results:
        _print_result(result, rules_name)
    if match is not None:
        _print_match(match)
    if plot is not None:
        typer.echo(_("Histogram written to {path}").format(path=plot))


def _print_match(match: HeadToHead) -> None:
    """The win rates, with their intervals, outright wins and draws apart."""
    if match.paired:
        typer.echo(
            _("Paired: each set of dice played {seats} times, the seats rotated").format(
                seats=len(match.results)
            )
        )
    typer.echo(_("Win rates (ties shared), with {confidence} intervals:").format(confidence="95%"))
    line = _("{rate:7.2%} [{low:.2%} – {high:.2%}], won outright {won:.2%}, drawn {drawn:.2%}")
    for level, rate in match.win_rates.items():
        low, high = match.intervals.get(level, (rate, rate))
        details = line.format(
            rate=rate,
            low=low,
            high=high,
            won=match.outright.get(level, rate),
            drawn=match.draws.get(level, 0.0),
        )
        typer.echo(f"  {level.value:<9} {details}")


def _check_plot_path(path: Path) -> None:
    """Fails before any work unless `path` names a file of a type we write, in a directory.

    The image goes to exactly this path: nothing is appended, so the extension must say the type.
    """
    if path.is_dir():
        fail(
            _("--plot needs a file name, and {path} is a directory (e.g. {example})").format(
                path=path, example=path / "scores.png"
            )
        )
    if path.suffix.lower().lstrip(".") not in PLOT_FORMATS:
        fail(
            _("--plot needs a file name ending in {formats}, not {path}").format(
                formats=", ".join(f".{name}" for name in PLOT_FORMATS), path=path
            )
        )
    if not path.parent.is_dir():
        fail(_("cannot write the plot: no directory {path}").format(path=path.parent))


def _run(
    rules: RuleSet, levels: list[str], games: int, seed: int, paired: bool, *, show_progress: bool
) -> tuple[list[SimulationResult], HeadToHead | None]:
    """Runs the games, with a progress bar on stderr unless asked for quiet output."""
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    from fivedice.strategy.simulate import head_to_head, simulate

    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed:,.0f}/{task.total:,.0f}"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
        disable=not show_progress,
    )
    with progress:
        task = progress.add_task(_("Simulating"), total=games * len(levels))

        solving = progress.add_task(_("Solving the rules"), total=None, visible=False)

        def report(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        def report_solve(done: int, total: int) -> None:
            # Only the first run of a rule set solves (later runs read the cache).
            progress.update(solving, completed=done, total=total, visible=done < total)

        if len(levels) == 1:
            result = simulate(
                rules, levels[0], games, seed=seed, progress=report, solve_progress=report_solve
            )
            return [result], None
        match = head_to_head(
            rules,
            levels,
            games,
            seed=seed,
            progress=report,
            solve_progress=report_solve,
            paired=paired,
        )
        return list(match.results), match


def _print_result(result: SimulationResult, rules_name: str) -> None:
    summary = result.summary()
    percentiles = result.percentiles
    typer.echo(
        ngettext(
            "{level} on {rules}: {games:,} game, seed {seed}",
            "{level} on {rules}: {games:,} games, seed {seed}",
            result.games,
        ).format(level=result.level.value, rules=rules_name, games=result.games, seed=result.seed)
    )
    spread = _("mean {mean:.2f} ± {error:.2f}, std {std:.1f}, min {low}, max {high}")
    rates = _("upper bonus {bonus:.1%}, Yahtzee {yahtzee:.1%}, extra Yahtzees {extra:.3f}")
    for line in (
        spread.format(
            mean=result.mean,
            error=result.standard_error,
            std=result.std,
            low=summary["min"],
            high=summary["max"],
        ),
        _("percentiles") + " " + ", ".join(f"{p}%: {v:g}" for p, v in percentiles.items()),
        rates.format(
            bonus=result.upper_bonus_rate,
            yahtzee=result.yahtzee_rate,
            extra=result.mean_extra_yahtzees,
        ),
        _("{rate:,.0f} games/second").format(rate=result.games_per_second),
    ):
        typer.echo("  " + line)


def _plot(results: list[SimulationResult], rules_name: str, path: Path) -> None:
    """A histogram of each level's final scores, one colour per level."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    high = max(int(result.scores.max()) for result in results)
    bins = [float(edge) for edge in range(0, high + 11, 10)]
    figure, axes = plt.subplots(figsize=(8, 4.5))
    for result in results:
        axes.hist(
            result.scores,
            bins=bins,
            histtype="step",
            density=True,
            label=f"{result.level.value} (mean {result.mean:.1f})",
        )
    axes.set_xlabel(_("final score"))
    axes.set_ylabel(_("share of games per point"))
    axes.set_title(
        ngettext("{rules}: {games:,} game", "{rules}: {games:,} games", results[0].games).format(
            rules=rules_name, games=results[0].games
        )
    )
    axes.legend()
    figure.tight_layout()
    try:
        figure.savefig(path, format=path.suffix.lower().lstrip("."))
    finally:
        plt.close(figure)
