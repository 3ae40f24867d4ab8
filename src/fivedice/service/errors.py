"""The service's errors: what a front end is refused, as a template and its parameters."""

from __future__ import annotations

from fivedice.core.errors import FivediceError

# Raised by the strategy layer through the service; front ends catch them from here.
from fivedice.strategy.levels import CpuLevelError as CpuLevelError
from fivedice.strategy.limits import SolveNotAllowedError as SolveNotAllowedError
from fivedice.strategy.limits import SolverBusyError as SolverBusyError

# Raised by the store through the service (a database that cannot be used, a stale version).
from fivedice.store import DatabaseDamagedError as DatabaseDamagedError  # isort: skip
from fivedice.store import SchemaTooNewError as SchemaTooNewError  # isort: skip
from fivedice.store import StaleVersionError as StaleVersionError  # isort: skip
from fivedice.store import StoreError as StoreError  # isort: skip


class NotCpuTurnError(FivediceError):
    """`cpu_step` was asked for while a human seat is to move (or the game is over)."""


class ReviewRefusedError(FivediceError):
    """A game in progress is not reviewed (that would coach a seat against the others)."""


class HintsUnavailableError(FivediceError):
    """No hint can be given (the strategy layer is not installed, or no dice are rolled)."""


class TablesPreparingError(HintsUnavailableError):
    """The tables the answer needs are being built in the background (a server never waits
    minutes for them): ask again; `coach.build_progress` says how far the build is."""


class LessonNotFoundError(FivediceError):
    """No tutorial lesson has the key asked for."""


class UndoRefusedError(FivediceError):
    """An undo that `undo_refusal` does not allow here; nothing was changed."""
