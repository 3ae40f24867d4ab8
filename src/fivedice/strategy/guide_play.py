"""Whole games of the `guide` level, played fast on the kernels' card arrays.

The guide's decisions are plain Python (`guide.Guide.keep`, `guide.choose_box_index`); the
legal boxes and their points come from the CPU kernels (`policy.legal_boxes`,
`policy.placement`), so a game here scores exactly as the game engine would. Game number g
under a seed draws its dice from the same splitmix64 stream, in the same order, as the
simulator's games of every other level (`playout.game_seeds`, `playout.next_random`): the
guide and any other level, or two guides, given the same seed face the same dice until their
decisions differ (common random numbers: sharper comparisons).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from fivedice.core.rules import RuleSet
from fivedice.strategy import heuristics as h
from fivedice.strategy.guide import YAHTZEE, Guide, Position, bonus_threshold, choose_box_index
from fivedice.strategy.playout import game_seeds
from fivedice.strategy.policy import column_key, legal_boxes, placement
from fivedice.strategy.rule_arrays import CFG_THRESHOLD, CFG_UPPER_BONUS, CFG_YAHTZEE_BONUS

__all__ = ["GameResult", "SplitMix", "game_rng", "play_guide_game", "play_guide_games"]


@dataclass(frozen=True)
class GameResult:
    """One game's final score, whether it made the upper bonus, scored the Yahtzee box, and
    its extra Yahtzees."""

    score: int
    upper_bonus: bool
    yahtzee: bool
    extra_yahtzees: int


MASK = (1 << 64) - 1


class SplitMix:
    """splitmix64 in plain Python: the same uniform numbers as `playout.next_random` from
    the same state.

    >>> from fivedice.strategy.playout import next_random
    >>> state = np.array([12345], dtype=np.uint64)
    >>> SplitMix(12345).random() == next_random(state)
    True
    """

    def __init__(self, state: int) -> None:
        self.state = state & MASK

    def random(self) -> float:
        """A uniform number in [0, 1)."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        z ^= z >> 31
        return (z >> 11) * (1.0 / 9007199254740992.0)


def game_rng(seed: int, game: int) -> SplitMix:
    """The dice of game number `game` under `seed`: the simulator's stream for that game
    (`playout.game_seeds`), whoever plays it."""
    return SplitMix(int(game_seeds(seed, game + 1)[game, 0]))


def _roll(counts: list[int], dice: int, rng: SplitMix) -> None:
    for _ in range(dice):
        counts[int(rng.random() * 6)] += 1


def play_guide_game(guide: Guide, rules: RuleSet, rng: SplitMix) -> GameResult:
    """One solitaire game of the guide (a single column of the classic boxes)."""
    rt = h.rule_tables(rules)
    dt = h.dice_tables(rt.dice)
    arrays = rt.arrays
    params = rt.params
    threshold = bonus_threshold(rules)
    card = np.full(rt.boxes, -1, dtype=np.int64)
    scores: list[int | None] = [None] * rt.boxes
    out_box = np.empty(rt.boxes, dtype=np.int64)
    out_joker = np.empty(rt.boxes, dtype=np.int64)
    extras = 0
    for _ in range(rt.boxes):
        counts = [0] * 6
        _roll(counts, rt.dice, rng)
        for rolls_left in range(rules.rolls_per_turn - 1, 0, -1):
            keep = guide.keep(Position(tuple(scores), tuple(counts), rolls_left))
            if len(keep) == rt.dice:
                break
            counts = [0] * 6
            for die in keep:
                counts[die - 1] += 1
            _roll(counts, rt.dice - len(keep), rng)
        roll = dt.roll_of[tuple(f + 1 for f in range(6) for _ in range(counts[f]))]
        _, up, _ = column_key(card, params)
        n = legal_boxes(card, roll, arrays, out_box, out_joker)
        options = []
        for i in range(n):
            points, _, _ = placement(card, out_box[i], out_joker[i], roll, up, arrays)
            options.append((int(out_box[i]), int(points)))
        i = choose_box_index(guide, options, scores, threshold)
        points, _, extra = placement(card, out_box[i], out_joker[i], roll, up, arrays)
        card[out_box[i]] = points
        scores[int(out_box[i])] = int(points)
        extras += int(extra)
    upper = int(card[:6].sum())
    bonus = upper >= params[CFG_THRESHOLD] and params[CFG_UPPER_BONUS] > 0
    score = int(card.sum()) + (int(params[CFG_UPPER_BONUS]) if bonus else 0)
    score += extras * int(params[CFG_YAHTZEE_BONUS])
    return GameResult(score, bool(bonus), (scores[YAHTZEE] or 0) > 0, extras)


def play_guide_games(
    guide: Guide,
    rules: RuleSet,
    games: int,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    first: int = 0,
) -> Sequence[GameResult]:
    """Games number `first` to `first + games - 1` of the guide under `seed`."""
    results = []
    seeds = game_seeds(seed, first + games)
    for g in range(first, first + games):
        results.append(play_guide_game(guide, rules, SplitMix(int(seeds[g, 0]))))
        if progress is not None and (g + 1 - first) % 1000 == 0:
            progress(g + 1 - first, games)
    return results
