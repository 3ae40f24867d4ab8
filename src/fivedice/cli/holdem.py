"""`fivedice holdem WHAT`: Texas Hold'em Yahtzee - odds, simulate, play, rules.

One command with the part to run as its argument (the lazy registry builds one command):

- ``fivedice holdem odds [--json] [--pocket 6r6b --board ... --players N]``
- ``fivedice holdem simulate --bot master --vs casual --hands 20000 --seed 1 --json``
- ``fivedice holdem play --plain [--player NAME] [--cpu LEVEL ...]``
- ``fivedice holdem rules``
"""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from fivedice.cli.common import (
    CpuOption,
    DbOption,
    PlainOption,
    check_seed,
    fail,
    fail_with,
)
from fivedice.core.errors import FivediceError
from fivedice.i18n import _

__all__ = ["register"]

PARTS = ("odds", "simulate", "play", "rules")
MAX_HANDS = 10_000_000


def register(app: typer.Typer) -> None:
    """Adds the `holdem` command to a Typer app."""
    app.command(name="holdem")(holdem)


def holdem(
    what: Annotated[str, typer.Argument(help="odds, simulate, play or rules.")],
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
    """Texas Hold'em Yahtzee: the exact odds, CPU matches, a game, the rules."""
    part = what.strip().lower()
    if part not in PARTS:
        fail(_("holdem takes odds, simulate, play or rules, not {what!r}").format(what=what))
    try:
        if part == "odds":
            _odds(as_json, pocket, board, players)
        elif part == "simulate":
            check_seed(seed)
            _simulate(bot, versus, hands, seed, as_json)
        elif part == "play":
            check_seed(practice_seed)
            _play(plain, player, cpus or ["casual", "master"], practice_seed, resume, db)
        else:
            from fivedice.wording.holdem import rules_lines

            for line in rules_lines():
                typer.echo(line)
    except FivediceError as error:
        fail_with(error)


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

    if not plain:
        fail(_("Texas Hold'em Yahtzee is played with --plain here."))
    levels = [parse_level(level) for level in cpus]
    seats = [Seat(player)] + [
        Seat(_("CPU {number}").format(number=number), level)
        for number, level in enumerate(levels, start=1)
    ]
    service = HoldemService.open(db)
    game_id = service.latest_unfinished() if resume else None
    if game_id is None:
        game_id = service.new_game(seats, seed=seed)
    raise typer.Exit(PlainHoldem(service, game_id, 0, sys.stdin, sys.stdout).run())
