"""A saved game at one version, as the service returns it (`GameView`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from fivedice.core.dice import DiceSource
from fivedice.core.fairdice import LEGACY_SCHEME, SCHEME_V2, HmacDice
from fivedice.core.game import GameState
from fivedice.core.record import terms_digest
from fivedice.store import IN_PROGRESS, GameRecord, dice_for


@dataclass(frozen=True)
class GameView:
    """A saved game at one version, as the service returns it (front ends render this)."""

    game_id: int
    state: GameState
    version: int
    status: str
    seed: int
    practice: bool
    dice_scheme: str = LEGACY_SCHEME
    dice_commitment: str | None = None
    """SHA-256 of the secret server seed (hex), shown from the start; None: legacy dice."""
    client_seeds: tuple[str, ...] = ()
    _server_seed: bytes | None = field(default=None, repr=False)
    toggles: int = field(default=0, compare=False, repr=False)
    """Holds and releases in a row since the seat's last roll, as this process applied them
    (a view read from the database starts again at 0): bounded (`TOGGLES_PER_ROLL`)."""

    @property
    def is_over(self) -> bool:
        return self.status != IN_PROGRESS

    @classmethod
    def of_record(
        cls, game_id: int, record: GameRecord, state: GameState, version: int, status: str
    ) -> GameView:
        """The view of a saved game at `version` (its dice seeds included)."""
        return cls(
            game_id,
            state,
            version,
            status,
            record.seed,
            record.practice,
            record.dice_scheme,
            record.dice_commitment,
            record.client_seeds,
            record.server_seed,
        )

    @property
    def server_seed(self) -> str | None:
        """The server seed (hex) once the game is over; None while it is played (or legacy)."""
        if self._server_seed is None or not self.is_over:
            return None
        return self._server_seed.hex()

    def dice_for_action(self, number: int) -> DiceSource:
        """The dice source of action `number` of this game (0: the first-player roll-off)."""
        terms = None
        if self.dice_scheme == SCHEME_V2:  # the terms are bound into the dice
            terms = terms_digest(self.state.settings, self.practice)
        return action_dice(self._server_seed, self.client_seeds, self.seed, number, terms)

    @property
    def is_cpu_turn(self) -> bool:
        state = self.state
        return self.status == IN_PROGRESS and state.seats[state.current_seat].is_cpu

    @property
    def has_person(self) -> bool:
        """Whether a person has a seat (else CPUs alone play it: a server runs such a game
        only while someone watches it)."""
        return not all(seat.is_cpu for seat in self.state.seats)


def action_dice(
    server_seed: bytes | None,
    client_seeds: tuple[str, ...],
    seed: int,
    number: int,
    terms: str | None = None,
) -> DiceSource:
    """The dice source of action `number` of a game (0: the first-player roll-off): the
    verifiable dice of its seeds (and terms, scheme ``hmac-sha256-v2``), or, for a game
    without a server seed, the legacy dice of its `seed`."""
    if server_seed is not None:
        return HmacDice(server_seed, client_seeds, number, terms)
    return dice_for(seed, number)
