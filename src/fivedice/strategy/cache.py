"""Solved strategy tables on disk, in the user cache directory.

A file is a fixed magic line, a JSON header (rules, solver version, shape, payload size and
SHA-256) and the raw float32 values. Files are written atomically (temp file + `os.replace`);
a file that fails any check on load is solved again and rewritten rather than trusted.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import platformdirs

from fivedice.core.rules import RuleSet
from fivedice.strategy.solver import StrategyTable, solve

__all__ = [
    "CACHE_ENV",
    "SOLVER_VERSION",
    "cache_key",
    "cache_path",
    "load_or_solve",
    "resolve_cache_dir",
]

SOLVER_VERSION = "1"
"""Bump whenever the solver or the file layout changes what a table holds."""

CACHE_ENV = "FIVEDICE_CACHE_DIR"
_MAGIC = b"FIVEDICE-STRATEGY\n"


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
    """Writes a table atomically: readers see the old file or the complete new one."""
    payload = np.ascontiguousarray(table.values, dtype=np.float32).tobytes()
    header = {
        "solver": SOLVER_VERSION,
        "rules": table.rules.settings(),
        "shape": list(table.values.shape),
        "dtype": "<f4",
        "expected_score": table.expected_score,
        "states": table.states,
        "size": len(payload),
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
    """Reads a table written by `save_table` for these rules; None if missing or damaged."""
    try:
        with path.open("rb") as handle:
            if handle.readline() != _MAGIC:
                return None
            header = json.loads(handle.readline())
            payload = bytearray(int(header["size"]))
            if handle.readinto(payload) != len(payload) or handle.read(1):
                return None
        if (
            header["solver"] != SOLVER_VERSION
            or header["rules"] != rules.settings()
            or header["dtype"] != "<f4"
            or hashlib.sha256(payload).hexdigest() != header["sha256"]
        ):
            return None
        shape = tuple(int(n) for n in header["shape"])
        values = np.frombuffer(payload, dtype="<f4").reshape(shape)
        return StrategyTable(rules, values, float(header["expected_score"]), int(header["states"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def load_or_solve(
    rules: RuleSet,
    *,
    use_cache: bool = True,
    cache_dir: str | os.PathLike[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> StrategyTable:
    """The solved table of these rules, from the cache when a valid copy is there.

    Args:
        rules: single-column rules.
        use_cache: False to solve without reading or writing the cache.
        cache_dir: directory to use instead of $FIVEDICE_CACHE_DIR / the user cache.
        progress: passed to `solve` when a solve is needed.

    Raises:
        UnsupportedRulesError: the rules have more than one column.
    """
    if not use_cache:
        return solve(rules, progress)
    path = cache_path(rules, cache_dir)
    table = load_table(rules, path)
    if table is None:
        table = solve(rules, progress)
        with contextlib.suppress(OSError):  # an unwritable cache only costs a solve next time
            save_table(table, path)
    return table
