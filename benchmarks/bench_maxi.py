"""The exact Maxi Yatzy solve without saved rolls: time, memory, disk, and its mean checked by
a simulation of its own policy. Prints JSON.

Usage: `PYTHONPATH=src .venv/bin/python benchmarks/bench_maxi.py [--threshold 84] [--bonus 100]
[--games N] [--seed S] [--cache-dir DIR]`

* solve: the whole table in this process (numba's compiled kernels from its cache: run once
  before for a figure without compilation), wall and CPU seconds, states, the optimum;
* memory: the process's peak resident set (`ru_maxrss`; `/usr/bin/time -v` says the same);
* disk: the table file as the cache writes it (float32), and the time to read it back;
* simulation: N games of the expert CPU, which plays this table's policy (the same kernels),
  in numba; their mean against the optimum in standard errors (|z| ≤ 4 expected);
* the machine's load average before and after (the machine is shared: read the load).

`--saved-rolls`: Maxi Yatzy *with* saved rolls, the banked player (`strategy.banked`: the exact
no-save table plus a value of banked rolls, its two numbers tuned on `--tune-games` games of
other dice) against today's heuristic expert, paired on `--games` games of `--seed` (loads
the no-save table from `--cache-dir`, or solves it).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import tempfile
import time
from pathlib import Path

import numpy as np

from fivedice.core.rules import RuleSet, find_ruleset
from fivedice.strategy.banked import bank_values, simulate_banked
from fivedice.strategy.bots import values_from_table
from fivedice.strategy.cache import cache_path, load_or_solve, load_table, save_table
from fivedice.strategy.simulate import simulate
from fivedice.strategy.solver import StrategyTable, solve


def expert_against_optimum(
    rules: RuleSet, table: StrategyTable, games: int, seed: int
) -> dict[str, object]:
    """N games of the expert CPU playing the table's policy: their mean against the table's
    optimum in standard errors (|z| ≤ 4 expected)."""
    start = time.perf_counter()
    played = simulate(rules, "expert", games, seed=seed, values=values_from_table(table))
    scores = played.scores.astype(np.float64)
    mean, error = float(scores.mean()), float(scores.std(ddof=1) / np.sqrt(scores.size))
    return {
        "games": int(scores.size),
        "mean": round(mean, 3),
        "standard_error": round(error, 3),
        "sd": round(float(scores.std(ddof=1)), 2),
        "z": round((mean - table.expected_score) / error, 2),
        "seconds": round(time.perf_counter() - start, 1),
    }


def saved_rolls(args: argparse.Namespace) -> dict[str, object]:
    """The banked player (`strategy.banked`) against today's heuristic expert, with saved
    rolls: the bank's two numbers tuned on `--tune-games` games (seed + 1000), then both
    players measured on `--games` games of `--seed`, paired (game i's dice stream is the
    same for both)."""
    rules = find_ruleset(
        "maxi-yatzy",
        {"upper_bonus_threshold": str(args.threshold), "upper_bonus_value": str(args.bonus)},
    )
    table = load_or_solve(rules.replace(saved_rolls=False), cache_dir=args.cache_dir)
    values = values_from_table(table)
    grid = []
    for per_roll in (0.0, 2.0, 4.0, 5.0, 6.0, 7.0, 8.0, 10.0, 12.0):
        for cap in (0.5, 0.75, 1.0, 1.5, 2.0, 100.0):
            if per_roll == 0.0 and cap != 100.0:
                continue
            bank = bank_values(per_roll, cap, rules)
            scores = simulate_banked(rules, values, bank, args.tune_games, args.seed + 1000)
            grid.append({"per_roll": per_roll, "cap": cap, "mean": float(scores[:, 0].mean())})
    chosen = max(grid, key=lambda row: float(row["mean"]))  # type: ignore[arg-type]
    bank = bank_values(float(chosen["per_roll"]), float(chosen["cap"]), rules)  # type: ignore[arg-type]
    start = time.perf_counter()
    banked = simulate_banked(rules, values, bank, args.games, args.seed)
    seconds = time.perf_counter() - start
    expert = simulate(rules, "expert", args.games, seed=args.seed).scores.astype(np.float64)
    ours = banked[:, 0].astype(np.float64)
    difference = ours - expert
    root = np.sqrt(args.games)
    return {
        "rules": {"threshold": args.threshold, "bonus": args.bonus, "saved_rolls": True},
        "no_save_optimum": table.expected_score,
        "tuning": {"games": args.tune_games, "seed": args.seed + 1000, "grid": grid},
        "bank": {"per_roll": chosen["per_roll"], "cap": chosen["cap"]},
        "games": args.games,
        "seed": args.seed,
        "banked_mean": round(float(ours.mean()), 2),
        "banked_standard_error": round(float(ours.std(ddof=1) / root), 2),
        "banked_rolls_left_at_end": round(float(banked[:, 2].mean()), 3),
        "banked_rolls_thrown": round(float(banked[:, 3].mean()), 2),
        "banked_seconds": round(seconds, 1),
        "heuristic_expert_mean": round(float(expert.mean()), 2),
        "heuristic_expert_standard_error": round(float(expert.std(ddof=1) / root), 2),
        "paired_difference": round(float(difference.mean()), 2),
        "paired_difference_standard_error": round(float(difference.std(ddof=1) / root), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threshold", type=int, default=84, help="upper bonus threshold")
    parser.add_argument("--bonus", type=int, default=100, help="upper bonus points")
    parser.add_argument("--games", type=int, default=20_000, help="simulated games (0: none)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cache-dir", default=None, help="keep the table here (default: temp)")
    parser.add_argument(
        "--saved-rolls", action="store_true", help="the banked player against the expert"
    )
    parser.add_argument("--tune-games", type=int, default=4_000, help="games per bank setting")
    args = parser.parse_args()
    if args.saved_rolls:
        print(json.dumps(saved_rolls(args), indent=2))
        return
    rules = find_ruleset(
        "maxi-yatzy",
        {
            "saved_rolls": "off",
            "upper_bonus_threshold": str(args.threshold),
            "upper_bonus_value": str(args.bonus),
        },
    )
    load_before = os.getloadavg()
    wall, cpu = time.perf_counter(), time.process_time()
    table = solve(rules)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(args.cache_dir or scratch)
        path = cache_path(rules, directory)
        save_table(table, path)
        size = path.stat().st_size
        read = time.perf_counter()
        loaded = load_table(rules, path)
        read = time.perf_counter() - read
        assert loaded is not None
        float32_error = float(np.abs(loaded.values - table.values).max())
    result: dict[str, object] = {
        "rules": {"threshold": args.threshold, "bonus": args.bonus, "saved_rolls": False},
        "optimum": table.expected_score,
        "states": table.states,
        "solve_wall_s": round(wall, 1),
        "solve_cpu_s": round(cpu, 1),
        "threads": int(os.environ.get("NUMBA_NUM_THREADS", os.cpu_count() or 1)),
        "peak_rss_mb": round(peak_mb),
        "table_file_mb": round(size / 1e6, 1),
        "table_read_s": round(read, 2),
        "float32_largest_error": float32_error,
        "load_before": [round(x, 1) for x in load_before],
    }
    if args.games:
        result["simulation"] = expert_against_optimum(rules, table, args.games, args.seed)
    result["load_after"] = [round(x, 1) for x in os.getloadavg()]
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
