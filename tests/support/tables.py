"""Solved strategy tables shared by the whole test session: each rule set is solved once, and
the tables computed from a solved one (moments, breakdowns) are computed once too.

Under `make test` (two xdist workers) a full-array table and its moment table are computed
once for both workers: the one that needs it first computes it into the run's own directory
(`SHARED_ENV`, made by tests/conftest.py for this run only and removed after it) while the
other waits for it on a lock and then reads it, instead of computing the same table beside
it. No user cache, no table from an earlier run: every table a run uses is computed by that
run's code, and read back bit for bit.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import numpy as np

from fivedice.core.rules import RuleSet
from fivedice.strategy.breakdown import BreakdownTable, compute_breakdown
from fivedice.strategy.cache import cache_key, load_table, write_table
from fivedice.strategy.moments import MomentTable, compute_moments, policy_values
from fivedice.strategy.solver import StrategyTable, check_rules, layout_for, solve

SHARED_ENV = "FIVEDICE_TEST_TABLES"
"""The directory of this run's tables, shared by its workers (unset: none shared)."""

_SOLVED: dict[RuleSet, StrategyTable] = {}
_MOMENTS: dict[RuleSet, MomentTable] = {}
_BREAKDOWNS: dict[RuleSet, BreakdownTable] = {}

T = TypeVar("T")


def solved(rules: RuleSet) -> StrategyTable:
    """The table of these rules, solved on first use (by this run: no user cache involved).

    Compact tables (more than 16 boxes) are kept as float32 on disk: each worker solves those
    itself, so every table a test sees holds the solver's exact values.
    """
    if rules not in _SOLVED:
        check_rules(rules)  # rules the solver refuses are refused as `solve` does
        if layout_for(rules) is not None:
            _SOLVED[rules] = solve(rules)
        else:
            _SOLVED[rules] = _once(
                f"strategy-{cache_key(rules)}.bin",
                lambda: solve(rules),
                write_table,
                lambda path: _writable(load_table(rules, path)),
            )
    return _SOLVED[rules]


def moments(table: StrategyTable) -> MomentTable:
    """The moment table of a solved table, computed on first use (seconds of CPU each)."""
    if table.rules not in _MOMENTS:

        def write(result: MomentTable, path: Path) -> None:
            with path.open("wb") as handle:
                np.save(handle, result.moments, allow_pickle=False)

        def read(path: Path) -> MomentTable:
            loaded = np.load(path, allow_pickle=False)
            loaded.setflags(write=False)  # as compute_moments leaves it
            return MomentTable(table, loaded, policy_values(table))

        _MOMENTS[table.rules] = _once(
            f"moments-{cache_key(table.rules)}.npy", lambda: compute_moments(table), write, read
        )
    return _MOMENTS[table.rules]


def breakdown(table: StrategyTable) -> BreakdownTable:
    """The breakdown table of a solved table, computed on first use (seconds of CPU each)."""
    if table.rules not in _BREAKDOWNS:
        _BREAKDOWNS[table.rules] = compute_breakdown(table)
    return _BREAKDOWNS[table.rules]


def _once(
    name: str,
    build: Callable[[], T],
    write: Callable[[T, Path], None],
    read: Callable[[Path], T],
) -> T:
    """`build()`, once for all the workers of this run: the first worker builds and writes
    it (to a temporary name, then renamed), the others wait on its lock and read it."""
    shared = os.environ.get(SHARED_ENV)
    if not shared:
        return build()
    path = Path(shared) / name
    with path.with_name(f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if path.exists():
            return read(path)
        result = build()
        temporary = path.with_name(f"{name}.tmp")
        write(result, temporary)
        os.replace(temporary, path)
        return result


def _writable(table: StrategyTable | None) -> StrategyTable:
    """A read table in memory and writable, as a solve gives (the file is a read-only map)."""
    assert table is not None, "a table this run wrote could not be read back"
    return StrategyTable(
        table.rules, np.array(table.values), table.expected_score, table.states, table.layout
    )
