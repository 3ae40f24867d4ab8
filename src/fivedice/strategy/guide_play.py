"""Whole games of the `guide` level, played fast on the kernels' card arrays.

The guide's decisions are plain Python (`guide.Guide.keep`, `guide.choose_box_index`); the
legal boxes and their points come from the CPU kernels (`policy.legal_boxes`,
`policy.placement`), so a game here scores exactly as the game engine would. Each game draws
its dice from its own `random.Random(seed, game)`, so two guides given the same seed face the
same dice until their decisions differ (common random numbers: sharper comparisons).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from fivedice.core.rules import RuleSet
from fivedice.strategy import heuristics as h
from fivedice.strategy.guide import YAHTZEE, Guide, Position, bonus_threshold, choose_box_index
from fivedice.strategy.policy import column_key, legal_boxes, placement
from fivedice.strategy.rule_arrays import CFG_THRESHOLD, CFG_UPPER_BONUS, CFG_YAHTZEE_BONUS

__all__ = ["GameResult", "game_rng", "play_guide_game", "play_guide_games"]


@dataclass(frozen=True)
class GameResult:
    """One game's final score, whether it made the upper bonus, scored the Yahtzee box, and
    its extra Yahtzees."""

    score: int
    upper_bonus: bool
    yahtzee: bool
    extra_yahtzees: int


def game_rng(seed: int, game: int) -> random.Random:
    """The dice of game number `game` under `seed` (the same whoever plays it)."""
    return random.Random(seed * 1_000_003 + game)


def _roll(counts: list[int], dice: int, rng: random.Random) -> None:
    for _ in range(dice):
        counts[int(rng.random() * 6)] += 1


def play_guide_game(guide: Guide, rules: RuleSet, rng: random.Random) -> GameResult:
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
    for g in range(first, first + games):
        results.append(play_guide_game(guide, rules, game_rng(seed, g)))
        if progress is not None and (g + 1 - first) % 1000 == 0:
            progress(g + 1 - first, games)
    return results
