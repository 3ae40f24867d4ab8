"""Compiles the strategy layer's numba kernels into their on-disk cache, once, before the
test workers start (`make test` runs `python -m tests.support.kernels tables` and `... players`
beside mypy, each on a core when mypy is done).

Every kernel is `@njit(cache=True)`: a process that finds a kernel compiled for its argument
types loads it from numba's cache (`strategy/kernel_cache.py`) instead of compiling it again.
On a fresh clone both xdist workers would otherwise compile the same kernels at the same time
(minutes of CPU each). A
small run of every engine that has kernels (the solver, moments, breakdowns, thresholds, the
CPU players and their playouts, the master and clairvoyant tables, the banked player, the
advice engines) compiles them for the types the tests use: the types are those of the arrays,
not their sizes, so small games do.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from fivedice.core.rules import find_ruleset
from fivedice.strategy.levels import LEVELS


def _steps() -> list[tuple[str, Callable[[], object]]]:
    from fivedice.core.card import Column
    from fivedice.strategy import heuristics as h
    from fivedice.strategy.advisor import advise
    from fivedice.strategy.banked import bank_values, simulate_banked
    from fivedice.strategy.breakdown import compute_breakdown
    from fivedice.strategy.clairvoyant import play_ceiling
    from fivedice.strategy.master import play_table
    from fivedice.strategy.moments import compute_moments
    from fivedice.strategy.simulate import simulate
    from fivedice.strategy.solver import solve
    from fivedice.strategy.thresholds import compute_thresholds
    from fivedice.strategy.turn_cache import advise as cached_advise

    # One roll a turn: the same kernels for the same types as three, a third of the work.
    classic, yatzy = (find_ruleset(name).replace(rolls_per_turn=1) for name in ("classic", "yatzy"))
    maxi = find_ruleset("maxi-yatzy")
    solved: dict[str, object] = {}

    def table():  # type: ignore[no-untyped-def]
        if "classic" not in solved:
            solved["classic"] = solve(classic)
        return solved["classic"]

    def moments():  # type: ignore[no-untyped-def]
        if "moments" not in solved:
            solved["moments"] = compute_moments(table())
        return solved["moments"]

    def advice() -> None:
        column = Column.empty()
        advise(table(), column, (1, 2, 3, 4, 6), 0)
        cached_advise(table(), column, (1, 2, 3, 4, 6), 0)

    def ceiling() -> None:
        last = compute_thresholds(classic, top=400, min_filled=12)
        play_ceiling(table(), last, 4, seed=1)

    def banked() -> None:
        values = h.heuristic_values(maxi)
        simulate_banked(maxi, values, bank_values(1.0, 1.0, maxi), 2, seed=1)

    return [
        ("solver", table),
        ("moments", moments),
        ("breakdown", lambda: compute_breakdown(table())),
        ("advice", advice),
        *(
            (
                f"{rules.family.value} {level}",
                lambda rules=rules, level=level: simulate(rules, level, 2, use_cache=False),
            )
            for rules in (classic, yatzy)
            for level in LEVELS
        ),
        ("master table", lambda: play_table(moments(), ("master", "expert"), 2, paired=True)),
        ("clairvoyant", ceiling),
        ("banked", banked),
    ]


PARTS = ("tables", "players")
"""The two halves `make test` runs side by side (each about half the compiling): the engines
that work on a solved table, and the CPU players' playouts, which need none."""


def _part(name: str) -> str:
    return "players" if name == "banked" or name.split()[-1] in LEVELS else "tables"


def warm(report: Callable[[str], None] = lambda line: None, part: str | None = None) -> None:
    """Runs every step (or those of one of `PARTS`), reporting each one's time."""
    for name, step in _steps():
        if part is not None and _part(name) != part:
            continue
        start = time.perf_counter()
        step()
        report(f"{name}: {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    chosen = sys.argv[1] if len(sys.argv) > 1 else None
    if chosen is not None and chosen not in PARTS:
        sys.exit(f"usage: python -m tests.support.kernels [{'|'.join(PARTS)}]")
    started = time.perf_counter()
    warm(lambda line: print(f"  kernels, {line}", file=sys.stderr), chosen)
    print(f"kernels compiled or loaded in {time.perf_counter() - started:.0f} s", file=sys.stderr)
