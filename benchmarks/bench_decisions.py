"""The strategy's decisions as a game and a review meet them, printed as JSON: the time an
`expert` CPU spends deciding a whole solitaire game, and the time a review of a finished
game takes.

Usage: `PYTHONPATH=src .venv/bin/python benchmarks/bench_decisions.py [--rules classic]
[--games N] [--rounds N] [--seed S]`

* **Expert game**: `--games` solitaire games (dice seeds `--seed`, `--seed + 1`, ...) of the
  `expert` CPU played through the service's one-step-at-a-time decisions
  (`service.cpu.cpu_next_action`: a release, a hold, a roll or a score per call, so a turn asks
  the CPU again at each hold); the time is the sum of those calls over a game (the core's
  `apply` between them is not counted).
* **Review**: the same games reviewed (`strategy.review.review_game` on their replays, without
  reasons or winning chances): one question per keep and per box, the coach's.

Each game is timed `--rounds` times (the turn values the engine keeps forgotten before each,
`turn_cache.forget`, outside the timing: every game and every review starts as a new one
does); a game's figure is its best round, on the clock and in the thread's CPU time (which
leaves out the time other jobs held the core). A warm-up game, untimed, loads the table and
compiles the kernels first. The decisions made are the same every round (checked), and are
printed as a fingerprint (`moves_sha256`) to compare trees.

Runs on an older tree too (`PYTHONPATH=that/src`): the figure to read is the ratio of two runs
taking turns on the same machine.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

from fivedice.core.dice import RandomDice
from fivedice.core.game import GameSettings, GameState, Seat, apply, new_game
from fivedice.core.rules import find_ruleset
from fivedice.service.cpu import cpu_next_action
from fivedice.strategy.players import make_bot
from fivedice.strategy.review import review_game

try:
    from fivedice.strategy.turn_cache import forget
except ImportError:  # a tree without the turn engine

    def forget() -> None:
        """Nothing kept, nothing to forget."""


Replay = list[tuple[str | None, GameState]]


def play(rules_name: str, seed: int, clock: Callable[[], float]) -> tuple[float, int, Replay]:
    """One expert game: the time of its decisions, their number, and its replay."""
    rules = find_ruleset(rules_name)
    player = make_bot("expert", rules, 0)
    dice = RandomDice(seed)
    state = new_game(GameSettings((Seat("CPU", cpu_level="expert"),), rules), dice)
    replay: Replay = [(None, state)]
    spent = 0.0
    calls = 0
    while not state.is_game_over:
        start = clock()
        action = cpu_next_action(state, player)
        spent += clock() - start
        calls += 1
        state = apply(state, action, dice)
        replay.append((str(action), state))
    return spent, calls, replay


def review(replay: Replay, clock: Callable[[], float]) -> tuple[float, int]:
    """The time of one review and the number of decisions it judged."""
    start = clock()
    report = review_game(replay)
    return clock() - start, sum(len(seat.decisions) for seat in report.seats)


def measure(rules_name: str, games: int, rounds: int, seed: int) -> dict[str, Any]:
    play(rules_name, seed - 1, time.perf_counter)  # untimed: table loaded, kernels compiled
    review(play(rules_name, seed - 1, time.perf_counter)[2], time.perf_counter)
    best: dict[str, list[float]] = {"game": [], "game_cpu": [], "review": [], "review_cpu": []}
    calls: list[int] = []
    judged: list[int] = []
    fingerprint = hashlib.sha256()
    gc.disable()  # as timeit: a collection lands on whichever round it falls in
    try:
        for game in range(games):
            figures: dict[str, list[float]] = {key: [] for key in best}
            moves: set[tuple[str | None, ...]] = set()
            for _ in range(rounds):
                for clock, key in ((time.perf_counter, "game"), (time.thread_time, "game_cpu")):
                    forget()
                    spent, count, replay = play(rules_name, seed + game, clock)
                    figures[key].append(spent)
                    moves.add(tuple(notation for notation, _ in replay))
                for clock, key in ((time.perf_counter, "review"), (time.thread_time, "review_cpu")):
                    forget()
                    spent, decisions = review(replay, clock)
                    figures[key].append(spent)
            if len(moves) != 1:
                raise AssertionError(f"game {seed + game} was not played the same every round")
            fingerprint.update(repr(sorted(moves)).encode())
            for key, values in figures.items():
                best[key].append(min(values))
            calls.append(count)
            judged.append(decisions)
    finally:
        gc.enable()
    return {
        "rules": rules_name,
        "games": games,
        "rounds": rounds,
        "seed": seed,
        "cpu_calls_per_game": statistics.mean(calls),
        "decisions_reviewed_per_game": statistics.mean(judged),
        "expert_game_ms": _summary(best["game"]),
        "expert_game_cpu_ms": _summary(best["game_cpu"]),
        "expert_call_us": 1e6 * sum(best["game"]) / sum(calls),
        "review_ms": _summary(best["review"]),
        "review_cpu_ms": _summary(best["review_cpu"]),
        "review_decision_us": 1e6 * sum(best["review"]) / sum(judged),
        "moves_sha256": fingerprint.hexdigest(),
    }


def _summary(seconds: list[float]) -> dict[str, float]:
    """Milliseconds per game: the mean and median of each game's best round, and the total."""
    return {
        "mean": round(1e3 * statistics.mean(seconds), 3),
        "median": round(1e3 * statistics.median(seconds), 3),
        "total": round(1e3 * sum(seconds), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(json.dumps(measure(args.rules, args.games, args.rounds, args.seed), indent=2))


if __name__ == "__main__":
    main()
