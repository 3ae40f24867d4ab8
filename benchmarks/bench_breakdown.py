"""The breakdown tables (`strategy.breakdown`): build time, size on disk, and the start-of-game
breakdown beside the per-box means of simulated expert games.

For each rule set: solves (or loads) the table, builds the breakdown twice (the first run
includes numba's compilation or cache load; the second is the warm figure), writes it to a
temporary cache directory and loads it back (memory-mapped), then plays `--games` expert games
(`simulate`) and prints one JSON object per rule set: the build times, the file's size and
states, and per component (each box, the bonuses) the exact mean under optimal play, the
simulated mean, its standard error and the difference in standard errors.

    .venv/bin/python benchmarks/bench_breakdown.py [--rules classic yatzy] [--games 20000]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from fivedice.core.rules import find_ruleset
from fivedice.strategy.breakdown import compute_breakdown, load_or_compute
from fivedice.strategy.cache import load_or_solve
from fivedice.strategy.simulate import simulate


def measure(preset: str, games: int, seed: int) -> dict[str, object]:
    rules = find_ruleset(preset)
    table = load_or_solve(rules)
    start = time.perf_counter()
    compute_breakdown(table)
    cold = time.perf_counter() - start
    start = time.perf_counter()
    breakdown = compute_breakdown(table)
    warm = time.perf_counter() - start
    with tempfile.TemporaryDirectory() as directory:
        load_or_compute(table, cache_dir=directory)  # writes it
        files = list(Path(directory).glob("breakdown*.npy"))
        size = sum(path.stat().st_size for path in files)
        start = time.perf_counter()
        loaded = load_or_compute(table, cache_dir=directory)
        load_seconds = time.perf_counter() - start
        exact = loaded.state(0, 0, False)
    result = simulate(rules, "expert", games, seed=seed)
    simulated = result.breakdown()
    rows = {}
    worst = 0.0
    for key, mean in exact.items():
        got = simulated[key]
        z = (got["mean"] - mean) / got["standard_error"] if got["standard_error"] else 0.0
        worst = max(worst, abs(z))
        rows[key] = {
            "exact": round(mean, 4),
            "simulated": got["mean"],
            "standard_error": got["standard_error"],
            "difference_in_se": round(z, 2),
        }
    return {
        "rules": preset,
        "expected_score": round(table.expected_score, 7),
        "sum_of_components": round(sum(exact.values()), 7),
        "build_seconds_first": round(cold, 2),
        "build_seconds_warm": round(warm, 2),
        "load_seconds": round(load_seconds, 3),
        "file_megabytes": round(size / 1e6, 1),
        "stored_floats": int(breakdown.data.size),
        "games": games,
        "simulated_mean": round(result.mean, 3),
        "largest_difference_in_se": round(worst, 2),
        "components": rows,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", nargs="+", default=["classic", "yatzy"])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    for preset in arguments.rules:
        print(json.dumps(measure(preset, arguments.games, arguments.seed)))


if __name__ == "__main__":
    main()
