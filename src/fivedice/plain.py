"""The plain, line-based game: state as text, one action per input line.

Made for screen readers and pipes: nothing is redrawn, every line stands on its own, bad
lines get a message and the game goes on, and end of input ends the program cleanly.
"""

from __future__ import annotations

from typing import TextIO

from fivedice.core.actions import NOTATION_HELP
from fivedice.core.errors import FivediceError
from fivedice.core.game import FirstPlayer, GameSettings, Seat, SettingsError
from fivedice.core.rules import RuleSet
from fivedice.i18n import _
from fivedice.service import LocalGame
from fivedice.text import describe_rules, state_lines, turn_lines

COMMANDS_HELP = "help | rules | show | quit"


def build_settings(
    rules: RuleSet, players: list[str], cpus: list[str], first: str, games: int
) -> GameSettings:
    """Game settings from command-line values (one human seat called Player by default)."""
    try:
        mode = FirstPlayer(first.strip().lower().replace("-", "_"))
    except ValueError:
        modes = ", ".join(m.value for m in FirstPlayer)
        raise SettingsError(f"first player mode must be one of {modes}, not {first!r}") from None
    seats = [Seat(name) for name in players]
    if not seats and not cpus:
        seats = [Seat(_("Player"))]
    from fivedice.strategy.levels import parse_level  # light: no numpy

    for index, level in enumerate(cpus, start=1):
        parsed = parse_level(level)
        seats.append(Seat(f"CPU {index} ({parsed})", cpu_level=parsed))
    return GameSettings(tuple(seats), rules, mode, games)


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
) -> int:
    """Plays a game on text streams; returns the exit status (0 when input ends cleanly)."""
    settings = build_settings(rules, players, cpus, first, games)
    game = LocalGame.start(settings, seed)

    def say(*lines: str) -> None:
        for line in lines:
            stdout.write(line + "\n")
        stdout.flush()

    say(_("fivedice: type an action, or help. {notation}").format(notation=NOTATION_HELP))
    show_card = True
    while True:
        while game.is_cpu_turn:
            seat = game.state.seats[game.state.current_seat].name
            action = game.cpu_step()
            say(_("{name}: {action}").format(name=seat, action=action))
            show_card = True
        if show_card or game.state.is_match_over:
            say("", *state_lines(game.state))
        else:
            say(*turn_lines(game.state))
        if game.state.is_match_over:
            return 0
        show_card = False
        stdout.write(f"{game.state.seats[game.state.current_seat].name}> ")
        stdout.flush()
        line = stdin.readline()
        if not line:
            say("", _("End of input: goodbye."))
            return 0
        command = line.strip().lower()
        if not command:
            continue
        if command in ("quit", "exit", "q"):
            say(_("Goodbye."))
            return 0
        if command in ("help", "?"):
            say(NOTATION_HELP, COMMANDS_HELP)
            continue
        if command == "rules":
            say(*describe_rules(game.state.rules))
            continue
        if command == "show":
            show_card = True
            continue
        seat_before = (game.state.game_number, game.state.current_seat)
        try:
            game.act(line)
        except FivediceError as error:
            say(_("Not allowed: {reason}").format(reason=error))
        show_card = seat_before != (game.state.game_number, game.state.current_seat)
