"""Playing to win: `master` against `expert` in paired games, and the clairvoyant ceiling.

Prints one JSON object:

* `master` (under each preset of `--rules`, e.g. classic,yatzy): `--games` paired games of
  master against expert for each number of seats in `--seats` (one master, the other seats
  experts; `strategy.master.play_table`, every set of dice streams played once per rotation of
  the players round the seats): master's win rate (a tie for first shared), its 95% interval
  over the independent sets, its outright wins and draws apart, the fair share (1 / seats) and
  the margin above it, both levels' means.
  `--policy` picks how master values a turn's end: `normal` (normals from the moment tables,
  the level as it plays in games), `thresholds` (the threshold tables against the best
  opponent's outcome distribution, `master.threshold_turn`) or `both`, each on the same dice.
* `ceiling` (classic and yatzy, with `--ceiling`): `--ceiling-games` paired games of a
  clairvoyant player (it knows the expert's final total and plays for the best chance of
  beating it: `strategy.clairvoyant`) against expert: its win rate with interval, draws apart.
  The published figure for Yatzy is 55.3%.

    nice .venv/bin/python benchmarks/bench_win.py [--rules classic,yatzy] [--games 100000]
        [--seats 2,3,4] [--policy normal|thresholds|both] [--ceiling] [--ceiling-games 100000]
        [--seed 1]

`--last-turns N` (below the card's boxes: 13, Yatzy 15) plays from the threshold tables in the
last N turns only (master's `thresholds` policy and the clairvoyant; the expert's play
before): the tables of those turns are computed on the spot in minutes, where the full tables
(hundreds of MB, read from the cache or computed once) take far longer. With fewer turns than
boxes the clairvoyant's rate is a lower bound on the ceiling (it knows the opponent's total
but uses it only at the end). The full tables hold targets up to `thresholds.default_top`
(400, Yatzy 378), the same files the goal coach uses.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from functools import cache
from typing import Any

import numpy as np

from fivedice.core.rules import find_ruleset
from fivedice.strategy.bots import Level
from fivedice.strategy.cache import load_or_solve
from fivedice.strategy.clairvoyant import play_ceiling
from fivedice.strategy.master import play_table
from fivedice.strategy.moments import MomentTable, moments_of
from fivedice.strategy.simulate import table_outcomes
from fivedice.strategy.thresholds import (
    ThresholdTable,
    compute_thresholds,
    default_top,
    thresholds_of,
)


def interval(values: np.ndarray) -> list[float]:
    """The 95% interval of the mean of independent values (normal approximation)."""
    half = 1.96 * float(values.std(ddof=1)) / math.sqrt(values.size)
    mean = float(values.mean())
    return [round(mean - half, 4), round(mean + half, 4)]


@cache
def threshold_table(rules_name: str, last_turns: int) -> ThresholdTable:
    """The threshold table of the rules' last turns (all of them: the cached full table)."""
    rules = find_ruleset(rules_name)
    boxes = len(rules.boxes)
    if last_turns >= boxes:
        return thresholds_of(rules, default_top(rules))
    return compute_thresholds(rules, default_top(rules), min_filled=boxes - last_turns)


