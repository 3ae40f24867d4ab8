"""The rules of the house, read from the source with `ast` (nothing of fivedice is imported):

- no import circles among the modules of src/fivedice;
- `core` imports nothing of fivedice but `fivedice.i18n`;
- `strategy` and `store` import only `core` (and `i18n`);
- no front end (`plain`, `tui`, `web`) imports another; `cli` is the launcher that starts
  each of them, so it may import them all (and no front end imports `cli`); what front ends
  share to render (`wording`, `sheet`) imports no front end;
- front ends reach the strategy layer only through the service;
- no module imports another module's private name (gettext's `_` aside);
- nothing outside `store/` imports the PostgreSQL driver or touches a private name of the
  store (`fivedice.store.x._name`, `store._name`).

Every import counts, wherever it stands (a lazy import inside a function is still a
dependency), except those under `if TYPE_CHECKING:`, which never run.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SOURCE / "fivedice"
FRONT_ENDS = ("plain", "tui", "web")
RENDERERS = ("wording", "sheet")  # what front ends share: words, the score sheet
LAUNCHER = "cli"
DRIVERS = ("psycopg", "psycopg2", "psycopg_pool", "asyncpg")


@dataclass(frozen=True)
class Import:
    """One import statement's target, where it stands."""

    source: str  # the importing module, e.g. fivedice.web.driver
    target: str  # the imported module (or module.name), e.g. fivedice.store.database
    names: tuple[str, ...]  # the names a `from` import takes (empty for `import x`)
    line: int

    def __str__(self) -> str:
        taken = f" ({', '.join(self.names)})" if self.names else ""
        return f"{self.source}:{self.line} imports {self.target}{taken}"


