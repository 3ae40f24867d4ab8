"""`LocalGame`: a game held in memory only (no saving), for simulations and tests."""

from __future__ import annotations

from dataclasses import dataclass, field

from fivedice.core.actions import Action
from fivedice.core.dice import RandomDice
from fivedice.core.game import GameSettings, GameState, apply, new_game
from fivedice.service.coach import state_hints
from fivedice.service.cpu import CpuFactory, CpuPlayer, cpu_next_action, make_cpu_player
from fivedice.strategy.hints import Hint


@dataclass
class LocalGame:
    """A game held in memory only: the state, its dice, and the CPU players of its seats."""

    state: GameState
    dice: RandomDice
    cpu_players: dict[int, CpuPlayer] = field(default_factory=dict)
    log: list[tuple[str, tuple[int, ...] | None]] = field(default_factory=list)

    @classmethod
    def start(
        cls,
        settings: GameSettings,
        seed: int | None = None,
        cpu_factory: CpuFactory = make_cpu_player,
    ) -> LocalGame:
        dice = RandomDice(seed)
        players = {
            index: cpu_factory(
                seat.cpu_level, None if seed is None else seed + index, settings.rules
            )
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

    def hint(self, goal: str | int | None = None) -> list[Hint]:
        """The options for the seat to move, best first (see `state_hints`; with a goal,
        ranked by the chance of reaching it)."""
        return state_hints(self.state, goal=goal)

    def cpu_step(self) -> Action:
        """Lets the CPU seat to move take one action, and returns it."""
        player = self.cpu_players[self.state.current_seat]
        action = cpu_next_action(self.state, player)
        self.act(action)
        return action
