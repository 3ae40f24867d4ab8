"""Expert simulation speed against the peer `yatzy_solver` package, in the same run.

Prints one JSON object: our optimal player's games per second on classic rules, the peer's
optimal simulator on the equivalent variant ("american+forced-joker"), and the ratio. Both
exclude solving and compiling, and both use every core.

    .venv/bin/python benchmarks/bench_simulate.py [--games 100000] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numba

from fivedice.core.rules import find_ruleset
from fivedice.strategy.bots import level_values
from fivedice.strategy.simulate import simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=2, help="best of this many runs")
    args = parser.parse_args()

    rules = find_ruleset("classic")
    values = level_values(rules, "expert")  # solved once, then read from the cache
    simulate(rules, "expert", 1_000, seed=0, values=values)  # compile / load the kernels
    ours = [
        simulate(rules, "expert", args.games, seed=args.seed, values=values)
        for _ in range(args.repeats)
    ]
    best = max(ours, key=lambda result: result.games_per_second)

    import yatzy_solver

    solver = yatzy_solver.Solver.build(yatzy_solver.Variant("american+forced-joker"))
    solver.simulate(1_000, seed=0)
    peer_rates = []
    peer_mean = 0.0
    for _ in range(args.repeats):
        start = time.perf_counter()
        peer = solver.simulate(args.games, seed=args.seed)
        peer_rates.append(args.games / (time.perf_counter() - start))
        peer_mean = float(peer["mean"])

    peer_rate = max(peer_rates)
    print(
        json.dumps(
            {
                "games": args.games,
                "cpus": os.cpu_count(),
                "numba_threads": numba.get_num_threads(),
                "ours": {
                    "games_per_second": round(best.games_per_second, 1),
                    "mean": round(best.mean, 3),
                    "upper_bonus_rate": round(best.upper_bonus_rate, 4),
                },
                "peer": {
                    "package": f"yatzy_solver {getattr(yatzy_solver, '__version__', '?')}",
                    "variant": "american+forced-joker",
                    "games_per_second": round(peer_rate, 1),
                    "mean": round(peer_mean, 3),
                },
                "ratio": round(best.games_per_second / peer_rate, 3),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
