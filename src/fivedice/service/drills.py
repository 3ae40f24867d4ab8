"""Drills ("Practice"): positions from the player's own costliest decisions, and a built-in
set of classic teaching positions, as puzzles, with spaced repetition.

**Where positions come from.** The player's finished games (for the local user: every human
seat that no browser holds; for a web visitor: the seats their browser session held) are
reviewed as `fivedice review` does; from each game the `PER_GAME` costliest decisions that
lost at least `MIN_LOSS` expected points become positions (the same position met twice is
one drill). Only games with an exact advisor are used (one column, five dice): with several
columns, or Maxi Yatzy, the best move is an estimate, and a drill must have one right answer.
For newcomers there is `BUILTIN`: classic teaching positions whose best moves are the
advisor's (a test checks each against the solved table).

**The schedule** (a Leitner scheme with two boxes, counted in answers rather than days):

* a position is **mastered**, and never shown again, once answered right `MASTERED` (2)
  times in a row;
* a **miss** puts it back to the start: it comes back after `AFTER_MISS` (3) other answers;
* a **right** answer short of mastery brings it back after `AFTER_RIGHT` (8) other answers;
* what comes next: a position that is due (its turn has come; the longest due first); else
  a new one (the player's own, costliest first, then the built-in ones in order); else the
  waiting position due soonest (so a missed one is never lost when little else is left).

The clock is the owner's number of answers, kept in the store, so a position missed at the
end of one session is still due a few answers into the next. Progress is kept per owner, as
the tutorial's (`LOCAL` for the command line and terminal app, a browser session's key on
the web), in its own tables: drills never write games, actions, results or statistics.

A drill's answer is given as in a game: the dice to hold (`hold 1 3`, or `1 3`), `roll`
(hold nothing), or `score` and a box (`score chance`, `s full house`, a box's name in the
player's language). It is right when it loses nothing against the advisor's best.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from fivedice.core.actions import Action, Hold, Roll, Score, parse_action
from fivedice.core.card import Column, ScoreCard
from fivedice.core.errors import N_, FivediceError, IllegalActionError, MalformedActionError
from fivedice.core.game import GameSettings, GameState, Seat, Turn, apply
from fivedice.core.rules import RuleSet, find_ruleset
from fivedice.service.errors import HintsUnavailableError
from fivedice.service.review import replay_in_effect
from fivedice.service.saved import SavedGames
from fivedice.store.drills import DrillBook, DrillRow, DrillStore, NewDrill
from fivedice.store.tutorial_progress import LOCAL
from fivedice.strategy.hints import Hint, find_hint
from fivedice.strategy.limits import is_supported, waiting_at_most
from fivedice.wording.boxes import parse_score_words

__all__ = [
    "AFTER_MISS",
    "AFTER_RIGHT",
    "BUILTIN",
    "MASTERED",
    "MIN_LOSS",
    "PER_GAME",
    "BuiltinPosition",
    "Drill",
    "DrillError",
    "DrillProgress",
    "DrillResult",
    "Drills",
    "Position",
    "parse_answer",
    "pick_next",
    "reschedule",
]

MASTERED = 2
"""Right answers in a row that retire a position."""
AFTER_MISS = 3
"""Other answers before a missed position comes back."""
AFTER_RIGHT = 8
"""Other answers before a position answered right (not yet mastered) comes back."""
MIN_LOSS = 0.5
"""Expected points a decision must have lost to become a drill."""
PER_GAME = 5
"""At most this many of each game's costliest decisions become drills."""
GAMES_PER_LOOK = 20
"""At most this many new finished games are reviewed at once: the newest (about 30 ms each,
older ones not looked at yet are passed over, so a page never waits long)."""
RIGHT_TOLERANCE = 1e-9
"""An answer losing less than this (in expected points) is right (a tie with the best)."""
MAX_ANSWER = 100
"""The longest answer read (as the plain mode's longest command)."""
BUILTIN_PREFIX = "builtin:"


