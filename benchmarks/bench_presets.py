"""Yacht, Yacht Dice, Generala and Kismet: each preset's exact solve (time, states, optimum)
and the optimum confirmed by its own expert CPU over N simulated games. Prints JSON.

Usage: `PYTHONPATH=src .venv/bin/python benchmarks/bench_presets.py [--presets yacht,...]
[--games 20000] [--seed S] [--cached]` (run it with `nice`: it takes a few minutes; `--cached`
reads each table from the strategy cache instead of solving it, and times no solve)

* solve: the whole table in this process (numba's compiled kernels from its cache: run once
  before for a figure without compilation), wall and CPU seconds, states, the optimum;
* simulation: N games of the expert CPU, which plays the table's policy, in numba; their mean
  against the optimum in standard errors (|z| ≤ 4 expected). With served points (Generala)
  the numba simulator does not score a turn's first roll apart: the expert CPU itself
  (`Bot`, served-aware) plays the N games in Python (`strategy.solitaire`, ~35 ms a game);
* published: Yacht Dice's optimum as Yacht Dice solvers publish it (191.77).
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np
from bench_maxi import expert_against_optimum  # (benchmarks/ is the script's directory)

from fivedice.core.rules import RuleSet, find_ruleset
from fivedice.strategy.bots import Bot
from fivedice.strategy.cache import load_or_solve
from fivedice.strategy.limits import has_served_points, is_supported
from fivedice.strategy.solitaire import play_solitaire
from fivedice.strategy.solver import StrategyTable, solve

PUBLISHED = {"yacht-dice": 191.77}


def measure(name: str, games: int, seed: int, cached: bool = False) -> dict[str, object]:
    rules = find_ruleset(name)
    wall, cpu = time.perf_counter(), time.process_time()
    table = load_or_solve(rules) if cached else solve(rules)
    result: dict[str, object] = {"optimum": round(table.expected_score, 6), "states": table.states}
    if not cached:
        result["solve_wall_s"] = round(time.perf_counter() - wall, 1)
        result["solve_cpu_s"] = round(time.process_time() - cpu, 1)
    if name in PUBLISHED:
        result["published"] = PUBLISHED[name]
    if games and has_served_points(rules):
        result["expert"] = expert_bot_against_optimum(rules, table, games, seed)
    elif games and is_supported(rules):
        result["expert"] = expert_against_optimum(rules, table, games, seed)
    return result


def expert_bot_against_optimum(
    rules: RuleSet, table: StrategyTable, games: int, seed: int
) -> dict[str, object]:
    """N solitaire games of the expert CPU itself (`Bot`, which scores served points): their
    mean against the table's optimum in standard errors (|z| ≤ 4 expected)."""
    start = time.perf_counter()
    bot = Bot("expert", rules, table=table)
    scores = np.array(play_solitaire(bot, rules, games, seed), dtype=np.float64)
    mean, error = float(scores.mean()), float(scores.std(ddof=1) / np.sqrt(scores.size))
    return {
        "games": int(scores.size),
        "player": "Bot (Python, served-aware)",
        "mean": round(mean, 3),
        "standard_error": round(error, 3),
        "sd": round(float(scores.std(ddof=1)), 2),
        "z": round((mean - table.expected_score) / error, 2),
        "seconds": round(time.perf_counter() - start, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--presets", default="yacht,yacht-dice,generala,kismet")
    parser.add_argument("--games", type=int, default=20_000, help="expert games (0: none)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cached", action="store_true", help="read the tables, do not solve")
    args = parser.parse_args()
    result: dict[str, object] = {"load_before": [round(x, 1) for x in os.getloadavg()]}
    for name in args.presets.split(","):
        result[name] = measure(name.strip(), args.games, args.seed, args.cached)
    result["load_after"] = [round(x, 1) for x in os.getloadavg()]
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
