"""What every `fivedice` command shares: option types, rule and card parsing, clean failure.

Kept free of heavy imports (numpy, the store, the front ends) so `fivedice --help` stays fast.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from fivedice.core.errors import N_, FivediceError
from fivedice.i18n import _

if TYPE_CHECKING:
    from fivedice.core.card import Column
    from fivedice.core.rules import RuleSet

RulesOption = Annotated[
    str, typer.Option("--rules", "-r", help="Rule preset: classic, free-choice, simple, ...")
]
SetOption = Annotated[
    list[str] | None,
    typer.Option("--set", "-s", help="Override a rule option, KEY=VALUE (repeatable)."),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON.")]
PracticeOption = Annotated[
    bool, typer.Option("--practice", help="Practice: kept out of statistics and high scores.")
]
CardOption = Annotated[
    str | None,
    typer.Option("--card", help='Filled boxes of one column as JSON, e.g. {"yahtzee": 50}.'),
]
PlainOption = Annotated[
    bool,
    typer.Option("--plain", help="Line-based play on stdin/stdout, terse for screen readers."),
]
CpuOption = Annotated[
    list[str] | None,
    typer.Option(
        "--cpu",
        help="A CPU seat: beginner, casual, guide, strong, expert or master (repeatable).",
    ),
]
DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="Database URL (sqlite:///path or postgresql+psycopg://...); "
        "default $FIVEDICE_DATABASE_URL or a file in the user data directory.",
    ),
]


MAX_SEED = 2**63 - 1
"""Seeds run from 0 to 2^63 - 1: a saved game keeps its seed in a 64-bit signed column."""
MAX_GAME_ID = 2**63 - 1
"""Game ids are 64-bit signed integers in the database: a larger one names no game."""
MAX_CARD_JSON = 10_000
"""A card's JSON is at most a few hundred characters; longer text is refused unread."""


def fail(message: str) -> NoReturn:
    """Prints one line to stderr and exits with status 2 (bad input), never a traceback."""
    typer.echo(f"fivedice: {message}", err=True)
    raise typer.Exit(2)


def use_lang_option(lang: str | None) -> None:
    """Makes a `--lang` the language of the command; an unknown code is refused (status 2,
    in the language the environment names), not silently played in English. (A language
    from the environment that fivedice lacks, such as LANG=C, falls back to English.)"""
    from fivedice.i18n import LANGUAGES, set_language

    if lang is not None and lang.strip().lower() not in LANGUAGES:
        set_language(None)
        fail(
            _("the languages are {languages}, not {language!r}").format(
                languages=", ".join(LANGUAGES), language=lang
            )
        )
    set_language(lang)


def fail_with(error: BaseException) -> NoReturn:
    """Fails with the error's message in the player's language."""
    from fivedice.wording.text import error_text

    fail(error_text(error))


def check_seed(seed: int | None) -> None:
    """Fails cleanly unless the seed fits the database (0 to `MAX_SEED`)."""
    if seed is not None and not 0 <= seed <= MAX_SEED:
        fail(_("--seed must be from 0 to {most}, not {seed}").format(most=MAX_SEED, seed=seed))


def check_game_id(game: int | None) -> None:
    """Fails cleanly for an id no saved game can have (the database would overflow)."""
    if game is not None and not 1 <= game <= MAX_GAME_ID:
        fail(_("there is no saved game {game_id}").format(game_id=game))


def parse_rules(preset: str, settings: list[str] | None) -> RuleSet:
    """The rule set of `--rules` and `--set`.

    Raises:
        RuleSetError: an unknown preset or option, or an impossible value.
    """
    from fivedice.core.rules import find_ruleset, parse_settings

    return find_ruleset(preset, parse_settings(settings or []))


def parse_column(rules: RuleSet, card_json: str | None) -> Column:
    """One score-card column from `--card` JSON (optionally with "extra_yahtzees": N).

    Raises:
        FivediceError: not a JSON object, or a box or score the card cannot hold.
    """
    from fivedice.core.card import Column

    if not card_json:
        return Column.empty(rules)
    if len(card_json) > MAX_CARD_JSON:
        raise FivediceError(
            N_("--card is too long: {length:,} characters (a card needs a few hundred)"),
            length=len(card_json),
        )
    try:
        data = json.loads(card_json)
    except json.JSONDecodeError as error:
        raise FivediceError(
            N_("--card is not valid JSON ({reason} at position {position})"),
            reason=error.msg,
            position=error.pos,
        ) from None
    except RecursionError:
        raise FivediceError(N_("--card is nested too deeply to be a card")) from None
    except ValueError:  # an integer with more digits than Python converts
        raise FivediceError(N_("--card holds a number too long to be a score")) from None
    if not isinstance(data, dict):
        raise FivediceError(
            N_("--card is a JSON object of boxes and scores, e.g. {example}"),
            example='{"yahtzee": 50}',
        )
    return Column.from_dict(rules, data)


def load_rules(preset: str, settings: list[str] | None) -> RuleSet:
    """The rule set named on the command line, or a clean exit with the reason."""
    try:
        return parse_rules(preset, settings)
    except FivediceError as error:
        fail_with(error)