def module_name(path: Path) -> str:
    """The dotted name of a source file (a package's `__init__.py` is the package)."""
    parts = path.relative_to(SOURCE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES: dict[str, Path] = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _type_checking_only(tree: ast.Module) -> set[int]:
    """The ids of import nodes under `if TYPE_CHECKING:` (they never run)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            name = test.id if isinstance(test, ast.Name) else getattr(test, "attr", "")
            if name == "TYPE_CHECKING":
                skipped.update(id(inner) for stmt in node.body for inner in ast.walk(stmt))
    return skipped


def _absolute(source: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module a `from` import names (relative imports resolved)."""
    if node.level == 0:
        return node.module or ""
    base = source.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def imports_of(name: str) -> Iterator[Import]:
    """Every import of module `name`, resolved to the most specific module it names."""
    path = MODULES[name]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = _type_checking_only(tree)
    is_package = path.name == "__init__.py"
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(name, alias.name, (), node.lineno)
        elif isinstance(node, ast.ImportFrom):
            module = _absolute(name, is_package, node)
            taken = tuple(alias.name for alias in node.names)
            submodules = [f"{module}.{t}" for t in taken if f"{module}.{t}" in MODULES]
            for target in submodules:
                yield Import(name, target, (), node.lineno)
            rest = tuple(t for t in taken if f"{module}.{t}" not in MODULES)
            if rest or not submodules:
                yield Import(name, module, rest, node.lineno)


ALL_IMPORTS: list[Import] = [found for name in MODULES for found in imports_of(name)]


def layer_of(module: str) -> str | None:
    """The layer (top-level package) of a fivedice module: `core`, `web`...; None outside."""
    parts = module.split(".")
    if parts[0] != "fivedice":
        return None
    return parts[1] if len(parts) > 1 else ""


def fivedice_module(target: str) -> str | None:
    """The fivedice module an import target belongs to (the longest known prefix)."""
    parts = target.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in MODULES:
            return candidate
    return None


def offending(rule) -> list[str]:
    """The imports that break `rule(source_layer, target_layer, found)` (True: allowed)."""
    return [
        str(found)
        for found in ALL_IMPORTS
        if (target := layer_of(found.target)) is not None
        and not rule(layer_of(found.source), target, found)
    ]


def test_the_source_is_found() -> None:
    assert {"fivedice.core.game", "fivedice.store", "fivedice.web.app"} <= set(MODULES)
    assert len(ALL_IMPORTS) > 100


def _cycles() -> list[list[str]]:
    """Import circles among fivedice modules: one per strongly connected group (Tarjan)."""
    graph: dict[str, set[str]] = {name: set() for name in MODULES}
    for found in ALL_IMPORTS:
        target = fivedice_module(found.target)
        if target is not None and target != found.source:
            graph[found.source].add(target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def connect(name: str) -> None:
        index[name] = low[name] = len(index)
        stack.append(name)
        on_stack.add(name)
        for other in sorted(graph[name]):
            if other not in index:
                connect(other)
                low[name] = min(low[name], low[other])
            elif other in on_stack:
                low[name] = min(low[name], index[other])
        if low[name] == index[name]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == name:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for name in sorted(graph):
        if name not in index:
            connect(name)
    return groups


def _edges_within(group: list[str]) -> list[str]:
    members = set(group)
    return sorted(
        str(found)
        for found in ALL_IMPORTS
        if found.source in members and fivedice_module(found.target) in members - {found.source}
    )


def test_no_import_circles() -> None:
    circles = _cycles()
    assert circles == [], "import circles:\n" + "\n\n".join(
        " <-> ".join(group) + "\n  " + "\n  ".join(_edges_within(group)) for group in circles
    )


def test_core_imports_nothing_of_fivedice_but_i18n() -> None:
    bad = offending(lambda source, target, _: source != "core" or target in ("core", "i18n"))
    assert bad == [], "core imports more than i18n:\n" + "\n".join(bad)


def test_strategy_imports_only_core() -> None:
    bad = offending(
        lambda source, target, _: source != "strategy" or target in ("strategy", "core", "i18n")
    )
    assert bad == [], "strategy imports more than core:\n" + "\n".join(bad)


def test_store_imports_only_core() -> None:
    bad = offending(
        lambda source, target, _: source != "store" or target in ("store", "core", "i18n")
    )
    assert bad == [], "store imports more than core:\n" + "\n".join(bad)


def test_no_front_end_imports_another() -> None:
    def allowed(source: str | None, target: str, _: Import) -> bool:
        if source in FRONT_ENDS:
            return target == source or target not in (*FRONT_ENDS, LAUNCHER)
        return True

    bad = offending(allowed)
    assert bad == [], "a front end imports another:\n" + "\n".join(bad)


def test_only_the_launcher_imports_the_launcher() -> None:
    bad = offending(lambda source, target, _: target != LAUNCHER or source in (LAUNCHER, ""))
    assert bad == [], "the cli is imported from inside:\n" + "\n".join(bad)


def test_only_the_store_imports_the_database_driver() -> None:
    bad = [
        str(found)
        for found in ALL_IMPORTS
        if found.target.split(".")[0] in DRIVERS and layer_of(found.source) != "store"
    ]
    assert bad == [], "the database driver imported outside store/:\n" + "\n".join(bad)


def _private_store_names() -> Iterator[str]:
    """Private names of the store used outside it: imported from a store module, a private
    store module, or read as `<...>.store._name` / `store._name` (the service's store, a
    store module)."""
    for found in ALL_IMPORTS:
        if layer_of(found.source) == "store" or layer_of(found.target) != "store":
            continue
        module_parts = found.target.split(".")[2:]
        private = [part for part in module_parts if part.startswith("_")]
        private += [name for name in found.names if name.startswith("_")]
        if private:
            yield f"{found} (private: {', '.join(private)})"
    for name, path in MODULES.items():
        if layer_of(name) == "store":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Attribute) or not node.attr.startswith("_"):
                continue
            if node.attr.startswith("__"):
                continue
            owner = node.value
            owner_name = owner.id if isinstance(owner, ast.Name) else getattr(owner, "attr", "")
            if owner_name == "store":
                yield f"{name}:{node.lineno} reads store.{node.attr}"


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_nothing_outside_the_store_touches_its_private_names() -> None:
    bad = sorted(set(_private_store_names()))
    assert bad == [], "private names of the store used outside it:\n" + "\n".join(bad)


def test_what_front_ends_share_imports_no_front_end() -> None:
    bad = offending(
        lambda source, target, _: source not in RENDERERS or target not in (*FRONT_ENDS, LAUNCHER)
    )
    assert bad == [], "a shared renderer imports a front end:\n" + "\n".join(bad)


def test_no_module_imports_another_modules_private_name() -> None:
    bad = [
        str(found)
        for found in ALL_IMPORTS
        if layer_of(found.target) is not None
        and any(name.startswith("_") and name != "_" for name in found.names)
    ]
    assert bad == [], "private names imported from another module:\n" + "\n".join(bad)


def test_front_ends_reach_the_strategy_layer_only_through_the_service() -> None:
    bad = offending(
        lambda source, target, _: source not in (*FRONT_ENDS, *RENDERERS) or target != "strategy"
    )
    assert bad == [], "a front end imports the strategy layer:\n" + "\n".join(bad)
