"""Advice per query from Python: the library API `fivedice.advise` against the peer
`yatzy_solver`'s `option_values`, in the same run, printed as JSON.

Usage: `.venv/bin/python benchmarks/bench_advice.py [--rules classic] [--positions N]
[--rolls-left 2|0|1|mixed] [--rounds N] [--chunk N] [--seed S]`

The positions are varied and reachable, and held out (none is asked before its first timing):
a card of 0-12 boxes filled by random legal placements of random rolls, random dice in the
order rolled, and 2 rolls left (`--rolls-left`: 0, 1, or mixed: any). Each position's state
(filled boxes, upper total, bonus armed) differs from every other's, as the turns of a game
do, so a first question never finds the turn values of another position's card. The same set
for both engines, built (with the peer's notation of each) outside the timing.

The set is timed in chunks of `--chunk` positions, each chunk every way in turn (the order
rotates each round), `--rounds` times; a figure is the sum over the chunks of each chunk's best
time, per query, on the clock (`*_us`) and in the thread's CPU time (`*_cpu_us`, which leaves
out the time other jobs held the core). On a shared machine this keeps the load's bursts out of
both figures alike. Speeds are the peer's time over ours, asked the same way (first, again), and
over the peer's faster figure of the two (`*_over_fastest_peer`).
Ours is measured as a player meets it:

* `first_best`: the first time each position is asked: new card objects (as a game makes one
  each turn: no cached totals) and the engines' turn values forgotten (`turn_cache.forget`),
  outside the timing; then `fivedice.advise(rules, dice, rolls_left, card).best`;
* `again_best`: the same questions again right after (the chunk's turn values kept);
* `first_all`, `again_all`: the same with every option built (`list(...)`, what the peer's list
  holds);
* `advise`: the lazy `Advice` alone, asked again;
* `advisor`: the internal `strategy.advisor.advise` (a list of `Option`s; the coach's path, no
  kept turn values).

Run against an older tree (`PYTHONPATH=that/src`, one without `strategy.turn_cache`) it measures
that tree the same way (new cards make its first questions). The peer keeps nothing between
questions; it is timed twice per chunk (`peer_first`,
`peer_again`) all the same. Before timing, the best value of every position, asked first and
again, is checked against the peer's (float64 both). The peer's table is built in the run
(classic: seconds; `--rules yatzy`: about a minute).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import replace

from fivedice import Card, RuleSet, advise, solve
from fivedice.core.categories import CATEGORIES
from fivedice.strategy import advisor

try:
    from fivedice.strategy.turn_cache import forget
except ImportError:  # a tree before the turn values were kept (`PYTHONPATH=that/src`)

    def forget() -> None:
        """Nothing kept, nothing to forget (the new cards still make a first question)."""


from fivedice.strategy.solver import column_state

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


Position = tuple[Card, tuple[int, ...], int, str]
"""A card, dice, rolls left, and the position in the peer's notation."""
Pass = tuple[str, Callable[[Sequence[Position]], None]]


def _positions(
    rules: RuleSet, names: dict[str, str], count: int, seed: int, rolls: int | None
) -> list[Position]:
    """Reachable decision points on distinct states and the peer's notation of each."""
    rng = random.Random(seed)
    positions = []
    states = set()
    while len(positions) < count:
        column = _empty(rules)
        for _ in range(rng.randrange(13)):
            roll = tuple(rng.randint(1, 6) for _ in range(5))
            placement = rng.choice(column.placements(rules, roll))
            column = column.fill(rules, placement.category, roll)
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        rolls_left = rng.randrange(rules.rolls_per_turn) if rolls is None else rolls
        state = column_state(rules, column)
        state = (state[0], min(state[1], rules.upper_bonus_threshold), state[2])
        if state in states:  # held out: every position on a card of its own
            continue
        states.add(state)
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


