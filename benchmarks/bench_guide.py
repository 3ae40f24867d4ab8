"""The `guide` level's mean score: the strategy guide played over many games.

Plays `--games` solitaire games of classic rules with the guide level (its rules in plain
Python, `strategy.guide_play`; dice from `--seed`) and, on the same dice seeds, the levels
around it (`casual`, `strong`, `expert`, numba), and prints one JSON object: each level's
mean, standard error and 95% interval, upper-bonus and Yahtzee rates, games per second; the
guide's number of rules and the mean the derivation measured; whether the guide reaches
the issue's target (a mean of at least 235); and, as every level faces the same dice stream
under one seed, the paired difference guide − level with its standard error.

    .venv/bin/python benchmarks/bench_guide.py [--games 10000] [--seed 2] [--levels casual,expert]
"""

from __future__ import annotations

import argparse
import json
import math

from fivedice.core.rules import CLASSIC
from fivedice.strategy.guide import load_guide
from fivedice.strategy.simulate import SimulationResult, simulate
from fivedice.wording.guide import guide_text

TARGET = 235.0


def figures(result: SimulationResult) -> dict[str, object]:
    half = 1.96 * result.standard_error
    return {
        "mean": round(result.mean, 2),
        "standard_error": round(result.standard_error, 3),
        "interval_95": [round(result.mean - half, 2), round(result.mean + half, 2)],
        "upper_bonus_rate": round(result.upper_bonus_rate, 4),
        "yahtzee_rate": round(result.yahtzee_rate, 4),
        "games_per_second": round(result.games_per_second, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--levels", default="casual,strong,expert", help="levels to compare")
    args = parser.parse_args()
    guide = load_guide()
    played = simulate(CLASSIC, "guide", args.games, seed=args.seed)
    others = [level for level in args.levels.split(",") if level]
    compared: dict[str, dict[str, object]] = {}
    for level in others:
        result = simulate(CLASSIC, level, args.games, seed=args.seed)
        # One seed gives every level the same dice stream: the difference is paired.
        difference = played.scores - result.scores
        compared[level] = {
            **figures(result),
            "guide_minus_level": round(float(difference.mean()), 2),
            "guide_minus_level_standard_error": round(
                float(difference.std(ddof=1)) / math.sqrt(len(difference)), 3
            ),
        }
    report = {
        "rules": "classic",
        "games": args.games,
        "seed": args.seed,
        "guide": {
            **figures(played),
            "rules": guide_text(guide.as_data()).rule_count,
            "keep_rules": len(guide.keep_rules) + 1,
            "derivation_mean": round(guide.mean, 2),
            "derivation_games": guide.games,
            "target": TARGET,
            "reaches_target": played.mean >= TARGET,
        },
        "others": compared,
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
