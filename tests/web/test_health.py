"""`/healthz` and `/readyz` (web/health.py) as a load balancer sees them: answered without a
session, a rate or a database for liveness; readiness following the database as it goes away
and comes back (SQLite file moved away, replaced, made unreadable; PostgreSQL stopped), the
migrations and the strategy tables; nothing secret in either answer."""

from __future__ import annotations

import os
import time

import pytest

from fivedice.service import readiness
from fivedice.service.games import GameService
from fivedice.web import health
from tests.web.support import SECRET, TestClient


@pytest.fixture(autouse=True)
def fresh_answers(monkeypatch):
    """Every probe checks again (the one-second reuse is tested on its own)."""
    monkeypatch.setattr(health, "READY_FRESH_SECONDS", 0.0)
    monkeypatch.delenv("FIVEDICE_SOLVE_RULES", raising=False)


@pytest.fixture
def database(service):
    return service.store.url.database


def _checks(response) -> dict[str, tuple[bool, str]]:
    return {
        name: (check["ok"], check["detail"]) for name, check in response.json()["checks"].items()
    }


def test_healthz_says_alive_with_the_worker_and_no_session(raw_client):
    response = raw_client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "alive", "worker": os.getpid()}
    assert "set-cookie" not in response.headers
    assert response.headers["cache-control"] == "no-store"


def test_readyz_is_ready_on_a_current_database(raw_client):
    response = raw_client.get("/readyz")
    assert response.status_code == 200, response.text
    assert response.json()["status"] == "ready"
    assert _checks(response) == {
        "database": (True, "answers"),
        "migrations": (True, "current"),
        "tables": (True, "solved on demand"),
    }
    assert "set-cookie" not in response.headers


def test_head_is_answered_without_a_body_and_other_methods_refused(raw_client):
    head = raw_client.head("/readyz")
    assert head.status_code == 200 and head.content == b""
    posted = raw_client.post("/healthz")
    assert posted.status_code == 405 and "GET" in posted.headers["allow"]


def test_readyz_follows_the_sqlite_file_moved_away_and_back(raw_client, database):
    assert raw_client.get("/readyz").status_code == 200
    os.rename(database, database + ".away")
    gone = raw_client.get("/readyz")
    assert gone.status_code == 503
    assert gone.json()["status"] == "not ready"
    assert gone.headers["retry-after"].isdigit()
    checks = _checks(gone)
    assert checks["database"] == (False, "cannot be reached")
    assert checks["migrations"][0] is False
    assert raw_client.get("/healthz").status_code == 200  # alive all the same
    os.rename(database + ".away", database)
    back = raw_client.get("/readyz")
    assert back.status_code == 200 and back.json()["status"] == "ready"


def test_readyz_fails_on_an_unreadable_or_foreign_file(raw_client, database):
    os.rename(database, database + ".away")
    os.mkdir(database)  # (a directory: unreadable as a file even for root)
    assert _checks(raw_client.get("/readyz"))["database"] == (False, "cannot be reached")
    os.rmdir(database)
    with open(database, "wb") as file:
        file.write(b"not a database at all, but a text file\n" * 10)
    response = raw_client.get("/readyz")
    assert response.status_code == 503
    assert _checks(response)["database"] == (False, "not a fivedice database")
    os.replace(database + ".away", database)
    assert raw_client.get("/readyz").status_code == 200


def test_readyz_reveals_no_path_or_url(raw_client, database):
    os.rename(database, database + ".away")
    text = raw_client.get("/readyz").text
    assert os.path.basename(database) not in text and "sqlite" not in text.lower()


