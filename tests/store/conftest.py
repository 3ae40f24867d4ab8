"""Store fixtures: every store test runs on SQLite and on a real PostgreSQL server.

`make test` starts a throwaway server (scripts/with-postgres.sh) and exports its URL as
FIVEDICE_TEST_POSTGRES_URL; without that variable the PostgreSQL cases are skipped.
"""

from __future__ import annotations

import os
import uuid

import pytest
from sqlalchemy import create_engine, text

from fivedice.service.games import GameService
from fivedice.store import Store
from tests.support.players import simple_cpu_factory

POSTGRES_ENV = "FIVEDICE_TEST_POSTGRES_URL"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """A fresh, empty database URL of each kind."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.sqlite3'}"
        return
    server = os.environ.get(POSTGRES_ENV)
    if not server:
        if os.environ.get("CI"):  # make test always starts a server: never skip silently in CI
            pytest.fail(f"{POSTGRES_ENV} is not set in CI; run the tests through make test")
        pytest.skip(f"{POSTGRES_ENV} is not set (make test sets it)")
    name = f"fivedice_{uuid.uuid4().hex[:12]}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    base, _, _ = server.rpartition("/")
    try:
        yield f"{base}/{name}"
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture
def store(db_url):
    store = Store(db_url)
    yield store
    store.close()


@pytest.fixture
def service(store):
    return GameService(store, cpu_factory=simple_cpu_factory)
