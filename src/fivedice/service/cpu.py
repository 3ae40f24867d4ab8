"""CPU players: how one is made, and how it decides its next action, one step at a time."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from fivedice.core.actions import Action, Hold, Release, Roll, Score
from fivedice.core.card import Placement, ScoreCard
from fivedice.core.game import GameState
from fivedice.core.rules import RuleSet
from fivedice.core.scoring import position_codes
from fivedice.strategy.hints import hold_positions
from fivedice.strategy.levels import CpuLevelError, check_level
from fivedice.strategy.limits import has_served_points


class CpuPlayer(Protocol):
    """What a CPU seat needs to decide: which dice to keep, and where to score."""

    def choose_keep(
        self, rules: RuleSet, card: ScoreCard, dice: tuple[int, ...], rolls_left: int
    ) -> tuple[int, ...]:
        """The dice values to keep before the next roll (all five: stop rolling)."""
        ...

    def choose_box(self, rules: RuleSet, card: ScoreCard, dice: tuple[int, ...]) -> Placement:
        """Where to score the dice (a player may also take `served=True`: the dice are the
        turn's first roll, whose hands earn served points; it is passed only then)."""
        ...


CpuFactory = Callable[[str, int | None, RuleSet], CpuPlayer]
"""Makes the CPU player of a seat: (level, seed, rules) -> player."""


def unknown_level(level: str | None, number: int) -> CpuLevelError | None:
    """The error for seat `number` (from 1) with CPU `level`, if that level does not exist."""
    if level is None:
        return None
    try:
        check_level(level, seat=number)
    except CpuLevelError as error:
        return error
    return None


CPUS_KEPT = 4096
"""CPU players a service keeps (games' seats and guided lessons), the least recently used
dropped first: a few kB each, so some megabytes at most."""


def cpu_next_action(state: GameState, player: CpuPlayer) -> Action:
    """The CPU's next single action: a release, a hold, a roll or a score, one step at a time."""
    turn = state.turn
    if turn.dice is None:
        return Roll()
    observe = getattr(player, "observe", None)
    if observe is not None:  # a player that plays to win looks at the other seats first
        observe(state)
    card = state.cards[turn.seat]
    if state.rolls_left > 0:
        keep = player.choose_keep(state.rules, card, turn.dice, state.rolls_left)
        if len(keep) < len(turn.dice):
            target = hold_positions(position_codes(state.rules, turn.dice), turn.held, keep)
            current = set(turn.held_positions)
            if current - target:
                return Release(tuple(sorted(current - target)))
            if target - current:
                return Hold(tuple(sorted(target - current)))
            return Roll()
    if state.served and has_served_points(state.rules):  # the served points count too
        placement = player.choose_box(state.rules, card, turn.dice, served=True)  # type: ignore[call-arg]
    else:
        placement = player.choose_box(state.rules, card, turn.dice)
    return Score(placement.category, placement.column)


def make_cpu_player(level: str, seed: int | None = None, rules: RuleSet | None = None) -> CpuPlayer:
    """A CPU player of a named level (imports the strategy layer only when a CPU plays)."""
    from fivedice.strategy.players import make_bot

    player: CpuPlayer = make_bot(level, rules or RuleSet(), seed)
    return player


def reseed(player: CpuPlayer, seed: str) -> None:
    # A bot's only randomness is its `rng`; reseeding it from (game seed, seat, version)
    # before every decision makes a CPU decide the same after a resume as without one.
    rng = getattr(player, "rng", None)
    if isinstance(rng, random.Random):
        rng.seed(seed)
