"""`/metrics` (web/metrics.py, web/observe.py) scraped and parsed as Prometheus does
(`text_string_to_metric_families`) after real actions: counts rise by exactly what was done,
the latency histogram fills, requests are labelled by route template (never an id or a
token), the open-streams gauge follows a stream, pushes and their delay are counted; who may
read it; request ids echoed and carried into the log lines of their request."""

from __future__ import annotations

import io
import json
import logging

import httpx
import pytest

from fivedice.web import create_app
from fivedice.web.logs import JsonFormatter
from tests.web.live_helpers import events, running, take, wait_until
from tests.web.scrapes import Samples, rise, samples
from tests.web.support import SECRET, TestClient


@pytest.fixture
def open_app(service):
    return create_app(service, SECRET, drive_cpus=False, metrics_allow="*")


def _new_game(client) -> tuple[dict, dict[str, str]]:
    created = client.post("/api/games", json={"players": [{"name": "Ann"}], "seed": 7})
    assert created.status_code == 201, created.text
    game = created.json()
    return game, {"Authorization": f"Bearer {game['tokens'][0]['token']}"}


def test_actions_are_counted_by_kind_and_outcome_with_their_latency(open_app):
    with TestClient(open_app) as client:
        game, seat = _new_game(client)
        before = samples(client.get("/metrics").text)
        url = f"/api/games/{game['id']}/actions"
        done = ["roll", "hold 1", "hold 2", "release 1", "roll"]
        for version, action in enumerate(done):
            answer = client.post(url, json={"action": action, "version": version}, headers=seat)
            assert answer.status_code == 200, answer.text
        refused = client.post(url, json={"action": "hold 9", "version": 5}, headers=seat)
        assert refused.status_code == 422
        text = client.get("/metrics").text
    after = samples(text)
    for kind, count in (("roll", 2), ("hold", 2), ("release", 1)):
        assert rise(before, after, "fivedice_actions_total", kind=kind, outcome="done") == count
        assert rise(before, after, "fivedice_action_seconds_count", kind=kind) == count
        assert rise(before, after, "fivedice_action_seconds_sum", kind=kind) > 0
    assert rise(before, after, "fivedice_actions_total", kind="hold", outcome="refused") == 1
    # Every action is in some bucket of the histogram, the +Inf one holding all of them.
    assert rise(before, after, "fivedice_action_seconds_bucket", kind="roll", le="+Inf") == 2
    route = "/api/games/{game_id}/actions"
    ok = {"method": "POST", "route": route, "status": "200"}
    assert rise(before, after, "fivedice_http_requests_total", **ok) == 5
    bad = {"method": "POST", "route": route, "status": "422"}
    assert rise(before, after, "fivedice_http_requests_total", **bad) == 1
    # Nothing secret or unbounded in a label: no game id, token or seed.
    assert game["id"] not in text and game["tokens"][0]["token"] not in text
    assert game["id"].split("-")[1] not in text


def test_metrics_are_for_loopback_unless_opened(service):
    closed = create_app(service, SECRET, drive_cpus=False)
    with TestClient(closed) as client:  # (its address: "testclient")
        refused = client.get("/metrics")
        assert refused.status_code == 403 and "fivedice_" not in refused.text
    with TestClient(closed, client=("127.0.0.1", 5000)) as client:
        assert client.get("/metrics").status_code == 200
    some = create_app(service, SECRET, drive_cpus=False, metrics_allow="10.0.0.0/8")
    with TestClient(some, client=("10.1.2.3", 5000)) as client:
        answer = client.get("/metrics")
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/plain")
        assert "set-cookie" not in answer.headers
    with TestClient(some, client=("192.168.1.2", 5000)) as client:
        assert client.get("/metrics").status_code == 403


def test_a_bad_metrics_allow_list_is_refused(service):
    from fivedice.web.metrics import MetricsAllowError

    with pytest.raises(MetricsAllowError, match="not an address"):
        create_app(service, SECRET, drive_cpus=False, metrics_allow="10.0.0.0/8, nowhere")


