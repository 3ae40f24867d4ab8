"""The strategy package's modules import each other one way only (no circle, lazy imports
included), and none takes a private name from another."""

from __future__ import annotations

import ast
from pathlib import Path

import fivedice.strategy

STRATEGY = Path(fivedice.strategy.__file__).parent
PREFIX = "fivedice.strategy."


def _imports(path: Path) -> tuple[set[str], list[str]]:
    """The strategy modules a module imports (anywhere in it), and the private names."""
    modules: set[str] = set()
    private: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith(PREFIX):
                modules.add(node.module.removeprefix(PREFIX))
                private += [
                    f"{node.module}.{alias.name}"
                    for alias in node.names
                    if alias.name.startswith("_")
                ]
            elif node.module == "fivedice.strategy":
                modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            modules.update(
                alias.name.removeprefix(PREFIX)
                for alias in node.names
                if alias.name.startswith(PREFIX)
            )
    return modules, private


GRAPH = {path.stem: _imports(path) for path in STRATEGY.glob("*.py") if path.stem != "__init__"}


def test_the_strategy_modules_import_each_other_without_a_circle():
    edges = {name: modules & set(GRAPH) - {name} for name, (modules, _private) in GRAPH.items()}
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, " -> ".join((*path, name))
        if name in done:
            return
        for imported in sorted(edges[name]):
            visit(imported, (*path, name))
        done.add(name)

    for name in sorted(edges):
        visit(name, ())
    assert {"bots", "master", "simulate", "players"} <= done


def test_no_strategy_module_imports_a_private_name():
    private = {name: names for name, (_modules, names) in GRAPH.items() if names}
    assert private == {}
