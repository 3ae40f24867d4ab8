"""The application service the front ends call: start a game, apply actions, move CPU seats.

Front ends never touch core state transitions directly; they send action text here and
render the state they get back.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from fivedice.core.actions import Action, Hold, Release, Roll, Score
from fivedice.core.card import Placement, ScoreCard
from fivedice.core.dice import RandomDice
from fivedice.core.game import GameSettings, GameState, apply, new_game
from fivedice.core.rules import RuleSet


class CpuPlayer:
    """What a CPU seat needs to decide: which dice to keep, and where to score."""

    def choose_keep(
        self, rules: RuleSet, card: ScoreCard, dice: tuple[int, ...], rolls_left: int
    ) -> tuple[int, ...]:
        raise NotImplementedError

    def choose_box(self, rules: RuleSet, card: ScoreCard, dice: tuple[int, ...]) -> Placement:
        raise NotImplementedError


def hold_positions(dice: Sequence[int], held: Sequence[bool], keep: Sequence[int]) -> set[int]:
    """Positions (1-5) to hold so that exactly the values in `keep` are held.

    Dice already held are preferred, so a CPU changes as few holds as it can.
    """
    wanted = Counter(keep)
    chosen: set[int] = set()
    order = sorted(range(len(dice)), key=lambda i: not held[i])
    for index in order:
        if wanted[dice[index]] > 0:
            wanted[dice[index]] -= 1
            chosen.add(index + 1)
    if sum(wanted.values()):
        raise ValueError(f"cannot keep {tuple(keep)} from {tuple(dice)}")
    return chosen


def cpu_next_action(state: GameState, player: CpuPlayer) -> Action:
    """The CPU's next single action: a release, a hold, a roll or a score, one step at a time."""
    turn = state.turn
    if turn.dice is None:
        return Roll()
    card = state.cards[turn.seat]
    if state.rolls_left > 0:
        keep = player.choose_keep(state.rules, card, turn.dice, state.rolls_left)
        if len(keep) < len(turn.dice):
            target = hold_positions(turn.dice, turn.held, keep)
            current = set(turn.held_positions)
            if current - target:
                return Release(tuple(sorted(current - target)))
            if target - current:
                return Hold(tuple(sorted(target - current)))
            return Roll()
    placement = player.choose_box(state.rules, card, turn.dice)
    return Score(placement.category, placement.column)


def make_cpu_player(level: str, seed: int | None = None) -> CpuPlayer:
    """A CPU player of a named level (imports the strategy layer only when a CPU plays)."""
    from fivedice.strategy.bots import make_bot  # type: ignore[import-not-found,unused-ignore]

    player: CpuPlayer = make_bot(level, seed=seed)
    return player


@dataclass
class LocalGame:
    """A game held in memory: the state, its dice, and the CPU players of its seats."""

    state: GameState
    dice: RandomDice
    cpu_players: dict[int, CpuPlayer] = field(default_factory=dict)
    log: list[tuple[str, tuple[int, ...] | None]] = field(default_factory=list)

    @classmethod
    def start(
        cls,
        settings: GameSettings,
        seed: int | None = None,
        cpu_factory: Callable[[str, int | None], CpuPlayer] = make_cpu_player,
    ) -> LocalGame:
        dice = RandomDice(seed)
        players = {
            index: cpu_factory(seat.cpu_level, None if seed is None else seed + index)
            for index, seat in enumerate(settings.seats)
            if seat.cpu_level is not None
        }
        return cls(new_game(settings, dice), dice, players)

    @property
    def is_cpu_turn(self) -> bool:
        return not self.state.is_match_over and self.state.current_seat in self.cpu_players

    def act(self, action: Action | str) -> GameState:
        """Applies an action of the seat to move; on error the state is unchanged."""
        self.state = apply(self.state, action, self.dice)
        self.log.append((str(action), self.state.dice))
        return self.state

    def cpu_step(self) -> Action:
        """Lets the CPU seat to move take one action, and returns it."""
        player = self.cpu_players[self.state.current_seat]
        action = cpu_next_action(self.state, player)
        self.act(action)
        return action
