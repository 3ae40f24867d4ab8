"""`fivedice serve` starts uvicorn on the given database and serves the pages and the API."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import httpx
import pytest
import typer.main
from typer.testing import CliRunner

from fivedice.cli import app
from tests.support.network import free_port


def test_serve_is_a_command():
    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--db", "--workers"):
        assert option in result.output


def test_serve_refuses_a_bad_database_cleanly():
    result = CliRunner().invoke(app, ["serve", "--db", "nonsense://"])
    assert result.exit_code == 2 and "fivedice:" in result.output


def test_serve_refuses_a_bad_public_url(monkeypatch):
    monkeypatch.delenv("FIVEDICE_PUBLIC_URL", raising=False)
    result = CliRunner().invoke(app, ["serve", "--public-url", "https://dice.example.org/x"])
    assert result.exit_code == 2 and "public URL" in result.output
    assert "--public-url" in CliRunner().invoke(app, ["serve", "--help"]).output


def test_serve_offers_the_limits_and_refuses_a_bad_one_cleanly(tmp_path, monkeypatch):
    serve = typer.main.get_command(app).commands["serve"]  # type: ignore[attr-defined]
    options = {option for param in serve.params for option in param.opts}
    assert {"--connections-per-client", "--max-connections", "--header-timeout"} <= options
    monkeypatch.setenv("FIVEDICE_BODY_TIMEOUT", "soon")
    db = f"sqlite:///{tmp_path / 'limits.sqlite3'}"
    result = CliRunner().invoke(app, ["serve", "--db", db])
    assert result.exit_code == 2 and "FIVEDICE_BODY_TIMEOUT" in result.output
    refused = CliRunner().invoke(app, ["serve", "--db", db, "--header-timeout", "0"])
    assert refused.exit_code == 2


@pytest.mark.processes
def test_serve_answers_on_loopback(tmp_path):
    port = free_port()
    env = {**os.environ, "FIVEDICE_SECRET": "a-secret-for-this-test-only"}
    command = [
        sys.executable, "-m", "fivedice.cli", "serve", "--port", str(port),
        "--db", f"sqlite:///{tmp_path / 'serve.sqlite3'}",
        "--public-url", "https://dice.example.org",
    ]  # fmt: skip
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                page = httpx.get(f"http://127.0.0.1:{port}/", timeout=2)
                break
            except httpx.HTTPError:
                assert process.poll() is None, process.stderr.read() if process.stderr else ""
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
        assert page.status_code == 200 and "fivedice" in page.text
        assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
        assert page.headers["x-frame-options"] == "DENY"
        # The public URL reached the worker: a post from it passes the origin check (and then
        # fails on the missing token), one from elsewhere does not.
        for origin, reason in (("https://dice.example.org", "expired"), ("http://x", "another")):
            refused = httpx.post(
                f"http://127.0.0.1:{port}/games", headers={"Origin": origin}, timeout=10
            )
            assert refused.status_code == 403 and reason in refused.text
        created = httpx.post(
            f"http://127.0.0.1:{port}/api/games", json={"players": [{"name": "Ann"}]}, timeout=10
        )
        assert created.status_code == 201
    finally:
        process.terminate()
        process.wait(timeout=20)
