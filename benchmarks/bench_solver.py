"""Solver and advisor speed against the peer `yatzy_solver`, printed as JSON.

Usage: `.venv/bin/python benchmarks/bench_solver.py [--repeat N] [--positions N] [--seed S]`

* cold solve: a fresh process with an empty numba cache (compilation included);
* warm solve: in process, after one untimed solve, best of N (the peer likewise, interleaved
  so that both see the same machine load); for classic (the peer's `american+forced-joker`)
  and for Scandinavian Yatzy (`yatzy-scandinavian`), whose optima must agree;
* table file size, the time to read and check the file, and to reuse it in the process;
* advice with 2 rolls left: one position (empty card, dice 1-1-6-6-6), best of many calls in
  rounds that take turns with the peer's; and
  a varied set of positions (reachable cards of 0-12 filled boxes, random dice; the same set for
  both engines, built outside the timing), mean per query over the set, best of several rounds
  interleaved with the peer's. The varied set keeps any per-position caching out of the figure.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from fivedice.core.card import Column
from fivedice.core.categories import Category
from fivedice.core.rules import RuleSet, find_ruleset
from fivedice.strategy.advisor import advise
from fivedice.strategy.cache import cache_path, load_or_solve, load_table
from fivedice.strategy.solver import decision_values, solve

PEER_VARIANT = "american+forced-joker"  # the peer's builtin closest to our classic preset
PEER_YATZY = "yatzy-scandinavian"  # = our `yatzy` preset
PEER_SITUATION = "dice 1 1 6 6 6 | rolls 2 | upper 0 | filled -"
PEER_BOX = {Category.YAHTZEE: "five_of_a_kind"}  # the peer's name where it differs from our key


def _random_positions(
    rules: RuleSet, count: int, seed: int
) -> list[tuple[Column, tuple[int, ...], str]]:
    """Reachable decision points with 2 rolls left: a card of 0-12 boxes filled by random
    legal placements of random rolls, and random dice; with the peer's notation of each."""
    rng = random.Random(seed)
    positions = []
    for _ in range(count):
        column = Column.empty()
        for _ in range(rng.randrange(13)):
            roll = tuple(rng.randint(1, 6) for _ in range(5))
            placement = rng.choice(column.placements(rules, roll))
            column = column.fill(rules, placement.category, roll)
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        filled = [c for c in Category if column.is_filled(c)]
        situation = (
            f"dice {' '.join(map(str, sorted(dice)))} | rolls 2"
            f" | upper {min(column.upper_total, 63)}"
            f" | filled {','.join(PEER_BOX.get(c, c.key) for c in filled) or '-'}"
        )
        held = column.score(Category.YAHTZEE)
        if held is not None:
            situation += f" | five_of_a_kind {held}"
        positions.append((column, dice, situation))
    return positions


def _mean_query_seconds(queries: list[Callable[[], object]]) -> float:
    """Mean time per query over one pass through the set."""
    start = time.perf_counter()
    for query in queries:
        query()
    return (time.perf_counter() - start) / len(queries)


def _best_call_seconds(
    calls: list[Callable[[], object]], repeat: int = 2000, rounds: int = 7
) -> list[float]:
    """Best time per call of each callable, over rounds that take turns (same machine load)."""
    best = [float("inf")] * len(calls)
    for call in calls:
        call()
    for _ in range(rounds):
        for i, call in enumerate(calls):
            start = time.perf_counter()
            for _ in range(repeat):
                call()
            best[i] = min(best[i], (time.perf_counter() - start) / repeat)
    return best


def _cold_solve_seconds() -> float:
    script = (
        "import time; t = time.perf_counter();"
        "from fivedice.core.rules import find_ruleset;"
        "from fivedice.strategy.solver import solve;"
        "solve(find_ruleset('classic')); print(time.perf_counter() - t)"
    )
    with tempfile.TemporaryDirectory() as numba_cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": numba_cache}
        out = subprocess.run(
            [sys.executable, "-c", script], env=env, check=True, capture_output=True, text=True
        )
    return float(out.stdout.strip().splitlines()[-1])


def _yatzy_build(repeat: int) -> dict[str, object]:
    """The Scandinavian Yatzy table build, ours against the peer's, interleaved, best of N."""
    import yatzy_solver

    rules = find_ruleset("yatzy")
    table = solve(rules)  # untimed: loads the compiled kernels
    variant = yatzy_solver.Variant(PEER_YATZY)
    ours: list[float] = []
    theirs: list[float] = []
    peer = None
    for _ in range(repeat):
        start = time.perf_counter()
        table = solve(rules)
        ours.append(time.perf_counter() - start)
        start = time.perf_counter()
        peer = yatzy_solver.Solver.build(variant)
        theirs.append(time.perf_counter() - start)
    assert peer is not None
    return {
        "yatzy_solve_warm_s": round(min(ours), 3),
        "peer_yatzy_solve_s": round(min(theirs), 3),
        "yatzy_solve_ratio_ours_over_peer": round(min(ours) / min(theirs), 3),
        "yatzy_expected_score": round(table.expected_score, 7),
        "peer_yatzy_expected_score": round(peer.state_value("upper 0 | filled -"), 7),
        "yatzy_states": table.states,
    }


