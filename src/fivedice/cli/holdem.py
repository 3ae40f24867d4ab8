"""`fivedice holdem WHAT`: Texas Hold'em Yahtzee - odds, simulate, play, rules, and the
kept games: games, stats, export, review.

One command with the part to run as its argument (the lazy registry builds one command):

- ``fivedice holdem odds [--json] [--pocket 6r6b --board ... --players N]``
- ``fivedice holdem simulate --bot master --vs casual --hands 20000 --seed 1 --json``
- ``fivedice holdem play [--plain] [--player NAME] [--cpu LEVEL ...]`` (the terminal app
  without ``--plain``)
- ``fivedice holdem rules``
- ``fivedice holdem games [--json]``, ``fivedice holdem stats [--json]``
- ``fivedice holdem export GAME``, ``fivedice holdem review GAME [--json]``
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Annotated, Any

import typer

from fivedice.cli.common import (
    MAX_GAME_ID,
    CpuOption,
    DbOption,
    PlainOption,
    check_seed,
    fail,
    fail_with,
)
from fivedice.core.errors import FivediceError
from fivedice.i18n import _

if TYPE_CHECKING:
    from fivedice.service.holdem import ReviewLine

__all__ = ["register"]

PARTS = ("odds", "simulate", "play", "rules", "games", "stats", "export", "review")
WITH_GAME = ("export", "review")
"""The parts that take a GAME: a kept game's id."""
MAX_HANDS = 10_000_000


def register(app: typer.Typer) -> None:
    """Adds the `holdem` command to a Typer app."""
    app.command(name="holdem")(holdem)


def holdem(
    what: Annotated[
        str,
        typer.Argument(
            help="odds, simulate, play, rules, games, stats, export GAME or review GAME."
        ),
    ],
    game: Annotated[
        str | None,
        typer.Argument(help="The game's id, for export and review (see `holdem games`)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    pocket: Annotated[
        str | None, typer.Option("--pocket", help="Your two pocket dice, e.g. 6r 6b.")
    ] = None,
    board: Annotated[
        str, typer.Option("--board", help="The board: 0, 3, 4 or 5 dice, e.g. 1w 2y 3r.")
    ] = "",
    players: Annotated[int, typer.Option("--players", help="Players in the hand (2-6).")] = 2,
    bot: Annotated[str, typer.Option("--bot", help="The CPU level measured.")] = "master",
    versus: Annotated[
        str,
        typer.Option("--vs", help="Its opponent: a CPU level, station or top-fifth."),
    ] = "casual",
    hands: Annotated[int, typer.Option("--hands", help="Hands to play.")] = 2000,
    seed: Annotated[
        int, typer.Option("--seed", help="Seed for reproducible dice (0 to 2^63 - 1).")
    ] = 0,
    plain: PlainOption = False,
    player: Annotated[str, typer.Option("--player", help="Your name.")] = "You",
    cpus: CpuOption = None,
    practice_seed: Annotated[
        int | None,
        typer.Option("--dice-seed", help="Play with dice from this seed (a practice game)."),
    ] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue GAME, or the latest unfinished game.")
    ] = False,
    db: DbOption = None,
) -> None:
    """Texas Hold'em Yahtzee: the exact odds, CPU matches, a game, the rules, the kept
    games, statistics, a game's record and its review."""
    part = what.strip().lower()
    if part not in PARTS:
        fail(
            _(
                "holdem takes odds, simulate, play, rules, games, stats, export or review,"
                " not {what!r}"
            ).format(what=what)
        )
    game_id = _game_id(part, game)
    try:
        if part == "odds":
            _odds(as_json, pocket, board, players)
        elif part == "simulate":
            check_seed(seed)
            _simulate(bot, versus, hands, seed, as_json)
        elif part == "play":
            check_seed(practice_seed)
            _play(plain, player, cpus or ["casual", "master"], practice_seed, resume, db)
        elif part == "rules":
            from fivedice.wording.holdem import rules_lines

            for line in rules_lines():
                typer.echo(line)
        else:
            _kept(part, game_id, as_json, db)
    except FivediceError as error:
        fail_with(error)


def _game_id(part: str, game: str | None) -> int | None:
    """The GAME of export and review as a number (refused cleanly, status 2, when it is
    missing, not a number or given to a part that takes none)."""
    if part not in WITH_GAME:
        if game is not None:
            fail(_("holdem {part} takes no GAME, not {game!r}").format(part=part, game=game))
        return None
    if game is None:
        fail(_("holdem {part} needs the game's id: see fivedice holdem games").format(part=part))
    text = game.strip()
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= MAX_GAME_ID:
        fail(_("there is no saved game {game_id}").format(game_id=game))
    return int(text)


