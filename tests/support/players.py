"""Stand-in players: a fast, deterministic CPU and a 'human' that plays like it."""

from __future__ import annotations

from fivedice.core.card import Placement
from fivedice.core.game import GameState
from fivedice.service.games import GameService, cpu_next_action


class SimpleCpu:
    """A fast, deterministic stand-in for a bot: keeps its most common face, scores the
    placement worth most."""

    def choose_keep(self, rules, card, dice, rolls_left):
        best = max(set(dice), key=lambda face: (dice.count(face), face))
        return tuple(d for d in dice if d == best)

    def choose_box(self, rules, card, dice) -> Placement:
        return max(card.placements(rules, dice), key=lambda p: p.points)


def simple_cpu_factory(level, seed, rules):
    """A `cpu_factory` for `GameService`: every level is the simple CPU."""
    return SimpleCpu()


def human_move(state: GameState) -> str:
    """The action the test's 'human' takes: the simple CPU's, in notation."""
    return str(cpu_next_action(state, SimpleCpu()))


def play_out(service: GameService, game_id: int, limit: int | None = None):
    """Plays a saved game on (or `limit` actions); humans move like the simple CPU."""
    view = service.load(game_id)
    count = 0
    while not view.is_over and (limit is None or count < limit):
        if view.is_cpu_turn:
            _, view = service.cpu_step(game_id, view.version)
        else:
            view = service.apply_action(game_id, human_move(view.state), view.version)
        count += 1
    return view


def played_games(service: GameService, settings, count: int = 1) -> list[int]:
    """Plays `count` games that count in the statistics (no seed: not practice) to the end,
    humans as `human_move`; their ids, oldest first."""
    ids = []
    for _ in range(count):
        view = service.create_game(settings)
        play_out(service, view.game_id)
        ids.append(view.game_id)
    return ids
