"""The command line in the player's language: the help of every command and option, and the
words typer prints around it ("Usage:", "Options", "Commands", ...).

The help texts are written in English where the commands are defined (typer's `help=` and
the commands' docstrings), where Babel cannot find them; `HELP_TEXTS` repeats each one as an
`N_` literal for extraction. `localize` swaps the help of every command and parameter of the
click command tree for its translation before the command line runs. A help text changed at
its definition but not here stays English (tests/cli/test_help.py reads the help in
Japanese and fails on English).

The language is the one `--lang` names, else the environment's (as `fivedice.i18n` detects
it), so `fivedice --lang ja --help` is Japanese although the help is printed before the
main callback could set the language.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator, Sequence
from typing import Any

import typer
from typer import _click
from typer.core import TyperCommand, TyperGroup

from fivedice.cli.startup import lazy_group, read_plain_values
from fivedice.core.errors import N_
from fivedice.i18n import LANGUAGES, _, set_language

HELP_TEXTS = (
    N_("Get ready to play: compile the dice kernels and solve the rules' tables (once)."),
    N_("Five dice, every house rule, and a coach that knows the best move."),
    N_("Every box the dice may go in now, and the points each placement earns."),
    N_("Five dice, e.g. 33355."),
    N_("Rule preset: classic, free-choice, simple, ..."),
    N_("Override a rule option, KEY=VALUE (repeatable)."),
    N_('Filled boxes of one column as JSON, e.g. {"yahtzee": 50}.'),
    N_("Print JSON."),
    N_(
        "Split the expected points by box and bonus under optimal play (and, for a keep,"
        " each box's chance this turn)."
    ),
    N_("The active rules in words, generated from the rule set."),
    N_("Print the options as JSON."),
    N_(
        "Play a game in the terminal app; `--plain` reads one action per line instead.\n\nThe "
        "plain mode suits screen readers and pipes: terse, with the card on `show`, the\n"
        "dice commitment on `fair` and every command on `help`. In the app,\n"
        "`--player`/`--cpu`/`--rules` fill in the new-game screen."
    ),
    N_("Line-based play on stdin/stdout, terse for screen readers."),
    N_("A human seat (repeatable)."),
    N_("A CPU seat: beginner, casual, guide, strong, expert or master (repeatable)."),
    N_("Seed for reproducible dice (0 to 2^63 - 1; makes it a practice game)."),
    N_(
        "Your own seed, mixed into the dice so that nobody can choose them (repeatable: one "
        "per human seat, in order)."
    ),
    N_("First player: first_seat, highest_die, highest_sum."),
    N_("Games in the match."),
    N_("Continue GAME, or the latest unfinished game."),
    N_("The saved game to resume (see `fivedice games`)."),
    N_("Practice: kept out of statistics and high scores."),
    N_(
        "Database URL (sqlite:///path or postgresql+psycopg://...); default "
        "$FIVEDICE_DATABASE_URL or a file in the user data directory."
    ),
    N_("Solve a rule set: the optimal expected score (the table is cached for later use)."),
    N_("Solve again; neither read nor write the cache."),
    N_(
        "Every option for the dice with its expected points to come, best first (with\n"
        "--target: with its chance of reaching the goal)."
    ),
    N_(
        "A goal: the final total to reach (300) or 'beat 245'; the options are then ranked by "
        "their chance of reaching it."
    ),
    N_(
        "Judge each decision also by its chance of reaching the score that would have won (the "
        "best other total + 1; solo: the high score to beat)."
    ),
    N_("The five dice, e.g. 11666."),
    N_("Rolls still allowed this turn: 0 (must score) to rolls_per_turn - 1."),
    N_("Plays many solitaire games of CPU players and reports their scores."),
    N_(
        "CPU level (beginner, casual, guide, strong, expert, master); repeat it to seat several at "
        "one table."
    ),
    N_("Opponent level for head-to-head win rates (repeatable)."),
    N_("Play each set of dice once per seating, the players swapped (expert, master)."),
    N_("Number of games."),
    N_("Dice seed (0 to 2^63 - 1): same seed, same games."),
    N_("Print the results as JSON."),
    N_("Draw the score histogram to this image file."),
    N_("Saved games, newest first: id, start, players, rules, status, actions, totals, kind."),
    N_(
        "Statistics per player and rule preset (practice games are not counted), with each\n"
        "player's skill: the points lost per decision against optimal play, over their games."
    ),
    N_("A player's name (default: all)."),
    N_("The ten best solo games per rule preset (practice games are not counted)."),
    N_("The game record as text: settings, seed, and every action with the dice it rolled."),
    N_("The game's id (see `fivedice games`)."),
    N_("Checks a game record and shows it move by move, with the final card."),
    N_("A record written by `fivedice export`."),
    N_("Marks an unfinished game abandoned (it stays listed but is no longer resumed)."),
    N_("The unfinished game's id."),
    N_(
        "Keep the score of a game played with real dice: enter the dice, the app keeps the "
        "card.\n\nEach turn the player enters what they rolled (`dice 3 3 3 5 5`) and picks a "
        "box, or enters\nthe points alone (`score full_house 25`). `--plain` reads one entry "
        "per line."
    ),
    N_("A player at the table, in order of play (repeatable)."),
    N_("Who starts: a player's name, or first_seat, highest_die, highest_sum."),
    N_("Line-based score keeping on stdin/stdout."),
    N_("Continue GAME, or the latest unfinished table game."),
    N_("The saved table game to resume (see `fivedice games`)."),
    N_("Seed of the app's roll-off for --first."),
    N_("Serve the game in a browser, with a JSON API under /api (docs at /docs)."),
    N_("Address to listen on."),
    N_("Port to listen on."),
    N_("Worker processes (use PostgreSQL for more than a few)."),
    N_("Trust X-Forwarded-* from --forwarded-allow-ips."),
    N_("Proxies whose X-Forwarded-* headers are trusted."),
    N_("The log on stderr: json (one object a line, for a log collector) or text."),
    N_("Log a line for every request (method, route, status, duration)."),
    N_(
        "Addresses and networks that may read /metrics, comma-separated, or * for everyone; "
        "default $FIVEDICE_METRICS_ALLOW, else loopback and --forwarded-allow-ips."
    ),
    N_(
        "The site's address as players see it (https://dice.example.org): invite links use it, "
        "and forms posted from it are accepted; default $FIVEDICE_PUBLIC_URL, else relative "
        "invite links."
    ),
    N_(
        "Solve only these rule presets, e.g. classic,free-choice (for public servers; default "
        "$FIVEDICE_SOLVE_RULES, else every rule set)."
    ),
    N_(
        "Open connections one client address may hold, per worker (default 50); a trusted "
        "proxy's own are not capped, so the proxy must cap its clients."
    ),
    N_("Open connections per worker, beyond them 503 (default: the file limit less an eighth)."),
    N_("Open event streams one client address may hold, per worker (default 20)."),
    N_("Seconds a client has to send a request's headers (default 10)."),
    N_("Seconds a client has to send a request's body (default 30)."),
    N_("Seconds an idle connection stays open (default 5)."),
    N_(
        "Seconds a worker asked to stop (SIGTERM) gives its answers in flight before it exits; "
        "its event streams are sent to the other workers and its CPU games handed over at once."
    ),
    N_(
        "A printable score sheet (PDF): the boxes of the rules in force, one column per "
        "game.\n\nUp to six columns fit on one page; more continue on further pages."
    ),
    N_("The PDF file to write ('-': standard output)."),
    N_('Names for the column headings, e.g. "Ann,Bob".'),
    N_("How many columns (games or players); default one per player, else 6."),
    N_("Fill the sheet in from this saved game (see `fivedice games`)."),
    N_("Paper size: a4 or letter."),
    N_("Language of the sheet: en, nl, de, ja, fr or es."),
    N_("The rules the guide is for: classic."),
    N_("Write the guide as a PDF to this file ('-': stdout)."),
    N_("Language of the guide: en, nl, de, ja, fr or es."),
    N_(
        "The strategy guide: at most 50 rules a person can follow at the table, derived from\n"
        "the solver, each with what it is worth; the `guide` CPU level plays exactly them."
    ),
    N_(
        "Every keep and box of a finished game against the best option, with the points "
        "lost.\n\nExact for one column; estimates (marked ≈) for several columns. Games in "
        "progress are\nnot reviewed."
    ),
    N_("The finished game's id (see `fivedice games`)."),
    N_("Draw the score chart of each seat."),
    N_("Show the review in the terminal app instead."),
    N_(
        "Learn by playing: short lessons with scripted dice, then a game with the coach.\n\n"
        "The lessons follow the rules in force (`--rules`, `--set`): the joker rule, the "
        "bonuses\nand the box values. Progress is kept apart from games and statistics."
    ),
    N_("Line-based lessons on stdin/stdout."),
    N_("List the lessons and which are done."),
    N_("Start with this lesson (key or number)."),
    N_("Forget the tutorial progress (games stay)."),
    N_("Seed for the guided game's dice."),
    N_(
        "Practise positions from your own costliest decisions (and classic teaching ones).\n\n"
        "A position you miss comes back a few positions later until you answer it right twice"
        " in\na row. Nothing here touches your games or statistics."
    ),
    N_("Practise in the terminal app instead."),
    N_("Say how far you are, and stop."),
    N_("Forget the drills' progress (games stay)."),
    N_(
        "Checks a game record: its signature over every line, the dice commitment, and "
        "every roll recomputed from the seeds.\n\nExit status: 0 verified (it prints the "
        "fingerprint of the key that signed the record); 1 the record does not match (a "
        "line changed after signing, a key other than --key, a roll, the log or a "
        "total); 2 the record or the key cannot be read; 3 not verifiable (a game in "
        "progress, a practice game with a seed of its own or one saved before "
        "verifiable dice, or a record without a signature); 4 signed by a key you did "
        "not say you trust (name it with --key)."
    ),
    N_(
        "The key you trust: its fingerprint, its public key in hex, a file holding it "
        "(what the server's /fairness/key serves, or a PEM), or the address of a "
        "server's /fairness/key. A record signed by any other key is refused. Without "
        "it only this installation's own key is trusted."
    ),
    N_("A record written by `fivedice export` (- reads stdin)."),
    N_("Show this message and exit."),
    N_("Language: en, nl, de, ja, fr or es."),
    N_(
        "Texas Hold'em Yahtzee: the exact odds, CPU matches, a game, the rules, the kept\n"
        "games, statistics, a game's record and its review."
    ),
    N_("odds, simulate, play, rules, games, stats, export GAME or review GAME."),
    N_("The game's id, for export and review (see `holdem games`)."),
    N_("Your two pocket dice, e.g. 6r 6b."),
    N_("The board: 0, 3, 4 or 5 dice, e.g. 1w 2y 3r."),
    N_("Players in the hand (2-6)."),
    N_("The CPU level measured."),
    N_("Its opponent: a CPU level, station or top-fifth."),
    N_("Hands to play."),
    N_("Seed for reproducible dice (0 to 2^63 - 1)."),
    N_("Your name."),
    N_("Play with dice from this seed (a practice game)."),
)
"""The help of every command and parameter, as written where it is defined."""

FRAME_TEXTS = {
    "ARGUMENTS_PANEL_TITLE": N_("Arguments"),
    "OPTIONS_PANEL_TITLE": N_("Options"),
    "COMMANDS_PANEL_TITLE": N_("Commands"),
    "ERRORS_PANEL_TITLE": N_("Error"),
    "ABORTED_TEXT": N_("Aborted."),
    "DEFAULT_STRING": N_("[default: {}]"),
    "REQUIRED_LONG_STRING": N_("[required]"),
    "RICH_HELP": N_("Try [blue]'{command_path} {help_option}'[/] for help."),
}
"""Typer's words around the help and its error panel, by the name of its setting."""

