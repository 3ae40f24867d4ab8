"""One object per solved table, made on first use and dropped with its table.

The advisor's and the turn cache's engines both live this way: a table's engine holds
compiled kernels and kept values, so it is made once per table and, the tables being
memory-mapped and replaced when evicted, forgotten when the table goes.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import Generic, TypeVar

from fivedice.strategy.solver import StrategyTable

__all__ = ["PerTable"]

T = TypeVar("T")


class PerTable(Generic[T]):
    """`registry(table)`: the table's object, made by `make(table)` the first time.

    `last` is the object handed out last: a hot path (a query per coach hint and per CPU
    decision) checks it by identity before taking the lock.
    """

    def __init__(self, make: Callable[[StrategyTable], T]) -> None:
        self._make = make
        self._lock = threading.Lock()
        self._made: weakref.WeakKeyDictionary[StrategyTable, T] = weakref.WeakKeyDictionary()
        self.last: T | None = None

    def __call__(self, table: StrategyTable) -> T:
        with self._lock:
            found = self._made.get(table)
            if found is None:
                found = self._made[table] = self._make(table)
        self.last = found
        return found

    def made(self) -> list[T]:
        """Every object made for a table still alive (a snapshot)."""
        with self._lock:
            return list(self._made.values())
