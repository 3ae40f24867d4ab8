"""The plain, line-based game: state as text, one action per input line.

Made for screen readers and pipes: nothing is redrawn, every line stands on its own, bad
lines get a message and the game goes on, and end of input ends the program cleanly. Every
move is said in words ("CPU 1 rolls 3 3 5 6 6", "You score 25 in Full house"), box names
are shown and accepted in the player's language, and a score of 0 is confirmed first.

Terse, because a screen reader reads every character: each line says one new thing once
(`fivedice.wording.plain`). A turn is a heading, a roll its dice in words and the boxes they
score, a hold what is held now; the card (`show`), the dice commitment (`fair`) and the
rules (`rules`) only on request. `hold` and `release` take the dice they can and say which
they left alone. The short forms are the terminal app's keys where a line can use them
(`h` hint, `z` undo, `v` show, `u` rules, `q` quit, `?` help; digits alone hold dice).

Every action is saved (through `fivedice.service.games`) before its result is printed, so what the
screen has shown survives a crash; `--resume` continues a saved game exactly there.

Input is untrusted: undecodable bytes, control characters and overlong lines are refused
with a message, never a traceback, and a refused line leaves the game as it was.
"""

from __future__ import annotations

import contextlib
import io
import sys
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from functools import partial
from typing import TextIO

from fivedice.core.actions import Action, Hold, Release, Score, parse_action
from fivedice.core.categories import CATEGORIES
from fivedice.core.dice import DICE_COUNT
from fivedice.core.errors import N_, FivediceError, MalformedActionError
from fivedice.core.game import GameSettings, GameState
from fivedice.core.rules import RuleSet
from fivedice.i18n import _, formats, ngettext
from fivedice.service.errors import SolveNotAllowedError, StaleVersionError, StoreError
from fivedice.service.games import (
    CpuFactory,
    GameService,
    GameView,
    Hint,
    HintsUnavailableError,
    goal_total,
    make_cpu_player,
)
from fivedice.service.opening import open_game
from fivedice.service.settings import game_settings, zero_score_to_confirm
from fivedice.service.solving import BuildCancelled, reporting_builds
from fivedice.wording.errors import (
    changed_elsewhere_text,
    not_saved_lines,
    refused_text,
    undo_refused_text,
)
from fivedice.wording.goal import (
    goal_cleared_text,
    goal_heading,
    goal_help_text,
    goal_set_text,
    goal_value_text,
)
from fivedice.wording.plain import (
    commands_text,
    dice_summary,
    fair_dice_line,
    held_line,
    ignored_positions_text,
    notation_text,
    nothing_held_text,
    turn_summary,
    verify_later_line,
    why_command_text,
)
from fivedice.wording.progress import ProgressLine
from fivedice.wording.text import (
    box_name,
    card_lines,
    chance_text,
    choice_text,
    cpu_name,
    describe_rules,
    error_text,
    list_text,
    match_progress_lines,
    move_sentence,
    opening_lines,
    parse_score_words,
    ranking_lines,
    resuming_line,
    turn_news,
    why_lines,
    why_text,
)
from fivedice.wording.wrap import wrap_line

MAX_LINE = 1000
"""The longest input line read as a command (longer ones are refused, and skipped)."""

MAX_COMMAND = 100
"""The longest command (the longest box name in any language is far shorter). A longer line
is refused without being repeated: a screen reader would read all of it back."""


def too_long_text(count: int) -> str:
    """Why a line was refused for its length (it is never echoed back)."""
    return ngettext(
        "That line is too long (over {count} character).",
        "That line is too long (over {count} characters).",
        count,
    ).format(count=count)


HINT_OPTIONS = 5
"""How many of the coach's options `hint` shows."""

INTERRUPTED = 130
"""The exit code after Ctrl+C (128 + SIGINT)."""
LINE_WIDTH = 79
"""The longest line the plain mode writes (cells): under 80 columns."""
SHORT_VERBS = {"r": "roll", "rel": "release", "s": "score"}
"""Short forms of the action verbs (`r` = roll, `rel 2` = release 2, `s chance` = score
chance). A line of digits alone holds those dice (`1 3`, `13`), as the digit keys do in the
terminal app; `h` is hint there and here."""

