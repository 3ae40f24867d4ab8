"""Store fixtures. The contract suite (`test_store.py`: the store's round trips) runs on
SQLite and on a real PostgreSQL server alike; every other store module runs on the one
database its subject needs, named by its `DATABASES` (SQLite when it names none: the
database a player's own games live in; PostgreSQL for races between writers, the pool and
the server's column limits). So each behaviour is checked once, and the two databases are
held to one contract by one suite.

`make test` starts a throwaway server (scripts/with-postgres.sh) and exports its URL as
FIVEDICE_TEST_POSTGRES_URL; without that variable the PostgreSQL cases are skipped. Each
PostgreSQL case gets a copy of one migrated template database (made once per session); a
test marked `empty_database` gets an empty one instead.
"""

from __future__ import annotations

import pytest

from fivedice.service.games import GameService
from fivedice.store import Store
from tests.support.players import simple_cpu_factory


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """`db_url` takes each database the test's module names in `DATABASES` (default SQLite)."""
    if "db_url" in metafunc.fixturenames:
        kinds = getattr(metafunc.module, "DATABASES", ("sqlite",))
        metafunc.parametrize("db_url", kinds, indirect=True)


@pytest.fixture
def db_url(request, tmp_path):
    """A fresh database URL of each kind: migrated on PostgreSQL (a copy of the template),
    unless the test is marked `empty_database`; a new file on SQLite."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.sqlite3'}"
        return
    databases = request.getfixturevalue("postgres_databases")
    empty = request.node.get_closest_marker("empty_database") is not None
    url = databases.create(migrated=not empty)
    try:
        yield url
    finally:
        databases.drop(url)


@pytest.fixture
def store(db_url):
    store = Store(db_url)
    yield store
    store.close()


@pytest.fixture
def service(store):
    return GameService(store, cpu_factory=simple_cpu_factory)
