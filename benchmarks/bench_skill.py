"""What the skill statistics cost: the first view over games with no stored summary (each
game reviewed once, then stored), a view that reads the stored summaries, and a full review
of one game, for comparison.

Plays `--games` classic solo games (no seed: they count in the statistics) in a temporary
SQLite file, the human as the tests' simple player; deletes their summaries (as games
finished before summaries were kept); then times `GameService.skill()` three times: the
lazy first view, and two views from the store. The classic table is loaded before timing.

    PYTHONPATH=$PWD/src:$PWD .venv/bin/python benchmarks/bench_skill.py [--games 50]

Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from sqlalchemy import delete
from tests.support.players import played_games

from fivedice.core.game import GameSettings, Seat
from fivedice.core.rules import find_ruleset
from fivedice.service.games import GameService
from fivedice.store import schema
from fivedice.strategy.review import single_column_table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50)
    args = parser.parse_args()
    single_column_table(find_ruleset("classic"))  # loaded before any timing
    with tempfile.TemporaryDirectory() as directory:
        service = GameService.open(f"sqlite:///{Path(directory) / 'skill.sqlite3'}")
        started = time.perf_counter()
        ids = played_games(service, GameSettings(seats=(Seat("Ann"),)), args.games)
        played = time.perf_counter() - started
        with service.store.writing() as connection:
            connection.execute(delete(schema.review_summaries))
        timings = []
        for _view in range(3):
            started = time.perf_counter()
            (skill,) = service.skill()
            timings.append(time.perf_counter() - started)
        started = time.perf_counter()
        service.review(ids[-1])
        review = time.perf_counter() - started
        service.store.close()
    print(
        json.dumps(
            {
                "games": args.games,
                "decisions": skill.overall.decisions,
                "loss_per_decision": round(skill.overall.loss_per_decision or 0.0, 4),
                "seconds_to_play_and_store": round(played, 3),
                "first_view_lazy_seconds": round(timings[0], 4),
                "stored_view_seconds": round(min(timings[1:]), 4),
                "one_review_seconds": round(review, 4),
            }
        )
    )


if __name__ == "__main__":
    main()
