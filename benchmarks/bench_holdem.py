"""Texas Hold'em Yahtzee: the strongest CPU level against three opponents, heads-up.

Prints one JSON object: for each opponent - ``casual`` (a person's mistakes), a calling
station (the ``beginner`` level) and the "raise with the top fifth by equity" bot (the
``guide`` level) - the chips ``master`` won per hand from full stacks (1,000, ante 10,
no-limit), with its 95% interval over pairs of hands (each deal played twice, the seats
swapped), the hands played and the seconds taken. With ``--checkpoint FILE`` the figures so
far are written there every ``--every`` hands (long runs on a busy machine).

    PYTHONPATH=src nice .venv/bin/python benchmarks/bench_holdem.py [--hands 20000] [--seed 1]
        [--bot master] [--vs casual,station,top-fifth] [--checkpoint FILE] [--every 1000]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from fivedice.strategy.holdem.simulate import simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot", default="master")
    parser.add_argument("--vs", default="casual,station,top-fifth")
    parser.add_argument("--checkpoint", type=Path, default=None)
    parser.add_argument("--every", type=int, default=1000)
    args = parser.parse_args()
    figures: dict[str, object] = {"bot": args.bot, "hands": args.hands, "seed": args.seed}
    for opponent in args.vs.split(","):
        started = time.perf_counter()
        done = 0
        while done < args.hands:
            # Chunks of --every hands with their own seeds, merged as pairs of hands.
            step = min(args.every, args.hands - done)
            chunk = simulate(args.bot, opponent, step, seed=args.seed * 1_000_003 + done)
            previous = figures.get(opponent)
            merged = _merge(previous, chunk.chips_per_hand, chunk.standard_error, chunk.hands)
            done += chunk.hands
            merged["seconds"] = round(time.perf_counter() - started, 1)
            figures[opponent] = merged
            if args.checkpoint is not None:
                args.checkpoint.write_text(json.dumps(figures, indent=2))
    print(json.dumps(figures, indent=2))


def _merge(previous: object, mean: float, error: float, hands: int) -> dict[str, object]:
    """Pools chunk means weighted by hands (the chunks are independent)."""
    if not isinstance(previous, dict):
        total, weighted, variance = 0, 0.0, 0.0
    else:
        total = int(previous["hands"])
        weighted = float(previous["chips_per_hand"]) * total
        variance = float(previous["standard_error"]) ** 2 * total**2
    total += hands
    weighted += mean * hands
    variance += error**2 * hands**2
    pooled = weighted / total
    pooled_error = variance**0.5 / total
    return {
        "hands": total,
        "chips_per_hand": round(pooled, 3),
        "standard_error": round(pooled_error, 3),
        "interval_95": [
            round(pooled - 1.96 * pooled_error, 3),
            round(pooled + 1.96 * pooled_error, 3),
        ],
    }


if __name__ == "__main__":
    main()
