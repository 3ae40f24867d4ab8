"""Seats and their rights: whose turn it is, and a person's seat handed to a CPU.

The policies are pure functions like `undo_refusal`, each returning the reason or None:
`turn_refusal` (may this seat act now) and `hand_over_refusal` (may this seat go to a CPU);
`hand_to_cpu` is the use case that applies the second and saves the change. Proving which
seat a caller holds (tokens, sessions) is the front end's part.
"""

from __future__ import annotations

from fivedice.core.errors import N_, FivediceError
from fivedice.core.game import SettingsError
from fivedice.service.games import GameService, GameView
from fivedice.service.rooms import RoomService
from fivedice.store import GameClosedError
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
    """Why seat `seat` of this game may not be handed to a CPU now (None: it may).

    Only a person's seat of a game in progress is handed over; a CPU plays it from then
    on (its player left).
    """
    if view.is_over:
        return GameClosedError(N_("the game is {status}; nobody is to move"), status=view.status)
    if not 0 <= seat < len(view.state.seats) or view.state.seats[seat].is_cpu:
        return SettingsError(N_("seat {seat} is not a person's seat"), seat=seat)
    return None


def hand_to_cpu(
    games: GameService, rooms: RoomService, game_id: int, seat: int, level: str
) -> GameView:
    """Hands a person's seat to a CPU of `level` (in the game and in its room, if any) and
    returns the game as saved now.

    Raises:
        SettingsError: no such level, or not a person's seat; GameClosedError: game over;
        GameNotFoundError.
    """
    check_level(level, seat=seat + 1)
    refusal = hand_over_refusal(games.latest(game_id), seat)
    if refusal is not None:
        raise refusal
    rooms.hand_to_cpu(game_id, seat, level)
    games.forget(game_id)  # the seats are not in the log: the game is read again
    return games.latest(game_id)
