"""The table cache: round trip, damaged files, keys."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from fivedice.core.rules import Joker, find_ruleset
from fivedice.strategy import cache
from fivedice.strategy.solver import StrategyTable

pytestmark = pytest.mark.slow


@pytest.fixture
def counted_solve(monkeypatch: pytest.MonkeyPatch, classic_table: StrategyTable) -> list[object]:
    """Replaces the solve behind the cache by the session's classic table, counting calls."""
    calls: list[object] = []

    def fake_solve(rules: object, progress: object = None) -> StrategyTable:
        calls.append(rules)
        return classic_table

    monkeypatch.setattr(cache, "solve", fake_solve)
    return calls


def test_round_trip(
    tmp_path: Path, classic_table: StrategyTable, counted_solve: list[object]
) -> None:
    rules = classic_table.rules
    first = cache.load_or_solve(rules, cache_dir=tmp_path)
    assert len(counted_solve) == 1
    path = cache.cache_path(rules, tmp_path)
    assert path.exists()
    assert classic_table.values.nbytes < path.stat().st_size < classic_table.values.nbytes + 4096
    assert not list(tmp_path.glob("*.tmp"))
    second = cache.load_or_solve(rules, cache_dir=tmp_path)
    assert len(counted_solve) == 1  # read back, not solved again
    assert second.expected_score == first.expected_score
    assert second.states == first.states
    np.testing.assert_array_equal(second.values, first.values)
    assert second.values.dtype == np.float64
    assert second.value(0, 0, False) == pytest.approx(254.5877287, abs=1e-6)


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage", "empty"])
def test_damaged_file_is_rebuilt(
    tmp_path: Path, classic_table: StrategyTable, counted_solve: list[object], damage: str
) -> None:
    rules = classic_table.rules
    cache.load_or_solve(rules, cache_dir=tmp_path)
    path = cache.cache_path(rules, tmp_path)
    data = bytearray(path.read_bytes())
    if damage == "truncate":
        data = data[: len(data) // 2]
    elif damage == "flip":
        data[-1000] ^= 0x40
    elif damage == "garbage":
        data = bytearray(b"not a table\n" * 10)
    else:
        data = bytearray()
    path.write_bytes(bytes(data))
    assert cache.load_table(rules, path) is None
    table = cache.load_or_solve(rules, cache_dir=tmp_path)
    assert len(counted_solve) == 2
    assert table.expected_score == classic_table.expected_score
    assert cache.load_table(rules, path) is not None  # rewritten whole


def test_keys_and_directories(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    classic = find_ruleset("classic")
    keys = {
        cache.cache_key(classic),
        cache.cache_key(classic.replace(joker=Joker.FREE_CHOICE)),
        cache.cache_key(classic.replace(rolls_per_turn=4)),
        cache.cache_key(find_ruleset("simple")),
    }
    assert len(keys) == 4
    assert cache.cache_key(classic) == cache.cache_key(find_ruleset("official"))
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "env"))
    assert cache.cache_path(classic).parent == tmp_path / "env"
    assert cache.cache_path(classic, tmp_path / "arg").parent == tmp_path / "arg"
    monkeypatch.delenv(cache.CACHE_ENV)
    assert "fivedice" in str(cache.resolve_cache_dir())


def test_table_of_other_rules_is_not_used(
    tmp_path: Path, classic_table: StrategyTable, counted_solve: list[object]
) -> None:
    # A file renamed to another rule set's key must not be trusted.
    rules = classic_table.rules
    cache.load_or_solve(rules, cache_dir=tmp_path)
    other = rules.replace(joker=Joker.FREE_CHOICE)
    cache.cache_path(rules, tmp_path).rename(cache.cache_path(other, tmp_path))
    assert cache.load_table(other, cache.cache_path(other, tmp_path)) is None


def test_no_cache_writes_nothing(
    tmp_path: Path, classic_table: StrategyTable, counted_solve: list[object]
) -> None:
    cache.load_or_solve(classic_table.rules, use_cache=False, cache_dir=tmp_path)
    assert len(counted_solve) == 1
    assert not any(tmp_path.iterdir())


def test_load_cached_reads_but_never_solves(
    tmp_path: Path, classic_table: StrategyTable, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_solve(rules: object, progress: object = None) -> StrategyTable:
        raise AssertionError("load_cached solved")

    monkeypatch.setattr(cache, "solve", no_solve)
    rules = classic_table.rules
    assert cache.load_cached(rules, cache_dir=tmp_path) is None
    path = cache.cache_path(rules, tmp_path)
    cache.save_table(classic_table, path)
    table = cache.load_cached(rules, cache_dir=tmp_path)
    assert table is not None
    np.testing.assert_array_equal(table.values, classic_table.values)
    assert cache.load_cached(rules, cache_dir=tmp_path) is table  # kept in memory
    path.write_bytes(path.read_bytes()[:-8])  # damaged: not trusted, and not solved either
    assert cache.load_cached(rules, cache_dir=tmp_path) is None


@pytest.mark.parametrize("position", [0.01, 0.5, 0.99])
def test_flipped_bit_anywhere_is_caught_by_the_crc(
    tmp_path: Path, classic_table: StrategyTable, position: float
) -> None:
    """The CRC-32 that replaced SHA-256 on load still catches a single flipped bit."""
    path = tmp_path / "table.bin"
    cache.save_table(classic_table, path)
    data = bytearray(path.read_bytes())
    data[int(len(data) * position)] ^= 0x01
    path.write_bytes(bytes(data))
    assert cache.load_table(classic_table.rules, path) is None


def test_older_files_without_a_crc_are_checked_by_sha256(
    tmp_path: Path, classic_table: StrategyTable
) -> None:
    path = tmp_path / "table.bin"
    cache.save_table(classic_table, path)
    magic, header_line, payload = path.read_bytes().split(b"\n", 2)
    header = json.loads(header_line)
    del header["crc32"]
    path.write_bytes(magic + b"\n" + json.dumps(header).encode() + b"\n" + payload)
    loaded = cache.load_table(classic_table.rules, path)
    assert loaded is not None
    assert np.array_equal(loaded.values, classic_table.values, equal_nan=True)
    del loaded  # its values map the file, which is rewritten in place below
    damaged = bytearray(payload)
    damaged[len(damaged) // 2] ^= 0x10
    path.write_bytes(magic + b"\n" + json.dumps(header).encode() + b"\n" + bytes(damaged))
    assert cache.load_table(classic_table.rules, path) is None
