"""Bounded solver work: one new table at a time, the allow-list, the cache's size limit.

The solve behind the cache is replaced by one that makes small tables of zeros (and can be
held open), so these tests need no real solve.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from fivedice.cli import app
from fivedice.core.errors import RuleSetError
from fivedice.core.game import GameSettings, Seat, SettingsError
from fivedice.core.rules import RuleSet, find_ruleset
from fivedice.service.games import GameService
from fivedice.strategy import cache, limits
from fivedice.strategy.solver import StrategyTable

CLASSIC = find_ruleset("classic")
RULES = [CLASSIC.replace(full_house=points) for points in (20, 21, 22, 23, 24)]
TABLE_BYTES = 8192 * 2 * 8  # a fake table: one upper total, two armed flags, float64


class FakeSolver:
    """Counts solves, the most running at once, and can hold a solve open until released."""

    def __init__(self) -> None:
        self.calls: list[RuleSet] = []
        self.running = 0
        self.most_at_once = 0
        self.started = threading.Event()
        self.release = threading.Event()
        self.release.set()
        self._lock = threading.Lock()

    def __call__(self, rules: RuleSet, progress: object = None) -> StrategyTable:
        with self._lock:
            self.calls.append(rules)
            self.running += 1
            self.most_at_once = max(self.most_at_once, self.running)
        self.started.set()
        self.release.wait(timeout=30)
        time.sleep(0.01)
        with self._lock:
            self.running -= 1
        values = np.zeros((8192, 1, 2))
        return StrategyTable(rules, values, 0.0, 1)


@pytest.fixture
def solver(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> FakeSolver:
    fake = FakeSolver()
    monkeypatch.setattr(cache, "solve", fake)
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.delenv(limits.SOLVE_RULES_ENV, raising=False)
    monkeypatch.delenv(cache.CACHE_MAX_ENV, raising=False)
    return fake


# -- one new table at a time ------------------------------------------------------------------


def test_one_table_is_solved_at_a_time(solver: FakeSolver) -> None:
    errors: list[BaseException] = []

    def work(rules: RuleSet) -> None:
        try:
            cache.load_or_solve(rules)
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(rules,)) for rules in RULES * 2]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors
    assert solver.most_at_once == 1
    assert sorted(r.full_house for r in solver.calls) == [r.full_house for r in RULES]


def test_a_caller_with_a_bound_gets_solver_busy_and_can_retry(solver: FakeSolver) -> None:
    solver.release.clear()
    first = threading.Thread(target=cache.load_or_solve, args=(RULES[0],))
    first.start()
    assert solver.started.wait(timeout=30)
    try:
        with limits.waiting_at_most(0.05), pytest.raises(limits.SolverBusyError) as caught:
            cache.load_or_solve(RULES[1])
        assert caught.value.retry_after > 0
        assert isinstance(caught.value, ValueError)
        assert "try again" in str(caught.value)
        # A table already on disk needs no slot: no wait, no error.
        assert len(solver.calls) == 1
    finally:
        solver.release.set()
        first.join(timeout=30)
    with limits.waiting_at_most(0.05):
        assert cache.load_or_solve(RULES[1]).rules == RULES[1]  # the retry works


def test_a_waiter_for_the_same_rules_reads_the_table_just_solved(solver: FakeSolver) -> None:
    solver.release.clear()
    first = threading.Thread(target=cache.load_or_solve, args=(RULES[0],))
    first.start()
    assert solver.started.wait(timeout=30)
    threading.Timer(0.2, solver.release.set).start()
    table = cache.load_or_solve(RULES[0])  # waits (no bound), then reads the file
    first.join(timeout=30)
    assert table.rules == RULES[0]
    assert len(solver.calls) == 1


# -- the allow-list -----------------------------------------------------------------------------


def test_the_allow_list_refuses_other_rules_before_any_work(
    solver: FakeSolver, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(limits.SOLVE_RULES_ENV, "classic, free-choice")
    with pytest.raises(limits.SolveNotAllowedError, match="solves only classic, free-choice"):
        cache.load_or_solve(find_ruleset("simple"))
    with pytest.raises(limits.SolveNotAllowedError):
        cache.load_or_solve(RULES[0], use_cache=False)
    assert solver.calls == []
    assert cache.load_or_solve(CLASSIC).rules == CLASSIC
    assert cache.load_or_solve(find_ruleset("free-choice")).rules.joker.value == "free_choice"


def test_a_several_column_preset_allows_its_one_column_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(limits.SOLVE_RULES_ENV, "triple")
    limits.check_allowed(find_ruleset("triple").replace(column_multipliers=(1,)))
    with pytest.raises(limits.SolveNotAllowedError):
        limits.check_allowed(find_ruleset("simple"))


@pytest.mark.parametrize("text", ["classic,nonsense", " , "])
def test_a_bad_allow_list_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setenv(limits.SOLVE_RULES_ENV, text)
    with pytest.raises((RuleSetError, limits.SolveNotAllowedError)):
        limits.allowed_rules()


def test_the_allow_list_refuses_games_whose_cpu_could_never_move(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(limits.SOLVE_RULES_ENV, "classic")
    service = GameService.open(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    simple = find_ruleset("simple")
    for level in ("strong", "expert"):
        seats = (Seat("Ann"), Seat("CPU", level))
        with pytest.raises(SettingsError, match="solves only classic"):
            service.create_game(GameSettings(seats=seats, rules=simple), seed=1)
    assert service.list_games() == []  # nothing saved
    # Casual CPUs play without a table; classic may be solved.
    service.create_game(GameSettings(seats=(Seat("Ann"), Seat("CPU", "casual")), rules=simple))
    service.create_game(GameSettings(seats=(Seat("Ann"), Seat("CPU", "expert")), rules=CLASSIC))
    assert len(service.list_games()) == 2
    service.store.close()


def test_cli_solve_respects_the_allow_list(
    solver: FakeSolver, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(limits.SOLVE_RULES_ENV, "classic")
    result = CliRunner().invoke(app, ["solve", "--rules", "simple", "--json"])
    assert result.exit_code == 2
    assert "solves only classic" in result.stderr
    assert solver.calls == []


def test_serve_checks_the_allow_list_before_serving(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    started: list[object] = []
    monkeypatch.setattr("fivedice.web.server.run_server", lambda *a, **k: started.append(a))
    monkeypatch.delenv(limits.SOLVE_RULES_ENV, raising=False)
    db = f"sqlite:///{tmp_path / 'serve.sqlite3'}"
    result = CliRunner().invoke(app, ["serve", "--db", db, "--solve-only", "classic,bogus"])
    assert result.exit_code == 2
    assert "bogus" in result.stderr
    assert started == []
    result = CliRunner().invoke(app, ["serve", "--db", db, "--solve-only", "classic"])
    assert result.exit_code == 0, result.output
    assert len(started) == 1
    assert os.environ[limits.SOLVE_RULES_ENV] == "classic"  # what the workers read


# -- the cache's size limit ---------------------------------------------------------------------


def _age(path: Path, seconds_ago: float) -> None:
    when = time.time() - seconds_ago
    os.utime(path, (when, when))


def test_the_cache_keeps_to_its_limit_least_recently_used_first(
    solver: FakeSolver, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(cache.CACHE_PIN_ENV, "0")  # no table counts as in use
    directory = tmp_path / "cache"
    for index, rules in enumerate(RULES[:3]):
        cache.load_or_solve(rules)
        _age(cache.cache_path(rules), 1000 - index * 100)  # RULES[0] the least recent
    size = cache.cache_path(RULES[0]).stat().st_size
    assert size > TABLE_BYTES
    # Reading RULES[0] makes it the most recently used.
    cache._recent.clear()
    cache.load_or_solve(RULES[0])
    monkeypatch.setenv(cache.CACHE_MAX_ENV, str(3.5 * size / 1e6))  # room for three tables
    cache.load_or_solve(RULES[3])  # a fourth: one must go, the least recently used
    left = {p.name for p in directory.glob("strategy-*.bin")}
    assert left == {cache.cache_path(r).name for r in (RULES[0], RULES[2], RULES[3])}
    assert sum(p.stat().st_size for p in directory.iterdir()) <= 3.5 * size


def test_the_table_just_solved_stays_even_over_a_tiny_limit(
    solver: FakeSolver, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(cache.CACHE_PIN_ENV, "0")  # no table counts as in use
    cache.load_or_solve(RULES[0])
    (tmp_path / "cache" / "strategy-old.bin.tmp").write_bytes(b"half a table")
    _age(tmp_path / "cache" / "strategy-old.bin.tmp", 7200)
    (tmp_path / "cache" / "unrelated.txt").write_text("not ours")
    monkeypatch.setenv(cache.CACHE_MAX_ENV, "0.01")
    cache.load_or_solve(RULES[1])
    names = sorted(p.name for p in (tmp_path / "cache").iterdir())
    assert names == sorted([cache.cache_path(RULES[1]).name, "unrelated.txt"])


def test_a_table_used_within_the_pin_time_is_never_evicted(
    solver: FakeSolver, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for index, rules in enumerate(RULES[:3]):
        cache.load_or_solve(rules)
        _age(cache.cache_path(rules), 1000 - index * 100)  # all used within the hour
    _age(cache.cache_path(RULES[0]), 7200)  # RULES[0]: last used two hours ago
    size = cache.cache_path(RULES[0]).stat().st_size
    monkeypatch.setenv(cache.CACHE_MAX_ENV, str(2.5 * size / 1e6))  # room for two tables
    cache.load_or_solve(RULES[3])
    left = {p.name for p in (tmp_path / "cache").glob("strategy-*.bin")}
    # Only the table nobody used for two hours went; the three in use stay, over the limit.
    assert left == {cache.cache_path(r).name for r in RULES[1:4]}


def test_a_new_rule_set_is_refused_while_tables_in_use_fill_the_cache(
    solver: FakeSolver, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for rules in RULES[:2]:
        cache.load_or_solve(rules)
    _age(cache.cache_path(RULES[0]), 600)  # in use, its pin runs out in 50 minutes
    size = cache.cache_path(RULES[0]).stat().st_size
    monkeypatch.setenv(cache.CACHE_MAX_ENV, str(1.5 * size / 1e6))
    with pytest.raises(limits.SolverBusyError) as refused:
        cache.load_or_solve(RULES[2])
    assert 2900 <= refused.value.retry_after <= 3000
    assert len(solver.calls) == 2  # nothing solved, nothing evicted
    assert cache.cache_path(RULES[0]).exists() and cache.cache_path(RULES[1]).exists()


def test_rules_the_solver_cannot_solve_are_refused_as_such_even_with_the_cache_full(
    solver: FakeSolver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Several columns are unsupported whatever the cache holds: never "busy, try again"."""
    from fivedice.core.rules import RuleSet
    from fivedice.strategy.rule_arrays import UnsupportedRulesError

    cache.load_or_solve(RULES[0])
    size = cache.cache_path(RULES[0]).stat().st_size
    monkeypatch.setenv(cache.CACHE_MAX_ENV, str(0.5 * size / 1e6))  # the table in use fills it
    with pytest.raises(limits.SolverBusyError):
        cache.load_or_solve(RULES[1])
    with pytest.raises(UnsupportedRulesError):
        cache.load_or_solve(RuleSet.preset("triple"))


