"""The one lifecycle of cached tables: in memory, else on disk, else built once per machine."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from fivedice.strategy import cache
from fivedice.strategy.derived import (
    BuildCancelled,
    BuildProgress,
    CancelToken,
    DerivedTables,
    Step,
    build_progress,
    load_or_build,
    remove_stale_temporaries,
)


def _read(path: Path) -> str | None:
    try:
        return path.read_text()
    except FileNotFoundError:
        return None


def _builder(text: str, steps: int = 4, builds: list[str] | None = None, pause: float = 0.0):
    def build(temporary: Path | None, step: Step) -> str:
        if builds is not None:
            builds.append(text)
        for done in range(1, steps + 1):
            time.sleep(pause)
            step(done, steps)
        if temporary is not None:
            temporary.write_text(text)
        return text

    return build


def test_a_table_is_built_once_then_read_from_its_file(tmp_path: Path) -> None:
    path = tmp_path / "table.txt"
    builds: list[str] = []
    first = load_or_build(path, _read, _builder("values", builds=builds), kind="test")
    second = load_or_build(path, _read, _builder("other", builds=builds), kind="test")
    assert first == second == "values"
    assert builds == ["values"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.txt"]  # no lock, no temp


def test_threads_asking_for_the_same_table_build_it_once(tmp_path: Path) -> None:
    path = tmp_path / "table.txt"
    builds: list[str] = []
    results: list[str] = []

    def ask(name: str) -> None:
        build = _builder(name, builds=builds, pause=0.05)
        results.append(load_or_build(path, _read, build, kind="test"))

    threads = [threading.Thread(target=ask, args=(f"by {n}",)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(builds) == 1
    assert results == [builds[0]] * 4
    assert path.read_text() == builds[0]


_PROCESS = """
import sys, time
from pathlib import Path
from fivedice.strategy.derived import load_or_build
path, name, log = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
seen_waiting = path.with_name("seen-waiting")
def read(p):
    return p.read_text() if p.exists() else None
def build(temporary, step):
    with log.open("a") as handle:
        handle.write(name + "\\n")
    deadline = time.monotonic() + 60
    done = 0
    while not seen_waiting.exists() and time.monotonic() < deadline:  # until one waits
        done = min(done + 1, 99)
        step(done, 100)
        time.sleep(0.05)
    temporary.write_text(name)
    return name
waited = []
def listen(progress):
    if progress.waiting:
        waited.append(progress)
        seen_waiting.touch()
table = load_or_build(path, read, build, kind="test", listener=listen)
print(table, bool(waited), flush=True)
"""


def _environment() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))


@pytest.mark.processes
def test_two_processes_build_the_same_table_once(tmp_path: Path) -> None:
    """The second process waits for the first's file (showing the first's progress) and
    reads it: one build on the machine."""
    path = tmp_path / "table.txt"
    log = tmp_path / "builds.log"
    first = subprocess.Popen(
        [sys.executable, "-c", _PROCESS, str(path), "first", str(log)],
        env=_environment(), stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    while not log.exists():  # the first has the lock and builds
        time.sleep(0.02)
    second = subprocess.run(
        [sys.executable, "-c", _PROCESS, str(path), "second", str(log)],
        env=_environment(), capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    out, _ = first.communicate(timeout=60)
    assert out.split() == ["first", "False"]
    assert second.stdout.split() == ["first", "True"]  # read the first's file, after waiting
    assert log.read_text().split() == ["first"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["builds.log", "seen-waiting", "table.txt"]


def test_a_cancelled_build_leaves_no_file(tmp_path: Path) -> None:
    path = tmp_path / "table.txt"
    token = CancelToken()
    seen: list[BuildProgress] = []

    def listen(progress: BuildProgress) -> None:
        seen.append(progress)
        if progress.fraction >= 0.5:
            token.cancel()

    with pytest.raises(BuildCancelled):
        load_or_build(path, _read, _builder("values", steps=10), kind="test", listener=listen,
                      cancel=token)  # fmt: skip
    assert seen[-1].fraction == 0.5  # stopped at the next step
    assert list(tmp_path.iterdir()) == []


def test_a_build_cancelled_while_waiting_for_another_stops_waiting(tmp_path: Path) -> None:
    path = tmp_path / "table.txt"
    started = threading.Event()
    release = threading.Event()

    def slow(temporary: Path | None, step: Step) -> str:
        started.set()
        release.wait(10)
        assert temporary is not None
        temporary.write_text("slow")
        return "slow"

    builder = threading.Thread(target=load_or_build, args=(path, _read, slow), kwargs={"kind": "t"})
    builder.start()
    started.wait(10)
    token = CancelToken()
    token.cancel()
    with pytest.raises(BuildCancelled):
        load_or_build(path, _read, _builder("other"), kind="test", cancel=token)
    release.set()
    builder.join()
    assert path.read_text() == "slow"


def test_progress_goes_up_only_and_reaches_one_with_an_estimate(tmp_path: Path) -> None:
    seen: list[BuildProgress] = []

    def uneven(temporary: Path | None, step: Step) -> str:
        for done, total in ((1, 10), (3, 10), (2, 10), (7, 10), (7, 10), (9, 10)):
            step(done, total)
        assert temporary is not None
        temporary.write_text("x")
        return "x"

    load_or_build(tmp_path / "t.txt", _read, uneven, kind="test", listener=seen.append)
    fractions = [p.fraction for p in seen]
    assert fractions == sorted(fractions)
    assert fractions[-1] == 1.0
    # The rate is measured from the first step on: an estimate from the second step.
    assert [p.seconds_left for p in seen[:2]] == [None, None]
    assert all(p.seconds_left is not None for p in seen[2:])
    assert seen[-1].seconds_left == 0.0


def test_a_killed_builds_temporary_file_is_removed(tmp_path: Path) -> None:
    """A build killed mid-way leaves `NAME.PID.tmp` (its lock is freed by the kernel): the
    next build of the table removes it, and so does pruning."""
    path = tmp_path / "table.txt"
    left = tmp_path / "table.txt.4242-1.tmp"
    left.write_text("half")
    assert remove_stale_temporaries(tmp_path) == [left]
    left.write_text("half")
    load_or_build(path, _read, _builder("values"), kind="test")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.txt"]
    other = tmp_path / "strategy-abc.bin.4242-1.tmp"
    other.write_text("half")
    lock = tmp_path / "strategy-abc.bin.lock"
    lock.write_text('{"fraction": 0.5}')
    assert {other, lock} <= set(cache.prune_cache(tmp_path, 10**9))
    assert not other.exists() and not lock.exists()


@pytest.mark.processes
def test_a_killed_process_leaves_a_file_the_next_build_removes(tmp_path: Path) -> None:
    path = tmp_path / "table.txt"
    script = f"""