USAGE = N_("Usage:")
OPTIONS_METAVAR = N_("[OPTIONS]")
SUBCOMMAND_METAVAR = N_("COMMAND [ARGS]...")
"""The usage line's placeholders for the options and for a command with its arguments."""

USAGE_ERRORS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), template)
    for pattern, template in (
        (
            r"No such option: (?P<name>\S+)(?: \(Possible options: .*\))?",
            N_("There is no option {name}."),
        ),
        (r"No such command '(?P<name>.*)'\.", N_("There is no command {name!r}.")),
        (
            r"Missing (?:option|argument|parameter) '?(?P<name>[^'.]+)'?\..*",
            N_("{name} is missing."),
        ),
        (r"Option '(?P<name>.*)' requires .*", N_("The option {name} needs a value.")),
        (r"Option '(?P<name>.*)' does not take a value\.", N_("The option {name} takes no value.")),
        (
            r"Got unexpected extra argument(?:\(s\)|s?) \((?P<args>.*)\)",
            N_("Unexpected arguments: {args}"),
        ),
        (
            r"Invalid value for '(?P<name>[^']*)': Input should be a valid integer.*",
            N_("{name} takes a whole number."),
        ),
        (
            r"Invalid value for '(?P<name>[^']*)': Input should be a valid number.*",
            N_("{name} takes a number."),
        ),
        (r"Invalid value for '(?P<name>[^']*)': .*", N_("The value of {name} is not accepted.")),
    )
)
"""Typer's refusals of a command line (English only) and what a player reads instead."""


