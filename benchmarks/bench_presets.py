"""Yacht, Yacht Dice, Generala and Kismet: each preset's exact solve (time, states, optimum)
and the optimum confirmed by its own expert CPU over N simulated games. Prints JSON.

Usage: `PYTHONPATH=src .venv/bin/python benchmarks/bench_presets.py [--presets yacht,...]
[--games 20000] [--seed S]` (run it with `nice`: it takes a few minutes)

* solve: the whole table in this process (numba's compiled kernels from its cache: run once
  before for a figure without compilation), wall and CPU seconds, states, the optimum;
* simulation: N games of the expert CPU, which plays the table's policy, in numba; their mean
  against the optimum in standard errors (|z| ≤ 4 expected). Generala's CPUs are not yet
  aware of served points (`strategy.limits.is_supported`): its optimum is the solve's alone;
* published: Yacht Dice's optimum as Yacht Dice solvers publish it (191.77).
"""

from __future__ import annotations

import argparse
import json
import os
import time

from bench_maxi import expert_against_optimum  # (benchmarks/ is the script's directory)

from fivedice.core.rules import find_ruleset
from fivedice.strategy.limits import is_supported
from fivedice.strategy.solver import solve

PUBLISHED = {"yacht-dice": 191.77}


def measure(name: str, games: int, seed: int) -> dict[str, object]:
    rules = find_ruleset(name)
    wall, cpu = time.perf_counter(), time.process_time()
    table = solve(rules)
    result: dict[str, object] = {
        "optimum": round(table.expected_score, 6),
        "states": table.states,
        "solve_wall_s": round(time.perf_counter() - wall, 1),
        "solve_cpu_s": round(time.process_time() - cpu, 1),
    }
    if name in PUBLISHED:
        result["published"] = PUBLISHED[name]
    if games and is_supported(rules):
        result["expert"] = expert_against_optimum(rules, table, games, seed)
    elif games:
        result["expert"] = "not played: the CPUs do not know served points yet"
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--presets", default="yacht,yacht-dice,generala,kismet")
    parser.add_argument("--games", type=int, default=20_000, help="expert games (0: none)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    result: dict[str, object] = {"load_before": [round(x, 1) for x in os.getloadavg()]}
    for name in args.presets.split(","):
        result[name] = measure(name.strip(), args.games, args.seed)
    result["load_after"] = [round(x, 1) for x in os.getloadavg()]
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
