"""The rules of the house, read from the source with `ast` (nothing of fivedice is imported):

- no import circles among the modules of src/fivedice, not even through imports made only
  for the type checker;
- `core` imports nothing of fivedice but `fivedice.i18n`;
- `strategy` and `store` import only `core` (and `i18n`);
- no front end (`plain`, `tui`, `web`) imports another; `cli` is the launcher that starts
  each of them, so it may import them all (and no front end imports `cli`); what front ends
  share to render (`wording`, `sheet`) imports no front end;
- front ends reach the strategy layer only through the service;
- no module imports another module's private name (gettext's `_` aside), nor reads one by
  attribute (`solver._turn` through `import solver as s`): what others need is public;
- nothing outside `store/` imports a database driver or SQLAlchemy, or touches a private name
  of the store (`fivedice.store.x._name`, `store._name`);
- front ends do not import the store (they call the service); the web front end's imports of
  today are an allow-list that may only shrink.

Every import counts, wherever it stands (a lazy import inside a function is still a
dependency), except those under `if TYPE_CHECKING:`, which never run (they count for
circles only).
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SOURCE / "fivedice"
FRONT_ENDS = ("plain", "tui", "web")
RENDERERS = ("wording", "sheet")  # what front ends share: words, the score sheet
LAUNCHER = "cli"
DRIVERS = ("psycopg", "psycopg2", "psycopg_pool", "asyncpg", "sqlite3", "sqlalchemy", "alembic")


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


def imports_of(name: str, *, type_checking: bool = False) -> Iterator[Import]:
    """Every import of module `name`, resolved to the most specific module it names (with
    `type_checking`, those under `if TYPE_CHECKING:` too)."""
    path = MODULES[name]
    tree = _tree(name)
    skipped = set() if type_checking else _type_checking_only(tree)
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


@functools.cache
def _tree(name: str) -> ast.Module:
    """Module `name`'s syntax tree, parsed once (on first use: not while pytest collects)."""
    return ast.parse(MODULES[name].read_text(encoding="utf-8"))


@functools.cache
def all_imports(*, type_checking: bool = False) -> tuple[Import, ...]:
    """Every import of every module; with `type_checking`, those made only for the type
    checker included (the circles' graph). Read on first use, by the worker that runs these
    tests, not by every pytest worker while it collects."""
    return tuple(
        found for name in MODULES for found in imports_of(name, type_checking=type_checking)
    )


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
        for found in all_imports()
        if (target := layer_of(found.target)) is not None
        and not rule(layer_of(found.source), target, found)
    ]


def test_the_source_is_found() -> None:
    assert {"fivedice.core.game", "fivedice.store", "fivedice.web.app"} <= set(MODULES)
    assert len(all_imports()) > 100


def _cycles() -> list[list[str]]:
    """Import circles among fivedice modules: one per strongly connected group (Tarjan)."""
    graph: dict[str, set[str]] = {name: set() for name in MODULES}
    for found in all_imports(type_checking=True):
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
        for found in all_imports(type_checking=True)
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


def test_only_the_store_imports_a_database_driver() -> None:
    bad = [
        str(found)
        for found in all_imports()
        if found.target.split(".")[0] in DRIVERS and layer_of(found.source) != "store"
    ]
    assert bad == [], "a database driver imported outside store/:\n" + "\n".join(bad)


# The web front end's imports of the store today, (module, what it takes): moving them behind
# the service is the web core's rebuild. The list may only shrink; a new one fails the test.
WEB_STORE_IMPORTS = {
    ("fivedice.web.app", "fivedice.store.notices"),
    ("fivedice.web.app", "fivedice.store.pg_async"),
    ("fivedice.web.driver", "fivedice.store"),
    ("fivedice.web.driver", "fivedice.store.notices"),
    ("fivedice.web.driver", "fivedice.store.pg_lease"),
    ("fivedice.web.hub", "fivedice.store"),
    ("fivedice.web.hub", "fivedice.store.browser_seats"),
    ("fivedice.web.hub", "fivedice.store.notices"),
    ("fivedice.web.hub", "fivedice.store.rooms"),
    ("fivedice.web.live", "fivedice.store"),
    ("fivedice.web.live", "fivedice.store.notices"),
    ("fivedice.web.live", "fivedice.store.pg_notify"),
    ("fivedice.web.routers.api", "fivedice.store.browser_seats"),
    ("fivedice.web.routers.api", "fivedice.store.notices"),
    ("fivedice.web.routers.api", "fivedice.store.rooms"),
    ("fivedice.web.routers.pages", "fivedice.store"),
    ("fivedice.web.routers.pages", "fivedice.store.browser_seats"),
    ("fivedice.web.routers.pages", "fivedice.store.rooms"),
    ("fivedice.web.routers.practice", "fivedice.store.browser_seats"),
    ("fivedice.web.routers.review", "fivedice.store"),
    ("fivedice.web.routers.rooms", "fivedice.store.browser_seats"),
    ("fivedice.web.routers.rooms", "fivedice.store.rooms"),
    ("fivedice.web.routers.tutorial", "fivedice.store.browser_seats"),
}


