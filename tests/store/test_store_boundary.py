"""The store's walls: outside `fivedice.store`, no module imports the PostgreSQL driver or
touches a private name of a store object (`store._errors`, `service.store._reader`...)."""

from __future__ import annotations

import ast
from pathlib import Path

import fivedice

PACKAGE = Path(fivedice.__file__).parent
STORE = PACKAGE / "store"


def _modules_outside_the_store() -> list[Path]:
    return [path for path in PACKAGE.rglob("*.py") if STORE not in path.parents]


def _is_store(node: ast.expr) -> bool:
    """`store`, `self.store`, `service.store`...: an expression that names a store."""
    if isinstance(node, ast.Name):
        return node.id == "store"
    return isinstance(node, ast.Attribute) and node.attr == "store"


def _breaches(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        else:
            names = []
        found += [f"imports {name}" for name in names if name.split(".")[0] == "psycopg"]
        if (
            isinstance(node, ast.Attribute)
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and _is_store(node.value)
        ):
            found.append(f"line {node.lineno}: .{node.attr}")
    return found


def test_the_modules_outside_the_store_scan_is_not_empty():
    modules = _modules_outside_the_store()
    assert len(modules) > 50 and not any(STORE in path.parents for path in modules)


def test_nothing_outside_the_store_imports_the_database_driver_or_its_private_names():
    breaches = {
        str(path.relative_to(PACKAGE)): found
        for path in _modules_outside_the_store()
        if (found := _breaches(path))
    }
    assert breaches == {}
