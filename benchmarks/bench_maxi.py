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

from fivedice.core.rules import find_ruleset
from fivedice.strategy.bots import values_from_table
from fivedice.strategy.cache import cache_path, load_table, save_table
from fivedice.strategy.simulate import simulate
from fivedice.strategy.solver import solve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threshold", type=int, default=84, help="upper bonus threshold")
    parser.add_argument("--bonus", type=int, default=100, help="upper bonus points")
    parser.add_argument("--games", type=int, default=20_000, help="simulated games (0: none)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cache-dir", default=None, help="keep the table here (default: temp)")
    args = parser.parse_args()
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
        start = time.perf_counter()
        games = simulate(
            rules, "expert", args.games, seed=args.seed, values=values_from_table(table)
        )
        scores = games.scores.astype(np.float64)
        mean, error = float(scores.mean()), float(scores.std(ddof=1) / np.sqrt(scores.size))
        result["simulation"] = {
            "games": int(scores.size),
            "mean": round(mean, 3),
            "standard_error": round(error, 3),
            "sd": round(float(scores.std(ddof=1)), 2),
            "z": round((mean - table.expected_score) / error, 2),
            "seconds": round(time.perf_counter() - start, 1),
        }
    result["load_after"] = [round(x, 1) for x in os.getloadavg()]
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
