"""Heads-up matches between CPU levels: chips won per hand, with a 95% interval.

Each hand starts afresh from full stacks (`HoldemRules.starting_stack`), so hands are
independent samples. Deals are played in pairs with the seats swapped (the same dice, each
player once in each seat), which takes most of the luck of the dice out of the difference.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from fivedice.core.dice import RandomDice
from fivedice.core.game import Seat
from fivedice.core.holdem import HoldemRules, apply, new_game, view_for
from fivedice.strategy.holdem.players import decide
from fivedice.strategy.levels import Level

__all__ = ["ALIASES", "MatchResult", "opponent_level", "play_hand", "simulate"]

ALIASES = {"station": Level.BEGINNER, "calling-station": Level.BEGINNER, "top-fifth": Level.GUIDE}
"""Names of the benchmark's opponents: a calling station plays as ``beginner``, the
"raise with the top fifth by equity" bot as ``guide``."""


def opponent_level(text: str) -> Level:
    """A level by its name or an alias of `ALIASES`.

    Raises:
        CpuLevelError: neither.
    """
    alias = ALIASES.get(text.strip().lower())
    return alias if alias is not None else Level.parse(text)


@dataclass(frozen=True)
class MatchResult:
    bot: str
    opponent: str
    hands: int
    seed: int
    chips_per_hand: float
    """The mean chips `bot` won per hand (negative: lost)."""
    interval: tuple[float, float]
    """The 95% confidence interval of the mean (normal approximation over hand pairs)."""
    standard_error: float


def play_hand(levels: tuple[Level, Level], dice_seed: str, rules: HoldemRules) -> tuple[int, int]:
    """One hand from full stacks, seat 0 on the button: each seat's chips won (or lost)."""
    dice = RandomDice(random.Random(f"dice/{dice_seed}"))
    rngs = [random.Random(f"cpu/{dice_seed}/{seat}") for seat in (0, 1)]
    state = new_game((Seat("A"), Seat("B")), rules, dice)
    while state.hand_number == 1 and not state.is_game_over:
        seat = state.to_act
        assert seat is not None
        decision = decide(levels[seat], view_for(state, seat), rngs[seat])
        state = apply(state, decision.action, dice)
    assert state.last_hand is not None
    start = rules.starting_stack
    stacks = state.last_hand.stacks
    return stacks[0] - start, stacks[1] - start


def simulate(
    bot: Level | str,
    opponent: Level | str,
    hands: int,
    seed: int = 0,
    rules: HoldemRules | None = None,
) -> MatchResult:
    """`hands` hands (rounded up to pairs) of `bot` against `opponent`."""
    rules = rules or HoldemRules()
    first, second = opponent_level(str(bot)), opponent_level(str(opponent))
    pairs = max(1, math.ceil(hands / 2))
    results = []
    for pair in range(pairs):
        won = play_hand((first, second), f"{seed}/{pair}", rules)[0]
        swapped = play_hand((second, first), f"{seed}/{pair}", rules)[1]
        results.append((won + swapped) / 2)
    mean = sum(results) / pairs
    variance = sum((r - mean) ** 2 for r in results) / max(1, pairs - 1)
    error = math.sqrt(variance / pairs)
    return MatchResult(
        first.value,
        second.value,
        2 * pairs,
        seed,
        mean,
        (mean - 1.96 * error, mean + 1.96 * error),
        error,
    )
