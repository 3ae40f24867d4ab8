"""Solved strategy tables on disk, in the user cache directory.

A file is a fixed magic line, a JSON header (rules, solver version, the kernels' code version,
shape, payload size, CRC-32 and SHA-256) and the raw float64 values. The file's name (`cache_key`)
carries the code version too (`kernel_cache.code_version`, a hash of the kernels' sources): a
table written by other kernel code is never read, it is solved again.

Loading maps the file and checks its CRC-32 (any flipped bit, any burst up to 32 bits changes
it; 3 × faster than SHA-256: a one-off `fivedice advise` spends most of its time loading the
table); files of older versions, without one, are checked by their SHA-256. Files are written
atomically (temp file + `os.replace`); a file that fails any check on load is solved again and
rewritten rather than trusted.
The directory is kept under `$FIVEDICE_CACHE_MAX_MB` (default 2,000) by deleting the least
recently used tables after each new one, and solving is bounded by `fivedice.strategy.limits`.

A table in use is never deleted to make room: a table used within the last
`$FIVEDICE_CACHE_PIN_MINUTES` (default 60) is *pinned* (every load marks its use, a table held
in memory re-marks it once a minute, so a game being played keeps its table pinned). When the
pinned tables alone fill the budget, a new rule set is refused (`SolverBusyError`, retry when
the oldest pin runs out) rather than evicting a table a game is playing from.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import mmap
import os
import tempfile
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import BinaryIO, TypeVar

import numpy as np
import platformdirs

from fivedice.core.errors import N_, FivediceError
from fivedice.core.rules import RuleSet
from fivedice.strategy.derived import (
    BuildProgress,
    CancelToken,
    DerivedTables,
    ProgressListener,
    Step,
    both_steps,
    build_in_memory,
    build_progress,
    load_or_build,
    remove_stale_temporaries,
)
from fivedice.strategy.kernel_cache import code_version
from fivedice.strategy.limits import (
    OPTIMAL_LEVELS,
    SolverBusyError,
    ask_new_solve_permit,
    check_allowed,
    is_supported,
    solve_wait,
    solving_slot,
)
from fivedice.strategy.solver import StrategyTable, check_rules, layout_for, solve

__all__ = [
    "CACHE_ENV",
    "CACHE_MAX_ENV",
    "CACHE_PIN_ENV",
    "DEFAULT_CACHE_MAX_MB",
    "DEFAULT_CACHE_PIN_MINUTES",
    "SOLVER_VERSION",
    "STRATEGY_KIND",
    "CacheSettingError",
    "CompanionTables",
    "cache_key",
    "cache_limit_bytes",
    "cache_path",
    "cache_pin_seconds",
    "companions",
    "keep_in_bounds",
    "load_cached",
    "load_or_solve",
    "permit_cpu_tables",
    "prune_cache",
    "resolve_cache_dir",
    "save_table",
    "strategy_progress",
    "write_table",
]

STRATEGY_KIND = "strategy"
"""The strategy tables' kind in `derived.BuildProgress`."""

SOLVER_VERSION = "2"
"""Bump whenever the solver or the file layout changes what a table holds (2: float64 values;
the version is part of the file name and the header, so version-1 float32 files are never read,
and the size limit prunes them as the least recently used)."""

CACHE_ENV = "FIVEDICE_CACHE_DIR"
CACHE_MAX_ENV = "FIVEDICE_CACHE_MAX_MB"
DEFAULT_CACHE_MAX_MB = 2_000
"""About 23 classic-sized tables (8.4 MB each)."""
CACHE_PIN_ENV = "FIVEDICE_CACHE_PIN_MINUTES"
DEFAULT_CACHE_PIN_MINUTES = 60.0
"""How long after its last use a table counts as in use (never evicted)."""
_MAGIC = b"FIVEDICE-STRATEGY\n"
_DTYPE = "<f8"  # little-endian float64
_COMPACT_DTYPE = "<f4"  # compact tables (Maxi Yatzy): float32, to stay under 200 MB


