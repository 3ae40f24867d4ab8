"""Solved strategy tables on disk, in the user cache directory.

A file is a fixed magic line, a JSON header (rules, solver version, shape, payload size, CRC-32
and SHA-256) and the raw float64 values. Loading maps the file and checks its CRC-32 (any flipped
bit, any burst up to 32 bits changes it; 3 × faster than SHA-256: a one-off `fivedice advise`
spends most of its time loading the table); files of older versions, without one, are checked by
their SHA-256. Files are written atomically (temp file + `os.replace`);
a file that fails any check on load is solved again and rewritten rather than trusted.
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

import numpy as np
import platformdirs

from fivedice.core.errors import N_, FivediceError
from fivedice.core.rules import RuleSet
from fivedice.strategy.limits import (
    OPTIMAL_LEVELS,
    SolverBusyError,
    ask_new_solve_permit,
    check_allowed,
    is_supported,
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
    "CacheSettingError",
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
]

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
    """A short hash of every rule option and the solver version."""
    text = json.dumps({"rules": rules.settings(), "solver": SOLVER_VERSION}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def cache_path(rules: RuleSet, directory: str | os.PathLike[str] | None = None) -> Path:
    """Where the table of these rules is kept."""
    return resolve_cache_dir(directory) / f"strategy-{cache_key(rules)}.bin"


def save_table(table: StrategyTable, path: Path) -> None:
    """Writes a table atomically: readers see the old file or the complete new one.

    A compact table (Maxi Yatzy) is written as float32: 134 MB instead of 268 (values to
    about 3e-5 points, the expected score in the header exact).
    """
    dtype = _DTYPE if table.layout is None else _COMPACT_DTYPE
    payload = np.ascontiguousarray(table.values, dtype=dtype).tobytes()
    header = {
        "solver": SOLVER_VERSION,
        "rules": table.rules.settings(),
        "shape": list(table.values.shape),
        "dtype": dtype,
        "expected_score": table.expected_score,
        "states": table.states,
        "size": len(payload),
        "crc32": zlib.crc32(payload),
        "sha256": hashlib.sha256(payload).hexdigest(),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(_MAGIC)
            handle.write(json.dumps(header).encode() + b"\n")
            handle.write(payload)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


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
) -> StrategyTable:
    """The solved table of these rules, from the cache when a valid copy is there.

    A solve holds the process's one solving slot (`limits.solving_slot`); after writing a new
    table the cache is pruned to its size limit (`prune_cache`).

    Args:
        rules: single-column rules.
        use_cache: False to solve without reading or writing the cache.
        cache_dir: directory to use instead of $FIVEDICE_CACHE_DIR / the user cache.
        progress: passed to `solve` when a solve is needed.

    Raises:
        UnsupportedRulesError: the rules have more than one column.
        SolveNotAllowedError: `$FIVEDICE_SOLVE_RULES` does not list these rules.
        SolverBusyError: another table is being solved, longer than the caller may wait.
        CacheSettingError: `$FIVEDICE_CACHE_MAX_MB` is not a size.
    """
    check_rules(rules)  # before anything else: never "busy" for rules it cannot solve
    check_allowed(rules)
    if not use_cache:
        with solving_slot():
            ask_new_solve_permit(rules)
            return solve(rules, progress)
    limit = cache_limit_bytes()
    path = cache_path(rules, cache_dir)
    table = _recent_table(rules, path)
    if table is not None:
        return table
    table = load_table(rules, path)
    if table is None:
        with solving_slot():
            table = load_table(rules, path)  # solved meanwhile by the thread we waited for?
            if table is None:
                ask_new_solve_permit(rules)
                pinned_since = time.time() - cache_pin_seconds()
                _check_room(path.parent, limit, pinned_since)
                table = solve(rules, progress)
                with contextlib.suppress(OSError):  # unwritable: only costs a solve next time
                    save_table(table, path)
                    prune_cache(path.parent, limit, keep=path, pinned_since=pinned_since)
    _remember(path, table)
    return table


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
    hour (a crash while writing) go first. Files that vanish meanwhile (another process
    pruning too) are skipped. A table's size includes its `companions`, deleted with it.

    Returns:
        The files deleted.
    """
    deleted: list[Path] = []
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
