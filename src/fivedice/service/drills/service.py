"""Drills as the front ends use them (part of `GameService`): the owner's book of positions,
filled from their new finished games, the next position, an answer judged and recorded.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from fivedice.core.actions import Roll, Score, parse_action
from fivedice.core.errors import N_, FivediceError
from fivedice.core.game import GameState
from fivedice.service.coach import state_hints
from fivedice.service.drills.answers import chosen_move, parse_answer
from fivedice.service.drills.positions import (
    BUILTIN,
    BUILTIN_PREFIX,
    DrillError,
    Position,
    builtin_position,
    position_json,
)
from fivedice.service.drills.schedule import (
    AFTER_MISS,
    AFTER_RIGHT,
    MASTERED,
    pick_next,
    reschedule,
)
from fivedice.service.errors import HintsUnavailableError
from fivedice.service.review import replay_in_effect
from fivedice.service.saved import SavedGames
from fivedice.store import DatabaseDamagedError, GameNotFoundError, StoreError
from fivedice.store.drills import DrillBook, DrillRow, DrillStore, NewDrill
from fivedice.store.tutorial_progress import LOCAL
from fivedice.strategy.hints import Hint, find_hint
from fivedice.strategy.limits import (
    SolverBusyError,
    check_supported,
    is_supported,
    waiting_at_most,
)

MIN_LOSS = 0.5
"""Expected points a decision must have lost to become a drill."""
PER_GAME = 5
"""At most this many of each game's costliest decisions become drills."""
GAMES_PER_LOOK = 20
"""At most this many new finished games are reviewed at once: the newest (about 30 ms each,
older ones not looked at yet are passed over, so a page never waits long)."""
RIGHT_TOLERANCE = 1e-9
"""An answer losing less than this (in expected points) is right (a tie with the best)."""


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

    def drill_options(self, position: Position, explain: bool | None = True) -> list[Hint]:
        """The advisor's options for a position, best first (exact: one column), with their
        breakdown (`Hint.parts`, `Hint.chances`: the reasons) as `explain` asks
        (`fivedice.service.coach.state_hints`: True computes it if needed, None only if it
        is at hand, as a web page asks).

        Raises:
            HintsUnavailableError: no strategy layer here. SolverBusyError as a hint.
        """
        return state_hints(position.state(), self.solve_wait, explain=explain)

    def drill_answer(
        self, key: str, text: str, owner: str = LOCAL, *, explain: bool | None = True
    ) -> DrillResult:
        """Judges an answer to one of the owner's drills and reschedules the drill.

        A bad answer (not an answer, dice that are not there, a filled or unknown box)
        raises and changes nothing.

        Raises:
            DrillError: no such drill. MalformedActionError, IllegalActionError: a bad answer.
            StoreUnavailableError: nothing was recorded (the same answer may be sent again).
            `explain`: the options' breakdown, for the reasons (see `drill_options`).
        """
        drill = self.drill(key, owner)
        action = parse_answer(text, drill.position.rules)
        keep, score = chosen_move(drill.position, action)
        options = self.drill_options(drill.position, explain)
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
            NewDrill(BUILTIN_PREFIX + item.name, position_json(item.position()), 1000 + index)
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
            check_supported(rules)  # rules this process may not solve give none either
            from fivedice.strategy.review import review_game

            steps = list(replay_in_effect(record.states()))
            with waiting_at_most(self.solve_wait):
                review = review_game(iter(steps), game_id=game_id, status=record.status or "")
        except ImportError as error:
            raise HintsUnavailableError(
                N_("the strategy layer is not available: {reason}"), reason=str(error)
            ) from None
        except (StoreError, SolverBusyError) as error:
            if isinstance(error, DatabaseDamagedError | GameNotFoundError):
                return []  # a damaged (or deleted) game gives no drills; `review` says why
            raise  # the database or the solver is busy: nothing is recorded, try again
        except FivediceError:  # a log no review can judge, rules that may not be solved here
            return []
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
                        position_json(position, **origin),
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
