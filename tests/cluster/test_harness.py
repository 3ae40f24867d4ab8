"""The namespace cluster's harness refuses clearly where it cannot work and leaves nothing
behind: not a namespace, a link, a process or a file (the cluster itself is exercised by
test_cluster_faults.py)."""

from __future__ import annotations

import subprocess
import threading
import time
from types import SimpleNamespace

import httpx
import pytest

from tests.cluster import harness
from tests.cluster.harness import (
    Cluster,
    ClusterUnavailable,
    WaitCancelled,
    sweep,
    unavailable_reason,
)


def _ours(text: str, owner: int) -> list[str]:
    return [line for line in text.splitlines() if f"{harness.PREFIX}{owner}" in line]


def test_without_root_the_harness_refuses_and_says_why(monkeypatch, tmp_path):
    monkeypatch.setattr(harness.os, "geteuid", lambda: 1000)
    assert "needs root" in (unavailable_reason() or "")
    with pytest.raises(ClusterUnavailable, match="needs root"):
        Cluster.build(tmp_path)
    assert not list(tmp_path.iterdir())  # nothing was made


def test_without_haproxy_the_harness_refuses_and_says_how_to_get_it(monkeypatch):
    real_which = harness.shutil.which
    monkeypatch.setattr(harness.sys, "platform", "linux")
    monkeypatch.setattr(harness.os, "geteuid", lambda: 0)  # (asked before any namespace)
    monkeypatch.setattr(
        harness.shutil, "which", lambda name: None if name == "haproxy" else real_which(name)
    )
    reason = unavailable_reason() or ""
    assert "HAProxy is not installed" in reason or "`ip` command" in reason
    assert "scripts/system-deps.sh" in reason or "iproute2" in reason


@pytest.mark.processes
def test_a_build_that_fails_halfway_takes_everything_down(monkeypatch, tmp_path):
    reason = unavailable_reason()
    if reason is not None:
        pytest.skip(f"no namespace cluster here: {reason}")

    def broken(self):
        raise RuntimeError("the migration failed")

    monkeypatch.setattr(Cluster, "migrate", broken)  # after the network and PostgreSQL
    with pytest.raises(RuntimeError, match="the migration failed"):
        Cluster.build(tmp_path)
    owner = harness.os.getpid()
    assert _ours(harness._ip("netns", "list").stdout, owner) == []
    assert _ours(harness._ip("-o", "link", "show").stdout, owner) == []
    left = subprocess.run(["pgrep", "-f", f"fivedice-cluster-pg-{owner}-"], capture_output=True)
    assert left.stdout == b""  # PostgreSQL stopped
    assert not list(harness.Path("/tmp").glob(f"fivedice-cluster-pg-{owner}-*"))


@pytest.mark.processes
def test_sweep_removes_what_a_killed_harness_left_and_nothing_else(tmp_path):
    reason = unavailable_reason()
    if reason is not None:
        pytest.skip(f"no namespace cluster here: {reason}")
    gone = subprocess.Popen(["true"])
    gone.wait()  # a harness that no longer runs
    alive = harness.os.getpid()  # a harness that still runs (this one)
    left, kept = f"{harness.PREFIX}{gone.pid}-web1", f"{harness.PREFIX}{alive}-web1"
    try:
        for name in (left, kept):
            harness._ip("netns", "add", name)
        inside = subprocess.Popen(["ip", "netns", "exec", left, "sleep", "300"])
        files = harness.Path("/tmp") / f"{harness.PG_DIR_PREFIX}{gone.pid}-test"
        (files / "data").mkdir(parents=True)  # its PostgreSQL's files
        assert gone.pid in sweep()
        assert not files.exists()
        inside.wait(timeout=10)  # what ran inside the left-over namespace was ended
        names = harness._ip("netns", "list").stdout
        assert left not in names and kept in names
    finally:
        for name in (left, kept):
            harness._ip("netns", "delete", name, check=False)


def test_a_cancelled_wait_for_a_host_ends_at_once(monkeypatch, tmp_path):
    """A drill past its deadline cancels the harness's waits: the thread that waited for a
    host to answer ends now, not after the host's start timeout (asyncio.run would wait for
    it). No network: the host never answers."""

    def refused(*_args, **_kwargs):
        raise httpx.ConnectError("connection refused")

    monkeypatch.setattr(harness.httpx, "get", refused)
    cluster = Cluster(tmp_path, owner=harness.os.getpid(), octet=254)
    (tmp_path / "web1.log").write_text("")
    running = SimpleNamespace(poll=lambda: None)  # a host that runs and never answers
    cluster.web[0] = harness.Process("web1", running, tmp_path / "web1.log")
    threading.Timer(0.3, cluster.cancel_waits).start()
    began = time.monotonic()
    with pytest.raises(WaitCancelled):
        cluster.wait_host(0, timeout=60)
    assert time.monotonic() - began < 5
