"""A real `fivedice serve --workers 2 --log-format json`, watched as an operator would: the
metrics of both workers added up in one scrape (prometheus-client's multiprocess mode), and
a whole session's log: every line one JSON object with its worker, access lines with their
request id and route template, and not one of the secrets the session saw (seat tokens,
session ids, CSRF tokens, room keys and invitations, the games' server seeds)."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.support.network import free_port
from tests.web.scrapes import samples, value

pytestmark = pytest.mark.processes


def _serve(tmp_path: Path, *extra: str) -> tuple[subprocess.Popen[bytes], str, Path]:
    port = free_port()
    log = tmp_path / "server.log"
    env = {**os.environ, "FIVEDICE_SECRET": "a-secret-for-this-test-only"}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    command = [
        sys.executable, "-m", "fivedice.cli", "serve", "--port", str(port),
        "--db", f"sqlite:///{tmp_path / 'served.sqlite3'}", *extra,
    ]  # fmt: skip
    with log.open("wb") as stderr:
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=stderr)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{base}/readyz", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        assert process.poll() is None, log.read_text()
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.2)
    return process, base, log


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def test_two_workers_metrics_are_added_up_in_one_scrape(tmp_path):
    process, base, _log = _serve(tmp_path, "--workers", "2")
    try:
        before = samples(httpx.get(f"{base}/metrics").text)
        workers: set[int] = set()
        asked = 0
        # New connections each time: the kernel hands them to either worker.
        while len(workers) < 2 or asked < 20:
            assert asked < 400, f"only workers {workers} answered"
            workers.add(httpx.get(f"{base}/healthz").json()["worker"])
            asked += 1
        after = samples(httpx.get(f"{base}/metrics").text)
        labels = {"method": "GET", "route": "/healthz", "status": "200"}
        counted = value(after, "fivedice_http_requests_total", **labels) - value(
            before, "fivedice_http_requests_total", **labels
        )
        assert counted == asked  # both workers' counts, whichever answered the scrape
        # The directory the workers share, made for this server run and removed after it.
        environment = Path(f"/proc/{min(workers)}/environ").read_bytes().split(b"\0")
        (setting,) = [item for item in environment if item.startswith(b"PROMETHEUS_MULTIPROC_DIR=")]
        directory = Path(setting.split(b"=", 1)[1].decode())
        assert sorted(path.name for path in directory.glob("counter_*.db")) == sorted(
            f"counter_{pid}.db" for pid in workers
        )
    finally:
        _stop(process)
    assert not directory.exists()


def test_a_served_session_logs_json_lines_without_its_secrets(tmp_path):
    process, base, log = _serve(tmp_path, "--workers", "2", "--log-format", "json")
    secrets: set[str] = set()
    try:
        with httpx.Client(base_url=base, headers={"Origin": base}) as browser:
            page = browser.get("/rules")
            secrets.update(browser.cookies.values())
            csrf = re.search(r'<meta name="csrf-token" content="([^"]*)"', page.text).group(1)
            secrets.add(csrf)
            form = {"kind0": "human", "name0": "Ann", "kind1": "none", "csrf_token": csrf}
            made = browser.post("/games", data=form, follow_redirects=False)
            assert made.status_code == 303, made.text[:300]
            secrets.update(browser.cookies.values())  # (a seat granted: a new session id)
            browser.get(made.headers["location"])
        created = httpx.post(f"{base}/api/games", json={"players": [{"name": "Bo"}]}).json()
        token = created["tokens"][0]["token"]
        secrets.add(token)
        seat = {"Authorization": f"Bearer {token}", "X-Request-ID": "session-test-1"}
        acted = httpx.post(
            f"{base}/api/games/{created['id']}/actions",
            json={"action": "roll", "version": 0},
            headers=seat,
        )
        assert acted.status_code == 200 and acted.headers["x-request-id"] == "session-test-1"
        with httpx.stream("GET", f"{base}/api/games/{created['id']}/events", timeout=10) as s:
            next(s.iter_lines())
        room = httpx.post(
            f"{base}/api/rooms",
            json={"players": [{"name": "Cy", "kind": "me"}, {"name": "Di", "kind": "friend"}]},
        ).json()
        secrets.add(room["host_key"])
        secrets.update(item["invitation"] for item in room["invitations"])
        invitation = room["invitations"][0]
        code, key = room["room"]["code"], invitation["invitation"]
        httpx.get(f"{base}/r/{code}/invite/{invitation['seat']}", params={"key": key})
    finally:
        _stop(process)
    with sqlite3.connect(tmp_path / "served.sqlite3") as database:
        seeds = [row[0] for row in database.execute("SELECT server_seed FROM games") if row[0]]
    assert seeds
    secrets.update(seeds)
    secrets.discard("")
    text = log.read_text()
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    assert lines and all({"time", "level", "logger", "event", "worker"} <= set(x) for x in lines)
    access = [line for line in lines if line["logger"] == "fivedice.access"]
    assert {line["worker"] for line in access} <= {line["worker"] for line in lines}
    mine = [line for line in access if line.get("request_id") == "session-test-1"]
    assert len(mine) == 1 and mine[0]["route"] == "/api/games/{game_id}/actions"
    assert mine[0]["game"] == int(created["id"].split("-")[0]) and mine[0]["status"] == 200
    assert all(line.get("request_id") for line in access)
    leaked = sorted(secret for secret in secrets if secret in text)
    assert leaked == [], "secrets in the log"
    assert "?key=" not in text and created["id"] not in text