QUIT_WORDS = ("quit", "exit", "q")
HELP_WORDS = ("help", "?")
SHOW_WORDS = ("show", "v")
RULES_WORDS = ("rules", "u")
HINT_WORDS = ("hint", "h")
GOAL_WORD = "goal"
GOAL_OFF_WORDS = ("off", "none")
WHY_WORDS = ("why", "y", "w")
WHY_OPTIONS = 3
"""How many of the next options `why` holds the best one against."""
UNDO_WORDS = ("undo", "z")
FAIR_WORDS = ("fair", "commitment")
ALL_WORDS = ("all",)
YES_WORDS = ("y", "yes")


def help_lines(rules: RuleSet | None = None) -> list[str]:
    """What the player can type, in the current language (the column form of `score` only
    for a card with several columns)."""
    return [
        notation_text(rules or RuleSet()),
        commands_text(),
        why_command_text(),
        _("Boxes may be named as on the card, in your language too (score full house)."),
        goal_help_text(),
    ]


def build_settings(
    rules: RuleSet, players: list[str], cpus: list[str], first: str, games: int
) -> GameSettings:
    """Game settings from command-line values (a human seat called "You" unless named).

    Raises:
        CpuLevelError: an unknown CPU level; FirstPlayerError: an unknown first-player mode;
        SettingsError: seats the core refuses.
    """
    from fivedice.service.settings import default_human_name, parse_level  # light: no numpy

    seats: list[tuple[str, str | None]] = [(name, None) for name in players]
    if not seats:  # `--cpu casual` alone: you against the CPU (as the README says)
        seats = [(default_human_name(), None)]
    for index, level in enumerate(cpus, start=1):
        parsed = parse_level(level)
        seats.append((cpu_name(index, parsed), parsed))
    return game_settings(seats, rules, first_player=first, match_length=games)


class Outcome(Enum):
    """What one input line did."""

    ACTION = "action"  # an action was saved: the game moved on
    REFUSED = "refused"  # refused with a message: the game is as it was
    INFO = "info"  # help, show, rules, hint or an empty line: nothing changes
    QUIT = "quit"  # quit


class LineReader:
    """Reads input lines safely: None at end of input; undecodable bytes become U+FFFD (the
    line is then refused), and a line longer than `MAX_LINE` is read to its end and returned
    as one overlong marker instead of being held in memory."""

    TOO_LONG = "\x00too long"

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, io.UnsupportedOperation):
                reconfigure(errors="replace")

    def read(self) -> str | None:
        try:
            line = self.stream.readline(MAX_LINE + 1)
        except (UnicodeDecodeError, ValueError, OSError):
            return None
        if not line:
            return None
        if len(line) > MAX_LINE and not line.endswith("\n"):
            rest = line
            while rest and not rest.endswith("\n"):
                try:
                    rest = self.stream.readline(MAX_LINE + 1)
                except (UnicodeDecodeError, ValueError, OSError):
                    break
            return self.TOO_LONG
        return line

    def isatty(self) -> bool:
        try:
            return bool(self.stream.isatty())
        except (ValueError, OSError):
            return False


def write_lines(stream: TextIO, *lines: str) -> None:
    """Writes the lines to the stream and flushes it, so that whoever reads it sees them now;
    a line longer than LINE_WIDTH is wrapped between its items (a screen reader's line, a
    terminal of 80 columns)."""
    for line in lines:
        for part in line.split("\n"):
            for short in wrap_line(part, LINE_WIDTH):
                stream.write(short + "\n")
    stream.flush()


def ask_line(stream: TextIO, reader: LineReader, question: str) -> str | None:
    """Writes the question (no line break) and reads the answer (`LineReader.read`)."""
    stream.write(question)
    stream.flush()
    return reader.read()


