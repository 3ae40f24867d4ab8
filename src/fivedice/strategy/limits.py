"""Bounds on solver work, so that a server cannot be made to solve without end.

Solving a rule set nobody solved before costs seconds of CPU and megabytes of cache; a public
server would otherwise solve one for every unusual rule set anyone asks a hint for. So:

* **One new table at a time per process.** `solving_slot()` is held while a table is solved;
  a caller that would have to wait longer than its bound (`waiting_at_most`, a context
  variable: the web service sets a short one, the terminal front ends none) gets
  `SolverBusyError` (the web answers 503 with Retry-After).
* **An optional allow-list** of rule presets whose tables may be used at all
  (`$FIVEDICE_SOLVE_RULES`, e.g. ``classic,free-choice``; `fivedice serve --solve-only`
  sets it). Other rules get `SolveNotAllowedError`: no hints, and no game with a CPU level
  that plays from the table (`check_cpu_levels`, called when a game is created).
* **A permit for each new table** (`permitting_new_solves`, a context variable): before a
  table nobody solved is solved, the caller's permit is asked; the web server's permit counts
  new rule sets per client and refuses past a small quota with `SolverBusyError`. Tables
  already solved never need a permit; without a permit (the terminal front ends, the CPU
  driver's background steps) every solve is allowed.

Light on purpose (stdlib and the core only): the web layer imports the errors without numpy.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from fivedice.core.errors import N_, FivediceError
from fivedice.core.rules import Family, RuleSet

__all__ = [
    "LAYER_TABLE_BOXES",
    "OPTIMAL_LEVELS",
    "RETRY_AFTER_SECONDS",
    "SOLVE_QUEUE_WATCHERS",
    "SOLVE_RULES_ENV",
    "SolveNotAllowedError",
    "SolveQuotaSpentError",
    "SolverBusyError",
    "UnsupportedByStrategyError",
    "allowed_rules",
    "ask_new_solve_permit",
    "check_allowed",
    "check_cpu_levels",
    "check_supported",
    "current_permit",
    "has_layer_tables",
    "is_supported",
    "parse_allowed",
    "permitting_new_solves",
    "solve_wait",
    "solving_slot",
    "waiting_at_most",
]

SOLVE_RULES_ENV = "FIVEDICE_SOLVE_RULES"
RETRY_AFTER_SECONDS = 10
"""What a busy answer suggests waiting: about one table solve on a small machine."""
OPTIMAL_LEVELS = frozenset({"strong", "expert", "master"})
"""CPU levels that play from the solved table (`bots.PROFILES[...].optimal_values`)."""


class SolverBusyError(FivediceError):
    """Another table is being solved in this process, longer than the caller may wait.

    Attributes:
        retry_after: seconds after which asking again is likely to succeed.
    """

    def __init__(self, retry_after: int = RETRY_AFTER_SECONDS) -> None:
        super().__init__(
            N_("the solver is busy with other rules; try again in {seconds} seconds"),
            seconds=retry_after,
        )
        self.retry_after = retry_after


class SolveQuotaSpentError(SolverBusyError):
    """The permit refuses a table nobody solved yet: this client's quota of new rule sets
    is spent (or, for the server's own work, no client was permitted these rules)."""

    def __init__(self, retry_after: int = RETRY_AFTER_SECONDS) -> None:
        FivediceError.__init__(
            self,
            N_(
                "these rules need tables this server has not built, and it builds only a few"
                " for each visitor: play them without strong, expert or master CPUs, or try"
                " again in {seconds} seconds"
            ),
            seconds=retry_after,
        )
        self.retry_after = retry_after


class SolveNotAllowedError(FivediceError):
    """These rules are not on the allow-list of rule sets this process may solve."""


class UnsupportedByStrategyError(SolveNotAllowedError):
    """The strategy layer (solver, coach, CPU players) cannot play these rules yet.

    A subclass of `SolveNotAllowedError`, so every front end that refuses a hint or a CPU
    seat for the allow-list refuses these rules the same way; human-only games still play.
    """


def is_supported(rules: RuleSet) -> bool:
    """Whether the solver, the coach and the CPU players handle these rules exactly: every
    family (Maxi Yatzy's six dice and 20 boxes too), any fill order and options, but not
    saved rolls (Maxi Yatzy's own rule: a turn's unused rolls carried to later turns).

    The extra turn on a Yahtzee is supported: it changes who plays next, not a column's turns.
    The wild die is supported on one column (its CPUs play from the exact coach only). Not on
    several columns: their coach and CPUs play from the expert CPU's estimates, whose kernels
    (`heuristics`, `policy`, `playout`) hold the dice as counts of each face, with no place
    for the wild die apart, and score the plain dice's 252 rolls.
    Generala is: its served points (hands made on the first roll of the turn) are scored by
    the coach's and the CPUs' kernels on the turn's first roll (`rule_arrays.is_served_roll`),
    and its second all-same box (Double Generala) rides on the armed bit.
    """
    return not rules.saved_rolls and not (rules.wild_die and rules.columns > 1)


def has_served_points(rules: RuleSet) -> bool:
    """Whether some box pays more for a hand made on the turn's first roll (Generala)."""
    return any(box.served for box in rules.boxes)


def check_simulated(rules: RuleSet) -> None:
    """Refuses rules the whole-game simulator would play or score wrongly: its kernels score
    every roll as a turn's last, so served points (Generala) would be under-counted, and hold
    the dice as counts of each face, with no place for the wild die apart. Those games are
    played exactly by the CPUs themselves, one decision at a time (`strategy.solitaire`,
    `benchmarks/bench_wild.py`).

    Raises:
        UnsupportedByStrategyError: `has_served_points(rules)` or `rules.wild_die`.
    """
    if rules.wild_die:
        raise UnsupportedByStrategyError(
            N_(
                "the simulator does not play the wild die: play these rules against the CPUs"
                " instead, or measure them with benchmarks/bench_wild.py"
            )
        )
    if has_served_points(rules):
        raise UnsupportedByStrategyError(
            N_(
                "the simulator does not score served points (made on a turn's first roll):"
                " play these rules against the CPUs instead, or measure them with"
                " benchmarks/bench_presets.py"
            )
        )


def cpus_supported(rules: RuleSet) -> bool:
    """Whether CPU players can play these rules: wherever the solver can, and Maxi Yatzy
    with saved rolls (calibrated heuristic levels: its exact solve does not fit one machine,
    see docs/maxi-saved-rolls.md)."""
    return is_supported(rules) or rules.family is Family.MAXI_YATZY


LAYER_TABLE_BOXES = 16
"""The most boxes whose solver table is one full array per layer (`solver.COMPACT_BOXES`)."""


def has_layer_tables(rules: RuleSet) -> bool:
    """Whether the tables walked over the solver's full layers exist for these rules: the
    breakdown of the coach's reasons (`strategy.breakdown`), the threshold tables of goals
    (`strategy.thresholds`) and the moment tables (`strategy.moments`). Maxi Yatzy without
    saved rolls is solved exactly, but into a compact table (20 boxes: `strategy.compact`);
    those tables would take 2^20 sets of boxes each, so its coach gives values without them.
    The wild die (`wild_die`) has them: they walk the rules' own dice tables (its 756 rolls).
    Served points (Generala) do not: those tables walk a turn's policy without the first roll's
    served scores.

    >>> from fivedice.core.rules import RuleSet
    >>> maxi = RuleSet.preset("maxi-yatzy").replace(saved_rolls=False)
    >>> has_layer_tables(RuleSet.preset("yatzy")), is_supported(maxi), has_layer_tables(maxi)
    (True, True, False)
    """
    return (
        is_supported(rules)
        and len(rules.boxes) <= LAYER_TABLE_BOXES
        and not has_served_points(rules)
    )


def has_win_chances(rules: RuleSet) -> bool:
    """Whether the winning chances (`strategy.chances`, and the master CPU's play to win) are
    available: wherever the moment tables follow the solver's layers (Yahtzee and Yatzy;
    not Maxi Yatzy, whose table is compact: `has_layer_tables`)."""
    return has_layer_tables(rules)


def has_table_games(rules: RuleSet) -> bool:
    """Whether games at a table can be played in numba (`master.play_table`, the simulator's
    master and paired games): where there are winning chances, with five plain dice (those
    games draw and walk the plain dice's rolls only, not the wild die's)."""
    return has_win_chances(rules) and not rules.wild_die


def check_coached(rules: RuleSet) -> None:
    """Refuses rules the coach cannot advise on. It advises wherever the CPU players play:
    exactly where the solver handles the rules (one column), and otherwise with the expert
    CPU's estimates (several columns; Maxi Yatzy with saved rolls).

    Raises:
        UnsupportedByStrategyError: not `cpus_supported(rules)`.
    """
    if not cpus_supported(rules):
        check_supported(rules)


def check_supported(rules: RuleSet) -> None:
    """Refuses rules the strategy layer cannot play.

    Raises:
        UnsupportedByStrategyError: not `is_supported(rules)`.
    """
    if rules.wild_die and rules.columns > 1:
        raise UnsupportedByStrategyError(
            N_(
                "the coach and the CPU players do not play the wild die on several score"
                " columns yet: play these rules with people"
            )
        )
    if not is_supported(rules):
        raise UnsupportedByStrategyError(
            N_(
                "the coach and the exact solver do not handle saved rolls (Maxi Yatzy):"
                " play these rules with people or with CPU players"
            )
        )


_SOLVE_LOCK = threading.RLock()
_WAIT: ContextVar[float | None] = ContextVar("fivedice_solve_wait", default=None)


@contextmanager
def waiting_at_most(seconds: float | None) -> Iterator[None]:
    """Within the block, `solving_slot` waits at most `seconds` (None: as long as needed)."""
    token = _WAIT.set(seconds)
    try:
        yield
    finally:
        _WAIT.reset(token)


NewSolvePermit = Callable[[RuleSet], None]
"""Asked before a new table is solved; raises (`SolverBusyError`) to refuse the solve."""
_PERMIT: ContextVar[NewSolvePermit | None] = ContextVar("fivedice_solve_permit", default=None)


@contextmanager
def permitting_new_solves(permit: NewSolvePermit | None) -> Iterator[None]:
    """Within the block, every table not solved yet is solved only if `permit(rules)` returns
    (None: no permit needed)."""
    token = _PERMIT.set(permit)
    try:
        yield
    finally:
        _PERMIT.reset(token)


def solve_wait() -> float | None:
    """How long the current caller may wait for a solve (`waiting_at_most`; None: no bound)."""
    return _WAIT.get()


def current_permit() -> NewSolvePermit | None:
    """The permit of the current context (None: every solve is allowed)."""
    return _PERMIT.get()


def ask_new_solve_permit(rules: RuleSet) -> None:
    """Asks the current permit (if any) for a new table of these rules.

    Raises:
        SolverBusyError: the permit refuses (e.g. the client's quota of new rule sets is spent).
    """
    permit = _PERMIT.get()
    if permit is not None:
        permit(rules)


SOLVE_QUEUE_WATCHERS: list[Callable[[int], None]] = []
"""Called with +1 when a solve starts waiting for the slot and -1 when it leaves it (solved,
or refused for waiting too long): a server's "solves queued" gauge. Quick, never raising."""


def _queue_changed(delta: int) -> None:
    for watcher in SOLVE_QUEUE_WATCHERS:
        watcher(delta)


@contextmanager
def solving_slot() -> Iterator[None]:
    """Holds the process's one slot for solving a table.

    Raises:
        SolverBusyError: the slot stayed taken longer than the current bound.
    """
    wait = _WAIT.get()
    _queue_changed(+1)
    try:
        if not _SOLVE_LOCK.acquire(timeout=-1 if wait is None else max(0.0, wait)):
            raise SolverBusyError()
        try:
            yield
        finally:
            _SOLVE_LOCK.release()
    finally:
        _queue_changed(-1)


def parse_allowed(text: str) -> frozenset[RuleSet]:
    """The single-column rule sets of a comma-separated list of presets.

    A several-column preset (`triple`) allows the one-column table its hints and CPU use.

    Raises:
        RuleSetError: an unknown preset.
    """
    from fivedice.core.rules import find_ruleset

    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise SolveNotAllowedError(
            N_("{variable} lists no rule preset (e.g. {example})"),
            variable=SOLVE_RULES_ENV,
            example="classic,free-choice",
        )
    return frozenset(_single(find_ruleset(name)) for name in names)


def allowed_rules() -> frozenset[RuleSet] | None:
    """The allow-list of `$FIVEDICE_SOLVE_RULES`, or None when every rule set may be solved.

    Raises:
        RuleSetError: the variable names an unknown preset.
    """
    text = os.environ.get(SOLVE_RULES_ENV, "")
    return parse_allowed(text) if text.strip() else None


def check_allowed(rules: RuleSet) -> None:
    """Refuses rules whose table this process may not use.

    Raises:
        SolveNotAllowedError: an allow-list is set and these rules are not on it.
        UnsupportedByStrategyError: the strategy layer cannot play these rules.
    """
    check_supported(rules)
    allowed = allowed_rules()
    if allowed is not None and _single(rules) not in allowed:
        raise SolveNotAllowedError(
            N_(
                "the coach and the strong and expert CPU players are not available for these "
                "rules here (this server solves only {presets})"
            ),
            presets=os.environ.get(SOLVE_RULES_ENV, "").strip(),
        )


def check_cpu_levels(rules: RuleSet, levels: Iterable[str | None]) -> None:
    """Refuses a new game whose CPU seats could never move under the allow-list.

    Raises:
        SolveNotAllowedError: a strong or expert CPU seat on rules that may not be solved.
        UnsupportedByStrategyError: any CPU seat on rules the strategy layer cannot play.
    """
    levels = tuple(levels)
    if any(level is not None for level in levels) and not cpus_supported(rules):
        check_supported(rules)
    if is_supported(rules) and any(level in OPTIMAL_LEVELS for level in levels):
        check_allowed(rules)  # Maxi Yatzy's CPUs never solve: nothing to allow


def _single(rules: RuleSet) -> RuleSet:
    return rules if rules.columns == 1 else rules.replace(column_multipliers=(1,))
