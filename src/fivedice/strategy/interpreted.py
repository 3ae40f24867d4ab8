"""The strategy modules with numba's compiler switched off, for one query in a short process.

Importing numba costs about half a second and 150 MB before the first compiled call, more than
a whole `fivedice advise` needs when the solved table is already in the cache: one decision
point is a few thousand steps, a few milliseconds as plain Python. `interpreted(*names)` imports
private copies of strategy modules (and of the strategy modules they import) in which `njit`
leaves each function as the Python it is written in, so the query runs the very same kernel
code, uncompiled. The copies never enter `sys.modules`: every other import in the process still
gets the compiled modules.

Only for short-lived work that never solves: an interpreted solve would take hours.
"""

from __future__ import annotations

import importlib
import sys
import threading
import types
from collections.abc import Callable
from typing import Any

__all__ = ["interpreted", "numba_loaded"]

_PACKAGE = "fivedice.strategy"
_lock = threading.Lock()


def numba_loaded() -> bool:
    """Whether numba is already imported (then the compiled modules cost nothing more)."""
    return "numba" in sys.modules


def _njit(*args: Any, **options: Any) -> Any:
    """`numba.njit` as a no-op: `@njit` and `@njit(cache=True, ...)` return the function."""
    if len(args) == 1 and callable(args[0]) and not options:
        return args[0]

    def keep(function: Callable[..., Any]) -> Callable[..., Any]:
        return function

    return keep


def _stub() -> types.ModuleType:
    stub = types.ModuleType("numba", "numba's decorators as no-ops (fivedice.strategy.interpreted)")
    stub.njit = _njit  # type: ignore[attr-defined]
    stub.jit = _njit  # type: ignore[attr-defined]
    stub.prange = range  # type: ignore[attr-defined]
    return stub


def _swapped(name: str) -> bool:
    return name == "numba" or name.startswith(("numba.", _PACKAGE + "."))


def interpreted(*names: str) -> list[types.ModuleType]:
    """Private, uncompiled copies of strategy modules (e.g. "fivedice.strategy.cache"), imported
    together so that they share their copies of the modules they import.

    Raises:
        ValueError: a name is not a module of the strategy package.
        ImportError: a module needs more of numba than its decorators.
    """
    for name in names:
        if not name.startswith(_PACKAGE + "."):
            raise ValueError(f"{name} is not a module of {_PACKAGE}")
    with _lock:
        saved = {key: module for key, module in sys.modules.items() if _swapped(key)}
        package = sys.modules.get(_PACKAGE)
        package_attributes = dict(vars(package)) if package is not None else None
        for key in saved:
            del sys.modules[key]
        sys.modules["numba"] = _stub()
        try:
            return [importlib.import_module(name) for name in names]
        finally:
            for key in [key for key in sys.modules if _swapped(key)]:
                del sys.modules[key]
            sys.modules.update(saved)
            _restore_package(package_attributes)


def _restore_package(attributes: dict[str, object] | None) -> None:
    """Points the package's submodule attributes back at the modules of `sys.modules`."""
    package = sys.modules.get(_PACKAGE)
    if package is None:
        return
    for attribute, value in list(vars(package).items()):
        if isinstance(value, types.ModuleType) and value.__name__.startswith(_PACKAGE + "."):
            if attributes is not None and attribute in attributes:
                setattr(package, attribute, attributes[attribute])
            else:
                delattr(package, attribute)