def test_readyz_is_not_ready_on_a_database_behind_the_migrations(raw_client, service):
    from alembic import command
    from alembic.script import ScriptDirectory

    config = service.store._alembic_config()
    (head,) = ScriptDirectory.from_config(config).get_heads()
    older = ScriptDirectory.from_config(config).get_revision(head).down_revision
    with service.store.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.stamp(config, older, purge=True)
    response = raw_client.get("/readyz")
    assert response.status_code == 503
    assert _checks(response)["database"] == (True, "answers")
    assert _checks(response)["migrations"] == (False, "not at this version's newest")


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_probes_are_never_rate_limited(service):
    from fivedice.web import create_app
    from fivedice.web.rates import RateSettings

    strict = RateSettings(games="1/minute", rooms="1/minute", wrong_codes="1/minute")
    app = create_app(service, SECRET, drive_cpus=False, rates=strict)
    with TestClient(app) as client:
        assert client.post("/api/games", json={"players": [{"name": "Ann"}]}).status_code == 201
        assert client.post("/api/games", json={"players": [{"name": "Bo"}]}).status_code == 429
        answers = {client.get(path).status_code for path in ("/healthz", "/readyz") * 50}
    assert answers == {200}


def test_a_database_that_does_not_answer_fails_in_bounded_time(monkeypatch):
    """A check that hangs (a database host gone) is not waited for beyond the timeout, and
    the probes that follow do not start a second one."""
    import asyncio
    import threading

    release = threading.Event()
    started = []

    def hanging():
        started.append(1)
        release.wait(5)
        return readiness.Readiness({"database": readiness.Check(True, "answers")})

    probe = health.ReadinessProbe(hanging, timeout=0.2, fresh_for=0.0)

    async def ask_twice():
        first = await probe.readiness()
        second = await probe.readiness()
        release.set()
        return first, second

    began = time.monotonic()
    first, second = asyncio.run(ask_twice())
    assert time.monotonic() - began < 2
    assert not first.ready and first.checks["database"] == readiness.Check(
        False, "no answer within 0.2 s"
    )
    assert not second.ready
    assert started == [1]


def test_an_answer_is_reused_briefly():
    import asyncio

    calls = []

    def check():
        calls.append(1)
        return readiness.Readiness({})

    probe = health.ReadinessProbe(check, fresh_for=60.0)

    async def ask():
        for _ in range(5):
            await probe.readiness()

    asyncio.run(ask())
    assert calls == [1]


def test_readyz_with_an_allow_list_is_ready_when_its_table_is_cached(
    raw_client, classic_table, tmp_path, monkeypatch
):
    from fivedice.strategy.cache import cache_path, save_table

    monkeypatch.setenv("FIVEDICE_CACHE_DIR", str(tmp_path / "tables"))
    monkeypatch.setenv("FIVEDICE_SOLVE_RULES", "classic")
    save_table(classic_table, cache_path(classic_table.rules))
    response = raw_client.get("/readyz")
    assert response.status_code == 200, response.text
    assert _checks(response)["tables"] == (True, "1 solved")


def test_readyz_on_postgresql_follows_the_server_stopping_and_starting(cluster):
    from fivedice.web import create_app
    from tests.web.scrapes import rise, samples

    service = GameService.open(cluster.url)
    app = create_app(service, SECRET, drive_cpus=False, metrics_allow="*")
    try:
        with TestClient(app) as client:
            assert client.get("/readyz").status_code == 200
            before = samples(client.get("/metrics").text)
            cluster.stop()
            down = client.get("/readyz")
            assert down.status_code == 503
            assert _checks(down)["database"] == (False, "cannot be reached")
            assert "postgres" not in down.text.lower()
            assert client.get("/healthz").status_code == 200
            cluster.start()
            deadline = time.monotonic() + 10
            while (status := client.get("/readyz").status_code) != 200:
                assert time.monotonic() < deadline, "never ready again"
                time.sleep(0.2)
            assert status == 200
            # What the outage cost is counted: errors met, and the listener's reconnection.
            while True:
                after = samples(client.get("/metrics").text)
                if rise(before, after, "fivedice_database_retries_total", where="listener"):
                    break
                assert time.monotonic() < deadline, "the listener's retry was not counted"
                time.sleep(0.2)
            assert rise(before, after, "fivedice_database_errors_total", kind="unavailable") >= 1
    finally:
        service.store.close()


def test_a_stopping_worker_is_not_ready_but_alive(app, raw_client):
    assert raw_client.get("/readyz").status_code == 200
    app.state.readiness.stop()
    response = raw_client.get("/readyz")
    assert response.status_code == 503
    assert _checks(response) == {"worker": (False, "stopping")}
    assert raw_client.get("/healthz").status_code == 200