def clean_line(line: str) -> str | None:
    """The command in a line (outer spaces and byte-order marks removed), or None when it
    holds characters no command has: control characters, or bytes that were not UTF-8."""
    text = line.replace("\ufeff", "").strip()
    for char in text:
        if char == "\ufffd" or (unicodedata.category(char) == "Cc" and char != "\t"):
            return None
    return text


def is_yes(answer: str | None) -> bool:
    """Whether an answer to a y/n question is yes (end of input is no)."""
    if answer is None:
        return False
    word = (clean_line(answer) or "").casefold()
    return word in YES_WORDS or word in (_("y").casefold(), _("yes").casefold())


def is_positions(words: list[str]) -> bool:
    """Whether the words are die positions alone (`1 3`, `13`, `1,3`): a hold."""
    text = "".join(words).replace(",", "")
    return bool(text) and text.isascii() and text.isdigit()


def parse_command(text: str, rules: RuleSet | None = None) -> Action:
    """An action from what the player typed: the notation, its short forms (`r`, `rel 2`,
    `s chance`, digits alone for a hold) and box names as on the card, in the player's
    language too, among the boxes of `rules` (default: the classic card).

    Raises:
        MalformedActionError: not an action (the message says why).
    """
    words = text.split()
    dice = rules.dice if rules else DICE_COUNT
    if is_positions(words):
        return parse_action(" ".join(["hold", *words]), dice)
    first = words[0].casefold() if words else ""
    if first == "h" and len(words) > 1:
        raise MalformedActionError(
            N_(
                "h is the hint, as in the terminal app; hold dice with hold 1 3,"
                " or type their positions alone: 1 3"
            )
        )
    verb = SHORT_VERBS.get(first, first)
    boxes = rules.boxes if rules is not None else CATEGORIES
    if verb == "score" and len(words) < 2:
        raise MalformedActionError(N_("name a box to score, e.g. score chance"))
    if verb not in ("roll", "hold", "release", "score"):
        raise MalformedActionError(
            N_("unknown command {command!r}; help (or ?) lists the commands"), command=words[0]
        )
    if verb != "score":
        return parse_action(" ".join([verb, *words[1:]]), dice)
    return parse_score_words(" ".join(words[1:]), boxes)


def is_release_all(text: str) -> bool:
    """`release all` (or `rel all`)."""
    words = text.casefold().split()
    return (
        len(words) == 2
        and SHORT_VERBS.get(words[0], words[0]) == "release"
        and words[1] in ALL_WORDS
    )


def take_what_can_be(
    action: Hold | Release, held: tuple[bool, ...]
) -> tuple[Hold | Release | None, tuple[int, ...]]:
    """A hold or release cut to the dice it can change: (what is left to do, or None when
    nothing is; the positions left alone because they already are as asked). `hold 2 3`
    with dice 1 and 2 held holds die 3 and leaves die 2 alone; positions past the dice are
    left in for the rules to refuse."""
    wanted = isinstance(action, Hold)
    ignored = tuple(p for p in action.positions if p <= len(held) and held[p - 1] == wanted)
    rest = tuple(p for p in action.positions if p not in ignored)
    if not rest:
        return None, ignored
    return (Hold(rest) if wanted else Release(rest)), ignored


def keep_commands(option: Hint, state: GameState) -> list[str]:
    """The commands that take the dice held now to exactly what a keep holds, as they are
    typed: `release 1 2`, `hold 3 5` (`release all` for every die), each only when needed;
    empty for a box, or when the dice held are the keep already (then `roll` is all)."""
    if option.category is not None or option.hold is None or state.dice is None:
        return []
    held = {position for position, h in enumerate(state.turn.held, start=1) if h}
    wanted = set(option.hold)
    commands = []
    if held - wanted:
        drop = sorted(held - wanted)
        commands.append("release all" if not wanted else "release " + " ".join(map(str, drop)))
    if wanted - held:
        commands.append("hold " + " ".join(map(str, sorted(wanted - held))))
    return commands


def release_all(state: GameState) -> Release | None:
    """A release of every held die (None: nothing is held)."""
    held = tuple(position for position, h in enumerate(state.turn.held, start=1) if h)
    return Release(held) if held else None