import time
from pathlib import Path
from fivedice.strategy.derived import load_or_build
def build(temporary, step):
    temporary.write_text("half")
    print("building", flush=True)
    time.sleep(60)
load_or_build(Path({str(path)!r}), lambda p: None, build, kind="test")
"""
    process = subprocess.Popen(
        [sys.executable, "-c", script], env=_environment(), stdout=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "building"
    os.kill(process.pid, signal.SIGKILL)
    process.wait(10)
    assert list(tmp_path.glob("*.tmp"))  # what a killed build leaves
    assert list(tmp_path.glob("*.lock"))
    assert build_progress("test", path) is None  # nobody holds its lock: no build under way
    assert load_or_build(path, _read, _builder("values"), kind="test") == "values"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.txt"]


def test_a_temporary_file_being_written_is_not_pruned(tmp_path: Path) -> None:
    path = tmp_path / "table.txt"
    writing = threading.Event()
    release = threading.Event()

    def slow(temporary: Path | None, step: Step) -> str:
        assert temporary is not None
        temporary.write_text("half")
        writing.set()
        release.wait(10)
        temporary.write_text("whole")
        return "whole"

    builder = threading.Thread(target=load_or_build, args=(path, _read, slow), kwargs={"kind": "t"})
    builder.start()
    writing.wait(10)
    assert remove_stale_temporaries(tmp_path) == []
    release.set()
    builder.join()
    assert path.read_text() == "whole"


def test_memory_keeps_the_last_tables_used(tmp_path: Path) -> None:
    tables = DerivedTables[str]("test", keep=2)
    builds: list[str] = []
    for name in ("a", "b", "a", "c"):
        tables.get(name, None, _read, _builder(name, builds=builds))
    assert builds == ["a", "b", "c"]  # "a" the second time from memory
    assert tables.at_hand("b") is None  # least recently used: out
    assert tables.at_hand("a") == "a"
    assert tables.at_hand("c") == "c"


def test_a_background_build_reports_progress_and_its_failure_is_not_raised(
    tmp_path: Path,
) -> None:
    tables = DerivedTables[str]("test")
    path = tmp_path / "t.txt"
    release = threading.Event()

    def get(listener):  # type: ignore[no-untyped-def]
        def build(temporary: Path | None, step: Step) -> str:
            step(1, 4)
            release.wait(10)
            raise OSError("disk full")

        return tables.get("k", path, _read, build, listener=listener)

    assert tables.if_ready("k", path, get) is None
    deadline = time.monotonic() + 120
    while (tables.progress("k", path) or BuildProgress("t", 0, None, 0)).fraction < 0.25:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert tables.if_ready("other", tmp_path / "o.txt", get) is None  # one at a time
    release.set()
    while tables.building():
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert tables.progress("k", path) is None
    assert list(tmp_path.iterdir()) == []


def test_the_lock_file_shows_the_builders_progress(tmp_path: Path) -> None:
    path = tmp_path / "table.txt"
    seen: list[BuildProgress | None] = []

    def build(temporary: Path | None, step: Step) -> str:
        step(1, 2)
        seen.append(build_progress("test", path))
        assert temporary is not None
        temporary.write_text("x")
        return "x"

    load_or_build(path, _read, build, kind="test")
    assert seen[0] is not None and seen[0].fraction == 0.5 and seen[0].waiting
    assert build_progress("test", path) is None
