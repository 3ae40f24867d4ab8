"""The front ends share the service and the wording, never each other's modules."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import fivedice

PACKAGE = Path(fivedice.__file__).parent
FRONT_ENDS = ("plain", "tui", "web")


def imported_modules(path: Path) -> set[str]:
    """Every fivedice module a file imports, lazy imports inside functions too."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("fivedice.")}


@pytest.mark.parametrize("front_end", FRONT_ENDS)
def test_no_front_end_imports_another(front_end: str) -> None:
    others = {f"fivedice.{name}" for name in FRONT_ENDS if name != front_end}
    crossing = sorted(
        f"{path.relative_to(PACKAGE)} imports {module}"
        for path in (PACKAGE / front_end).rglob("*.py")
        for module in imported_modules(path)
        if any(module == other or module.startswith(other + ".") for other in others)
    )
    assert crossing == []
