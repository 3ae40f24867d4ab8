"""Commands about saved games: games, stats, highscores, export, replay, abandon.

Registered on the main app by `fivedice.cli` (`register(app)`). Every command takes
`--db URL` (default: `$FIVEDICE_DATABASE_URL`, else a SQLite file in the user data directory).

Text read from the database (names, rule keys) may have been edited by hand: it is printed
through `visible_text` (`shown`), so it can never print as several lines or send a terminal
escape. JSON output is escaped by `json.dumps`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Protocol, TypeVar

import typer

from fivedice.cli.common import DbOption, JsonOption, check_game_id, fail, fail_with
from fivedice.core.errors import FivediceError
from fivedice.core.names import visible_text as shown
from fivedice.i18n import _, ngettext

if TYPE_CHECKING:
    from fivedice.service.games import GameService, SkillStats
    from fivedice.store.stats import ProfileStats

_T = TypeVar("_T")


def _service(db: str | None) -> GameService:
    from fivedice.service.games import GameService

    try:
        return GameService.open(db)
    except FivediceError as error:
        fail_with(error)


def _ask(db: str | None, question: Callable[[GameService], _T]) -> _T:
    """What `question` answers of the database `db` (or a clean exit that says why not)."""
    service = _service(db)
    try:
        return question(service)
    except FivediceError as error:
        fail_with(error)


class _Listed(Protocol):
    def to_json(self) -> object: ...


def _printed_json_or_nothing(
    found: Sequence[_Listed] | Mapping[str, Sequence[_Listed]], as_json: bool, nothing: str
) -> bool:
    """Prints what was `found` as JSON (`as_json`: a list, or lists by key), or `nothing`
    when nothing was found; whether that said it all."""
    if as_json:
        if isinstance(found, Mapping):
            value: object = {
                key: [entry.to_json() for entry in listed] for key, listed in found.items()
            }
        else:
            value = [entry.to_json() for entry in found]
        typer.echo(json.dumps(value))
        return True
    if not found:
        typer.echo(nothing)
        return True
    return False


def games(db: DbOption = None, as_json: JsonOption = False) -> None:
    """Saved games, newest first: id, start, players, rules, status, actions, totals, kind."""
    found = _ask(db, lambda service: service.list_games())
    if _printed_json_or_nothing(found, as_json, _("No saved games.")):
        return
    from fivedice.wording.text import error_text, list_text, status_text

    for game in found:
        practice = " " + _("(practice)") if game.practice else ""
        if game.kind == "table":
            practice += " " + _("(at the table)")
        totals = " ".join(map(str, game.totals)) if game.damage is None else "?"
        players = list_text(shown(name) for name in game.players)
        actions = ngettext("{count} action", "{count} actions", game.actions)
        status = shown(status_text(game.status))
        typer.echo(
            f"{game.game_id:>5}  {game.started:%Y-%m-%d %H:%M}  {status:<11} "
            f"{shown(game.rules):<12} {actions.format(count=f'{game.actions:>4}')}  "
            + _("{name}: {total}").format(name=players, total=totals)
            + practice
        )
        if game.damage is not None:
            typer.echo(f"       ! {shown(error_text(game.damage))}")


def stats(
    player: Annotated[str | None, typer.Argument(help="A player's name (default: all).")] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Statistics per player and rule preset (practice games are not counted), with each
    player's skill: the points lost per decision against optimal play, over their games."""
    found, skills = _ask(db, lambda service: (service.stats(player), service.skill(player)))
    by_player: dict[tuple[str, str], list[SkillStats]] = {}
    for skill in skills:
        by_player.setdefault((skill.profile, skill.rules), []).append(skill)
    if as_json:
        typer.echo(
            json.dumps(
                [
                    entry.to_json()
                    | {"skill": [skill.to_json() for skill in by_player.get(_key(entry), [])]}
                    for entry in found
                ]
            )
        )
        return
    if _printed_json_or_nothing(found, as_json, _("No finished games yet.")):
        return
    import shutil

    from fivedice.core.boxes import KNOWN_BOXES
    from fivedice.i18n import formats
    from fivedice.wording.review import phase_note, skill_lines, text_skill_chart
    from fivedice.wording.text import box_name, list_text, preset_title

    width = min(max(shutil.get_terminal_size((80, 24)).columns - 4, 40), 100)
    for entry in found:
        typer.echo(f"== {shown(entry.profile)} · {shown(preset_title(entry.rules))} ==")
        typer.echo(
            _(
                "games {games}, wins {wins} of {multi} against others, average {average}, "
                "best {best}, worst {worst}"
            ).format(
                games=entry.games,
                wins=entry.wins,
                multi=entry.multiplayer_games,
                average=formats.number(entry.average, 1),
                best=entry.best,
                worst=entry.worst,
            )
        )
        typer.echo(
            _("upper bonus {rate} of columns, Yahtzees {count}").format(
                rate=formats.percent(entry.upper_bonus_rate), count=entry.yahtzees
            )
        )
        typer.echo(
            _("scores: {buckets}").format(
                buckets=list_text(
                    _("{name}: {total}").format(name=k, total=v)
                    for k, v in entry.distribution.items()
                )
            )
        )
        typer.echo(
            _("average per box: {boxes}").format(
                boxes=list_text(
                    f"{box_name(KNOWN_BOXES[k]) if k in KNOWN_BOXES else k} {formats.number(v, 1)}"
                    for k, v in entry.box_averages.items()
                )
            )
        )
        for skill in by_player.get(_key(entry), []):
            typer.echo("")
            for line in skill_lines(skill):
                typer.echo(shown(line))
            chart = text_skill_chart(skill, width)
            if chart is not None:
                typer.echo(chart)
    if skills:
        typer.echo("")
        typer.echo(phase_note())