def resolve_cache_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The directory for tables: the argument, else $FIVEDICE_CACHE_DIR, else the user cache."""
    if override is not None:
        return Path(override)
    from_env = os.environ.get(CACHE_ENV)
    if from_env:
        return Path(from_env)
    return Path(platformdirs.user_cache_dir("fivedice"))


def cache_key(rules: RuleSet) -> str:
    """A short hash of every rule option, the solver version and the kernels' code version
    (`kernel_cache.code_version`: a table written by other kernel sources is never read)."""
    text = json.dumps(
        {"rules": rules.settings(), "solver": SOLVER_VERSION, "code": code_version()},
        sort_keys=True,
    )
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def cache_path(rules: RuleSet, directory: str | os.PathLike[str] | None = None) -> Path:
    """Where the table of these rules is kept."""
    return resolve_cache_dir(directory) / f"strategy-{cache_key(rules)}.bin"


def save_table(table: StrategyTable, path: Path) -> None:
    """Writes a table atomically: readers see the old file or the complete new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    os.close(descriptor)
    try:
        write_table(table, Path(temporary))
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_table(table: StrategyTable, path: Path) -> None:
    """Writes a table to `path` (a temporary file of `derived.load_or_build`, or `save_table`'s).

    A compact table (Maxi Yatzy) is written as float32: 134 MB instead of 268 (values to
    about 3e-5 points, the expected score in the header exact).
    """
    dtype = _DTYPE if table.layout is None else _COMPACT_DTYPE
    payload = np.ascontiguousarray(table.values, dtype=dtype).tobytes()
    header = {
        "solver": SOLVER_VERSION,
        "code": code_version(),
        "rules": table.rules.settings(),
        "shape": list(table.values.shape),
        "dtype": dtype,
        "expected_score": table.expected_score,
        "states": table.states,
        "size": len(payload),
        "crc32": zlib.crc32(payload),
        "sha256": hashlib.sha256(payload).hexdigest(),
    }
    with path.open("wb") as handle:
        handle.write(_MAGIC)
        handle.write(json.dumps(header).encode() + b"\n")
        handle.write(payload)