def main() -> None:
    """Runs the measurement and prints one JSON object."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rules", default="classic", choices=sorted(PEERS), help="preset")
    parser.add_argument("--positions", type=int, default=2000, help="varied positions")
    parser.add_argument("--rounds", type=int, default=10, help="interleaved timing rounds")
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

    def peer_best(situation: str) -> float:
        return max(value for _, value in peer.option_values(situation))

    worst = 0.0
    for card, dice, rolls, situation in positions:
        forget()
        first = advise(rules, dice, rolls, card).best.value
        again = advise(rules, dice, rolls, card).best.value
        worst = max(worst, abs(first - peer_best(situation)), abs(again - peer_best(situation)))

    def fresh(chunk: Sequence[Position]) -> list[Position]:
        """The chunk on new card objects, the engine's turn values forgotten: a first question."""
        forget()
        return [(replace(card, scores=card.scores), *rest) for card, *rest in chunk]

    def best(chunk: Sequence[Position]) -> None:
        for card, dice, rolls, _ in chunk:
            _ = advise(rules, dice, rolls, card).best

    def every(chunk: Sequence[Position]) -> None:
        for card, dice, rolls, _ in chunk:
            list(advise(rules, dice, rolls, card))

    def lazy(chunk: Sequence[Position]) -> None:
        for card, dice, rolls, _ in chunk:
            advise(rules, dice, rolls, card)

    def internal(chunk: Sequence[Position]) -> None:
        for card, dice, rolls, _ in chunk:
            advisor.advise(table, card, dice, rolls)

    def theirs(chunk: Sequence[Position]) -> None:
        for *_, situation in chunk:
            peer.option_values(situation)

    # Each group: what prepares a chunk (untimed), then the timed passes in their order.
    groups: dict[str, tuple[Callable[[Sequence[Position]], Sequence[Position]], list[Pass]]] = {
        "best": (fresh, [("first_best", best), ("again_best", best)]),
        "all": (fresh, [("first_all", every), ("again_all", every)]),
        "lazy": (list, [("advise", lazy)]),
        "advisor": (list, [("advisor", internal)]),
        "peer": (list, [("peer_first", theirs), ("peer_again", theirs)]),
    }
    chunks = [positions[i : i + args.chunk] for i in range(0, len(positions), args.chunk)]
    names = [name for _, passes in groups.values() for name, _ in passes]
    # wall[name][c], cpu[name][c]: the least time chunk c took that way over the rounds, on
    # the clock and in this thread's CPU time (which leaves out the time other jobs held the
    # core: on a loaded machine the steadier of the two)
    wall = {name: [float("inf")] * len(chunks) for name in names}
    cpu = {name: [float("inf")] * len(chunks) for name in names}
    for prepare, passes in groups.values():  # one untimed pass: every path warm
        for chunk in chunks:
            for _, run in passes:
                run(prepare(chunk))
    order = list(groups)
    gc.collect()
    gc.disable()  # as `timeit` does: a collection would land in the same chunk every round
    for round_ in range(args.rounds):
        turn = order[round_ % len(order) :] + order[: round_ % len(order)]  # none always first
        for c, chunk in enumerate(chunks):
            for group in turn:
                prepare, passes = groups[group]
                prepared = prepare(chunk)
                for name, run in passes:
                    start, start_cpu = time.perf_counter(), time.thread_time()
                    run(prepared)
                    wall[name][c] = min(wall[name][c], time.perf_counter() - start)
                    cpu[name][c] = min(cpu[name][c], time.thread_time() - start_cpu)
    gc.enable()
    filled = [sum(points is not None for points in card.scores) for card, *_ in positions]
    figures: dict[str, object] = {
        "rules": args.rules,
        "rolls_left": args.rolls_left,
        "peer_variant": variant,
        "cpus": os.cpu_count(),
        "load_average": [round(load, 1) for load in os.getloadavg()],
        "positions": len(positions),
        "filled_boxes_histogram": [filled.count(n) for n in range(max(filled) + 1)],
        "rounds": args.rounds,
        "chunk": args.chunk,
        "best_value_max_abs_diff": float(f"{worst:.2g}"),
        "peer_build_s": round(peer_build, 2),
        "options_per_position": round(
            sum(len(advise(rules, d, r, c)) for c, d, r, _ in positions) / len(positions), 1
        ),
    }
    for clock, times in (("", wall), ("cpu_", cpu)):
        per_query = {name: sum(chunk_times) / len(positions) for name, chunk_times in times.items()}
        for name, seconds in per_query.items():
            figures[f"{name}_{clock}us"] = round(seconds * 1e6, 2)
        # each against the peer asked the same way (first: both after the other passes ran, so
        # with what the processor's caches had of their tables gone; again: right after), and
        # against the peer's faster figure of the two (the most it can be said to do)
        peer_fastest = min(per_query["peer_first"], per_query["peer_again"])
        for name, peer_name in (
            ("first_best", "peer_first"),
            ("again_best", "peer_again"),
            ("first_all", "peer_first"),
            ("again_all", "peer_again"),
            ("advise", "peer_again"),
            ("advisor", "peer_again"),
        ):
            figures[f"{name}_{clock}speed_over_peer"] = round(
                per_query[peer_name] / per_query[name], 2
            )
            figures[f"{name}_{clock}speed_over_fastest_peer"] = round(
                peer_fastest / per_query[name], 2
            )
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