def _kept(part: str, game_id: int | None, as_json: bool, db: str | None) -> None:
    """The kept games: the list, the statistics, a record, a review."""
    from fivedice.service.holdem import HoldemService
    from fivedice.wording import holdem as words

    service = HoldemService.open(db)
    if part == "games":
        _listing(
            service.games(),
            as_json,
            _("No Texas Hold'em Yahtzee games are kept yet."),
            words.summary_text,
        )
    elif part == "stats":
        _listing(
            service.stats(),
            as_json,
            _("No finished Texas Hold'em Yahtzee games to count yet."),
            words.stats_text,
        )
    elif part == "export":
        assert game_id is not None
        typer.echo(service.export(game_id), nl=False)
    else:
        assert game_id is not None
        lines = service.review(game_id)
        if as_json:
            typer.echo(json.dumps([_review_json(line) for line in lines], indent=2))
            return
        for line in lines:
            typer.echo(words.review_line_text(line))


def _listing(rows: Sequence[Any], as_json: bool, empty: str, text: Callable[[Any], str]) -> None:
    """Rows of dataclasses as JSON, or one line each in words (`empty` when there are none)."""
    from dataclasses import asdict

    if as_json:
        typer.echo(json.dumps([asdict(row) for row in rows], indent=2))
        return
    if not rows:
        typer.echo(empty)
    for row in rows:
        typer.echo(text(row))


def _odds(as_json: bool, pocket: str | None, board: str, players: int) -> None:
    from fivedice.core.holdem import HAND_KEYS, parse_dice
    from fivedice.strategy.holdem.odds import equity, hand_chances
    from fivedice.wording.holdem import hand_name, percent

    if pocket is None:
        seven, five = hand_chances(7), hand_chances(5)
        if as_json:
            table = {
                key.value: {
                    "seven_dice": str(seven[key]),
                    "seven_dice_float": float(seven[key]),
                    "five_dice": str(five[key]),
                    "five_dice_float": float(five[key]),
                }
                for key in HAND_KEYS
            }
            typer.echo(json.dumps(table, indent=2))
            return
        typer.echo(_("The chance of each hand, exact: 7 dice (your best five), 5 dice."))
        for key in reversed(HAND_KEYS):
            typer.echo(
                f"{hand_name(key):<16} {100 * float(seven[key]):9.5f}%"
                f" {100 * float(five[key]):9.5f}%"
            )
        return
    result = equity(parse_dice(pocket), parse_dice(board), players)
    if as_json:
        typer.echo(json.dumps(result.__dict__, indent=2))
        return
    typer.echo(
        _("Win {win}, tie {tie}, lose {lose}; pot share {share}.").format(
            win=percent(result.win),
            tie=percent(result.tie),
            lose=percent(result.lose),
            share=percent(result.share),
        )
    )
    if result.method == "exact":
        typer.echo(_("Exact: {deals} deals enumerated.").format(deals=result.deals))
    else:
        typer.echo(
            _("Monte Carlo: {deals} deals, standard error {error}.").format(
                deals=result.deals, error=f"{result.standard_error:.4f}"
            )
        )


def _simulate(bot: str, versus: str, hands: int, seed: int, as_json: bool) -> None:
    from fivedice.strategy.holdem.simulate import simulate

    if not 2 <= hands <= MAX_HANDS:
        fail(_("--hands must be from 2 to {most}, not {hands}").format(most=MAX_HANDS, hands=hands))
    result = simulate(bot, versus, hands, seed)
    if as_json:
        typer.echo(json.dumps(result.__dict__, indent=2))
        return
    low, high = result.interval
    typer.echo(
        _("{bot} against {opponent}: {chips} chips a hand (95%: {low} to {high}).").format(
            bot=result.bot,
            opponent=result.opponent,
            chips=f"{result.chips_per_hand:+.2f}",
            low=f"{low:+.2f}",
            high=f"{high:+.2f}",
        )
    )


def _play(
    plain: bool, player: str, cpus: list[str], seed: int | None, resume: bool, db: str | None
) -> None:
    from fivedice.core.game import Seat
    from fivedice.plain.holdem import PlainHoldem
    from fivedice.service.holdem import HoldemService
    from fivedice.strategy.levels import parse_level

    levels = [parse_level(level) for level in cpus]
    seats = [Seat(player)] + [
        Seat(_("CPU {number}").format(number=number), level)
        for number, level in enumerate(levels, start=1)
    ]
    service = HoldemService.open(db)
    game_id = service.latest_unfinished() if resume else None
    if game_id is None:
        game_id = service.new_game(seats, seed=seed)
    if plain:
        raise typer.Exit(PlainHoldem(service, game_id, 0, sys.stdin, sys.stdout).run())
    from fivedice.tui import run_holdem

    run_holdem(service, game_id)


def _review_json(line: ReviewLine) -> dict[str, object]:
    """A reviewed decision as JSON: the action, the equity of that moment, the best one."""
    from dataclasses import asdict

    return {
        "seq": line.seq,
        "hand": line.hand_number,
        "street": line.street.value,
        "seat": line.seat,
        "name": line.name,
        "action": line.action,
        "equity": asdict(line.equity),
        "pot_odds": line.pot_odds,
        "best": line.best,
        "reason": line.reason.value,
    }