def language_of(args: Sequence[str]) -> str | None:
    """The language `--lang` names on the command line (`--lang ja`, `--lang=ja`), if any."""
    for index, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and index + 1 < len(args):
            return args[index + 1]
        if arg.startswith("--lang="):
            return arg.partition("=")[2]
    return None


def localize(command: Any) -> None:
    """Replaces the help of `command` and of its parameters (the help option too) with the
    translation in the current language. (A group's commands are localized as they are built:
    `localized_command`.)"""
    if command.help:
        command.help = _(command.help)
    if getattr(command, "short_help", None):
        command.short_help = _(command.short_help)
    if getattr(command, "options_metavar", None) == OPTIONS_METAVAR:
        command.options_metavar = _(OPTIONS_METAVAR)
    if getattr(command, "subcommand_metavar", None) == SUBCOMMAND_METAVAR:
        command.subcommand_metavar = _(SUBCOMMAND_METAVAR)
    with contextlib.suppress(Exception):  # the help option exists only once asked for
        command.get_help_option(_click.Context(command))
    params = list(command.params)
    if getattr(command, "_help_option", None) is not None:
        params.append(command._help_option)
    for param in params:
        if getattr(param, "help", None):
            param.help = _(param.help)


def _localize_frame() -> None:
    """Typer's own words ("Options", "Usage:") in the current language.

    Called just before typer prints help or an error: its rich module (rich, markdown-it,
    pygments: about 0.06 s of CPU) is imported then, not on every start.
    """
    from typer import rich_utils

    for name, text in FRAME_TEXTS.items():
        if hasattr(rich_utils, name):
            setattr(rich_utils, name, _(text))
    formatter = _click.formatting.HelpFormatter
    original = getattr(formatter, "_fivedice_write_usage", formatter.write_usage)

    def write_usage(self: Any, prog: str, args: str = "", prefix: str | None = None) -> None:
        original(self, prog, args, _(USAGE) + " " if prefix is None else prefix)

    formatter._fivedice_write_usage = original  # type: ignore[attr-defined]
    formatter.write_usage = write_usage  # type: ignore[method-assign]


