"""Ready before the first game: the kernels compiled and the classic tables solved.

numba compiles the dice kernels on their first use and keeps them in its cache (`cache=True`);
the classic strategy table is solved on the first hint. On a fresh install both fell on the
player's time (a first `fivedice advise` took 13 s, a first `simulate --games 1000` 32 s).
`warm_up` does it once, at install (`fivedice warm`, run by `make install` and `make play`):
it solves the rules' strategy table, computes the tables the coach and the CPU players read
(the winning chances, the breakdown by box) and plays a few games of every CPU level, which
compiles every kernel a game uses into numba's cache. Each step is quick when already done,
so running it again only checks.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from fivedice.core.card import Column
from fivedice.core.rules import RuleSet
from fivedice.strategy.derived import CancelToken, ProgressListener

__all__ = ["WARM_GAMES", "WarmStep", "warm_up"]

WARM_GAMES = 4
"""Games played by each CPU level to compile its kernels."""


@dataclass(frozen=True)
class WarmStep:
    """One step of the warm-up and the seconds it took (a step already done takes ~0)."""

    name: str
    seconds: float


def warm_up(
    rules: RuleSet | None = None,
    *,
    listener: ProgressListener | None = None,
    step_started: Callable[[str], None] | None = None,
    cancel: CancelToken | None = None,
) -> list[WarmStep]:
    """Solves the rules' tables and compiles the kernels (see the module doc).

    Args:
        rules: single-column rules (default: classic).
        listener: told the progress of each table built.
        step_started: told the name of each step as it starts.
        cancel: stops a build between its steps (`BuildCancelled`; nothing written).
    """
    from fivedice.strategy.advisor import advise
    from fivedice.strategy.breakdown import breakdown_of
    from fivedice.strategy.cache import load_or_solve
    from fivedice.strategy.limits import has_win_chances
    from fivedice.strategy.moments import moments_of

    rules = rules or RuleSet()
    steps: list[WarmStep] = []

    def run(name: str, action: Callable[[], object]) -> None:
        if step_started is not None:
            step_started(name)
        start = time.perf_counter()
        action()
        steps.append(WarmStep(name, time.perf_counter() - start))

    run("strategy", lambda: load_or_solve(rules, listener=listener, cancel=cancel))
    table = load_or_solve(rules)
    run("advice", lambda: advise(table, Column(), (1, 1, 6, 6, 6), rules.rolls_per_turn - 1))
    if has_win_chances(rules):
        run("moments", lambda: moments_of(rules, listener=listener, cancel=cancel))
        run("breakdown", lambda: breakdown_of(rules, listener=listener, cancel=cancel))
    for level in ("beginner", "casual", "guide", "strong", "expert", "master"):
        run(level, _games(rules, level))
    return steps


def _games(rules: RuleSet, level: str) -> Callable[[], object]:
    from fivedice.strategy.simulate import simulate

    return lambda: simulate(rules, level, WARM_GAMES)
