"""The game commands: `score`, `rules` and `play` (the terminal app or the plain mode)."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from fivedice.cli.common import (
    CardOption,
    CpuOption,
    DbOption,
    JsonOption,
    PlainOption,
    PracticeOption,
    RulesOption,
    SetOption,
    check_game_id,
    check_seed,
    fail,
    fail_with,
    load_rules,
    parse_column,
)
from fivedice.core.errors import FivediceError
from fivedice.i18n import _

__all__ = ["register"]


def score(
    dice: Annotated[str, typer.Option("--dice", "-d", help="Five dice, e.g. 33355.")],
    rules_name: RulesOption = "classic",
    settings: SetOption = None,
    card: CardOption = None,
    as_json: JsonOption = False,
) -> None:
    """Every box the dice may go in now, and the points each placement earns."""
    from fivedice.core.dice import parse_dice
    from fivedice.wording.text import box_name, placement_notes

    rules = load_rules(rules_name, settings)
    try:
        column = parse_column(rules, card)
    except FivediceError as error:
        fail_with(error)
    try:
        roll = parse_dice(dice, rules.dice)
    except FivediceError as error:
        fail_with(error)
    placements = column.placements(rules, roll)
    if as_json:
        options = [{"category": p.category.key, "points": p.points} for p in placements]
        typer.echo(json.dumps({"options": options}))
        return
    if not placements:
        typer.echo(_("Every box is filled."))
    for p in placements:
        notes = placement_notes(p)
        suffix = f"  ({', '.join(notes)})" if notes else ""
        typer.echo(f"{box_name(p.category):<18} {p.points:>4}{suffix}")


def rules(
    rules_name: RulesOption = "classic",
    settings: SetOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the options as JSON.")] = False,
) -> None:
    """The active rules in words, generated from the rule set."""
    from fivedice.core.rules import PRESETS, preset_name
    from fivedice.wording.text import describe_rules, preset_title, rules_title

    ruleset = load_rules(rules_name, settings)
    if as_json:
        typer.echo(json.dumps(ruleset.settings()))
        return
    name = preset_name(ruleset)
    # A preset with its key; custom rules by what differs ("Classic, bonus at 70").
    title = f"{preset_title(name)} ({name})" if name else rules_title(ruleset)
    typer.echo(_("Rules: {name}").format(name=title))
    for line in describe_rules(ruleset):
        typer.echo(f"- {line}")
    if not settings:
        typer.echo("")
        names = _(", ").join(p.name for p in PRESETS)
        typer.echo(_("Presets: {names}").format(names=names))


def play(
    plain: PlainOption = False,
    players: Annotated[
        list[str] | None, typer.Option("--player", "-p", help="A human seat (repeatable).")
    ] = None,
    cpus: CpuOption = None,
    rules_name: RulesOption = "classic",
    settings: SetOption = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", help="Seed for reproducible dice (0 to 2^63 - 1; makes it a practice game)."
        ),
    ] = None,
    client_seeds: Annotated[
        list[str] | None,
        typer.Option(
            "--client-seed",
            help="Your own seed, mixed into the dice so that nobody can choose them"
            " (repeatable: one per human seat, in order).",
        ),
    ] = None,
    first: Annotated[
        str, typer.Option("--first", help="First player: first_seat, highest_die, highest_sum.")
    ] = "first_seat",
    games: Annotated[int, typer.Option("--games", help="Games in the match.")] = 1,
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue GAME, or the latest unfinished game.")
    ] = False,
    game: Annotated[
        int | None, typer.Argument(help="The saved game to resume (see `fivedice games`).")
    ] = None,
    practice: PracticeOption = False,
    db: DbOption = None,
) -> None:
    """Play a game in the terminal app; `--plain` reads one action per line instead.

    The plain mode suits screen readers and pipes: terse, with the card on `show`, the
    dice commitment on `fair` and every command on `help`. In the app,
    `--player`/`--cpu`/`--rules` fill in the new-game screen.
    """
    check_seed(seed)
    check_game_id(game)
    ruleset = load_rules(rules_name, settings)
    if client_seeds and not plain:
        fail(_("--client-seed works with --plain for now"))
    if not plain:
        from fivedice.plain.game import build_settings
        from fivedice.tui import run_app

        customised = players or cpus or settings or rules_name != "classic" or games != 1
        try:
            initial = (
                build_settings(ruleset, players or [], cpus or [], first, games)
                if customised or first != "first_seat"
                else None
            )
        except FivediceError as error:
            fail_with(error)
        run_app(
            initial, seed, db=db, resume=game if game is not None else resume, practice=practice
        )
        return
    from fivedice.plain.game import run_plain

    try:
        code = run_plain(
            ruleset,
            players or [],
            cpus or [],
            seed=seed,
            first=first,
            games=games,
            stdin=sys.stdin,
            stdout=sys.stdout,
            db=db,
            resume=resume,
            resume_game=game,
            practice=practice,
            client_seeds=client_seeds or [],
        )
    except FivediceError as error:
        fail_with(error)
    raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    """Adds `score`, `rules` and `play` to a Typer app."""
    app.command("score")(score)
    app.command("rules")(rules)
    app.command("play")(play)
