"""The terminal app's house in order: no import circles, screens that get
what they need and post messages, no module state, styles in .tcss files."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from textual.message import Message
from textual.pilot import Pilot
from textual.screen import Screen

import fivedice
from fivedice.core.game import GameSettings, Seat
from fivedice.service.games import GameService
from fivedice.tui.app import FivediceApp
from fivedice.tui.screens.game import GameScreen
from fivedice.tui.screens.setup import SetupScreen
from fivedice.tui.session import Backend
from tests.tui.support import run, wait_for

PACKAGE = Path(fivedice.__file__).parent
TUI = PACKAGE / "tui"


def imports_of(path: Path) -> set[str]:
    """Every fivedice module a file imports, wherever the import stands (lazy ones too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("fivedice.")}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_no_import_circle_in_the_terminal_app() -> None:
    modules = {module_name(path): path for path in TUI.rglob("*.py")}
    graph = {name: imports_of(path) & set(modules) for name, path in modules.items()}
    # Depth-first search for a cycle, reporting it whole.
    state: dict[str, int] = {}

    def visit(name: str, trail: list[str]) -> None:
        state[name] = 1
        for other in sorted(graph[name]):
            if state.get(other) == 1:
                pytest.fail("import circle: " + " -> ".join([*trail, name, other]))
            if other not in state:
                visit(other, [*trail, name])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [])
    # Only the entry points know the App; no screen does.
    knows_app = {name for name, found in graph.items() if "fivedice.tui.app" in found}
    assert knows_app <= {"fivedice.tui"}


def test_styles_live_in_tcss_files_not_in_python() -> None:
    for path in TUI.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = node.targets if isinstance(node, ast.Assign) else []
            names = {t.id for t in targets if isinstance(t, ast.Name)}
            assert not names & {"CSS", "DEFAULT_CSS"}, f"inline CSS in {path.name}"
    assert (TUI / "app.tcss").exists() and (TUI / "table.tcss").exists()


def test_session_module_keeps_no_state() -> None:
    tree = ast.parse((TUI / "session.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            pytest.fail(f"module-level state in tui/session.py, line {node.lineno}")
        if isinstance(node, ast.FunctionDef):
            assert not any(isinstance(n, ast.Global) for n in ast.walk(node)), node.name


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_two_apps_with_their_own_databases_do_not_share_them(tmp_path: Path) -> None:
    """The database is the App's (its Backend), not the process's: two apps, two files."""
    urls = [f"sqlite:///{tmp_path / name}" for name in ("a.sqlite3", "b.sqlite3")]
    for url in urls:
        backend = Backend(url, practice=True)
        app = FivediceApp(GameSettings((Seat("Ann"),)), start_now=True, backend=backend)

        async def script(pilot: Pilot[None], app: FivediceApp = app) -> None:
            await wait_for(pilot, lambda: isinstance(app.screen, GameScreen))
            await pilot.press("r")
            await pilot.pause()

        run(app, script)
    for url in urls:
        games = GameService.open(url).list_games()
        assert len(games) == 1 and games[0].practice  # the practice default came along


@pytest.mark.slow  # (a whole flow through the app: `make test`, not the fast lane)
def test_screens_ask_the_app_by_message(tmp_path: Path) -> None:
    """Start on the new-game screen posts `SetupScreen.Start`, and the App starts the game;
    leaving it posts `GameScreen.NewGame`, and the App shows the form again."""
    backend = Backend(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    app = FivediceApp(GameSettings((Seat("Ann"),)), seed=1, backend=backend)
    seen: list[type] = []

    def spy_on(screen: Screen[None]) -> None:
        original = screen.post_message

        def spy(message: Message) -> bool:
            seen.append(type(message))
            return original(message)

        screen.post_message = spy  # type: ignore[method-assign]

    async def script(pilot: Pilot[None]) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen))
        spy_on(app.screen)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen))
        assert SetupScreen.Start in seen
        game = app.screen
        assert isinstance(game, GameScreen) and game.game is app.service
        spy_on(game)
        await pilot.press("n", "y")  # leave the game in progress: it stays saved
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen))
        assert GameScreen.NewGame in seen

    run(app, script)
