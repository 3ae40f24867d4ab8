"""Who may do what with a seat: the one rights policy of the API and the pages alike.

`seat_refusal(right, facts)` is a pure function like `undo_refusal`: the facts a front end
found (who asks, which seat, the game's state) in, the reason it is refused (or None) out.
Proving who asks - a seat token, a browser session, a room's host key - stays the front
end's part; what that proof allows is decided here only.

The rights:

- **act**: play the seat's moves (its turn is `turn_refusal`'s): only a holder of the seat,
  never the host in a friend's claimed seat, never anyone in a CPU's seat.
- **set_seed**: give the seat's own dice seed, before the start: only the seat's own device
  (the host holds their own and pass-and-play seats; never a friend's).
- **hand_over**: give a person's seat to a CPU: only the host, only to a level of
  `HAND_OVER_LEVELS`, and only between that seat's turns (not once it has rolled in its
  turn: a CPU would take the decision on the player's dice).
- **leave**: a player who is not the host gives their own seat to a CPU and goes; any time
  (it is their own choice: the CPU plays on from their dice).
- **abandon**: end the game for everyone (and keep it out of the statistics): a holder of
  one of its seats when nobody else plays in it; in a game with other people, the host only
  (the others leave) - in a game made without a room (over the API), its creator, who holds
  every person's seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from fivedice.core.errors import N_, FivediceError
from fivedice.core.game import SettingsError
from fivedice.store import GameClosedError

HAND_OVER_LEVELS: tuple[str, ...] = ("beginner", "casual", "guide", "strong", "expert")
"""The CPU levels a person's seat may be handed to (pages and API alike): every level but
`master`, whose every move is a long solve - a seat handed over mid-game plays at once."""

PERSON_KINDS = frozenset({"me", "local", "friend", "open"})
"""The kinds of seats a person plays (the others: "cpu")."""


class Right(StrEnum):
    """What someone asks to do with a seat or a game."""

    ACT = "act"
    SET_SEED = "set_seed"
    HAND_OVER = "hand_over"
    LEAVE = "leave"
    ABANDON = "abandon"


class SeatRightError(FivediceError):
    """Someone asked for what their seat does not allow (another's seat, not the host)."""


@dataclass(frozen=True)
class SeatFacts:
    """What a right depends on, as the front end found it.

    Attributes:
        is_host: the asker is the room's host (a game made without a room: its creator,
            who holds every person's seat of it).
        holds_seat: the asker holds the seat in question (abandon: any seat of the game).
        seat_kind: that seat's kind: me | local | friend | open (people), or cpu.
        others_play: people other than the asker hold seats of the game.
        started: the game exists (a room's game was started; always, without a room).
        over: the game is finished or abandoned.
        mid_turn: it is that seat's turn and it has rolled in it.
        level: the CPU level asked for (hand-over, leave), or None.
    """

    is_host: bool
    holds_seat: bool
    seat_kind: str
    others_play: bool = False
    started: bool = True
    over: bool = False
    mid_turn: bool = False
    level: str | None = None


def seat_refusal(right: Right, facts: SeatFacts) -> FivediceError | None:
    """Why `right` is refused given `facts` (None: it is granted).

    >>> seat_refusal(Right.ACT, SeatFacts(is_host=True, holds_seat=False, seat_kind="friend"))
    SeatRightError('you do not hold this seat')
    >>> seat_refusal(Right.ABANDON, SeatFacts(is_host=True, holds_seat=True, seat_kind="me",
    ...                                       others_play=True)) is None
    True
    """
    if right is Right.SET_SEED:
        if facts.started:
            return SeatRightError(
                N_("the game has started: its dice are fixed, so a seed can no longer be added")
            )
        if facts.seat_kind not in PERSON_KINDS:
            return SeatRightError(N_("a CPU's seat takes no seed"))
        if not facts.holds_seat:
            return SeatRightError(N_("only the seat's own device sets its dice seed"))
        return None
    if facts.over:
        return GameClosedError(N_("the game is over; nobody is to move"))
    if right is Right.ABANDON:
        if not facts.holds_seat:
            return SeatRightError(N_("you hold no seat of this game"))
        if facts.others_play and not facts.is_host:
            return SeatRightError(
                N_("only the host abandons a game that others play; you may leave it")
            )
        return None
    if facts.seat_kind not in PERSON_KINDS:
        return SeatRightError(N_("a CPU plays this seat"))
    if right is Right.ACT:
        return None if facts.holds_seat else SeatRightError(N_("you do not hold this seat"))
    if right is Right.LEAVE:
        if facts.is_host:
            return SeatRightError(
                N_("the host does not leave: hand your seat to a CPU, or abandon the game")
            )
        if not facts.holds_seat:
            return SeatRightError(N_("you do not hold this seat"))
    else:  # Right.HAND_OVER
        if not facts.is_host:
            return SeatRightError(N_("only the host hands a seat to a CPU"))
        if facts.mid_turn:
            return SeatRightError(
                N_("this seat has rolled in its turn: hand it over once the turn is scored")
            )
    if facts.level not in HAND_OVER_LEVELS:
        return SettingsError(
            N_("a seat is handed to a CPU of one of these levels: {levels}; not {level!r}"),
            levels=", ".join(HAND_OVER_LEVELS),
            level=facts.level,
        )
    return None
