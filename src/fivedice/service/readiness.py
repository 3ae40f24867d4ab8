"""Whether this process is ready for traffic: the checks behind a server's `/readyz`.

Three checks, each answered in a few fixed words (never a database URL, a path or a driver's
message: a readiness answer is public):

- **database**: the database answers a read now (SQLite: its file is still at its path and
  still a SQLite file; PostgreSQL: a pooled or new connection runs a query);
- **migrations**: its schema is at this fivedice's newest migration (a server started
  against a database another version migrated is not ready);
- **tables**: the strategy tables this server is set to serve. With an allow-list
  (`fivedice serve --solve-only`, `$FIVEDICE_SOLVE_RULES`) every listed table must be solved
  and intact in the cache (read and checked once, then known by its file's stat); a missing
  one is solved in the background, one at a time, and the process is not ready until it is
  (a balancer sends no player to a worker whose first hint would wait for a solve). Without
  an allow-list tables are solved on demand (bounded by `fivedice.strategy.limits`): nothing
  to wait for.

`check_readiness(service)` runs them (blocking: call it in a thread) and returns a
`Readiness`.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from fivedice.core.record import rules_key
from fivedice.core.rules import RuleSet
from fivedice.store import DatabaseDamagedError, Store, StoreError, StoreUnavailableError
from fivedice.strategy.cache import cache_path, load_cached, load_or_solve
from fivedice.strategy.limits import allowed_rules, is_supported

log = logging.getLogger(__name__)

DATABASE = "database"
MIGRATIONS = "migrations"
TABLES = "tables"
SOLVE_AGAIN_SECONDS = 60.0  # a table that could not be solved (a full cache): try again


@dataclass(frozen=True)
class Check:
    """One readiness check: passed or not, and in a few public words what was found."""

    ok: bool
    detail: str


@dataclass(frozen=True)
class Readiness:
    """The checks by name (`DATABASE`, `MIGRATIONS`, `TABLES`); ready when all passed.

    >>> Readiness({"database": Check(True, "answers")}).ready
    True
    """

    checks: dict[str, Check]

    @property
    def ready(self) -> bool:
        return all(check.ok for check in self.checks.values())


def check_readiness(store: Store) -> Readiness:
    """Runs every check (blocking; a database that does not answer blocks until its driver
    gives up, so a server bounds the wait itself)."""
    return Readiness({**check_database(store), TABLES: TABLE_SOLVES.check()})


def check_database(store: Store) -> dict[str, Check]:
    """The database and migrations checks."""
    unknown = Check(False, "not checked: no database")
    try:
        current = store.schema_is_current()
    except StoreUnavailableError as error:
        log.warning("readiness: the database cannot be reached: %s", error)
        return {DATABASE: Check(False, "cannot be reached"), MIGRATIONS: unknown}
    except DatabaseDamagedError as error:
        log.warning("readiness: the database is not usable: %s", error)
        return {DATABASE: Check(False, "not a fivedice database"), MIGRATIONS: unknown}
    except StoreError as error:
        log.warning("readiness: the database refused a read: %s", error)
        return {DATABASE: Check(False, "refused a read"), MIGRATIONS: unknown}
    migrations = Check(True, "current") if current else Check(False, "not at this version's newest")
    return {DATABASE: Check(True, "answers"), MIGRATIONS: migrations}


class TableSolves:
    """The tables check, and the background solve of a missing table (one at a time)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._solving: RuleSet | None = None
        self._failed: dict[RuleSet, float] = {}  # when a solve failed (time.monotonic())
        self._verified: dict[RuleSet, tuple[int, int]] = {}  # files found intact: their stat

    def check(self) -> Check:
        """Whether every table of the allow-list is solved (starts solving a missing one)."""
        allowed = allowed_rules()
        if allowed is None:
            return Check(True, "solved on demand")
        missing = [
            rules
            for rules in sorted(allowed, key=rules_key)
            if is_supported(rules) and not self._cached(rules)
        ]
        if not missing:
            return Check(True, f"{len(allowed)} solved")
        now = time.monotonic()
        with self._lock:
            failed = [
                rules
                for rules in missing
                if now - self._failed.get(rules, -SOLVE_AGAIN_SECONDS) < SOLVE_AGAIN_SECONDS
            ]
            to_solve = [rules for rules in missing if rules not in failed]
            if self._solving is None and to_solve:
                self._solving = to_solve[0]
                threading.Thread(
                    target=self._solve, args=(to_solve[0],), name="readiness-solve", daemon=True
                ).start()
        if failed:
            return Check(False, f"{len(failed)} cannot be solved")
        return Check(False, f"{len(missing)} of {len(allowed)} being solved")

    def _cached(self, rules: RuleSet) -> bool:
        """Whether the cache holds an intact table of these rules. A file is read and
        checked once; after that, while it is the same file (inode and size), its `stat`
        says so (a table is 8 MB: checking each every second would cost more than
        the probe is worth)."""
        signature = _signature(cache_path(rules))
        if signature is not None and self._verified.get(rules) == signature:
            return True
        if load_cached(rules) is None:
            return False
        if signature is not None:
            self._verified[rules] = signature
        return True

    def _solve(self, rules: RuleSet) -> None:
        try:
            load_or_solve(rules)
        except Exception as error:  # (e.g. the cache is full of pinned tables)
            log.warning("readiness: could not solve the table of %s: %s", rules_key(rules), error)
            with self._lock:
                self._failed[rules] = time.monotonic()
        finally:
            with self._lock:
                self._solving = None


def _signature(path: Path) -> tuple[int, int] | None:
    """A file's inode and size (None: no file). A table is replaced, never rewritten in
    place (`fivedice.strategy.cache`), so a new table is a new inode; the time is left out
    because every use of a table marks it."""
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_ino, info.st_size


TABLE_SOLVES = TableSolves()
"""The process's one: a table is solved once per process, whichever app asks."""
