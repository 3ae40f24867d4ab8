"""The tables check of readiness (service/readiness.py): without an allow-list nothing to wait
for; with one, not ready until every listed table is solved, a missing one being solved in
the background (once, whoever asks), a failed solve reported and tried again later."""

from __future__ import annotations

import threading
import time

import pytest

from fivedice.core.rules import find_ruleset
from fivedice.service import readiness


@pytest.fixture
def solves(monkeypatch):
    """TableSolves with the cache and the solver replaced: `cached` is what the cache holds;
    a solve waits for `release` and then adds its rules (or fails when `fail` is set)."""
    cached: set = set()
    calls: list = []
    release = threading.Event()
    fail = threading.Event()

    def load_cached(rules):
        return object() if rules in cached else None

    def load_or_solve(rules):
        calls.append(rules)
        release.wait(5)
        if fail.is_set():
            raise RuntimeError("the cache is full")
        cached.add(rules)

    monkeypatch.setattr(readiness, "load_cached", load_cached)
    monkeypatch.setattr(readiness, "load_or_solve", load_or_solve)
    solves = readiness.TableSolves()
    solves.cached, solves.calls, solves.release, solves.fail = cached, calls, release, fail
    return solves


def _wait_idle(solves) -> None:
    deadline = time.monotonic() + 5
    while solves._solving is not None:
        assert time.monotonic() < deadline
        time.sleep(0.01)


def test_without_an_allow_list_tables_are_solved_on_demand(solves, monkeypatch):
    monkeypatch.delenv("FIVEDICE_SOLVE_RULES", raising=False)
    assert solves.check() == readiness.Check(True, "solved on demand")
    assert solves.calls == []


def test_a_missing_table_is_solved_once_in_the_background(solves, monkeypatch):
    monkeypatch.setenv("FIVEDICE_SOLVE_RULES", "classic,yatzy")
    classic, yatzy = find_ruleset("classic"), find_ruleset("yatzy")
    solves.cached.add(yatzy)
    assert solves.check() == readiness.Check(False, "1 of 2 being solved")
    assert solves.check() == readiness.Check(False, "1 of 2 being solved")
    solves.release.set()
    _wait_idle(solves)
    assert solves.check() == readiness.Check(True, "2 solved")
    assert solves.calls == [classic]


def test_a_failed_solve_is_reported_and_tried_again_later(solves, monkeypatch):
    monkeypatch.setenv("FIVEDICE_SOLVE_RULES", "classic")
    solves.fail.set()
    solves.release.set()
    solves.check()
    _wait_idle(solves)
    assert solves.check() == readiness.Check(False, "1 cannot be solved")
    assert len(solves.calls) == 1
    monkeypatch.setattr(readiness, "SOLVE_AGAIN_SECONDS", 0.0)
    solves.fail.clear()
    solves.check()
    _wait_idle(solves)
    assert solves.check() == readiness.Check(True, "1 solved")
    assert len(solves.calls) == 2


def test_a_table_found_intact_is_not_read_again_until_its_file_changes(
    solves, monkeypatch, tmp_path
):
    monkeypatch.setenv("FIVEDICE_SOLVE_RULES", "classic")
    classic = find_ruleset("classic")
    table = tmp_path / "classic.bin"
    table.write_bytes(b"a solved table")
    monkeypatch.setattr(readiness, "cache_path", lambda rules: table)
    reads = []
    monkeypatch.setattr(readiness, "load_cached", lambda rules: reads.append(rules) or object())
    for _ in range(3):
        assert solves.check() == readiness.Check(True, "1 solved")
    assert reads == [classic]
    replaced = tmp_path / "new.bin"
    replaced.write_bytes(b"another solved table, longer")
    replaced.replace(table)  # (as the cache writes a table: a new file)
    assert solves.check() == readiness.Check(True, "1 solved")
    assert reads == [classic, classic]
