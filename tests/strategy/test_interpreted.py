"""The uncompiled strategy modules (`fivedice.strategy.interpreted`) and the `advise` command
that uses them: the same answers as the compiled kernel, and nothing leaks into the process."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import fivedice.strategy
from fivedice.core.card import Column
from fivedice.core.rules import RuleSet, find_ruleset
from fivedice.strategy import advisor, cache, solver
from fivedice.strategy.interpreted import interpreted
from fivedice.strategy.solver import StrategyTable

pytestmark = pytest.mark.slow


def _positions(rules: RuleSet, count: int, seed: int) -> list[tuple[Column, tuple[int, ...], int]]:
    rng = random.Random(seed)
    positions = []
    for _ in range(count):
        column = Column.empty()
        for _ in range(rng.randrange(13)):
            roll = tuple(rng.randint(1, 6) for _ in range(5))
            placement = rng.choice(column.placements(rules, roll))
            column = column.fill(rules, placement.category, roll)
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        positions.append((column, dice, rng.randrange(rules.rolls_per_turn)))
    return positions


def test_the_copies_stay_out_of_the_process() -> None:
    before = dict(sys.modules)
    package_attributes = dict(vars(fivedice.strategy))
    copy_cache, copy_advisor = interpreted("fivedice.strategy.cache", "fivedice.strategy.advisor")
    assert dict(sys.modules) == before
    assert dict(vars(fivedice.strategy)) == package_attributes
    assert copy_advisor is not advisor and copy_cache is not cache
    # The copies share their copy of the solver, whose kernel is plain Python.
    copy_kernel = copy_advisor.query.__globals__["advice_options"]
    assert copy_kernel is not solver.advice_options
    assert copy_cache.solve.__globals__ is copy_kernel.__globals__
    assert not hasattr(copy_kernel, "py_func")
    assert hasattr(solver.advice_options, "py_func")  # the process's own stays compiled
    with pytest.raises(ValueError):
        interpreted("fivedice.service.games")


@pytest.mark.parametrize("preset", ["classic", "free-choice"])
def test_the_uncompiled_kernel_gives_the_same_advice(
    preset: str, classic_table: StrategyTable, free_choice_table: StrategyTable
) -> None:
    table = {"classic": classic_table, "free-choice": free_choice_table}[preset]
    (copy_advisor,) = interpreted("fivedice.strategy.advisor")
    for column, dice, rolls_left in _positions(table.rules, 40, seed=7):
        assert copy_advisor.advise(table, column, dice, rolls_left) == advisor.advise(
            table, column, dice, rolls_left
        )


def test_advise_command_answers_from_the_cache_without_numba(
    tmp_path: Path, classic_table: StrategyTable
) -> None:
    cache.save_table(classic_table, cache.cache_path(classic_table.rules, tmp_path))
    card = '{"sixes": 18, "yahtzee": 50}'
    script = (
        "import sys\n"
        "from fivedice.cli import main\n"
        f"sys.argv = ['fivedice', 'advise', '--dice', '66666', '--rolls-left', '1',"
        f" '--card', {card!r}, '--json']\n"
        "try:\n    main()\n"
        "finally:\n    print('numba' in sys.modules, file=sys.stderr)\n"
    )
    env = {**os.environ, cache.CACHE_ENV: str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stderr.strip() == "False"
    rules = find_ruleset("classic")
    expected = advisor.advise(
        classic_table, Column.from_dict(rules, json.loads(card)), (6, 6, 6, 6, 6), 1
    )
    options = json.loads(out.stdout)["options"]
    assert [o["keep"] if "keep" in o else o["score"] for o in options] == [
        list(e.keep) if e.keep is not None else e.category.key  # type: ignore[union-attr]
        for e in expected
    ]
    assert [o["value"] for o in options] == [e.value for e in expected]