@pytest.mark.slow  # (a real server in a thread: about a second)
def test_the_open_streams_gauge_and_pushes_follow_a_stream(service):
    app = create_app(service, SECRET, drive_cpus=False)  # served on loopback: allowed

    def scrape(base: str) -> Samples:
        return samples(httpx.get(f"{base}/metrics").text)

    with running(app) as base:
        game, seat = _new_game(httpx.Client(base_url=base))
        before = scrape(base)
        url = f"{base}/api/games/{game['id']}/events"
        with httpx.stream("GET", url, timeout=30) as response:
            stream = events(response)
            take(stream, 1)  # the game now: an answer, not a push
            opened = scrape(base)
            assert rise(before, opened, "fivedice_open_streams") == 1
            for version, action in enumerate(["roll", "hold 1"]):
                answer = httpx.post(
                    f"{base}/api/games/{game['id']}/actions",
                    json={"action": action, "version": version},
                    headers=seat,
                )
                assert answer.status_code == 200
                take(stream, 1)
            pushed = scrape(base)
        assert rise(before, pushed, "fivedice_pushes_total", stream="game") == 2
        assert rise(before, pushed, "fivedice_push_delay_seconds_count", origin="local") == 2
        assert rise(before, pushed, "fivedice_push_delay_seconds_sum", origin="local") > 0
        wait_until(
            lambda: rise(before, scrape(base), "fivedice_open_streams") == 0,
            "the gauge to fall when the stream closed",
        )


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_database_errors_are_counted(open_app, service):
    import os

    database = service.store.url.database
    with TestClient(open_app) as client:
        game, _seat = _new_game(client)
        before = samples(client.get("/metrics").text)
        os.rename(database, database + ".away")
        os.mkdir(database)
        try:
            # A fresh connection cannot open a directory; the pool's may still read the old
            # file: the game is asked for with the pool emptied first.
            service.store.engine.dispose()
            assert client.get(f"/api/games/{game['id']}").status_code == 503
        finally:
            os.rmdir(database)
            os.rename(database + ".away", database)
        after = samples(client.get("/metrics").text)
    assert rise(before, after, "fivedice_database_errors_total", kind="unavailable") >= 1


@pytest.fixture
def json_log():
    """What the app logs, as JSON lines (the formatter `fivedice serve` uses); the test's
    own HTTP client's lines left out."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    yield lambda: [
        line
        for line in map(json.loads, stream.getvalue().splitlines())
        if not line["logger"].startswith(("httpx", "httpcore"))
    ]
    root.removeHandler(handler)
    root.setLevel(level)


def test_the_request_id_is_echoed_and_logged_with_the_game(open_app, json_log):
    with TestClient(open_app) as client:
        game, _seat = _new_game(client)
        given = client.get(f"/api/games/{game['id']}?x=1", headers={"X-Request-ID": "lb-42:7"})
        assert given.headers["x-request-id"] == "lb-42:7"
        odd = client.get("/api/games", headers={"X-Request-ID": "bad id <script>"})
        made = odd.headers["x-request-id"]
        assert made != "bad id <script>" and len(made) == 32
        assert client.get("/healthz").headers["x-request-id"]
    lines = json_log()
    access = {line["request_id"]: line for line in lines if line["logger"] == "fivedice.access"}
    mine = access["lb-42:7"]
    assert mine["route"] == "/api/games/{game_id}" and mine["method"] == "GET"
    assert mine["status"] == 200 and mine["duration_ms"] >= 0
    assert mine["game"] == int(game["id"].split("-")[0])  # the store's number, not the id
    assert mine["worker"] > 0 and mine["level"] == "info"
    assert access[made]["route"] == "/api/games" and "game" not in access[made]
    text = "\n".join(json.dumps(line) for line in lines)
    assert game["id"] not in text and "x=1" not in text
    assert game["tokens"][0]["token"] not in text


@pytest.mark.slow  # (the CPU driver warms its players up first: seconds)
def test_a_cpu_waiting_for_its_step_is_counted_until_it_moves(service):
    # A slow pace: the CPU to move waits for its step while the test scrapes.
    app = create_app(service, SECRET, cpu_delay_ms=60_000, metrics_allow="*")
    with TestClient(app) as client:
        before = samples(client.get("/metrics").text)
        players = [{"name": "Cee", "kind": "cpu"}, {"name": "Ann"}]
        created = client.post("/api/games", json={"players": players, "seed": 3})
        assert created.status_code == 201 and created.json()["is_cpu_turn"]
        waiting = wait_until(
            lambda: (
                rise(before, samples(client.get("/metrics").text), "fivedice_cpu_moves_waiting")
                == 1
            ),
            "the CPU's move to be counted as waiting",
        )
        assert waiting
    # The app stopped: its driver's games are no longer waiting here.
    with TestClient(create_app(service, SECRET, drive_cpus=False, metrics_allow="*")) as client:
        assert rise(before, samples(client.get("/metrics").text), "fivedice_cpu_moves_waiting") == 0


def test_solves_waiting_for_the_solving_slot_are_counted(open_app):
    import threading

    from fivedice.strategy.limits import solving_slot

    holding, release = threading.Event(), threading.Event()

    def solve() -> None:
        with solving_slot():
            holding.set()
            release.wait(10)

    with TestClient(open_app) as client:
        before = samples(client.get("/metrics").text)
        solver = threading.Thread(target=solve)
        solver.start()
        try:
            assert holding.wait(10)
            during = samples(client.get("/metrics").text)
        finally:
            release.set()
            solver.join()
        after = samples(client.get("/metrics").text)
    assert rise(before, during, "fivedice_solves_queued") == 1
    assert rise(before, after, "fivedice_solves_queued") == 0