class DrillError(FivediceError):
    """A drill that cannot be shown or answered (unknown, or no longer in the book)."""


@dataclass(frozen=True)
class Position:
    """A decision to practise: a one-column card, the dice showing and the rolls left.

    >>> position = Position(find_ruleset("classic"), Column(), (6, 6, 6, 2, 3), 2)
    >>> position.kind, Position.from_json(position.to_json()) == position
    ('keep', True)
    """

    rules: RuleSet
    column: Column
    dice: tuple[int, ...]
    rolls_left: int

    @property
    def kind(self) -> str:
        """ "keep" (rolls are left: what would you keep?) or "box" (which box?)."""
        return "keep" if self.rolls_left > 0 else "box"

    def state(self) -> GameState:
        """The position as a one-seat game state, no die held (the core checks answers)."""
        settings = GameSettings(seats=(Seat("Player"),), rules=self.rules)
        turn = Turn(
            seat=0,
            dice=self.dice,
            held=(False,) * len(self.dice),
            rolls_used=self.rules.rolls_per_turn - self.rolls_left,
        )
        return GameState(settings, (ScoreCard((self.column,)),), turn)

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.settings(),
            "scores": list(self.column.scores),
            "extra_yahtzees": self.column.extra_yahtzees,
            "dice": list(self.dice),
            "rolls_left": self.rolls_left,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Position:
        """The position `to_json` wrote.

        Raises:
            ValueError (a FivediceError among them), KeyError, TypeError: not a position.
        """
        rules = RuleSet().with_settings(data["rules"])
        scores = tuple(None if s is None else int(s) for s in data["scores"])
        column = replace(
            Column.empty(rules), scores=scores, extra_yahtzees=int(data["extra_yahtzees"])
        )
        dice = tuple(int(d) for d in data["dice"])
        rolls_left = int(data["rolls_left"])
        if len(dice) != rules.dice or not all(1 <= d <= 6 for d in dice):
            raise ValueError(f"not the dice of a drill: {dice!r}")
        if not 0 <= rolls_left < rules.rolls_per_turn or column.is_complete:
            raise ValueError(f"not a decision: {rolls_left} rolls left")
        return cls(rules, column, dice, rolls_left)

    @property
    def key(self) -> str:
        """The same position (dice in any order) always has the same key."""
        same = self.to_json() | {"dice": sorted(self.dice)}
        digest = hashlib.sha256(json.dumps(same, sort_keys=True).encode()).hexdigest()
        return "pos:" + digest[:24]


@dataclass(frozen=True)
class BuiltinPosition:
    """A classic teaching position: its title (a message id) and the advisor's best move."""

    name: str
    title: str
    scores: dict[str, int]
    dice: tuple[int, ...]
    rolls_left: int
    best: str
    """The advisor's best, in the hints' notation ("keep 6 6 6", "score full_house")."""

    def position(self) -> Position:
        rules = find_ruleset("classic")
        return Position(rules, Column.from_scores(rules, self.scores), self.dice, self.rolls_left)


_LATE = {
    "ones": 2,
    "twos": 6,
    "threes": 9,
    "three_of_a_kind": 20,
    "full_house": 25,
    "small_straight": 30,
    "large_straight": 40,
    "yahtzee": 50,
    "chance": 22,
}