def load_table(rules: RuleSet, path: Path) -> StrategyTable | None:
    """Reads a table written by `save_table` for these rules; None if missing or damaged.

    The values are a read-only view of the mapped file (no copy: tables are replaced by
    `os.replace`, never rewritten in place, so a mapped file does not change underneath).
    """
    try:
        with path.open("rb") as handle:
            if handle.readline() != _MAGIC:
                return None
            header = json.loads(handle.readline())
            offset = handle.tell()
            size = int(header["size"])
            if os.fstat(handle.fileno()).st_size != offset + size or size == 0:
                return None
            mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        payload = memoryview(mapped)[offset:]
        layout = layout_for(rules)
        dtype = _DTYPE if layout is None else _COMPACT_DTYPE
        shape = tuple(int(n) for n in header["shape"])
        if (
            header["solver"] != SOLVER_VERSION
            or header.get("code") != code_version()
            or header["rules"] != rules.settings()
            or header["dtype"] != dtype
            or (layout is not None and shape != (layout.states,))
            or not _intact(payload, header)
        ):
            return None
        values = np.frombuffer(payload, dtype=dtype).reshape(shape)
        if layout is not None:  # the kernels read float64
            values = values.astype(np.float64)
            values.setflags(write=False)
        return StrategyTable(
            rules, values, float(header["expected_score"]), int(header["states"]), layout
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _intact(payload: memoryview, header: dict[str, object]) -> bool:
    """Whether the payload matches the header's CRC-32 (or, in older files, its SHA-256)."""
    if "crc32" in header:
        return zlib.crc32(payload) == header["crc32"]
    return hashlib.sha256(payload).hexdigest() == header["sha256"]


def load_or_solve(
    rules: RuleSet,
    *,
    use_cache: bool = True,
    cache_dir: str | os.PathLike[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    listener: ProgressListener | None = None,
    cancel: CancelToken | None = None,
) -> StrategyTable:
    """The solved table of these rules, from the cache when a valid copy is there.

    A missing table is solved once per machine (`derived.load_or_build`: a second process
    waits for the first's file), holding the process's one solving slot
    (`limits.solving_slot`); after writing a new table the cache is pruned to its size limit
    (`prune_cache`).

    Args:
        rules: single-column rules.
        use_cache: False to solve without reading or writing the cache.
        cache_dir: directory to use instead of $FIVEDICE_CACHE_DIR / the user cache.
        progress: passed to `solve` when a solve is needed.
        listener: told the solve's progress with an estimate of the time left.
        cancel: stops the solve between layers (`BuildCancelled`, nothing written).

    Raises:
        UnsupportedRulesError: the rules have more than one column.
        SolveNotAllowedError: `$FIVEDICE_SOLVE_RULES` does not list these rules.
        SolverBusyError: another table is being solved, longer than the caller may wait.
        CacheSettingError: `$FIVEDICE_CACHE_MAX_MB` is not a size.
        BuildCancelled: cancelled.
    """
    check_rules(rules)  # before anything else: never "busy" for rules it cannot solve
    check_allowed(rules)
    path = cache_path(rules, cache_dir)
    limit = cache_limit_bytes() if use_cache else 0
    pinned_since = time.time() - cache_pin_seconds()

    def build(temporary: Path | None, step: Step) -> StrategyTable:
        both = both_steps(step, progress)
        with solving_slot():
            ask_new_solve_permit(rules)
            if temporary is not None:
                _check_room(path.parent, limit, pinned_since)
            table = solve(rules, both)
        if temporary is not None:
            write_table(table, temporary)
        return table

    if not use_cache:
        return build_in_memory(build, kind=STRATEGY_KIND, listener=listener, cancel=cancel)
    table = _recent_table(rules, path)
    if table is not None:
        return table
    table = load_or_build(
        path, lambda found: load_table(rules, found), build, kind=STRATEGY_KIND,
        written=lambda: prune_cache(path.parent, limit, keep=path, pinned_since=pinned_since),
        listener=listener, cancel=cancel, wait=solve_wait(), on_busy=SolverBusyError,
    )  # fmt: skip
    _remember(path, table)
    return table


def strategy_progress(
    rules: RuleSet, cache_dir: str | os.PathLike[str] | None = None
) -> BuildProgress | None:
    """The progress of the rules' table's solve under way in any process, if any."""
    return build_progress(STRATEGY_KIND, cache_path(rules, cache_dir))


def load_cached(
    rules: RuleSet, *, cache_dir: str | os.PathLike[str] | None = None
) -> StrategyTable | None:
    """The table of these rules if the cache holds a valid copy, else None; never solves.

    For a one-off query that would rather not load the solver when there is nothing to solve
    (`fivedice advise` with a warm cache).

    Raises:
        SolveNotAllowedError: `$FIVEDICE_SOLVE_RULES` does not list these rules.
    """
    check_allowed(rules)
    path = cache_path(rules, cache_dir)
    table = _recent_table(rules, path)
    if table is None:
        table = load_table(rules, path)
        if table is not None:
            _remember(path, table)
    return table


def permit_cpu_tables(
    rules: RuleSet,
    levels: Iterable[str | None],
    *,
    cache_dir: str | os.PathLike[str] | None = None,
) -> None:
    """Asks the current permit for the table a new game's strong, expert or master CPUs play
    from, if nobody solved it yet: their moves are solved later in the background, where no
    client's permit is known, so the game's creation spends it.

    Raises:
        SolverBusyError: the permit refuses a new rule set.
    """
    if is_supported(rules) and any(level in OPTIMAL_LEVELS for level in levels):
        single = rules if rules.columns == 1 else rules.replace(column_multipliers=(1,))
        if not cache_path(single, cache_dir).exists():
            ask_new_solve_permit(single)


# -- size limit ---------------------------------------------------------------------------


class CacheSettingError(FivediceError):
    """`$FIVEDICE_CACHE_MAX_MB` is not a positive number of megabytes."""


def cache_limit_bytes() -> int:
    """The cache's size limit: `$FIVEDICE_CACHE_MAX_MB` megabytes (default 2,000: one rule
    set's goal tables, 577 MB for classic and 1.45 GB for Yatzy, beside many tables).

    Raises:
        CacheSettingError: the variable is not a positive number.
    """
    text = os.environ.get(CACHE_MAX_ENV, "").strip()
    if not text:
        return DEFAULT_CACHE_MAX_MB * 1_000_000
    try:
        megabytes = float(text)
    except ValueError:
        megabytes = float("nan")
    if not 0 < megabytes < 1e12:  # also refuses nan and inf
        raise CacheSettingError(
            N_("{variable} must be a positive number of megabytes, not {value!r}"),
            variable=CACHE_MAX_ENV,
            value=text[:40],
        )
    return int(megabytes * 1_000_000)


def cache_pin_seconds() -> float:
    """How long a used table stays pinned: `$FIVEDICE_CACHE_PIN_MINUTES` (default 60).

    Raises:
        CacheSettingError: the variable is not a number of minutes (0 or more).
    """
    text = os.environ.get(CACHE_PIN_ENV, "").strip()
    if not text:
        return DEFAULT_CACHE_PIN_MINUTES * 60
    try:
        minutes = float(text)
    except ValueError:
        minutes = float("nan")
    if not 0 <= minutes < 1e9:
        raise CacheSettingError(
            N_("{variable} must be a number of minutes (0 or more), not {value!r}"),
            variable=CACHE_PIN_ENV,
            value=text[:40],
        )
    return minutes * 60


def _tables(directory: Path) -> list[tuple[float, int, Path]]:
    """The directory's tables: (last use, size with its companions, path)."""
    found = []
    for candidate in directory.glob("strategy-*.bin"):
        with contextlib.suppress(OSError):
            info = candidate.stat()
            found.append((info.st_mtime, info.st_size + _companions_size(candidate), candidate))
    return found


def companions(table_path: Path) -> list[Path]:
    """The files computed from a table and kept beside it (`moments*-KEY.npy`,
    `breakdown*-KEY.npy`, the goal tables `thresholds*-KEY-TOP.npy`): they count towards its
    size and go with it."""
    key = table_path.stem.removeprefix("strategy-")
    found = {*table_path.parent.glob(f"*-{key}.npy"), *table_path.parent.glob(f"*-{key}-*.npy")}
    return sorted(found)


def keep_in_bounds(rules: RuleSet, directory: str | os.PathLike[str] | None = None) -> None:
    """Prunes the cache to its limit after a companion of the rules' table was written (as
    after writing a table; that table and the tables in use stay)."""
    table_path = cache_path(rules, directory)
    pinned_since = time.time() - cache_pin_seconds()
    prune_cache(table_path.parent, cache_limit_bytes(), keep=table_path, pinned_since=pinned_since)


def _companions_size(table_path: Path) -> int:
    size = 0
    for companion in companions(table_path):
        with contextlib.suppress(OSError):
            size += companion.stat().st_size
    return size


def _check_room(directory: Path, limit: int, pinned_since: float) -> None:
    """Refuses a new table when the tables in use alone fill the cache's budget.

    Raises:
        SolverBusyError: with the time until the oldest pinned table stops being in use.
    """
    pinned = [(used, size) for used, size, _ in _tables(directory) if used >= pinned_since]
    if sum(size for _, size in pinned) >= limit:
        wait = min(used for used, _ in pinned) - pinned_since
        raise SolverBusyError(max(1, math.ceil(wait)))


def prune_cache(
    directory: Path,
    limit: int,
    *,
    keep: Path | None = None,
    pinned_since: float | None = None,
) -> list[Path]:
    """Deletes the least recently used tables until the directory's tables fit in `limit` bytes.

        Use is the file's modification time: written when solved, refreshed when loaded. `keep`
        (the table just written) is never deleted, even alone over the limit: deleting it would
        only mean solving it again at the next request; nor is any table used at or after
        `pinned_since` (in use by a game: evicting it would cost a solve in the middle of the
        game), so the directory may stay over the limit. Leftover temporary files older than an
        hour (a crash while writing) and temporary files of killed builds
    (`derived.remove_stale_temporaries`) go first. Files that vanish meanwhile (another process
        pruning too) are skipped. A table's size includes its `companions`, deleted with it.

        Returns:
            The files deleted.
    """
    deleted: list[Path] = remove_stale_temporaries(directory)
    now = time.time()
    tables: list[tuple[float, int, Path]] = []
    for candidate in directory.glob("strategy-*"):
        try:
            info = candidate.stat()
        except OSError:
            continue
        if candidate.suffix == ".tmp":
            if now - info.st_mtime > 3600:
                with contextlib.suppress(OSError):
                    candidate.unlink()
                    deleted.append(candidate)
            continue
        if candidate.suffix == ".bin":
            tables.append((info.st_mtime, info.st_size + _companions_size(candidate), candidate))
    total = sum(size for _, size, _ in tables)
    for used, size, candidate in sorted(tables, key=lambda item: item[0]):
        if total <= limit:
            break
        if keep is not None and candidate == keep:
            continue
        if pinned_since is not None and used >= pinned_since:
            break  # this one and every later one are in use
        for companion in companions(candidate):
            with contextlib.suppress(OSError):
                companion.unlink()
                deleted.append(companion)
        with contextlib.suppress(OSError):
            candidate.unlink()
            deleted.append(candidate)
        total -= size
    return deleted


# -- tables in memory -----------------------------------------------------------------------
# A hint reads its table once per request; keeping the last few in memory spares the 8 MB read
# and checksum. An entry is used only while the file is the one it was read from (same
# inode, size and modification time), so a rewritten or damaged file is read again.

_RECENT_TABLES = 2
_TOUCH_EVERY_SECONDS = 60.0
_recent: OrderedDict[Path, tuple[tuple[int, int, int], StrategyTable]] = OrderedDict()
_recent_lock = threading.Lock()


def _signature(path: Path) -> tuple[int, int, int] | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_ino, info.st_size, info.st_mtime_ns


def _recent_table(rules: RuleSet, path: Path) -> StrategyTable | None:
    signature = _signature(path)
    with _recent_lock:
        entry = _recent.get(path)
    if signature is None or entry is None or entry[0] != signature or entry[1].rules != rules:
        return None
    if time.time() - signature[2] / 1e9 > _TOUCH_EVERY_SECONDS:
        _remember(path, entry[1])  # refreshes the use time the size limit goes by
    else:
        with _recent_lock:
            _recent.move_to_end(path)
    return entry[1]


def _remember(path: Path, table: StrategyTable) -> None:
    """Marks the file used now (for the size limit) and keeps its table in memory."""
    with contextlib.suppress(OSError):
        os.utime(path)
    signature = _signature(path)
    with _recent_lock:
        _recent.pop(path, None)
        if signature is not None:
            _recent[path] = (signature, table)
        while len(_recent) > _RECENT_TABLES:
            _recent.popitem(last=False)


# -- tables computed from a strategy table --------------------------------------------------

T = TypeVar("T")


class CompanionTables(DerivedTables[T]):
    """Tables computed from a rule set's strategy table by following its policy (moments,
    breakdowns) and kept beside it (`PREFIX-KEY.npy`, one of its `companions`), through the
    one lifecycle of `derived.DerivedTables`: in memory, else on disk, else computed once per
    machine; the cache pruned after each.

    Args:
        kind: the tables' kind (`derived.BuildProgress.kind`).
        prefix: the file name's start (with the kind's version).
        load: reads a file for a strategy table; None when missing or not matching.
        compute: computes the table of a strategy table, calling `step(done, total)`.
        save: writes a computed table to an open file.
    """

    def __init__(
        self,
        kind: str,
        prefix: str,
        load: Callable[[StrategyTable, Path], T | None],
        compute: Callable[[StrategyTable, Step], T],
        save: Callable[[T, BinaryIO], None],
    ) -> None:
        super().__init__(kind)
        self.prefix = prefix
        self._load = load
        self._compute = compute
        self._save = save

    def path(self, rules: RuleSet, cache_dir: str | os.PathLike[str] | None = None) -> Path:
        return resolve_cache_dir(cache_dir) / f"{self.prefix}-{cache_key(rules)}.npy"

    @staticmethod
    def key(
        rules: RuleSet, use_cache: bool = True, cache_dir: str | os.PathLike[str] | None = None
    ) -> tuple[RuleSet, bool, str | None]:
        return rules, use_cache, None if cache_dir is None else str(cache_dir)

    def for_table(
        self,
        table: StrategyTable,
        *,
        use_cache: bool = True,
        cache_dir: str | os.PathLike[str] | None = None,
        listener: ProgressListener | None = None,
        cancel: CancelToken | None = None,
    ) -> T:
        """The table computed from `table` (`use_cache` False: computed, never stored)."""
        rules = table.rules

        def build(temporary: Path | None, step: Step) -> T:
            result = self._compute(table, step)
            if temporary is not None:
                with temporary.open("wb") as handle:
                    self._save(result, handle)
            return result

        return self.get(
            self.key(rules, use_cache, cache_dir),
            self.path(rules, cache_dir) if use_cache else None,
            lambda path: self._load(table, path),
            build,
            written=lambda: keep_in_bounds(rules, cache_dir),
            listener=listener,
            cancel=cancel,
        )

    def of(
        self,
        rules: RuleSet,
        *,
        use_cache: bool = True,
        cache_dir: str | os.PathLike[str] | None = None,
        listener: ProgressListener | None = None,
        cancel: CancelToken | None = None,
    ) -> T:
        """The table of single-column rules (their strategy table solved as needed)."""
        found = self.at_hand(self.key(rules, use_cache, cache_dir))
        if found is not None:
            return found
        table = load_or_solve(
            rules, use_cache=use_cache, cache_dir=cache_dir, listener=listener, cancel=cancel
        )
        return self.for_table(
            table, use_cache=use_cache, cache_dir=cache_dir, listener=listener, cancel=cancel
        )

    def is_ready(self, rules: RuleSet) -> bool:
        """Whether the table of these rules is at hand: in memory, or both files on disk (a
        quick load). Never computes."""
        if self.at_hand(self.key(rules)) is not None:
            return True
        return cache_path(rules).exists() and self.path(rules).exists()

    def ready(self, rules: RuleSet) -> T | None:
        """The table if it is at hand (in memory, or both files on disk: a quick load); else
        None, and it is prepared in a background thread (one rule set at a time), so that a
        front end never waits for it.

        Raises:
            SolveNotAllowedError: the rules are not on this process's allow-list (the build
                solves the rules' table if nobody did).
            SolverBusyError: the strategy table is new and the current permit refuses it (a
                server's client asks the same permit as for any other table).
        """
        if not self.is_ready(rules):
            check_allowed(rules)

        def before_start() -> None:
            if not cache_path(rules).exists():
                ask_new_solve_permit(rules)

        return self.if_ready(
            self.key(rules),
            self.path(rules),
            lambda listener: self.of(rules, listener=listener),
            quick=lambda: self.is_ready(rules),
            before_start=before_start,
        )

    def build_progress(self, rules: RuleSet) -> BuildProgress | None:
        """The progress of the table's build under way, if any."""
        return self.progress(self.key(rules), self.path(rules))