def _front_end_store_imports() -> set[tuple[str, str]]:
    return {
        (found.source, found.target)
        for found in all_imports()
        if layer_of(found.source) in (*FRONT_ENDS, *RENDERERS) and layer_of(found.target) == "store"
    }


def test_front_ends_do_not_import_the_store() -> None:
    """The terminal app, plain mode and what they share call the service only; the web front
    end may keep the imports of its allow-list (no new one), and the list holds no import
    that is gone (so it shrinks as they go)."""
    found = _front_end_store_imports()
    new = sorted(found - WEB_STORE_IMPORTS)
    assert new == [], "front ends importing the store (call the service):\n" + "\n".join(
        f"{source} imports {target}" for source, target in new
    )
    gone = sorted(WEB_STORE_IMPORTS - found)
    assert gone == [], "no longer imported: take them off WEB_STORE_IMPORTS:\n" + "\n".join(
        f"{source} imports {target}" for source, target in gone
    )


def _private_store_names() -> Iterator[str]:
    """Private names of the store used outside it: imported from a store module, a private
    store module, or read as `<...>.store._name` / `store._name` (the service's store, a
    store module)."""
    for found in all_imports():
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
        for found in all_imports()
        if layer_of(found.target) is not None
        and any(name.startswith("_") and name != "_" for name in found.names)
    ]
    assert bad == [], "private names imported from another module:\n" + "\n".join(bad)


def _module_aliases(tree: ast.Module, source: str) -> dict[str, str]:
    """The local names that stand for a fivedice module in a source file (`import a.b as m`,
    `from fivedice.strategy import solver as s`, `import fivedice`)."""
    aliases: dict[str, str] = {}
    is_package = MODULES[source].name == "__init__.py"
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "fivedice":
                    local = alias.asname or alias.name.split(".")[0]
                    aliases[local] = alias.name if alias.asname else alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            module = _absolute(source, is_package, node)
            for alias in node.names:
                if f"{module}.{alias.name}" in MODULES:
                    aliases[alias.asname or alias.name] = f"{module}.{alias.name}"
    return aliases


def _private_attributes() -> Iterator[str]:
    """`m._name` where `m` stands for another fivedice module (dunders aside)."""
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases = _module_aliases(tree, name)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute) or not node.attr.startswith("_"):
                continue
            if node.attr.startswith("__"):
                continue
            chain: list[str] = []
            owner = node.value
            while isinstance(owner, ast.Attribute):
                chain.insert(0, owner.attr)
                owner = owner.value
            if not isinstance(owner, ast.Name) or owner.id not in aliases:
                continue
            target = ".".join([aliases[owner.id], *chain])
            if target in MODULES and target != name:
                yield f"{name}:{node.lineno} reads {target}.{node.attr}"


def test_no_module_reads_another_modules_private_name() -> None:
    bad = sorted(_private_attributes())
    assert bad == [], "private names read from another module:\n" + "\n".join(bad)


def test_the_private_name_check_sees_an_alias() -> None:
    """The check itself: `import solver as s; s._turn` is found through the alias."""
    tree = ast.parse("from fivedice.strategy import solver as s\nx = s._turn\n")
    aliases = _module_aliases(tree, "fivedice.strategy.moments")
    assert aliases == {"s": "fivedice.strategy.solver"}


def test_front_ends_reach_the_strategy_layer_only_through_the_service() -> None:
    bad = offending(
        lambda source, target, _: source not in (*FRONT_ENDS, *RENDERERS) or target != "strategy"
    )
    assert bad == [], "a front end imports the strategy layer:\n" + "\n".join(bad)
