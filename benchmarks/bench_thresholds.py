"""Threshold tables and the coach for a goal: size, build, load and query times, and how much
more often playing for a goal reaches it than playing for the most points.

Loads the rules' threshold table from the cache (computing it first, minutes, if it is not
there, or always with `--build` into a fresh directory), then prints one JSON object: rows,
targets, bytes, the build's CPU and wall seconds (when built), the memory-mapped load, the
time of one `target_hints` query (2 rolls left, varied positions), the best chance from the
empty card of reaching 200 … 400, and `--games` solitaire games played twice on the same dice
seeds: by the goal coach for `--goal` and by `expert` (the expected-score optimum), with each
one's rate of reaching the goal (95% interval) against the table's exact prediction.

    .venv/bin/python benchmarks/bench_thresholds.py [--rules classic] [--goal 300] [--games 500]
        [--seed 1] [--build]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import resource
import tempfile
import time

from fivedice.core.dice import RandomDice
from fivedice.core.game import GameSettings, GameState, Seat, apply, new_game
from fivedice.core.rules import find_ruleset
from fivedice.strategy.cache import load_or_solve
from fivedice.strategy.hints import Hint, exact_hints
from fivedice.strategy.solver import StrategyTable
from fivedice.strategy.target import target_hints
from fivedice.strategy.thresholds import ThresholdTable, default_top, load_or_compute


def play(state: GameState, dice: RandomDice, choose) -> int:  # type: ignore[no-untyped-def]
    """Plays a solitaire game to the end with `choose(state) -> Hint`; the final total."""
    state = apply(state, "roll", dice)
    while not state.is_game_over:
        best: Hint = choose(state)
        if best.category is not None:
            state = apply(state, best.action, dice)
            if not state.is_game_over:
                state = apply(state, "roll", dice)
            continue
        held = {p for p, h in enumerate(state.turn.held, start=1) if h}
        wanted = set(best.hold or ())
        if held - wanted:
            state = apply(state, "release " + " ".join(map(str, sorted(held - wanted))), dice)
        if wanted - held:
            state = apply(state, "hold " + " ".join(map(str, sorted(wanted - held))), dice)
        state = apply(state, "roll", dice)
    return state.totals[0]


def rate(successes: int, games: int) -> dict[str, float]:
    p = successes / games
    half = 1.96 * math.sqrt(max(p * (1 - p), 1e-12) / games)
    return {"rate": round(p, 4), "interval_95": [round(p - half, 4), round(p + half, 4)]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--goal", type=int, default=300)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--build", action="store_true", help="build into a fresh directory")
    args = parser.parse_args()
    rules = find_ruleset(args.rules)
    top = default_top(rules)
    out: dict[str, object] = {"rules": args.rules, "top": top}
    cpu, wall = time.process_time(), time.perf_counter()
    cache_dir = tempfile.mkdtemp() if args.build else None
    table: ThresholdTable = load_or_compute(rules, top, cache_dir=cache_dir)
    out["load_or_build_cpu_s"] = round(time.process_time() - cpu, 2)
    out["load_or_build_wall_s"] = round(time.perf_counter() - wall, 2)
    out["max_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    out["rows"], out["bytes"] = int(table.chances.shape[0]), int(table.chances.nbytes)
    start = time.perf_counter()
    load_or_compute(rules, top, cache_dir=cache_dir)
    out["memory_map_load_ms"] = round(1000 * (time.perf_counter() - start), 1)
    out["chance_from_empty_card"] = {
        str(t): round(table.chance(0, 0, False, t), 4) for t in range(200, top + 1, 50)
    }
    ev: StrategyTable = load_or_solve(rules)
    settings = GameSettings(seats=(Seat("Solo"),), rules=rules)
    rng = random.Random(args.seed)
    seeds = [rng.randrange(2**62) for _ in range(args.games)]
    # One query's time over varied positions (the coach's first roll of varied games).
    queries = []
    for seed in seeds[:50]:
        state = apply(new_game(settings, RandomDice(seed)), "roll", RandomDice(seed))
        begin = time.perf_counter()
        target_hints(state, args.goal, table)
        queries.append(time.perf_counter() - begin)
    out["target_hints_ms_median"] = round(1000 * sorted(queries)[len(queries) // 2], 2)
    reached = {"goal_coach": 0, "expert": 0}
    begin = time.perf_counter()
    for seed in seeds:
        fresh = new_game(settings, RandomDice(seed))
        goal_total = play(fresh, RandomDice(seed), lambda s: target_hints(s, args.goal, table)[0])
        expert_total = play(fresh, RandomDice(seed), lambda s: exact_hints(ev, s)[0])
        reached["goal_coach"] += goal_total >= args.goal
        reached["expert"] += expert_total >= args.goal
    out["games"] = args.games
    out["goal"] = args.goal
    out["predicted_goal_coach"] = round(table.chance(0, 0, False, args.goal), 4)
    out["reached"] = {name: rate(count, args.games) for name, count in reached.items()}
    out["seconds_playing"] = round(time.perf_counter() - begin, 1)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