@dataclass
class PlainSession:
    """One plain game on text streams: reads lines, sends actions to the service, says what
    happened. `handle` takes one line; `run` plays until the game ends or the input does."""

    service: GameService
    view: GameView
    reader: LineReader
    stdout: TextIO
    new_turn: bool = True
    """The turn's heading (and its dice, if rolled) is due before the next prompt."""
    goal: str | None = None
    """The player's goal for the coach ("300", "beat 245", "beat Ann"), or None."""

    @property
    def game_id(self) -> int:
        return self.view.game_id

    def say(self, *lines: str) -> None:
        write_lines(self.stdout, *lines)

    def ask(self, question: str) -> str | None:
        return ask_line(self.stdout, self.reader, question)

    def not_saved(self, error: FivediceError) -> None:
        self.say(
            *not_saved_lines(error_text(error)),
        )

    def run(self) -> int:
        """Plays on until the match is over, the player quits or the input ends; Ctrl+C
        says goodbye (the game is saved after every move) and exits with 130, as a shell
        expects of an interrupted program."""
        try:
            return self._play()
        except KeyboardInterrupt:
            self.say("", _("Interrupted: goodbye. Game {id} is saved.").format(id=self.game_id))
            return INTERRUPTED

    def _play(self) -> int:
        while True:
            if not self.play_cpu_turns():
                self.say(_("Goodbye."))
                return 0
            state = self.view.state
            if state.is_match_over:
                self.say(*end_lines(self.view))
                return 0
            if self.new_turn:
                self.say(*turn_summary(state))
                self.new_turn = False
            line = self.ask(f"{state.seats[state.current_seat].name}> ")
            if line is None:
                self.say(
                    "", _("End of input: goodbye. Game {id} is saved.").format(id=self.game_id)
                )
                return 0
            if self.handle_showing_builds(line) is Outcome.QUIT:
                return 0

    def handle_showing_builds(self, line: str) -> Outcome:
        """`handle`, the progress of any table it builds (a hint under new rules, a goal
        table: minutes) shown on stderr; Ctrl+C during such a build cancels it (nothing is
        saved) and the prompt comes back."""
        progress = ProgressLine(sys.stderr, _("Ctrl+C cancels"))
        try:
            with reporting_builds(progress):
                return self.handle(line)
        except (KeyboardInterrupt, BuildCancelled):
            if not progress.shown:
                raise
            progress.end()
            self.say(_("Cancelled: nothing was saved."))
            return Outcome.REFUSED
        finally:
            progress.end()

    def play_cpu_turns(self) -> bool:
        """Lets CPU seats move, each move said in words; False when the player quits while a
        failed save waits for a retry."""
        while self.view.is_cpu_turn:
            before = self.view.state
            name = before.seats[before.current_seat].name
            try:
                action, self.view = self.service.cpu_step(self.game_id, self.view.version)
            except StaleVersionError:
                self.view = self.service.load(self.game_id)
                continue
            except StoreError as error:
                if not error.retryable:
                    raise
                self.not_saved(error)
                answer = self.ask(_("Press Enter to retry, or type quit: "))
                if answer is None or (clean_line(answer) or "").casefold() in QUIT_WORDS:
                    return False
                continue
            after = self.view.state
            self.say(move_sentence(name, action, before, after))
            self.say(*turn_news(name, before, after))  # an extra turn, saved rolls
            self.say(*match_progress_lines(before, after))
            self.new_turn = True
        return True

    def handle(self, line: str) -> Outcome:
        """Does what one input line asks; a refused line leaves the game as it was."""
        if line is LineReader.TOO_LONG:
            self.say(too_long_text(MAX_LINE))
            return Outcome.REFUSED
        if len(line.strip()) > MAX_COMMAND:
            self.say(too_long_text(MAX_COMMAND))
            return Outcome.REFUSED
        text = clean_line(line)
        if text is None:
            self.say(
                _(
                    "That line has characters no command uses (control characters, or bytes"
                    " that are not UTF-8)."
                )
            )
            return Outcome.REFUSED
        command = text.casefold()
        if not command:
            return Outcome.INFO
        if command in QUIT_WORDS:
            self.say(
                _(
                    "Goodbye. Game {id} is saved; 'fivedice play --plain --resume' continues it."
                ).format(id=self.game_id)
            )
            return Outcome.QUIT
        if command in HELP_WORDS:
            self.say(*help_lines(self.view.state.rules))
            return Outcome.INFO
        if command in RULES_WORDS:
            self.say(*describe_rules(self.view.state.rules))
            return Outcome.INFO
        if command in SHOW_WORDS:
            self.say(*show_lines(self.view.state))
            return Outcome.INFO
        if command in HINT_WORDS:
            self.hint()
            return Outcome.INFO
        if command in WHY_WORDS:
            self.why()
            return Outcome.INFO
        if command.split()[0] == GOAL_WORD:
            return self.set_goal(text.split(maxsplit=1)[1] if " " in text else "")
        if command in FAIR_WORDS:
            self.say(*dice_lines(self.view))
            return Outcome.INFO
        if command in UNDO_WORDS:
            return self.undo()
        state = self.view.state
        ignored: tuple[int, ...] = ()
        action: Action | None
        if is_release_all(command):
            action = release_all(state)
            if action is None and state.turn.dice is not None and state.rolls_left > 0:
                self.say(nothing_held_text())
                return Outcome.REFUSED
            action = action or Release(tuple(range(1, state.rules.dice + 1)))
        else:
            try:
                action = parse_command(text, state.rules)
            except FivediceError as error:
                self.say(refused_text(error_text(error)))
                return Outcome.REFUSED
        if (
            isinstance(action, Hold | Release)
            and state.turn.dice is not None
            and state.rolls_left > 0
        ):
            is_hold = isinstance(action, Hold)
            action, ignored = take_what_can_be(action, state.turn.held)
            if action is None:
                self.say(ignored_positions_text(ignored, hold=is_hold))
                return Outcome.REFUSED
        if isinstance(action, Score) and not self.confirm_zero(action):
            self.say(_("Not scored."))
            return Outcome.REFUSED
        return self.apply(action, ignored)

    def confirm_zero(self, action: Score) -> bool:
        """Asks once before a box takes a 0 (end of input: no); True for any other score."""
        state = self.view.state
        if zero_score_to_confirm(state, action) is None:
            return True  # points, or not a legal box now (the service says why)
        box = box_name(action.category)
        if state.rules.columns > 1:
            box += " " + _("(column {column})").format(column=action.column + 1)
        question = _("{box} would score 0. Score it anyway? [y/N] ").format(box=box)
        return is_yes(self.ask(question))

    def _saved(self, change: Callable[[], GameView], refusal: Callable[[str], str]) -> bool:
        """Makes `change` (an action or undo the service saves) the current view; True when it
        was refused: a stale version (the saved game is shown), a failed save (retry), or a
        rule (said by `refusal` from the reason in words)."""
        try:
            self.view = change()
        except StaleVersionError:
            self.view = self.service.load(self.game_id)
            self.say(changed_elsewhere_text())
            self.new_turn = True
            return True
        except StoreError as error:
            if not error.retryable:
                raise
            self.not_saved(error)
            return True
        except FivediceError as error:
            self.say(refusal(error_text(error)))
            return True
        return False

    def apply(self, action: Action, ignored: tuple[int, ...] = ()) -> Outcome:
        """Saves the action and says what it did, once: a roll its dice and the boxes they
        score; a hold or release what is held now (after the dice it left alone); a score
        its points, what else it earned, and then the next turn's heading."""
        before = self.view.state
        refused = self._saved(
            lambda: self.service.apply_action(self.game_id, action, self.view.version),
            refused_text,
        )
        if refused:
            return Outcome.REFUSED
        after = self.view.state
        if isinstance(action, Score):
            self.say(move_sentence(None, action, before, after))
            self.say(*turn_news(None, before, after))  # an extra turn, saved rolls
            self.say(*match_progress_lines(before, after))
            self.new_turn = True
        elif isinstance(action, Hold | Release):
            if ignored:
                self.say(ignored_positions_text(ignored, hold=isinstance(action, Hold)))
            self.say(held_line(after))
        else:
            self.say(*dice_summary(after))
        return Outcome.ACTION

    def undo(self) -> Outcome:
        before = self.view.state
        refused = self._saved(
            lambda: self.service.undo(self.game_id, self.view.version), undo_refused_text
        )
        if refused:
            return Outcome.REFUSED
        self.say(_("Your last action is taken back."))
        after = self.view.state
        if (before.game_number, before.current_seat, before.turn_number) != (
            after.game_number,
            after.current_seat,
            after.turn_number,
        ):
            self.new_turn = True
        else:
            self.say(*dice_summary(after))
        return Outcome.ACTION

    def set_goal(self, goal: str) -> Outcome:
        """`goal 300`, `goal beat Ann`: the hints then play for that total; `goal off`."""
        goal = goal.strip()
        if goal.casefold() in GOAL_OFF_WORDS:
            self.goal = None
            self.say(goal_cleared_text())
            return Outcome.INFO
        if not goal:
            self.say(goal_help_text())
            return Outcome.INFO
        try:
            total = goal_total(self.view.state, goal)
        except HintsUnavailableError as error:
            self.say(refused_text(error_text(error)))
            return Outcome.REFUSED
        self.goal = goal
        self.say(goal_set_text(total))
        return Outcome.INFO

    @staticmethod
    def _option_text(option: Hint, state: GameState) -> str:
        """An option with what to type for it: "keep 3 3 (type: release 1 2; hold 3 5)",
        the commands taking the dice from what is held now to exactly the keep."""
        text = choice_text(option.keep, option.category, option.column)
        commands = keep_commands(option, state)
        if commands:
            text += " " + _("(type: {commands})").format(commands="; ".join(commands))
        return text

    def hint(self) -> None:
        """The coach's best options for the dice now, through the service (for the goal, if
        one is set)."""
        state = self.view.state
        try:
            options = self.service.hint(self.game_id, explain=True, goal=self.goal)
        except (HintsUnavailableError, SolveNotAllowedError) as error:
            self.say(_("No hint: {reason}").format(reason=error_text(error)))
            return
        if not options:
            self.say(_("No hint: {reason}").format(reason=_("there is nothing to choose")))
            return
        goal = options[0].goal
        if goal is not None:
            self.say(goal_heading(goal))
            for number, option in enumerate(options[:HINT_OPTIONS], start=1):
                line = _("{number}. {option}: {value}").format(
                    number=number,
                    option=self._option_text(option, state),
                    value=goal_value_text(option.value),
                )
                self.say(f"  {line}")
            return
        estimate = any(option.estimate for option in options)
        self.say(
            _("The coach's best options (estimated points still to come):")
            if estimate
            else _("The coach's best options (expected points still to come):")
        )
        for number, option in enumerate(options[:HINT_OPTIONS], start=1):
            text = self._option_text(option, state)
            value = formats.number(option.value, 1)
            loss = f" (\u2212{formats.number(option.loss, 1)})" if option.loss >= 0.05 else ""
            line = _("{number}. {option}: {value}").format(
                number=number, option=text, value=("≈" if option.estimate else "") + value
            )
            self.say(f"  {line}{loss}")
        self.say(*why_lines(state.rules, options))

    def why(self) -> None:
        """Why the coach's best option beats the next ones, box by box, and its chances this
        turn (the hint's reasons, at more length)."""
        state = self.view.state
        try:
            options = self.service.hint(self.game_id, explain=True)
        except (HintsUnavailableError, SolveNotAllowedError) as error:
            self.say(_("No hint: {reason}").format(reason=error_text(error)))
            return
        if not options:
            self.say(_("No hint: {reason}").format(reason=_("there is nothing to choose")))
            return
        rules, best = state.rules, options[0]
        lines = [why_text(rules, best, other) for other in options[1 : 1 + WHY_OPTIONS]]
        lines.append(chance_text(rules, best, limit=6))
        said = [line for line in lines if line is not None]
        if not said:  # estimates without a breakdown (Maxi Yatzy), or a single option
            said = why_lines(rules, options)
        self.say(*said)


