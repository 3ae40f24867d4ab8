"""Typed errors of the store and the game service (all `FivediceError`, so `ValueError`)."""

from __future__ import annotations

from fivedice.core.errors import N_, FivediceError
from fivedice.core.record import RecordError as RecordError  # re-exported: the store raises it


class StoreError(FivediceError):
    """Base class of every error about saved games.

    `retryable` says whether trying the same thing again later may succeed.
    """

    retryable: bool = False


class StoreUnavailableError(StoreError):
    """The database could not be written or read just now (locked, disk full, server down).

    Nothing was changed; the same request may be sent again.
    """

    retryable = True


class StoreConflictError(StoreError):
    """A write collided with another one made at the same moment (a database constraint
    refused it). Nothing was changed; the same request may be sent again."""

    retryable = True


class CommitmentUsedError(StoreError):
    """A commitment drawn before the client seeds already made a game: a second game with
    the same server seed would let its client replay known dice. Not retryable: draw a new
    commitment."""


class DatabaseDamagedError(StoreError):
    """The database file is damaged or is not a fivedice database. The file is left alone."""


class GameDamagedError(DatabaseDamagedError):
    """A saved game's rows cannot be read, or do not replay to the game they describe (edited
    by hand, or written by a faulty program). Nothing was written: the rows are left as they
    are, and the other games can still be used.

    Attributes:
        game_id: the damaged game.
    """

    def __init__(self, game_id: int, damage: object) -> None:
        # `damage` is a FivediceError (translated with this message) or an English phrase.
        super().__init__(
            N_("game {game_id} is damaged: {damage}. It was left as it is"),
            game_id=game_id,
            damage=damage,
        )
        self.game_id = game_id


class SchemaTooNewError(StoreError):
    """The database was written by a newer fivedice; this version refuses to touch it."""


class GameNotFoundError(StoreError):
    """No saved game has that id."""


class StaleVersionError(StoreError):
    """An action was made against an older state (a double click, a second window): 409.

    Attributes:
        game_id: the game.
        expected: the version the action was made against.
        current: the game's version now (None when unknown).
    """

    def __init__(self, game_id: int, expected: int, current: int | None) -> None:
        # The message names versions only: `game_id` is the store's internal id, which front
        # ends show under another (public) id.
        if current is None:
            super().__init__(
                N_(
                    "the game has moved on: it is at a newer version, the action was made at"
                    " version {expected}; reload and decide again"
                ),
                expected=expected,
            )
        else:
            super().__init__(
                N_(
                    "the game has moved on: it is at version {current}, the action was made at"
                    " version {expected}; reload and decide again"
                ),
                current=current,
                expected=expected,
            )
        self.game_id = game_id
        self.expected = expected
        self.current = current


class GameClosedError(StoreError):
    """The game is finished or abandoned, so it takes no more actions."""