def master_table(
    rules_name: str,
    seats: int,
    games: int,
    seed: int,
    policy: str,
    last_turns: int,
    spread: float = 1.0,
) -> dict[str, object]:
    """One master and seats − 1 experts, paired: master's results."""
    moments: MomentTable = moments_of(find_ruleset(rules_name))
    boxes = len(moments.rules.boxes)
    kinds = ("master",) + ("expert",) * (seats - 1)
    games = -(-games // seats) * seats
    options: dict[str, Any] = {}
    if policy == "thresholds":
        options = {
            "thresholds": threshold_table(rules_name, last_turns),
            "threshold_from": boxes - min(last_turns, boxes),
            "spread": spread,
        }
    play_table(moments, kinds, seats, seed=seed, paired=True, **options)  # compile
    start = time.perf_counter()
    played = play_table(moments, kinds, games, seed=seed, paired=True, **options)
    seconds = time.perf_counter() - start
    levels = [Level.MASTER] + [Level.EXPERT] * (seats - 1)
    rates, outright, draws, intervals = table_outcomes(levels, played.finals.T, seats)
    rate = rates[Level.MASTER]
    low, high = intervals[Level.MASTER]
    fair = 1 / seats
    return {
        "rules": rules_name,
        "seats": seats,
        "policy": policy
        if policy == "normal" or last_turns >= boxes
        else f"thresholds in the last {last_turns} turns",
        "spread": spread if policy == "thresholds" else None,
        "games": games,
        "win_rate": round(rate, 4),
        "interval_95": [round(low, 4), round(high, 4)],
        "won_outright": round(outright[Level.MASTER], 4),
        "drawn": round(draws[Level.MASTER], 4),
        "fair_share": round(fair, 4),
        "margin_pp": round(100 * (rate - fair), 2),
        "mean_scores": {
            "master": round(float(played.finals[:, 0].mean()), 2),
            "expert": round(float(played.finals[:, 1:].mean()), 2),
        },
        "seconds": round(seconds, 1),
    }


def ceiling(rules_name: str, games: int, seed: int, last_turns: int) -> dict[str, object]:
    """The clairvoyant against expert, paired (clairvoyant in its last turns only, unless
    `last_turns` covers the card: then a lower bound on the ceiling)."""
    rules = find_ruleset(rules_name)
    table = load_or_solve(rules)
    thresholds = threshold_table(rules_name, last_turns)
    games += games % 2
    play_ceiling(table, thresholds, 2, seed=seed)  # compile
    start = time.perf_counter()
    finals = play_ceiling(table, thresholds, games, seed=seed).finals
    seconds = time.perf_counter() - start
    result = (finals[:, 0] > finals[:, 1]) + 0.5 * (finals[:, 0] == finals[:, 1])
    pairs = result.reshape(-1, 2).mean(axis=1)
    return {
        "rules": rules_name,
        "clairvoyant_turns": min(last_turns, len(rules.boxes)),
        "games": games,
        "win_rate": round(float(result.mean()), 4),
        "interval_95": interval(pairs),
        "won_outright": round(float((finals[:, 0] > finals[:, 1]).mean()), 4),
        "drawn": round(float((finals[:, 0] == finals[:, 1]).mean()), 4),
        "mean_scores": {
            "clairvoyant": round(float(finals[:, 0].mean()), 2),
            "expert": round(float(finals[:, 1].mean()), 2),
        },
        "seconds": round(seconds, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--rules", default="classic", help="master's rule presets, e.g. classic,yatzy"
    )
    parser.add_argument("--games", type=int, default=100_000, help="paired games per table")
    parser.add_argument("--seats", default="2,3,4", help="numbers of seats, e.g. 2,3,4 (none)")
    parser.add_argument("--policy", choices=("normal", "thresholds", "both"), default="normal")
    parser.add_argument("--ceiling", action="store_true", help="also the clairvoyant ceiling")
    parser.add_argument("--ceiling-games", type=int, default=100_000)
    parser.add_argument("--ceiling-rules", default="classic,yatzy", help="rule presets")
    parser.add_argument(
        "--last-turns",
        type=int,
        default=99,
        help="turns played from the threshold tables (default: all)",
    )
    parser.add_argument(
        "--spread",
        type=float,
        default=1.0,
        help="thresholds policy: the opponent's standard deviation times this",
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    policies = ("normal", "thresholds") if args.policy == "both" else (args.policy,)
    report: dict[str, object] = {
        "master": [
            master_table(
                name, int(seats), args.games, args.seed, policy, args.last_turns, args.spread
            )
            for name in args.rules.split(",")
            for seats in args.seats.split(",")
            if seats != "none"
            for policy in policies
        ]
    }
    if args.ceiling:
        report["ceiling"] = [
            ceiling(name, args.ceiling_games, args.seed, args.last_turns)
            for name in args.ceiling_rules.split(",")
        ]
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