BUILTIN: tuple[BuiltinPosition, ...] = (
    BuiltinPosition(
        "three-sixes",
        N_("Three of a kind early: keep them and roll two"),
        {},
        (6, 2, 6, 3, 6),
        2,
        "keep 6 6 6",
    ),
    BuiltinPosition(
        "four-in-a-row",
        N_("Four in a row: keep the run, not the pair"),
        {},
        (5, 3, 2, 5, 4),
        2,
        "keep 2 3 4 5",
    ),
    BuiltinPosition(
        "two-pairs",
        N_("Two pairs early: keep only the higher pair"),
        {},
        (1, 5, 6, 1, 5),
        2,
        "keep 5 5",
    ),
    BuiltinPosition(
        "four-of-a-kind",
        N_("Four of a kind: go for the Yahtzee"),
        {},
        (4, 4, 2, 4, 4),
        2,
        "keep 4 4 4 4",
    ),
    BuiltinPosition(
        "full-house-early",
        N_("A full house with two rolls left: keep the three"),
        {},
        (3, 5, 3, 5, 3),
        2,
        "keep 3 3 3",
    ),
    BuiltinPosition(
        "full-house-last",
        N_("A full house on the last roll: take it"),
        {},
        (3, 5, 3, 5, 3),
        0,
        "score full_house",
    ),
    BuiltinPosition(
        "large-straight",
        N_("A large straight: score it at once"),
        {},
        (3, 1, 5, 2, 4),
        2,
        "score large_straight",
    ),
    BuiltinPosition(
        "inside-straight",
        N_("One roll left: keep the four in a row"),
        {},
        (6, 1, 4, 3, 5),
        1,
        "keep 3 4 5 6",
    ),
    BuiltinPosition(
        "nothing-last",
        N_("Nothing on the last roll: Ones, not Chance"),
        {},
        (4, 1, 6, 2, 1),
        0,
        "score ones",
    ),
    BuiltinPosition(
        "cheapest-zero",
        N_("Late in the game: a zero where it costs least"),
        _LATE,
        (2, 5, 1, 6, 2),
        0,
        "score four_of_a_kind",
    ),
)
"""The classic teaching positions, in the order a newcomer meets them."""


def builtin_position(key: str) -> BuiltinPosition | None:
    """The built-in position of a drill key ("builtin:three-sixes"), or None."""
    name = key.removeprefix(BUILTIN_PREFIX) if key.startswith(BUILTIN_PREFIX) else None
    return next((item for item in BUILTIN if item.name == name), None)


@dataclass(frozen=True)
class Drill:
    """A position to practise, with where it comes from and where it stands.

    Attributes:
        key: its key among the owner's drills.
        position: the card, the dice and the rolls left.
        title: a built-in position's title (a message id; "" for the player's own).
        game_id, turn: the game and turn it was met in (None for a built-in one).
        played, lost: what the player chose then, and the expected points it lost.
        right_in_a_row, times_answered, times_missed: the schedule's counts.
    """

    key: str
    position: Position
    title: str
    game_id: int | None
    turn: int | None
    played: str | None
    lost: float | None
    right_in_a_row: int
    times_answered: int
    times_missed: int

    @property
    def mastered(self) -> bool:
        return self.right_in_a_row >= MASTERED


@dataclass(frozen=True)
class DrillResult:
    """An answer judged: the option chosen, the best, the loss and the ranked options.

    Attributes:
        drill: the drill after the answer (its counts updated).
        answer: the advisor's option the answer is.
        best: the best option (the answer itself when it ties with the best).
        loss: expected points the answer loses (0 when right).
        right: the answer loses nothing.
        options: every option, best first.
        comes_back_after: other answers before it comes again (None: mastered).
    """

    drill: Drill
    answer: Hint
    best: Hint
    loss: float
    right: bool
    options: tuple[Hint, ...]
    comes_back_after: int | None


@dataclass(frozen=True)
class DrillProgress:
    """How far an owner is: positions in all, mastered, waiting (answered, not yet mastered),
    new (never answered), and how many of all are the player's own."""

    total: int
    mastered: int
    waiting: int
    new: int
    own: int


def reschedule(row: DrillRow, clock: int, right: bool) -> tuple[int, int]:
    """The schedule (see the module): (right answers in a row, due) after an answer given
    when the owner's clock reached `clock`.

    >>> row = DrillRow("k", "{}", 0, None, None, 1, 1, 0, 9)
    >>> reschedule(row, 10, False), reschedule(row, 10, True)[0]
    ((0, 13), 2)
    """
    if not right:
        return 0, clock + AFTER_MISS
    return row.right_in_a_row + 1, clock + AFTER_RIGHT


