"""Solitaire games of a CPU player in plain Python, through its own decisions (`Bot`).

The simulator (`strategy.simulate`) plays whole games inside numba, with the policy's kernels;
those kernels score every roll as the last roll of a turn. Where the rules score a turn's
first roll apart (Generala's served points: `rule_arrays.is_served_roll`), the CPU's own
decisions (`Bot.choose_keep`, `Bot.choose_box` with `served`) are what plays exactly; this
plays them as the game layer does (keeping every die means scoring now), card by card.
Slower than the simulator (tens of microseconds a decision): for checks and benchmarks.
"""

from __future__ import annotations

import random
from typing import Protocol

from fivedice.core.card import Placement, ScoreCard
from fivedice.core.errors import FivediceError
from fivedice.core.rules import RuleSet

__all__ = ["SolitairePlayer", "play_solitaire"]


class SolitairePlayer(Protocol):
    """What a solitaire game asks of a CPU (the protocol `service.cpu.CpuPlayer`, with the
    served flag of `Bot.choose_box`)."""

    def choose_keep(
        self, rules: RuleSet, card: ScoreCard, dice: tuple[int, ...], rolls_left: int
    ) -> tuple[int, ...]: ...

    def choose_box(
        self, rules: RuleSet, card: ScoreCard, dice: tuple[int, ...], *, served: bool = False
    ) -> Placement: ...


def play_solitaire(player: SolitairePlayer, rules: RuleSet, games: int, seed: int) -> list[int]:
    """The final totals of `games` solitaire games of `player` under `rules` (five plain dice,
    one column), the dice drawn from `random.Random(seed)`.

    Raises:
        FivediceError: rules with a wild die, saved rolls or another number of dice.
    """
    if rules.wild_die or rules.saved_rolls or rules.dice != 5:
        raise FivediceError("solitaire games play five plain dice without saved rolls")
    rng = random.Random(seed)
    last = rules.rolls_per_turn - 1
    totals = []
    for _ in range(games):
        card = ScoreCard.empty(rules)
        while not card.is_complete:
            dice = tuple(rng.randint(1, 6) for _ in range(5))
            rolls_left = last
            while rolls_left > 0:
                keep = player.choose_keep(rules, card, dice, rolls_left)
                if len(keep) == len(dice):
                    break  # every die kept: scored now
                dice = (*keep, *(rng.randint(1, 6) for _ in range(5 - len(keep))))
                rolls_left -= 1
            served = rolls_left == last
            placement = player.choose_box(rules, card, dice, served=served)
            card = card.fill(rules, placement.column, placement.category, dice, served)
        totals.append(card.total(rules))
    return totals
