"""The plain, line-based game: state as text, one action per input line.

Made for screen readers and pipes: nothing is redrawn, every line stands on its own, bad
lines get a message and the game goes on, and end of input ends the program cleanly.

Every action is saved (through `fivedice.service`) before its result is printed, so what the
screen has shown survives a crash; `--resume` continues a saved game exactly there.
"""

from __future__ import annotations

from typing import TextIO

from fivedice.core.actions import NOTATION_HELP
from fivedice.core.errors import FivediceError
from fivedice.core.game import FirstPlayer, GameSettings, Seat, SettingsError
from fivedice.core.rules import RuleSet
from fivedice.i18n import _
from fivedice.service import (
    CpuFactory,
    GameService,
    GameView,
    UndoRefusedError,
    make_cpu_player,
)
from fivedice.store import GameClosedError, StaleVersionError, StoreError
from fivedice.text import describe_rules, error_text, state_lines, turn_lines

COMMANDS_HELP = "undo | help | rules | show | quit"


def build_settings(
    rules: RuleSet, players: list[str], cpus: list[str], first: str, games: int
) -> GameSettings:
    """Game settings from command-line values (a human seat called Player unless named)."""
    try:
        mode = FirstPlayer(first.strip().lower().replace("-", "_"))
    except ValueError:
        modes = ", ".join(m.value for m in FirstPlayer)
        raise SettingsError(f"first player mode must be one of {modes}, not {first!r}") from None
    seats = [Seat(name) for name in players]
    if not seats:  # `--cpu casual` alone: you against the CPU (as the README says)
        seats = [Seat(_("Player"))]
    from fivedice.strategy.levels import parse_level  # light: no numpy

    for index, level in enumerate(cpus, start=1):
        parsed = parse_level(level)
        seats.append(Seat(f"CPU {index} ({parsed})", cpu_level=parsed))
    return GameSettings(tuple(seats), rules, mode, games)


class NothingToResumeError(StoreError):
    """`--resume` without a game, and no game is unfinished."""


def open_game(
    service: GameService,
    settings: GameSettings | None,
    *,
    seed: int | None,
    practice: bool,
    resume: bool,
    resume_game: int | None,
) -> GameView:
    """The game to play: the one to resume (`resume_game`, else the latest unfinished), or
    a new one with `settings`."""
    if resume or resume_game is not None:
        game_id = resume_game
        if game_id is None:
            latest = service.latest_unfinished()
            if latest is None:
                raise NothingToResumeError(_("there is no unfinished game to resume"))
            game_id = latest.game_id
        view = service.load(game_id)
        if view.is_over:
            raise GameClosedError(
                _("game {id} is {status}; it cannot be resumed").format(
                    id=game_id, status=view.status
                )
            )
        return view
    assert settings is not None
    return service.create_game(settings, seed=seed, practice=practice)


def run_plain(
    rules: RuleSet,
    players: list[str],
    cpus: list[str],
    *,
    seed: int | None,
    first: str,
    games: int,
    stdin: TextIO,
    stdout: TextIO,
    db: str | None = None,
    resume: bool = False,
    resume_game: int | None = None,
    practice: bool = False,
    cpu_factory: CpuFactory = make_cpu_player,
) -> int:
    """Plays a saved game on text streams; returns the exit status (0 when input ends cleanly).

    Raises:
        FivediceError: bad settings, or the database cannot be used (the message says why).
    """

    def say(*lines: str) -> None:
        for line in lines:
            stdout.write(line + "\n")
        stdout.flush()

    resuming = resume or resume_game is not None
    settings = None if resuming else build_settings(rules, players, cpus, first, games)
    service = GameService.open(db, cpu_factory=cpu_factory)
    if not resuming:
        waiting = service.latest_unfinished()
        if waiting is not None:
            names = ", ".join(waiting.players)
            if stdin.isatty():
                stdout.write(
                    _("Game {id} ({names}) is unfinished. Resume it? [y/N] ").format(
                        id=waiting.game_id, names=names
                    )
                )
                stdout.flush()
                if stdin.readline().strip().lower() in ("y", "yes"):
                    resume_game = waiting.game_id
            else:
                say(
                    _(
                        "Game {id} ({names}) is unfinished; "
                        "'fivedice play --plain --resume' continues it."
                    ).format(id=waiting.game_id, names=names)
                )
    view = open_game(
        service, settings, seed=seed, practice=practice, resume=resume, resume_game=resume_game
    )
    game_id = view.game_id
    if resume or resume_game is not None:
        say(_("Resuming game {id} after {count} actions.").format(id=game_id, count=view.version))
    else:
        say(_("Game {id}: every action is saved as you play.").format(id=game_id))
    say(_("fivedice: type an action, or help. {notation}").format(notation=_(NOTATION_HELP)))

    def not_saved(error: FivediceError) -> None:
        say(
            _("Not saved: {reason}").format(reason=error_text(error)),
            _("The action was not applied. Type it again to retry."),
        )

    show_card = True
    while True:
        while view.is_cpu_turn:
            seat = view.state.seats[view.state.current_seat].name
            try:
                action, view = service.cpu_step(game_id, view.version)
            except StaleVersionError:
                view = service.load(game_id)
                continue
            except StoreError as error:
                if not error.retryable:
                    raise
                not_saved(error)
                stdout.write(_("Press Enter to retry, or type quit: "))
                stdout.flush()
                answer = stdin.readline()
                if not answer or answer.strip().lower() in ("quit", "exit", "q"):
                    say(_("Goodbye."))
                    return 0
                continue
            say(_("{name}: {action}").format(name=seat, action=action))
            show_card = True
        state = view.state
        if show_card or state.is_match_over:
            say("", *state_lines(state))
        else:
            say(*turn_lines(state))
        if state.is_match_over:
            return 0
        show_card = False
        stdout.write(f"{state.seats[state.current_seat].name}> ")
        stdout.flush()
        line = stdin.readline()
        if not line:
            say("", _("End of input: goodbye. Game {id} is saved.").format(id=game_id))
            return 0
        command = line.strip().lower()
        if not command:
            continue
        if command in ("quit", "exit", "q"):
            say(
                _(
                    "Goodbye. Game {id} is saved; 'fivedice play --plain --resume' continues it."
                ).format(id=game_id)
            )
            return 0
        if command in ("help", "?"):
            say(_(NOTATION_HELP), COMMANDS_HELP)
            continue
        if command == "rules":
            say(*describe_rules(state.rules))
            continue
        if command == "show":
            show_card = True
            continue
        seat_before = (state.game_number, state.current_seat)
        try:
            if command == "undo":
                view = service.undo(game_id, view.version)
                say(_("Your last action is taken back."))
            else:
                view = service.apply_action(game_id, line, view.version)
        except StaleVersionError:
            view = service.load(game_id)
            say(_("The game was changed elsewhere; here it is as saved now."))
            show_card = True
            continue
        except StoreError as error:
            if not error.retryable:
                raise
            not_saved(error)
            continue
        except UndoRefusedError as error:
            say(_("Cannot undo: {reason}").format(reason=error_text(error)))
        except FivediceError as error:
            say(_("Not allowed: {reason}").format(reason=error_text(error)))
        show_card = seat_before != (view.state.game_number, view.state.current_seat)
