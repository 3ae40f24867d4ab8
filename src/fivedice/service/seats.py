"""Seats and their rights: whose turn it is, and a person's seat handed to a CPU.

The policies are pure functions like `undo_refusal`, each returning the reason or None:
`turn_refusal` (may this seat act now), `hand_over_refusal` (may this seat go to a CPU at
all) and the rights policy `fivedice.service.rights.seat_refusal` (who may act, set a seed,
hand over, leave, abandon), whose facts `game_facts` gathers from a game and its room;
`hand_to_cpu` is the use case that applies them and saves the change. Proving which seat a
caller holds (tokens, sessions) is the front end's part.
"""

from __future__ import annotations

from collections.abc import Collection

from fivedice.core.errors import N_, FivediceError
from fivedice.core.game import SettingsError
from fivedice.service.games import GameService, GameView, check_cpu_seats
from fivedice.service.rights import Right, SeatFacts, seat_refusal
from fivedice.service.rooms import RoomService
from fivedice.store import GameClosedError
from fivedice.store.rooms import Room
from fivedice.strategy.levels import check_level


class NotYourTurnError(FivediceError):
    """A seat that may not act now: another seat (perhaps a CPU) is to move."""


def turn_refusal(view: GameView, seat: int) -> GameClosedError | NotYourTurnError | None:
    """Why seat `seat` may not act in this game now (None: it is to move)."""
    if view.is_over:
        return GameClosedError(N_("the game is {status}; nobody is to move"), status=view.status)
    state = view.state
    if seat != state.current_seat:
        mover = state.seats[state.current_seat]
        return NotYourTurnError(
            N_("it is {mover}'s turn, not {name}'s (seat {seat})"),
            mover=f"{mover.name} (CPU)" if mover.is_cpu else mover.name,
            name=state.seats[seat].name,
            seat=seat,
        )
    return None


def hand_over_refusal(view: GameView, seat: int) -> FivediceError | None:
    """Why seat `seat` of this game may not be handed to a CPU now, whoever asks (None: it
    may): the game is over, or the seat is not a person's."""
    if view.is_over:
        return GameClosedError(N_("the game is {status}; nobody is to move"), status=view.status)
    if not 0 <= seat < len(view.state.seats) or view.state.seats[seat].is_cpu:
        return SettingsError(N_("seat {seat} is not a person's seat"), seat=seat)
    return None


def is_mid_turn(view: GameView, seat: int) -> bool:
    """Whether it is `seat`'s turn and it has rolled in it (a hand-over waits then)."""
    state = view.state
    return not view.is_over and state.current_seat == seat and state.turn.rolls_used > 0


def game_facts(
    view: GameView,
    room: Room | None,
    *,
    held: Collection[int],
    is_host: bool,
    seat: int | None = None,
    level: str | None = None,
) -> SeatFacts:
    """The facts of `seat_refusal` for someone who holds the game seats `held` (and is the
    room's host, or not) asking about game seat `seat` (None: the game as a whole).

    A game made without a room has no host: its creator is whoever holds every person's
    seat of it (the creator was given every seat's token; a seat token handed to someone
    else gives them that seat, not the game).
    """
    seats = view.state.seats
    kind = "cpu"
    if seat is not None and 0 <= seat < len(seats) and not seats[seat].is_cpu:
        kind = next((s.kind for s in (room.seats if room else ()) if s.game_seat == seat), "me")
    people = {index for index, s in enumerate(seats) if not s.is_cpu}
    return SeatFacts(
        is_host=is_host if room is not None else bool(held) and people <= set(held),
        holds_seat=bool(held) if seat is None else seat in held,
        seat_kind=kind,
        others_play=bool(people - set(held)),
        over=view.is_over,
        mid_turn=seat is not None and is_mid_turn(view, seat),
        level=level,
    )


def hand_to_cpu(
    games: GameService,
    rooms: RoomService,
    game_id: int,
    seat: int,
    level: str,
    *,
    right: Right = Right.HAND_OVER,
    held: Collection[int] = (),
    is_host: bool = True,
) -> GameView:
    """Hands a person's seat to a CPU of `level` (in the game and in its room, if any) and
    returns the game as saved now: the host's hand-over (`Right.HAND_OVER`) or a player
    leaving (`Right.LEAVE`), as `seat_refusal` allows. The seat's generation goes up: its
    old tokens are refused from now on, and no browser holds it any more.

    Raises:
        SettingsError: no such level, one a seat is not handed to, not a person's seat, or
        rules this process may not solve for that level; SolverBusyError: a level that
        needs a table nobody solved, past the permit (`check_cpu_seats`);
        SeatRightError: not the host (hand-over), not the seat's holder (leave), or the
        seat is mid-turn (hand-over); GameClosedError: game over; GameNotFoundError.
    """
    check_level(level, seat=seat + 1)
    view = games.latest(game_id)
    refusal = hand_over_refusal(view, seat)
    if refusal is None:
        facts = game_facts(
            view, rooms.of_game(game_id), held=held, is_host=is_host, seat=seat, level=level
        )
        refusal = seat_refusal(right, facts)
    if refusal is not None:
        raise refusal
    check_cpu_seats(view.state.rules, [level])  # the same permit as a new game's CPU seat
    rooms.hand_to_cpu(game_id, seat, level)
    games.forget(game_id)  # the seats are not in the log: the game is read again
    return games.latest(game_id)