def show_lines(state: GameState) -> list[str]:
    """The card of the seat to move, its open boxes with what the dice would score there
    ("- (25)"), after the other seats' totals."""
    rules = state.rules
    seat = state.current_seat
    lines = [
        "== "
        + _("{name}: {total}").format(name=other.name, total=state.cards[index].total(rules))
        + " =="
        for index, other in enumerate(state.seats)
        if index != seat
    ]
    if len(state.seats) > 1:
        lines.append(f"== {state.seats[seat].name} ==")
    previews = {(p.column, p.category): p.points for p in state.placements()}
    lines.extend(card_lines(rules, state.cards[seat], previews))
    return lines


def end_lines(view: GameView) -> list[str]:
    """The end of the match: the standings (the cards are one `fivedice replay` away), and
    how to check the dice when they can be."""
    state = view.state
    lines = [_("Game over.")]
    if state.settings.match_length > 1:
        lines.append(_("Match totals:"))
    lines.extend(ranking_lines(state))
    if view.dice_commitment is not None and view.server_seed is not None:
        lines.append(verify_later_line(view.game_id))
    return lines


def dice_lines(view: GameView) -> list[str]:
    """Where the game's dice come from: the commitment to check them by, or a practice seed."""
    if view.dice_commitment is None:
        return [
            _(
                "This game's dice come from a seed known in advance (a practice game, or one"
                " saved before verifiable dice): they cannot be verified."
            )
        ]
    lines = [_("Dice commitment: {commitment}").format(commitment=view.dice_commitment)]
    if view.server_seed is not None:
        lines.append(_("Server seed (revealed): {seed}").format(seed=view.server_seed))
    else:
        lines.append(
            _(
                "It is the SHA-256 of a secret server seed, revealed when the game ends; then"
                " 'fivedice export {id}' and 'fivedice verify' check every roll."
            ).format(id=view.game_id)
        )
    return lines


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
    client_seeds: list[str] | None = None,
) -> int:
    """Plays a saved game on text streams; returns the exit status (0 when input ends cleanly).

    Raises:
        FivediceError: bad settings, or the database cannot be used (the message says why).
    """

    say = partial(write_lines, stdout)
    reader = LineReader(stdin)
    resuming = resume or resume_game is not None
    settings = None if resuming else build_settings(rules, players, cpus, first, games)
    service = GameService.open(db, cpu_factory=cpu_factory)
    if not resuming:
        waiting = service.latest_unfinished()
        if waiting is not None:
            names = list_text(waiting.players)
            if reader.isatty():
                stdout.write(
                    _("Game {id} ({names}) is unfinished. Resume it? [y/N] ").format(
                        id=waiting.game_id, names=names
                    )
                )
                stdout.flush()
                if is_yes(reader.read()):
                    resume_game = waiting.game_id
            else:
                say(
                    _(
                        "Game {id} ({names}) is unfinished; "
                        "'fivedice play --plain --resume' continues it."
                    ).format(id=waiting.game_id, names=names)
                )
    view = open_game(
        service,
        settings,
        seed=seed,
        practice=practice,
        resume=resume,
        resume_game=resume_game,
        client_seeds=client_seeds or (),
    )
    if resume or resume_game is not None:
        say(resuming_line(view.game_id, view.version))
    else:
        say(_("Game {id}: every action is saved as you play.").format(id=view.game_id))
    if view.dice_commitment is not None:
        say(fair_dice_line())
    say(notation_text(view.state.rules), _("Type help (or ?) for every command."))
    if view.version == 0:  # a game not yet begun: say how its first player was chosen
        say(*opening_lines(view.state))
    return PlainSession(service, view, reader, stdout).run()
