"""What the drills cost: looking at a player's new finished games (each reviewed once, its
costliest decisions kept as positions), showing the next position once they are looked at,
and judging an answer.

Plays `--games` classic solo games in a temporary SQLite file, the human as the tests' simple
player; then times the first `GameService.drill_next()` (every new game reviewed: at most
`GAMES_PER_LOOK` of them), a second one (nothing new to look at), and `drill_answer` over
`--answers` answers. The classic table is loaded before timing.

    PYTHONPATH=$PWD/src:$PWD .venv/bin/python benchmarks/bench_drills.py [--games 20]

Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from tests.support.players import played_games

from fivedice.core.game import GameSettings, Seat
from fivedice.core.rules import find_ruleset
from fivedice.service.drills import GAMES_PER_LOOK
from fivedice.service.games import GameService
from fivedice.strategy.review import single_column_table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=GAMES_PER_LOOK)
    parser.add_argument("--answers", type=int, default=30)
    args = parser.parse_args()
    single_column_table(find_ruleset("classic"))  # loaded before any timing
    with tempfile.TemporaryDirectory() as directory:
        service = GameService.open(f"sqlite:///{Path(directory) / 'drills.sqlite3'}")
        service.drill_next()  # the built-in positions (the book exists before the games)
        played_games(service, GameSettings(seats=(Seat("Ann"),)), args.games)
        started = time.perf_counter()
        drill = service.drill_next()
        first = time.perf_counter() - started
        started = time.perf_counter()
        service.drill_next()
        again = time.perf_counter() - started
        answers = []
        for _ in range(args.answers):
            assert drill is not None
            box = drill.position.state().placements()[0].category.key  # an open box
            answer = "roll" if drill.position.rolls_left else f"score {box}"
            started = time.perf_counter()
            service.drill_answer(drill.key, answer)
            answers.append(time.perf_counter() - started)
            drill = service.drill_next(after=drill.key)
        progress = service.drill_progress()
        service.store.close()
    looked_at = min(args.games, GAMES_PER_LOOK)
    print(
        json.dumps(
            {
                "games": args.games,
                "games_looked_at": looked_at,
                "positions_from_games": progress.own,
                "seconds_first_look": round(first, 3),
                "ms_per_game_looked_at": round(1000 * first / looked_at, 1),
                "ms_next_with_nothing_new": round(1000 * again, 1),
                "ms_per_answer_median": round(1000 * sorted(answers)[len(answers) // 2], 1),
            }
        )
    )


if __name__ == "__main__":
    main()