def test_a_new_solve_asks_the_permit_and_a_solved_table_does_not(
    solver: FakeSolver, tmp_path: Path
) -> None:
    asked: list[object] = []

    def refuse(rules: object) -> None:
        asked.append(rules)
        raise limits.SolverBusyError(99)

    cache.load_or_solve(RULES[0])
    with limits.permitting_new_solves(refuse):
        assert cache.load_or_solve(RULES[0]) is not None  # solved before: no permit needed
        assert asked == []
        with pytest.raises(limits.SolverBusyError):
            cache.load_or_solve(RULES[1])
    assert asked == [RULES[1]]
    assert len(solver.calls) == 1


def test_old_float32_files_are_never_read(solver: FakeSolver, tmp_path: Path) -> None:
    """A version-1 file (float32) under the current name is rebuilt, not misread."""
    import hashlib
    import json

    path = cache.cache_path(RULES[0])
    path.parent.mkdir(parents=True)
    payload = np.full((8192, 1, 2), 7.0, dtype="<f4").tobytes()
    header = {
        "solver": "1",
        "rules": RULES[0].settings(),
        "shape": [8192, 1, 2],
        "dtype": "<f4",
        "expected_score": 7.0,
        "states": 1,
        "size": len(payload),
        "sha256": hashlib.sha256(payload).hexdigest(),
    }
    path.write_bytes(b"FIVEDICE-STRATEGY\n" + json.dumps(header).encode() + b"\n" + payload)
    assert cache.load_table(RULES[0], path) is None
    table = cache.load_or_solve(RULES[0])
    assert len(solver.calls) == 1
    assert table.values.dtype == np.float64 and table.expected_score == 0.0
    assert cache.load_table(RULES[0], path) is not None  # rewritten as version 2
    # And the old version's file name is another one: the key includes the version.
    assert cache.SOLVER_VERSION != "1"