def usage_error_text(message: str) -> str:
    """Typer's refusal of a command line, in the current language (as it is when unknown)."""
    for pattern, template in USAGE_ERRORS:
        found = pattern.fullmatch(message.strip())
        if found:
            return _(template).format(**found.groupdict())
    return message


@contextlib.contextmanager
def _refusals_localized() -> Iterator[None]:
    """A refused command line (or an abort) leaves with typer's words and its reason in the
    current language: typer prints it when the exception reaches its `main`."""
    try:
        yield
    except _click.exceptions.ClickException as error:
        english = error.format_message()
        error.format_message = lambda: usage_error_text(english)  # type: ignore[method-assign]
        _localize_frame()
        raise
    except typer.Abort:
        _localize_frame()
        raise


class LocalizedCommand(TyperCommand):
    """A command whose help frame is in the current language when it is printed."""

    def format_help(self, ctx: _click.Context, formatter: _click.HelpFormatter) -> None:
        _localize_frame()
        super().format_help(ctx, formatter)


class LocalizedGroup(TyperGroup):
    """The `fivedice` group: its help frame and the refusals of a command line (its own or a
    command's) in the current language when they are printed."""

    def format_help(self, ctx: _click.Context, formatter: _click.HelpFormatter) -> None:
        _localize_frame()
        super().format_help(ctx, formatter)

    def make_context(self, *args: Any, **kwargs: Any) -> _click.Context:
        with _refusals_localized():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: _click.Context) -> Any:
        with _refusals_localized():  # the command's name and its own parameters are read here
            return super().invoke(ctx)


def _prepare(command: Any) -> None:
    localize(command)
    read_plain_values(command)


def localized_command(app: typer.Typer, args: Sequence[str]) -> Any:
    """The click command of `app` with its help in the language of `args` or the
    environment; only the command run is built (`startup.lazy_group`)."""
    wanted = language_of(args)
    set_language(wanted if wanted and wanted.strip().lower() in LANGUAGES else None)
    command = lazy_group(
        app, group_class=LocalizedGroup, command_class=LocalizedCommand, prepare=_prepare
    )
    _prepare(command)
    return command
