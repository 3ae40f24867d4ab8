"""The score keeper for real dice, line by line (`fivedice table --plain`).

The players roll their own dice; each turn the player to move types what they rolled
(`dice 3 3 3 5 5`) and then the box (`score full_house`), or the points alone
(`score full_house 25`). Every entry is saved through the service before its result is shown,
like `fivedice play --plain`; the coach ranks the keeps and boxes of typed dice
(`hint 11666 2`: those dice with two rolls left). Terse for screen readers: a 0 is asked
about first, each box scored is said in one line with the new total, an undo says what it
took back, and the cards are printed on `show` and at the end, not every turn.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TextIO

from fivedice.core.actions import TABLE_NOTATION_HELP
from fivedice.core.dice import parse_dice
from fivedice.core.errors import N_, FivediceError, MalformedActionError
from fivedice.core.game import GameKind, GameSettings, GameState
from fivedice.i18n import _
from fivedice.plain.game import is_yes, write_lines
from fivedice.service.errors import StaleVersionError, StoreError
from fivedice.service.games import GameService, UndoRefusedError
from fivedice.service.opening import open_game
from fivedice.service.settings import zero_score_to_confirm
from fivedice.service.table import entry_between, table_entry
from fivedice.wording.errors import (
    changed_elsewhere_text,
    not_saved_lines,
    refused_text,
    undo_refused_text,
)
from fivedice.wording.table import scored_text, taken_back_text
from fivedice.wording.text import (
    box_name,
    coach_lines,
    describe_rules,
    error_text,
    resuming_line,
    state_lines,
    turn_lines,
    why_lines,
)

TABLE_VERBS = ("dice", "score", "roll", "hold", "release")
"""What the service is sent; `roll`, `hold` and `release` get its refusal at the table."""

COMMANDS_HELP = N_(
    "also: hint [DICE] [ROLLS LEFT] (the coach, e.g. hint 11666 2) | show | rules | help | quit"
)


def parse_coach_request(words: list[str]) -> tuple[tuple[int, ...] | None, int | None]:
    """The dice and rolls left of ``hint [DICE] [ROLLS LEFT]`` (either may be left out).

    Raises:
        MalformedActionError: not dice and a number of rolls.
    """
    digits = [word for word in words if word.isascii() and word.isdigit()]  # int() reads these
    if len(digits) != len(words):
        raise MalformedActionError(
            N_("the coach takes the dice and the rolls left, e.g. 'hint 11666 2'")
        )
    text = "".join(words)
    if len(text) <= 1:
        return None, int(text) if text else None
    if len(text) == 5:
        return parse_dice(text), None
    if len(text) == 6:
        return parse_dice(text[:5]), int(text[5])
    raise MalformedActionError(
        N_("the coach takes the dice and the rolls left, e.g. 'hint 11666 2'")
    )


def roll_off_line(state: GameState) -> str:
    """The app's roll-off for the first turn (`--first highest_die`/`highest_sum`), so the
    table sees why that player starts: "Roll-off: Ann 5, Bob 3; Ann starts." (empty: none)."""
    if not state.opening_rolls:
        return ""
    rounds = " / ".join(
        ", ".join(
            f"{seat.name} {sum(roll)}"
            for seat, roll in zip(state.seats, rolls, strict=True)
            if roll is not None
        )
        for rolls in state.opening_rolls
    )
    return _("Roll-off: {rolls}; {name} starts.").format(
        rolls=rounds, name=state.seats[state.starting_seat].name
    )


def zero_confirmed(state: GameState, entry: str, ask: Callable[[str], str | None]) -> bool:
    """Asks before an entry puts 0 in a box (`service.settings.zero_score_to_confirm`);
    True when it does not, or when the player says yes (end of input: no)."""
    placement = zero_score_to_confirm(state, entry)
    if placement is None:
        return True
    box = box_name(placement.category)
    if state.rules.columns > 1:
        box += " " + _("(column {column})").format(column=placement.column + 1)
    return is_yes(ask(_("{box} would score 0. Score it anyway? [y/N] ").format(box=box)))


def run_table_plain(
    service: GameService,
    settings: GameSettings | None,
    *,
    stdin: TextIO,
    stdout: TextIO,
    seed: int | None = None,
    practice: bool = False,
    resume: bool = False,
    resume_game: int | None = None,
) -> int:
    """Keeps the score of a game at the table on text streams; returns the exit status.

    Raises:
        FivediceError: bad settings, nothing to resume, or the database cannot be used.
    """

    say = partial(write_lines, stdout)

    def ask(question: str) -> str | None:
        stdout.write(question)
        stdout.flush()
        return stdin.readline() or None

    view = open_game(
        service,
        settings,
        kind=GameKind.TABLE,
        seed=seed,
        practice=practice,
        resume=resume,
        resume_game=resume_game,
    )
    game_id = view.game_id
    if resume or resume_game is not None:
        say(resuming_line(game_id, view.version))
    else:
        say(
            _("Game {id} at the table: roll your own dice, the app keeps the card.").format(
                id=game_id
            )
        )
    say(_(TABLE_NOTATION_HELP), _(COMMANDS_HELP))
    if view.version == 0 and roll_off_line(view.state):
        say(roll_off_line(view.state))

    show_card = False  # the cards on `show` (and at the end): each turn is told in a few lines
    while True:
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
        words = line.split()
        if not words:
            continue
        command = words[0].lower()
        if command in ("quit", "exit", "q"):
            say(
                _(
                    "Goodbye. Game {id} is saved; 'fivedice table --plain --resume' continues it."
                ).format(id=game_id)
            )
            return 0
        if command in ("help", "?"):
            say(_(TABLE_NOTATION_HELP), _(COMMANDS_HELP))
            continue
        if command == "rules":
            say(*describe_rules(state.rules))
            continue
        if command == "show":
            show_card = True
            continue
        if command in ("hint", "coach"):
            try:
                dice, rolls_left = parse_coach_request(words[1:])
                options = service.hint(game_id, dice, rolls_left, explain=True)
            except FivediceError as error:
                say(_("No advice: {reason}").format(reason=error_text(error)))
                continue
            say(*coach_lines(options), *why_lines(state.rules, options))
            continue
        if command not in (*TABLE_VERBS, "undo"):
            unknown = _("unknown entry {verb!r}; {entries}").format(
                verb=words[0], entries=_(TABLE_NOTATION_HELP)
            )
            say(refused_text(unknown), _(COMMANDS_HELP))
            continue
        entry = table_entry(line, state.rules)
        if not zero_confirmed(state, entry, ask):
            say(_("Not scored."))
            continue
        try:
            if command == "undo":
                view = service.undo(game_id, view.version)
                say(taken_back_text(entry_between(view.state, state)))
                continue
            view = service.apply_action(game_id, entry, view.version)
        except StaleVersionError:
            view = service.load(game_id)
            say(changed_elsewhere_text())
            continue
        except StoreError as error:
            if not error.retryable:
                raise
            say(*not_saved_lines(error_text(error)))
            continue
        except UndoRefusedError as error:
            say(undo_refused_text(error_text(error)))
            continue
        except FivediceError as error:
            say(refused_text(error_text(error)))
            continue
        after = view.state
        scored = entry_between(state, after)
        if scored is not None and scored.category is not None:
            say(scored_text(scored))
