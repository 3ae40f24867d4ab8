"""Workers end with their supervisor: a `fivedice serve --workers 2` whose supervisor is
killed outright (SIGKILL: no chance to stop them) leaves no worker running (before: they
served on for an hour)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from tests.web.test_attacks import serving

pytestmark = [pytest.mark.processes, pytest.mark.slow]

GONE_WITHIN = 5.0  # seconds (the bound)


def children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found.update(int(child) for child in text)
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="Linux only")
def test_workers_are_gone_soon_after_their_supervisor_is_killed(tmp_path):
    database = f"sqlite:///{tmp_path / 'w.sqlite3'}"
    with serving(database, tmp_path, "--workers", "2") as (_port, process):
        workers = {pid for pid in children(process.pid) if alive(pid)}
        assert len(workers) >= 2, workers
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)
        deadline = time.monotonic() + GONE_WITHIN
        while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = {pid for pid in workers if alive(pid)}
        for pid in left:  # (never leave them running, whatever the outcome)
            os.kill(pid, signal.SIGKILL)
    assert not left