def _new_order(row: DrillRow) -> tuple[int, float, str]:
    """New positions: the player's own first, costliest first; then the built-in ones."""
    return (row.rank, -(row.source_loss or 0.0), row.key)


def pick_next(rows: Iterable[DrillRow], clock: int, *, leave_out: str | None = None) -> str | None:
    """The key of the drill to show next (the schedule in the module's docstring), or None
    when every position is mastered. `leave_out`: a key not to show now unless it is the
    only one left (the position just answered)."""
    active = [row for row in rows if row.right_in_a_row < MASTERED]
    if leave_out is not None and len(active) > 1:
        active = [row for row in active if row.key != leave_out]
    seen = [row for row in active if row.times_answered > 0]
    due = [row for row in seen if row.due <= clock]
    if due:
        return min(due, key=lambda row: (row.due, row.rank, row.key)).key
    new = [row for row in active if row.times_answered == 0]
    if new:
        return min(new, key=_new_order).key
    if seen:
        return min(seen, key=lambda row: (row.due, row.rank, row.key)).key
    return None


_VERBS = {"r": "roll", "roll": "roll", "hold": "hold", "s": "score", "score": "score"}


def parse_answer(text: str, rules: RuleSet) -> Action:
    """A drill's answer as in a game: die positions to hold (`hold 1 3`, `1 3`, `13`),
    `roll` (`r`; hold nothing) or `score` and a box (`s chance`, a box's name in the player's
    language too).

    >>> parse_answer("1 3", find_ruleset("classic"))
    Hold(positions=(1, 3))

    Raises:
        MalformedActionError: not an answer (the message says what one looks like).
    """
    words = text.split()
    if not words or len(text) > MAX_ANSWER:
        raise MalformedActionError(
            N_("answer with the dice to hold (hold 1 3), roll, or score and a box (score chance)")
        )
    joined = "".join(words).replace(",", "")
    if joined.isascii() and joined.isdigit():
        return parse_action(" ".join(["hold", *words]), rules.dice)
    verb = _VERBS.get(words[0].casefold())
    if verb is None:
        raise MalformedActionError(
            N_("answer with the dice to hold (hold 1 3), roll, or score and a box (score chance)")
        )
    if verb == "score":
        if len(words) < 2:
            raise MalformedActionError(N_("name a box to score, e.g. score chance"))
        return parse_score_words(" ".join(words[1:]), rules.boxes)
    return parse_action(" ".join([verb, *words[1:]]), rules.dice)


def _choice(position: Position, action: Action) -> tuple[tuple[int, ...] | None, Score | None]:
    """The keep or the box an answer chooses, checked by the core as a game checks it.

    Raises:
        ActionError: the answer is not a legal move here (the core's reason).
    """
    state = position.state()
    if isinstance(action, Score):
        apply(state, action)  # refuses a filled box, a column that is not there, ...
        return None, action
    if isinstance(action, Hold):
        return apply(state, action).turn.kept_values, None
    if isinstance(action, Roll):
        if position.rolls_left <= 0:
            raise IllegalActionError(N_("no rolls are left: choose a box to score"))
        return (), None
    raise MalformedActionError(
        N_("answer with the dice to hold (hold 1 3), roll, or score and a box (score chance)")
    )


def _position_json(position: Position, **origin: Any) -> str:
    return json.dumps(position.to_json() | ({"origin": origin} if origin else {}))


