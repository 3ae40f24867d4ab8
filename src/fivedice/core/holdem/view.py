"""What one seat (or a spectator) may see of a game: other seats' pocket dice are hidden.

`view_for(state, seat)` is the one place a front end, the service, a CPU or a log reads a
game from: a seat sees its own pocket dice and nobody else's until they are shown at a
showdown (`HandResult.shown`, in `last_hand`); a spectator (`seat=None`) sees no pocket dice.
"""

from __future__ import annotations

from dataclasses import dataclass

from fivedice.core.holdem.dice import Die
from fivedice.core.holdem.game import HandResult, HoldemState, Street, legal_actions

__all__ = ["HoldemView", "SeatLine", "view_for"]


@dataclass(frozen=True)
class SeatLine:
    """One seat as the viewer sees it."""

    name: str
    cpu_level: str | None
    stack: int
    street_bet: int
    committed: int
    in_hand: bool
    folded: bool
    all_in: bool
    is_out: bool
    is_button: bool
    pocket: tuple[Die, ...] | None
    """The seat's pocket dice when the viewer may see them (its own), else None."""


@dataclass(frozen=True)
class HoldemView:
    """The table as `viewer` sees it (None: a spectator)."""

    viewer: int | None
    hand_number: int
    street: Street
    board: tuple[Die, ...]
    pot: int
    current_bet: int
    seats: tuple[SeatLine, ...]
    to_act: int | None
    to_call: int
    """What the viewer must put in to call (0: nothing, or not the viewer's turn)."""
    raise_range: tuple[int, int] | None
    """The smallest and largest total the viewer may bet or raise to, on its turn."""
    legal: tuple[str, ...]
    """The viewer's actions in notation, on its turn (a bet or raise at its smallest)."""
    last_hand: HandResult | None
    winner: int | None

    @property
    def my_turn(self) -> bool:
        return self.viewer is not None and self.viewer == self.to_act


def view_for(state: HoldemState, viewer: int | None) -> HoldemView:
    """The game as seat `viewer` (from 0) may see it; None: a spectator's view."""
    seats = tuple(
        SeatLine(
            name=player.name,
            cpu_level=player.cpu_level,
            stack=hand.stack,
            street_bet=hand.street_bet,
            committed=hand.committed,
            in_hand=hand.in_hand,
            folded=hand.folded,
            all_in=hand.in_hand and hand.stack == 0,
            is_out=hand.is_out,
            is_button=number == state.button,
            pocket=hand.pocket if number == viewer and hand.pocket else None,
        )
        for number, (player, hand) in enumerate(zip(state.players, state.seats, strict=True))
    )
    mine = viewer is not None and viewer == state.to_act
    return HoldemView(
        viewer=viewer,
        hand_number=state.hand_number,
        street=state.street,
        board=state.board if state.winner is None else (),
        pot=state.pot,
        current_bet=state.current_bet,
        seats=seats,
        to_act=state.to_act,
        to_call=state.to_call(viewer) if mine and viewer is not None else 0,
        raise_range=state.raise_range(viewer) if mine and viewer is not None else None,
        legal=tuple(str(action) for action in legal_actions(state)) if mine else (),
        last_hand=state.last_hand,
        winner=state.winner,
    )
