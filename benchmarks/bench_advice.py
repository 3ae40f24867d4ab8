"""Advice per query from Python: the library API `fivedice.advise` against the peer
`yatzy_solver`'s `option_values`, in the same run, printed as JSON.

Usage: `.venv/bin/python benchmarks/bench_advice.py [--rules classic] [--positions N]
[--rounds N] [--seed S]`

The positions are varied and reachable: a card of 0-12 boxes filled by random legal placements
of random rolls, random dice, and 2 rolls left (`--rolls-left`: 0, 1, or mixed: any); the same
set for both engines, built (with the peer's notation of each) outside the timing. The set is
timed in chunks of `--chunk` positions, each chunk every way in turn (ours, the peer's, the next
chunk, ...; the order rotates each round), `--rounds` times; a figure is the sum over the chunks
of each chunk's best time, per query. On a shared machine this keeps the load's bursts out of
both figures alike. Ours is measured four ways:

* `advise`: `fivedice.advise(rules, dice, rolls_left, card)`, the lazy `Advice` returned;
* `advise_best`: the same and its best option read (`.best`);
* `advise_all`: the same and every option built (`list(...)`), what the peer's list holds;
* `advisor`: the internal `strategy.advisor.advise` (a list of `Option`s; the coach's path).

Before timing, the best value of every position is checked against the peer's (float64 both).
The peer's table is built in the run (classic: seconds; `--rules yatzy`: about a minute).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from collections.abc import Callable, Sequence

from fivedice import Card, RuleSet, advise, solve
from fivedice.core.categories import CATEGORIES
from fivedice.strategy import advisor

PEERS = {
    # our preset -> the peer's builtin variant and its names of boxes that differ from our keys
    "classic": ("american+forced-joker", {"yahtzee": "five_of_a_kind"}),
    "yatzy": ("yatzy-scandinavian", {}),
}


def _empty(rules: RuleSet) -> Card:
    try:
        return Card.empty(rules)  # type: ignore[call-arg]  # a card of the rules' own boxes
    except TypeError:  # the thirteen classic boxes only
        return Card.empty()


def _positions(
    rules: RuleSet, names: dict[str, str], count: int, seed: int, rolls: int | None
) -> list[tuple[Card, tuple[int, ...], int, str]]:
    """Reachable decision points and the peer's notation of each."""
    rng = random.Random(seed)
    positions = []
    for _ in range(count):
        column = _empty(rules)
        for _ in range(rng.randrange(13)):
            roll = tuple(rng.randint(1, 6) for _ in range(5))
            placement = rng.choice(column.placements(rules, roll))
            column = column.fill(rules, placement.category, roll)
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        rolls_left = rng.randrange(rules.rolls_per_turn) if rolls is None else rolls
        keys = [box.key for box in getattr(column, "boxes", CATEGORIES)]  # in card order
        filled = [k for k, points in zip(keys, column.scores, strict=True) if points is not None]
        situation = (
            f"dice {' '.join(map(str, sorted(dice)))} | rolls {rolls_left}"
            f" | upper {min(column.upper_total, rules.upper_bonus_threshold)}"
            f" | filled {','.join(names.get(key, key) for key in filled) or '-'}"
        )
        if "yahtzee" in filled and rules.yahtzee_bonus:
            situation += f" | five_of_a_kind {column.scores[keys.index('yahtzee')]}"
        positions.append((column, dice, rolls_left, situation))
    return positions


def _seconds(queries: Sequence[Callable[[], object]]) -> float:
    start = time.perf_counter()
    for query in queries:
        query()
    return time.perf_counter() - start


def main() -> None:
    """Runs the measurement and prints one JSON object."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rules", default="classic", choices=sorted(PEERS), help="preset")
    parser.add_argument("--positions", type=int, default=1000, help="varied positions")
    parser.add_argument("--rounds", type=int, default=15, help="interleaved timing rounds")
    parser.add_argument(
        "--rolls-left", default="2", choices=["0", "1", "2", "mixed"], help="of every position"
    )
    parser.add_argument("--chunk", type=int, default=50, help="positions timed in one go")
    parser.add_argument("--seed", type=int, default=1, help="seed of the positions")
    args = parser.parse_args()

    import yatzy_solver

    rules = RuleSet.preset(args.rules)
    variant, names = PEERS[args.rules]
    table = solve(rules)
    start = time.perf_counter()
    peer = yatzy_solver.Solver.build(yatzy_solver.Variant(variant))
    peer_build = time.perf_counter() - start
    rolls = None if args.rolls_left == "mixed" else int(args.rolls_left)
    positions = _positions(rules, names, args.positions, args.seed, rolls)

    worst = max(
        abs(advise(rules, d, r, c).best.value - max(v for _, v in peer.option_values(s)))
        for c, d, r, s in positions
    )
    variants: dict[str, list[Callable[[], object]]] = {
        "advise": [
            lambda c=card, d=dice, r=rolls: advise(rules, d, r, c)
            for card, dice, rolls, _ in positions
        ],
        "advise_best": [
            lambda c=card, d=dice, r=rolls: advise(rules, d, r, c).best
            for card, dice, rolls, _ in positions
        ],
        "advise_all": [
            lambda c=card, d=dice, r=rolls: list(advise(rules, d, r, c))
            for card, dice, rolls, _ in positions
        ],
        "advisor": [
            lambda c=card, d=dice, r=rolls: advisor.advise(table, c, d, r)
            for card, dice, rolls, _ in positions
        ],
        "peer": [lambda s=situation: peer.option_values(s) for *_, situation in positions],
    }
    chunks = range(0, len(positions), args.chunk)
    # best[name][c]: the least time chunk c of the positions took that way, over the rounds
    best = {name: [float("inf")] * len(chunks) for name in variants}
    for queries in variants.values():  # one untimed pass: every path warm
        _seconds(queries)
    names = list(variants)
    for round_ in range(args.rounds):
        order = names[round_ % len(names) :] + names[: round_ % len(names)]  # none always first
        for c, first in enumerate(chunks):
            for name in order:
                seconds = _seconds(variants[name][first : first + args.chunk])
                best[name][c] = min(best[name][c], seconds)
    per_query = {name: sum(times) / len(positions) for name, times in best.items()}
    figures: dict[str, object] = {
        "rules": args.rules,
        "rolls_left": args.rolls_left,
        "peer_variant": variant,
        "cpus": os.cpu_count(),
        "positions": len(positions),
        "rounds": args.rounds,
        "best_value_max_abs_diff": float(f"{worst:.2g}"),
        "peer_build_s": round(peer_build, 2),
        "options_per_position": round(
            sum(len(advise(rules, d, r, c)) for c, d, r, _ in positions) / len(positions), 1
        ),
    }
    for name, seconds in per_query.items():
        figures[f"{name}_us"] = round(seconds * 1e6, 2)
    for name in ("advise", "advise_best", "advise_all", "advisor"):
        figures[f"{name}_ratio_ours_over_peer"] = round(per_query[name] / per_query["peer"], 3)
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
