"""The CPU levels with the wild die: each level's mean score over N solitaire games with
`wild_die=on`, beside the same level's mean without it (the numba simulator). Prints JSON.

Usage: `PYTHONPATH=src .venv/bin/python benchmarks/bench_wild.py [--preset classic]
[--games 2000] [--levels beginner,casual,...] [--seed S]` (run it with `nice`: with the wild
die the games are played by the `Bot` objects in Python, about 0.1 s a game)

* with: each level's games with the wild die, played decision by decision by `Bot` (the
  levels' `WILD_DIE_PROFILES`), the dice drawn from `random.Random(seed, game)`;
* without: `simulate` (numba) with the same level on the preset without the wild die;
* each level's mean and standard error, and the levels in order of their means (they should
  be the levels' own order: beginner below casual below guide below strong below expert).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time

import numpy as np

from fivedice.core.card import ScoreCard
from fivedice.core.rules import RuleSet, find_ruleset
from fivedice.core.scoring import position_codes
from fivedice.strategy.bots import Bot
from fivedice.strategy.hints import hold_positions
from fivedice.strategy.levels import LEVELS
from fivedice.strategy.simulate import simulate


def play_wild_game(bot: Bot, rules: RuleSet, rng: random.Random) -> int:
    """One solitaire game of the bot: the dice in position order, the wild die last."""
    card = ScoreCard.empty(rules)
    while not card.is_complete:
        dice = tuple(rng.randint(1, 6) for _ in range(rules.dice))
        for rolls_left in range(rules.rolls_per_turn - 1, 0, -1):
            keep = bot.choose_keep(rules, card, dice, rolls_left)
            if len(keep) == rules.dice:
                break
            held = hold_positions(position_codes(rules, dice), (False,) * rules.dice, keep)
            dice = tuple(dice[i] if i + 1 in held else rng.randint(1, 6) for i in range(rules.dice))
        placement = bot.choose_box(rules, card, dice)
        card = card.fill(rules, placement.column, placement.category, dice)
    return card.total(rules)


def summary(scores: np.ndarray) -> dict[str, float]:
    return {
        "mean": round(float(scores.mean()), 2),
        "standard_error": round(float(scores.std(ddof=1) / np.sqrt(scores.size)), 2),
        "games": int(scores.size),
    }


def measure(rules: RuleSet, level: str, games: int, seed: int) -> dict[str, object]:
    start = time.perf_counter()
    wild = rules.replace(wild_die=True)
    scores = np.array(
        [
            play_wild_game(Bot(level, wild, random.Random(f"{seed}/{g}")), wild, random.Random(g))
            for g in range(games)
        ]
    )
    seconds = time.perf_counter() - start
    plain = simulate(rules.replace(wild_die=False), level, max(games, 20_000), seed=seed)
    return {
        "with_wild_die": summary(scores),
        "without": summary(plain.scores),
        "wild_seconds": round(seconds, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = find_ruleset(args.preset)
    result: dict[str, object] = {
        "preset": args.preset,
        "load_before": [round(x, 1) for x in os.getloadavg()],
    }
    levels = [level.strip() for level in args.levels.split(",")]
    measured = {level: measure(rules, level, args.games, args.seed) for level in levels}
    result["levels"] = measured
    result["order_with_wild_die"] = sorted(
        levels,
        key=lambda level: measured[level]["with_wild_die"]["mean"],  # type: ignore[index]
    )
    result["load_after"] = [round(x, 1) for x in os.getloadavg()]
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