def test_a_table_written_by_other_kernel_sources_is_never_read(
    solver: FakeSolver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The key and the header carry the kernels' code version (`kernel_cache.code_version`,
    a hash of their sources): a table solved by older (buggy) kernels is solved again."""
    path = cache.cache_path(RULES[0])
    cache.load_or_solve(RULES[0])
    assert len(solver.calls) == 1 and cache.load_table(RULES[0], path) is not None
    with monkeypatch.context() as other_sources:
        other_sources.setattr(cache, "code_version", lambda: "0123456789abcdef")
        assert cache.cache_path(RULES[0]) != path  # another name ...
        assert cache.load_table(RULES[0], path) is None  # ... and its header is refused
        cache.load_or_solve(RULES[0])
        assert len(solver.calls) == 2
        assert cache.load_table(RULES[0], cache.cache_path(RULES[0])) is not None
    # The version is the one the kernels' numba cache is kept by: it follows their sources.
    from fivedice.strategy.kernel_cache import code_version, kernel_hash

    assert cache.code_version is code_version and code_version() == kernel_hash()


@pytest.mark.parametrize("value", ["0", "-5", "lots", "nan", "inf", "1e400"])
def test_a_bad_cache_limit_is_a_clear_error(
    solver: FakeSolver, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv(cache.CACHE_MAX_ENV, value)
    with pytest.raises(cache.CacheSettingError, match="FIVEDICE_CACHE_MAX_MB"):
        cache.load_or_solve(RULES[0])
    result = CliRunner().invoke(app, ["solve", "--json"])
    assert result.exit_code == 2 and "FIVEDICE_CACHE_MAX_MB" in result.stderr
    assert solver.calls == []


def test_the_default_limit_is_2000_mb(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(cache.CACHE_MAX_ENV, raising=False)
    assert cache.cache_limit_bytes() == 2_000_000_000
    monkeypatch.setenv(cache.CACHE_MAX_ENV, "50")
    assert cache.cache_limit_bytes() == 50_000_000


def test_the_pin_time_comes_from_the_environment_and_a_bad_one_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(cache.CACHE_PIN_ENV, "2.5")
    assert cache.cache_pin_seconds() == 150
    monkeypatch.setenv(cache.CACHE_PIN_ENV, "soon")
    with pytest.raises(cache.CacheSettingError, match=cache.CACHE_PIN_ENV):
        cache.cache_pin_seconds()