def main() -> None:
    """Runs every measurement and prints one JSON object."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3, help="timed solves of each solver")
    parser.add_argument("--positions", type=int, default=1000, help="varied advice positions")
    parser.add_argument("--seed", type=int, default=1, help="seed of the varied positions")
    parser.add_argument(
        "--yatzy-only", action="store_true", help="only the Yatzy table build against the peer"
    )
    args = parser.parse_args()
    if args.yatzy_only:
        print(json.dumps(_yatzy_build(args.repeat), indent=2))
        return

    import yatzy_solver

    rules = find_ruleset("classic")
    figures: dict[str, object] = {"cpus": os.cpu_count()}
    figures["fivedice_solve_cold_s"] = round(_cold_solve_seconds(), 3)

    table = solve(rules)  # untimed: loads the compiled kernels
    peer_variant = yatzy_solver.Variant(PEER_VARIANT)
    ours: list[float] = []
    theirs: list[float] = []
    peer = None
    for _ in range(args.repeat):
        start = time.perf_counter()
        table = solve(rules)
        ours.append(time.perf_counter() - start)
        start = time.perf_counter()
        peer = yatzy_solver.Solver.build(peer_variant)
        theirs.append(time.perf_counter() - start)
    assert peer is not None
    figures["fivedice_solve_warm_s"] = round(min(ours), 3)
    figures["peer_solve_s"] = round(min(theirs), 3)
    figures["solve_ratio_ours_over_peer"] = round(min(ours) / min(theirs), 3)
    figures["fivedice_expected_score"] = round(table.expected_score, 7)
    figures["peer_expected_score"] = round(peer.state_value("upper 0 | filled -"), 7)
    figures["fivedice_states"] = table.states
    figures.update(_yatzy_build(args.repeat))

    with tempfile.TemporaryDirectory() as directory:
        load_or_solve(rules, cache_dir=directory)
        figures["table_file_bytes"] = Path(cache_path(rules, directory)).stat().st_size
        path = Path(cache_path(rules, directory))
        loads = []
        for _ in range(10):  # the file read and checked (what a new process pays)
            start = time.perf_counter()
            load_table(rules, path)
            loads.append(time.perf_counter() - start)
        figures["table_load_ms"] = round(min(loads) * 1000, 2)
        recent = []
        for _ in range(10):  # again in the same process: the table kept in memory
            start = time.perf_counter()
            load_or_solve(rules, cache_dir=directory)
            recent.append(time.perf_counter() - start)
        figures["table_reuse_ms"] = round(min(recent) * 1000, 3)

    empty = Column.empty()
    dice = (1, 1, 6, 6, 6)
    ours_advice, ours_engine, peer_advice = _best_call_seconds(
        [
            lambda: advise(table, empty, dice, 2),
            lambda: decision_values(table, empty, dice, 2),
            lambda: peer.option_values(PEER_SITUATION),
        ]
    )
    figures["fivedice_advise_us"] = round(ours_advice * 1e6, 1)
    figures["fivedice_decision_values_us"] = round(ours_engine * 1e6, 1)
    figures["peer_option_values_us"] = round(peer_advice * 1e6, 1)
    figures["advice_ratio_ours_over_peer"] = round(ours_advice / peer_advice, 3)
    figures["engine_ratio_ours_over_peer"] = round(ours_engine / peer_advice, 3)

    positions = _random_positions(rules, args.positions, args.seed)
    ours_queries: list[Callable[[], object]] = [
        lambda column=column, dice=dice: advise(table, column, dice, 2)
        for column, dice, _ in positions
    ]
    peer_queries: list[Callable[[], object]] = [
        lambda situation=situation: peer.option_values(situation) for _, _, situation in positions
    ]
    # Same decisions: the best value of every position agrees (both in float64).
    worst = max(
        abs(advise(table, column, dice, 2)[0].value - max(v for _, v in peer.option_values(s)))
        for column, dice, s in positions
    )
    ours_rounds: list[float] = []
    peer_rounds: list[float] = []
    for _ in range(7):  # interleaved rounds, best of each
        ours_rounds.append(_mean_query_seconds(ours_queries))
        peer_rounds.append(_mean_query_seconds(peer_queries))
    figures["varied_positions"] = len(positions)
    figures["varied_best_value_max_abs_diff"] = float(f"{worst:.2g}")
    figures["fivedice_advise_varied_us"] = round(min(ours_rounds) * 1e6, 1)
    figures["peer_option_values_varied_us"] = round(min(peer_rounds) * 1e6, 1)
    figures["advice_varied_ratio_ours_over_peer"] = round(min(ours_rounds) / min(peer_rounds), 3)
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
