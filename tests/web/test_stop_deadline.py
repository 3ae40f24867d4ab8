"""A stopping `fivedice serve` worker ends within its graceful timeout and a margin, even
when a thread of it hangs (web/stopping.py); outside a served worker nothing is armed."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

HANGING_WORKER = """
import os, threading, time
import fivedice.web.stopping as stopping
stopping.EXIT_MARGIN_SECONDS = 0.2
os.environ[stopping.GRACEFUL_TIMEOUT_ENV] = os.environ["GRACE"]
stopping.STOPPING.begin()
threading.Thread(target=time.sleep, args=(60,)).start()  # never joined in time
"""


def _run(grace: str) -> tuple[int, float]:
    began = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", HANGING_WORKER],
        env={**os.environ, "GRACE": grace},
        capture_output=True,
        timeout=60,
    )
    return done.returncode, time.monotonic() - began


@pytest.mark.processes
def test_a_worker_with_a_hanging_thread_exits_by_its_deadline():
    code, took = _run("0.3")
    assert code == 1 and took < 30  # (the thread alone would have held it 60 s)


def test_nothing_is_armed_outside_a_served_worker():
    from fivedice.web.stopping import Stopping

    stopping = Stopping()
    os.environ.pop("FIVEDICE_GRACEFUL_TIMEOUT", None)
    stopping.begin()
    assert stopping._deadline is None
