"""Calibration of the winning chances, and the `master` level against `expert`.

Plays two-seat games on classic rules in numba (`strategy.master.play_table`; the seats take
turns to start) and prints one JSON object:

* `calibration`: `--games` expert-vs-expert games. Before every turn of every game (26 per
  game: both seats' positions, the seat to move not yet rolled) the first seat's chance of
  winning is predicted with the same functions the live bar uses (`chances.column_pmf`,
  `chances.combine`) and compared with how the game ended (win 1, tie ½, loss 0): the Brier
  score, and per decile of predicted probability the number of predictions, the number of
  games they come from, the mean prediction and the observed win rate. A decile has *enough*
  games when its predictions come from at least `ENOUGH_GAMES` different games; those must
  agree within 2 percentage points (`within_2pp`).
* `master`: `--duels` master-vs-expert games: master's win rate (ties ½) with its 95%
  interval (normal approximation), and both levels' mean scores.

    .venv/bin/python benchmarks/bench_chances.py [--games 10000] [--duels 20000] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import math
import time

import numpy as np

from fivedice.core.rules import find_ruleset
from fivedice.strategy.chances import Outlook, column_pmf, combine
from fivedice.strategy.master import play_table
from fivedice.strategy.moments import MomentTable, moments_of

ENOUGH_GAMES = 500
"""A decile's predictions must come from at least this many games to be held to 2 points."""


def outcome(finals: np.ndarray) -> np.ndarray:
    """The first seat's result per game: 1 won, ½ tied, 0 lost."""
    return (finals[:, 0] > finals[:, 1]) + 0.5 * (finals[:, 0] == finals[:, 1])


def predictions(moments: MomentTable, records: np.ndarray) -> np.ndarray:
    """The first seat's predicted chance before every turn: (games, 26)."""
    out = np.empty(records.shape[:2])
    for g in range(records.shape[0]):
        for step in range(records.shape[1]):
            seats = records[g, step]
            outlooks = [
                Outlook(int(total), column_pmf(moments, int(mask), int(up), bool(armed)))
                for mask, up, armed, total in seats
            ]
            out[g, step] = combine(outlooks)[0]
    return out


def calibration(moments: MomentTable, games: int, seed: int) -> dict[str, object]:
    start = time.perf_counter()
    played = play_table(moments, ("expert", "expert"), games, seed=seed)
    records, finals = played.records, played.finals
    played = time.perf_counter() - start
    predicted = predictions(moments, records)
    observed = np.repeat(outcome(finals)[:, None], predicted.shape[1], axis=1)
    game_ids = np.repeat(np.arange(games)[:, None], predicted.shape[1], axis=1)
    flat_p, flat_o, flat_g = predicted.ravel(), observed.ravel(), game_ids.ravel()
    deciles = []
    for d in range(10):
        chosen = (flat_p >= d / 10) & ((flat_p < (d + 1) / 10) if d < 9 else (flat_p <= 1.0))
        count = int(chosen.sum())
        row: dict[str, object] = {
            "decile": f"{d / 10:.1f}-{(d + 1) / 10:.1f}",
            "predictions": count,
        }
        if count:
            mean_p = float(flat_p[chosen].mean())
            rate = float(flat_o[chosen].mean())
            distinct = int(np.unique(flat_g[chosen]).size)
            row.update(
                games=distinct,
                predicted=round(mean_p, 4),
                observed=round(rate, 4),
                difference_pp=round(100 * (rate - mean_p), 2),
                enough=distinct >= ENOUGH_GAMES,
            )
        deciles.append(row)
    checked = [row for row in deciles if row.get("enough")]
    return {
        "games": games,
        "predictions": int(flat_p.size),
        "brier": round(float(np.mean((flat_p - flat_o) ** 2)), 5),
        "brier_of_a_coin": round(float(np.mean((0.5 - flat_o) ** 2)), 5),
        "mean_scores": [round(float(x), 2) for x in finals.mean(axis=0)],
        "deciles": deciles,
        "enough_games": ENOUGH_GAMES,
        "within_2pp": all(abs(float(row["difference_pp"])) <= 2.0 for row in checked),  # type: ignore[arg-type]
        "seconds": {"play": round(played, 1), "total": round(time.perf_counter() - start, 1)},
    }


def duel(moments: MomentTable, games: int, seed: int) -> dict[str, object]:
    start = time.perf_counter()
    finals = play_table(moments, ("master", "expert"), games, seed=seed).finals
    results = outcome(finals)
    rate = float(results.mean())
    half = 1.96 * float(results.std(ddof=1)) / math.sqrt(games)
    return {
        "games": games,
        "starts": "alternating",
        "master_win_rate": round(rate, 4),
        "interval_95": [round(rate - half, 4), round(rate + half, 4)],
        "mean_scores": {
            "master": round(float(finals[:, 0].mean()), 2),
            "expert": round(float(finals[:, 1].mean()), 2),
        },
        "seconds": round(time.perf_counter() - start, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10_000, help="expert games to calibrate on")
    parser.add_argument("--duels", type=int, default=20_000, help="master-vs-expert games")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rules = find_ruleset("classic")
    moments = moments_of(rules)  # solved and cached once
    play_table(moments, ("master", "expert"), 2, seed=0)  # compile / load the kernels
    report = {
        "rules": "classic",
        "calibration": calibration(moments, args.games, args.seed),
        "master_vs_expert": duel(moments, args.duels, args.seed + 1),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