class Drills(SavedGames):
    """Drills from the player's own mistakes and the built-in positions (part of
    `GameService`). Every method takes the `owner` of the progress, as the tutorial's."""

    def drill_next(self, owner: str = LOCAL, *, after: str | None = None) -> Drill | None:
        """The drill to show now (None: every position is mastered); new finished games of
        the owner are looked at first. `after`: the drill just answered (shown again now
        only when it is the only one left).

        Raises:
            StoreUnavailableError, DatabaseDamagedError; HintsUnavailableError: no strategy
            layer (the player's games cannot be reviewed).
        """
        book = self._drill_book(owner)
        key = pick_next(book.rows, book.answers, leave_out=after)
        if key is None:
            return None
        return self._drill_of(next(row for row in book.rows if row.key == key))

    def drill(self, key: str, owner: str = LOCAL) -> Drill:
        """One of the owner's drills by its key.

        Raises:
            DrillError: the owner has no such drill.
        """
        book = DrillStore(self.store).book(owner)
        row = next((row for row in book.rows if row.key == key), None)
        if row is None:
            raise DrillError(N_("there is no drill {key!r}"), key=key[:60])
        return self._drill_of(row)

    def drill_progress(self, owner: str = LOCAL) -> DrillProgress:
        """How far the owner is (new finished games of the owner are looked at first)."""
        rows = self._drill_book(owner).rows
        mastered = sum(row.right_in_a_row >= MASTERED for row in rows)
        new = sum(row.times_answered == 0 for row in rows)
        own = sum(not row.key.startswith(BUILTIN_PREFIX) for row in rows)
        return DrillProgress(len(rows), mastered, len(rows) - mastered - new, new, own)

    def drill_options(self, position: Position) -> list[Hint]:
        """The advisor's options for a position, best first (exact: one column).

        Raises:
            HintsUnavailableError: no strategy layer here. SolverBusyError as a hint.
        """
        try:
            from fivedice.strategy.hints import exact_hints
            from fivedice.strategy.review import single_column_table
        except ImportError as error:
            raise HintsUnavailableError(
                N_("the strategy layer is not available: {reason}"), reason=str(error)
            ) from None
        with waiting_at_most(self.solve_wait):
            table = single_column_table(position.rules)
        return exact_hints(table, position.state())

    def drill_answer(self, key: str, text: str, owner: str = LOCAL) -> DrillResult:
        """Judges an answer to one of the owner's drills and reschedules the drill.

        A bad answer (not an answer, dice that are not there, a filled or unknown box)
        raises and changes nothing.

        Raises:
            DrillError: no such drill. MalformedActionError, IllegalActionError: a bad answer.
            StoreUnavailableError: nothing was recorded (the same answer may be sent again).
        """
        drill = self.drill(key, owner)
        action = parse_answer(text, drill.position.rules)
        keep, score = _choice(drill.position, action)
        options = self.drill_options(drill.position)
        if score is not None:
            chosen = find_hint(options, category=score.category)
        else:
            chosen = find_hint(options, keep=keep)
        if chosen is None:  # the core allowed it, so the advisor lists it: never expected
            raise DrillError(N_("there is no drill {key!r}"), key=key[:60])
        loss = max(float(chosen.loss), 0.0)
        right = loss < RIGHT_TOLERANCE
        best = chosen if right else options[0]
        row = DrillStore(self.store).answered(owner, key, right, reschedule)
        after = self._drill_of(row)
        comes_back = None if after.mastered else (AFTER_RIGHT if right else AFTER_MISS)
        return DrillResult(after, chosen, best, loss, right, tuple(options), comes_back)

    def drill_reset(self, owner: str = LOCAL) -> None:
        """Forgets the owner's drills (their games are looked at again next time)."""
        DrillStore(self.store).reset(owner)

    # -- the book ---------------------------------------------------------------------------

    def _drill_book(self, owner: str) -> DrillBook:
        """The owner's drills, with the built-in ones and the costliest decisions of the
        owner's finished games not looked at yet added first."""
        drills = DrillStore(self.store)
        book = drills.book(owner)
        have = {row.key for row in book.rows}
        fresh = [
            NewDrill(BUILTIN_PREFIX + item.name, _position_json(item.position()), 1000 + index)
            for index, item in enumerate(BUILTIN)
            if BUILTIN_PREFIX + item.name not in have
        ]
        pairs = drills.owned_seats(owner, book.harvested_game)
        newest = max((game for game, _seat in pairs), default=book.harvested_game)
        games = sorted({game for game, _seat in pairs})[-GAMES_PER_LOOK:]
        for game_id in games:
            seats = {seat for game, seat in pairs if game == game_id}
            fresh.extend(drill for drill in self._mistakes(game_id, seats) if drill.key not in have)
        unique: dict[str, NewDrill] = {}  # the same position met twice: its costlier meeting
        for drill in fresh:
            kept = unique.get(drill.key)
            if kept is None or (drill.source_loss or 0.0) > (kept.source_loss or 0.0):
                unique[drill.key] = drill
        if unique or newest != book.harvested_game:
            drills.add(owner, list(unique.values()), newest)
            book = drills.book(owner)
        return book

    def _mistakes(self, game_id: int, seats: set[int]) -> list[NewDrill]:
        """The costliest decisions of these seats of a finished game, as new drills (none
        when the game has no exact advisor: several columns, six dice)."""
        try:
            record = self.store.load_game(game_id)
            rules = record.settings.rules
            if not rules.is_single_column or not is_supported(rules):
                return []
            from fivedice.strategy.review import review_game
        except ImportError as error:
            raise HintsUnavailableError(
                N_("the strategy layer is not available: {reason}"), reason=str(error)
            ) from None
        except FivediceError:  # a damaged game gives no drills; the review says why
            return []
        steps = list(replay_in_effect(record.states()))
        with waiting_at_most(self.solve_wait):
            review = review_game(iter(steps), game_id=game_id, status=record.status or "")
        found: list[NewDrill] = []
        for seat in sorted(seats):
            if seat >= len(review.seats):
                continue
            judged = zip(review.seats[seat].decisions, _decision_states(steps, seat), strict=True)
            costly = [pair for pair in judged if pair[0].loss >= MIN_LOSS]
            costly.sort(key=lambda pair: -pair[0].loss)
            for decision, state in costly[:PER_GAME]:
                position = Position(
                    rules, state.cards[seat].columns[0], decision.dice, decision.rolls_left
                )
                origin = {"game": game_id, "turn": decision.turn}
                found.append(
                    NewDrill(
                        position.key,
                        _position_json(position, **origin),
                        0,
                        decision.loss,
                        decision.chosen.label,
                    )
                )
        return found

    def _drill_of(self, row: DrillRow) -> Drill:
        """The drill a stored row holds.

        Raises:
            DrillError: the row's position cannot be read.
        """
        try:
            data = json.loads(row.position_json)
            position = Position.from_json(data)
            origin = data.get("origin") or {}
            game_id = origin.get("game")
            turn = origin.get("turn")
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
            raise DrillError(N_("there is no drill {key!r}"), key=row.key[:60]) from None
        builtin = builtin_position(row.key)
        return Drill(
            row.key,
            position,
            builtin.title if builtin is not None else "",
            game_id if isinstance(game_id, int) else None,
            turn if isinstance(turn, int) else None,
            row.source_choice,
            row.source_loss,
            row.right_in_a_row,
            row.times_answered,
            row.times_missed,
        )


def _decision_states(steps: Sequence[tuple[str | None, GameState]], seat: int) -> list[GameState]:
    """The states in which `seat` made its decisions, in the order the review judges them
    (`fivedice.strategy.review.review_game`: a roll with dice showing, or a box)."""
    found: list[GameState] = []
    state = steps[0][1]
    for notation, after in steps[1:]:
        before, state = state, after
        if notation is None or before.dice is None:
            continue
        action = parse_action(notation)
        if isinstance(action, Roll | Score) and before.current_seat == seat:
            found.append(before)
    return found
