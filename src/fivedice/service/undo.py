"""When an undo is allowed: one policy, one pure function (`undo_refusal`)."""

from __future__ import annotations

from collections.abc import Collection

from fivedice.core.actions import Roll, parse_action
from fivedice.core.errors import N_
from fivedice.core.game import GameKind
from fivedice.core.record import UNDO, UndoTarget
from fivedice.service.errors import UndoRefusedError
from fivedice.store import IN_PROGRESS, GameRecord

TABLE_KIND = GameKind.TABLE.value
"""The `kind` of a table (score-keeper) game: there any action in effect may be taken back."""


def undo_refusal(
    record: GameRecord,
    target: UndoTarget | None,
    *,
    table: bool = False,
    by_seats: Collection[int] | None = None,
) -> UndoRefusedError | None:
    """Why an undo is not allowed now (None: it is). The one place the undo policy lives.

    Undo is offered where it cannot be abused:

    - in solo games (one seat) and practice games; never in other games with several seats,
      whose results count against other players;
    - for the last action only (an undo right after an undo is refused), and only if a human
      seat made it and it is not a roll (taking back a roll would be a free re-roll);
    - only by whoever holds the seat that made it (`by_seats`): never another player's
      action, in any kind of game - practice rooms and table games alike;
    - never once the game is over, nor for the score that ended a game of a match (its
      result is recorded).

    Table games (`table=True`, a game whose kind is `TABLE_KIND`) keep score for dice rolled
    at a real table: there any action still in effect may be taken back, one after another,
    as long as it did not end a game.

    Args:
        record: the game's saved record (settings, practice flag, status, log).
        target: `record.undo_target()`: what an undo would take back now.
        table: whether the game is a table game.
        by_seats: the seats the asker holds (None: every seat, a game on this device).
    """
    if record.status not in (None, IN_PROGRESS):
        return UndoRefusedError(N_("the game is over; nothing can be taken back"))
    if target is None:
        return UndoRefusedError(N_("there is nothing to take back yet"))
    if target.finished_a_game:
        return UndoRefusedError(
            N_("that score ended a game and its result is recorded; it cannot be taken back")
        )
    seats = record.settings.seats
    if by_seats is not None and target.entry.seat not in by_seats:
        seat = seats[target.entry.seat]
        return UndoRefusedError(
            N_("the last action was {name}'s; only your own can be taken back"), name=seat.name
        )
    if table:
        return None
    if len(seats) > 1 and not record.practice:
        return UndoRefusedError(
            N_("undo is offered in solo and practice games only, not in games against others")
        )
    if target.follows_undo:
        return UndoRefusedError(N_("only the last action can be taken back, and only once"))
    seat = seats[target.entry.seat]
    if seat.is_cpu:
        return UndoRefusedError(
            N_("the last action was {name}'s; only your own can be taken back"), name=seat.name
        )
    if isinstance(parse_action(target.entry.action, None), Roll):
        return UndoRefusedError(N_("a roll cannot be taken back (that would be a free re-roll)"))
    return None


def is_undo(action: object) -> bool:
    """Whether an action (or its notation) asks for an undo."""
    return isinstance(action, str) and action.strip().lower() == UNDO


def is_table_game(record: GameRecord) -> bool:
    # The kind is part of the game's settings (`games.kind` in the store).
    return record.settings.kind.value == TABLE_KIND
