"""Where numba keeps the compiled kernels: one directory per version of the kernels' sources.

numba's `cache=True` checks only the source file of the function it loads: a kernel that calls
a jitted function of another file, or reads another module's constant (frozen into the compiled
code), is loaded from its cache after that other file changed and computes with the old code
(after a `git pull` that changed `kernel.py` but not `turn_cache.py`, the coach gave wrong
values until the `.nbi`/`.nbc` files were removed). So the compiled kernels go to a directory
named by a hash of the source text of every module of the strategy package that defines jitted
functions (those that import numba) and of the modules whose constants kernels read
(`KERNEL_CONSTANTS`): a change in any of them starts a new, empty directory, which numba fills
as the kernels are first used (`fivedice warm` and `make warm-kernels` fill it at once).

The directory is `ROOT/fivedice-kernels-HASH`, ROOT being `$NUMBA_CACHE_DIR` when the user set
it, else `kernels/` in the user cache directory (not `$FIVEDICE_CACHE_DIR`: the tests point that
at a folder of their own, and every process they start would compile every kernel again).
`use_kernel_cache` (run when the strategy package is imported, before any of its modules
imports numba) sets `$NUMBA_CACHE_DIR` to it, so processes started from this one use it too.
A new directory removes the others not used for `PRUNE_AFTER_SECONDS` (each import marks its
own directory used).

The same hash versions the solved tables (`code_version`, part of `cache.cache_key`): a table
written by older kernels is never read by newer ones.

Cheap: reading and hashing the sources (about 500 kB) takes about a millisecond, and nothing
here imports numpy or numba.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import sys
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path

import platformdirs

__all__ = [
    "DIRECTORY_PREFIX",
    "KERNEL_CONSTANTS",
    "NUMBA_CACHE_ENV",
    "PRUNE_AFTER_SECONDS",
    "code_version",
    "kernel_cache_dir",
    "kernel_hash",
    "kernel_sources",
    "use_kernel_cache",
]

NUMBA_CACHE_ENV = "NUMBA_CACHE_DIR"
DIRECTORY_PREFIX = "fivedice-kernels-"
KERNEL_CONSTANTS = ("rule_arrays.py",)
"""Modules without jitted functions whose constants the kernels read (the layout of the rule
arrays, `CFG_*`): numba freezes them into the compiled code."""
PRUNE_AFTER_SECONDS = 24 * 3600.0
"""A kernel directory not used for this long goes when a new one is made."""

_PACKAGE = Path(__file__).resolve().parent
_NUMBA_IMPORTS = (b"\nfrom numba import ", b"\nimport numba\n")  # (at the top of a module)
_OURS = re.compile(re.escape(DIRECTORY_PREFIX) + "[0-9a-f]{16}")


def _kernel_texts(package: Path, read: Callable[[Path], bytes]) -> list[tuple[Path, bytes]]:
    """Each of `kernel_sources` with its text (every module read once)."""
    texts = ((path, read(path)) for path in sorted(package.rglob("*.py")))
    return [
        (path, text)
        for path, text in texts
        if path.name in KERNEL_CONSTANTS or any(line in text for line in _NUMBA_IMPORTS)
    ]


def kernel_sources(package: Path = _PACKAGE) -> list[Path]:
    """The strategy modules (subpackages included) that define jitted functions, and
    `KERNEL_CONSTANTS`, in a fixed order."""
    return [path for path, _text in _kernel_texts(package, Path.read_bytes)]


def kernel_hash(package: Path = _PACKAGE, read: Callable[[Path], bytes] = Path.read_bytes) -> str:
    """A short hash of the kernels' source text (`kernel_sources`, each with its path in the
    package): it changes with any of them."""
    digest = hashlib.sha256()
    for path, text in _kernel_texts(package, read):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0")
        digest.update(len(text).to_bytes(8, "little") + text)
    return digest.hexdigest()[:16]


@cache
def code_version() -> str:
    """The hash of this installation's kernel sources (`kernel_hash`), computed once."""
    return kernel_hash()


def kernel_cache_dir(environ: dict[str, str] | None = None, digest: str | None = None) -> Path:
    """The directory of the compiled kernels of these sources (see the module's doc)."""
    environ = dict(os.environ) if environ is None else environ
    chosen = environ.get(NUMBA_CACHE_ENV)
    if chosen and _OURS.fullmatch(Path(chosen).name):
        root = Path(chosen).parent  # set by the fivedice process that started this one
    elif chosen:
        root = Path(chosen)
    else:
        root = Path(platformdirs.user_cache_dir("fivedice")) / "kernels"
    return root / f"{DIRECTORY_PREFIX}{digest or code_version()}"


def use_kernel_cache() -> Path:
    """Points numba's cache at `kernel_cache_dir` (the environment, for numba's import and
    for the processes started from here; numba's config too if it is imported already),
    marks the directory used and prunes the old ones when it is new. Returns it."""
    directory = kernel_cache_dir()
    os.environ[NUMBA_CACHE_ENV] = str(directory)
    numba_config = sys.modules.get("numba.core.config")
    if numba_config is not None:
        numba_config.CACHE_DIR = str(directory)  # type: ignore[attr-defined]
    with contextlib.suppress(OSError):  # (a read-only cache: numba compiles in memory)
        new = not directory.exists()
        directory.mkdir(parents=True, exist_ok=True)
        os.utime(directory)
        if new:
            _prune(directory)
    return directory


def _prune(keep: Path) -> None:
    """Removes the other kernel directories not used for `PRUNE_AFTER_SECONDS`."""
    oldest = time.time() - PRUNE_AFTER_SECONDS
    for other in keep.parent.iterdir():
        if other != keep and _OURS.fullmatch(other.name):
            with contextlib.suppress(OSError):
                if other.stat().st_mtime < oldest:
                    shutil.rmtree(other)