def _key(entry: ProfileStats) -> tuple[str, str]:
    return entry.profile, entry.rules


def highscores(db: DbOption = None, as_json: JsonOption = False) -> None:
    """The ten best solo games per rule preset (practice games are not counted)."""
    lists = _ask(db, lambda service: service.high_scores())
    if _printed_json_or_nothing(lists, as_json, _("No finished solo games yet.")):
        return
    from fivedice.i18n import formats
    from fivedice.wording.text import preset_title

    for rules, entries in lists.items():
        typer.echo(f"== {shown(preset_title(rules))} ==")
        for entry in entries:
            typer.echo(
                f"{entry.place:>2}. {entry.total:>5}  {shown(entry.profile)}  "
                f"({_('game')} {entry.game_id}, {formats.day(entry.date)})"
            )


def export(
    game: Annotated[int, typer.Argument(help="The game's id (see `fivedice games`).")],
    db: DbOption = None,
) -> None:
    """The game record as text: settings, seed, and every action with the dice it rolled."""
    check_game_id(game)
    typer.echo(_ask(db, lambda service: service.export(game)), nl=False)


def replay(
    file: Annotated[Path, typer.Argument(help="A record written by `fivedice export`.")],
) -> None:
    """Checks a game record and shows it move by move, with the final card."""
    from fivedice.core.record import parse_record
    from fivedice.wording.text import dice_text, replay_sentence, state_lines

    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        fail(_("cannot read {file}: {error}").format(file=file, error=error))
    try:
        record = parse_record(text)
    except FivediceError as error:
        fail(_("{file} is not a valid record: {error}").format(file=file, error=error))
    last = None
    for entry, state in record.states():
        before, last = last, state
        if entry is None or before is None:
            continue
        name = state.settings.seats[entry.seat].name
        said = replay_sentence(name, entry.action, before, state)
        shown = dice_text(state.dice, state.turn.held) if state.dice is not None else ""
        typer.echo(f"{entry.seq:>4}. {said:<32} {shown}".rstrip())
    assert last is not None
    typer.echo("")
    for line in state_lines(last):
        typer.echo(line)
    typer.echo("")
    typer.echo(
        ngettext(
            "The record is valid: {count} action.",
            "The record is valid: {count} actions.",
            record.version,
        ).format(count=record.version)
    )


def abandon(
    game: Annotated[int, typer.Argument(help="The unfinished game's id.")],
    db: DbOption = None,
) -> None:
    """Marks an unfinished game abandoned (it stays listed but is no longer resumed)."""
    check_game_id(game)
    _ask(db, lambda service: service.abandon(game))
    typer.echo(_("Game {id} abandoned.").format(id=game))


def register(app: typer.Typer) -> None:
    """Adds the saved-game commands to the `fivedice` app."""
    app.command("games")(games)
    app.command("stats")(stats)
    app.command("highscores")(highscores)
    app.command("export")(export)
    app.command("replay")(replay)
    app.command("abandon")(abandon)
