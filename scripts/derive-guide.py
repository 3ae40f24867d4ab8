"""Derives the strategy guide from the solver and writes it beside the `guide` level.

    PYTHONPATH=src .venv/bin/python scripts/derive-guide.py [--games N] [--rounds N]
        [--rules 10] [--worth-games N] [--final-games N] [--seed S] [--out FILE]

Plays games optimally (and then by the guide being learned), records the solver's value of
every option at every decision, tunes the par table, learns the keep rules greedily, measures
each rule's worth by simulation and writes the guide as JSON (default:
src/fivedice/strategy/guide_classic.json). The same arguments give the same guide.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from fivedice.core.rules import find_ruleset
from fivedice.strategy.bots import level_values
from fivedice.strategy.guide import GUIDE_FILES
from fivedice.strategy.guide_derive import derive

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="classic", choices=sorted(GUIDE_FILES))
    parser.add_argument("--games", type=int, default=1500, help="games sampled a round")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--keep-rules", type=int, default=35, help="most keep rules")
    parser.add_argument("--worth-games", type=int, default=3000)
    parser.add_argument("--final-games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    rules = find_ruleset(args.rules)
    out = args.out or ROOT / "src" / "fivedice" / "strategy" / GUIDE_FILES[args.rules]
    start = time.perf_counter()

    def say(text: str) -> None:
        print(f"{time.perf_counter() - start:7.1f}s {text}", file=sys.stderr, flush=True)

    guide = derive(
        rules,
        level_values(rules, "expert"),
        games=args.games,
        rounds=args.rounds,
        most_keep_rules=args.keep_rules,
        worth_games=args.worth_games,
        final_games=args.final_games,
        seed=args.seed,
        rules_name=args.rules,
        report=say,
    )
    out.write_text(json.dumps(guide.as_data(), indent=1) + "\n", encoding="utf-8")
    say(f"wrote {out}")


if __name__ == "__main__":
    main()
