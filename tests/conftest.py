"""Fixtures every test shares, and the lanes: slow kinds of tests are marked here by what
they use, so `make test-fast` can leave them out (`-m "not (browser or processes or postgres
or tables)"`) while `make test` runs everything.

- `browser`: a real Chromium (every test under tests/web/browser/);
- `processes`: tests that start servers or other processes of their own (a `cluster`, or
  marked `processes` in their module);
- `postgres`: the PostgreSQL case of a store test (`db_url` on PostgreSQL) or a cluster;
- `tables`: tests that need a solved strategy table (the `*_table` fixtures).
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from fivedice.core.rules import RuleSet, find_ruleset
from fivedice.i18n import set_language
from fivedice.strategy.solver import StrategyTable
from tests.support.postgres import POSTGRES_ENV, Cluster, Databases, postgres_bin
from tests.support.tables import SHARED_ENV, solved

BROWSER_TESTS = Path(__file__).parent / "web" / "browser"
TABLE_FIXTURES = frozenset({"solved_table", "classic_table", "free_choice_table"})


def pytest_configure(config: pytest.Config) -> None:
    """With xdist workers (`make test`), a directory of this run's own for the solved tables
    its workers share (`tests.support.tables`); the workers inherit its name, the controller
    removes it at the end."""
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return
    directory = tempfile.mkdtemp(prefix="fivedice-test-tables-")
    os.environ[SHARED_ENV] = directory
    config.stash[_SHARED_TABLES] = directory


def pytest_unconfigure(config: pytest.Config) -> None:
    directory = config.stash.get(_SHARED_TABLES, None)
    if directory is not None:
        shutil.rmtree(directory, ignore_errors=True)
        os.environ.pop(SHARED_ENV, None)


_SHARED_TABLES = pytest.StashKey[str]()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Marks each test by the slow things it uses (see the module's docstring)."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if BROWSER_TESTS in Path(item.path).parents:
            item.add_marker(pytest.mark.browser)
        if "cluster" in fixtures:
            item.add_marker(pytest.mark.processes)
            item.add_marker(pytest.mark.postgres)
        callspec = getattr(item, "callspec", None)
        if callspec is not None and callspec.params.get("db_url") == "postgresql":
            item.add_marker(pytest.mark.postgres)
        if fixtures & TABLE_FIXTURES:
            item.add_marker(pytest.mark.tables)


@pytest.fixture(autouse=True)
def english(monkeypatch):
    """Tests read English text whatever the machine's locale; a test that switched the
    language (`--lang de`) leaves English behind, for the doctests that may run next in
    the same process (they see no fixtures)."""
    monkeypatch.setenv("FIVEDICE_LANG", "en")
    set_language("en")
    yield
    set_language("en")


@pytest.fixture(autouse=True)
def no_background_goal_tables(monkeypatch):
    """A master CPU in a game has its rules' threshold table built in the background when it
    is not at hand (minutes of CPU, hundreds of MB): every test that plays a master seat would
    start one beside the suite. The tests of that behaviour turn it back on."""
    monkeypatch.setattr("fivedice.strategy.master.PLAYS_FROM_THRESHOLDS", False)


@pytest.fixture(autouse=True)
def server_logging_removed():
    """A server a test runs in-process (often in a thread, set up by a fixture) puts its log
    handler on the root logger, writing to the stderr pytest gave that test; once the test
    is over that stream is closed, and every later line would print a "Logging error" into
    another test's output. So the handler goes when the test does."""
    yield
    from fivedice.web.logs import ServerLogHandler

    root = logging.getLogger()
    for handler in [h for h in root.handlers if isinstance(h, ServerLogHandler)]:
        root.removeHandler(handler)


@pytest.fixture(autouse=True)
def private_database(tmp_path_factory, monkeypatch):
    """No test writes to the user's own database: each gets its own SQLite file."""
    path = tmp_path_factory.mktemp("db") / "fivedice.sqlite3"
    monkeypatch.setenv("FIVEDICE_DATABASE_URL", f"sqlite:///{path}")


TEST_RECORD_KEY = "5eed" * 16
"""The record key every test signs with (never the user's own key file)."""


@pytest.fixture(autouse=True)
def private_record_key(monkeypatch):
    """No test creates or reads the user's own record key: records are signed with a fixed
    test key (`fivedice.service.signing`)."""
    monkeypatch.setenv("FIVEDICE_RECORD_KEY", TEST_RECORD_KEY)


@pytest.fixture(autouse=True)
def environment_restored():
    """Commands such as `serve` export settings for their workers (os.environ); whatever a
    test's command sets is taken back after it, so no test sees another's settings."""
    before = dict(os.environ)
    yield
    for name in set(os.environ) - set(before):
        del os.environ[name]
    for name, value in before.items():
        if os.environ.get(name) != value:
            os.environ[name] = value


# --- Solved strategy tables: each rule set solved once per session (per xdist worker) -----


@pytest.fixture(scope="session")
def solved_table() -> Callable[[RuleSet], StrategyTable]:
    return solved


@pytest.fixture(scope="session")
def classic_table() -> StrategyTable:
    return solved(find_ruleset("classic"))


@pytest.fixture(scope="session")
def free_choice_table() -> StrategyTable:
    return solved(find_ruleset("free-choice"))


# --- PostgreSQL -------------------------------------------------------------------------


@pytest.fixture(scope="session")
def postgres_databases() -> Iterator[Databases]:
    """Databases on the server `make test` starts, copied from one migrated template."""
    server = os.environ.get(POSTGRES_ENV)
    if not server:
        if os.environ.get("CI"):  # make test always starts a server: never skip silently in CI
            pytest.fail(f"{POSTGRES_ENV} is not set in CI; run the tests through make test")
        pytest.skip(f"{POSTGRES_ENV} is not set (make test sets it)")
    databases = Databases(server)
    yield databases
    databases.close()


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    """A PostgreSQL server of the test's own, started; the test may stop and start it."""
    bin_dir = postgres_bin()
    if bin_dir is None:
        pytest.skip("PostgreSQL is not installed (scripts/system-deps.sh installs it)")
    instance = Cluster(bin_dir)
    try:
        instance.start()
        yield instance
    finally:
        instance.remove()
