"""Bounds on solver work as the front ends set them: a wait for the busy solver (`solve_wait`
of `GameService`) and a permit for each new rule set (`permitting_new_solves`).

The web server gives every request its client's permit (web/rates.py): a client may start
only a few solves of rule sets nobody solved before; the rest are refused with
`SolverBusyError` (503 with Retry-After). Front ends reach the strategy layer's limits here,
and its queue of solves (`SOLVE_QUEUE_WATCHERS`, a server's metrics); a front end shows the
builds a command causes (`reporting_builds`, `BuildProgress`).
"""

from __future__ import annotations

from fivedice.strategy.derived import BuildCancelled as BuildCancelled
from fivedice.strategy.derived import BuildProgress as BuildProgress
from fivedice.strategy.derived import reporting_builds as reporting_builds
from fivedice.strategy.limits import RETRY_AFTER_SECONDS as RETRY_AFTER_SECONDS
from fivedice.strategy.limits import SOLVE_QUEUE_WATCHERS as SOLVE_QUEUE_WATCHERS
from fivedice.strategy.limits import NewSolvePermit as NewSolvePermit
from fivedice.strategy.limits import SolveQuotaSpentError as SolveQuotaSpentError
from fivedice.strategy.limits import SolverBusyError as SolverBusyError
from fivedice.strategy.limits import current_permit as current_permit
from fivedice.strategy.limits import permitting_new_solves as permitting_new_solves

__all__ = [
    "RETRY_AFTER_SECONDS",
    "SOLVE_QUEUE_WATCHERS",
    "BuildCancelled",
    "BuildProgress",
    "NewSolvePermit",
    "SolveQuotaSpentError",
    "SolverBusyError",
    "current_permit",
    "permitting_new_solves",
    "reporting_builds",
]
