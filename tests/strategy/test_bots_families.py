"""CPU players beyond the Yahtzee family: Scandinavian Yatzy (solved exactly) and Maxi Yatzy
(six dice, 20 boxes, saved rolls: calibrated heuristic levels)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable

import numpy as np
import pytest

from fivedice.core.card import ScoreCard
from fivedice.core.rules import RuleSet, find_ruleset
from fivedice.strategy import heuristics as h
from fivedice.strategy.bots import Bot, Level, profile_for, values_from_table
from fivedice.strategy.limits import cpus_supported, has_win_chances, is_supported
from fivedice.strategy.playout import game_seeds
from fivedice.strategy.simulate import first_turn_values, simulate
from fivedice.strategy.solver import StrategyTable
from tests.strategy.support import telling_games

Solved = Callable[[RuleSet], StrategyTable]

YATZY = find_ruleset("yatzy")
FORCED = find_ruleset("yatzy", {"fill_order": "forced"})
MAXI = find_ruleset("maxi-yatzy")


def _bot(level: Level, rules: RuleSet, solved: Solved) -> Bot:
    values = None
    if profile_for(level, rules).optimal_values:
        values = values_from_table(solved(rules))
    return Bot(level, rules, random.Random(3), values=values)


def _play(bot: Bot, rules: RuleSet, die: Callable[[], int]) -> ScoreCard:
    """A whole solitaire game through the public bot API, every decision checked, with the
    saved-rolls rule played as the core plays it (unused rolls carry over)."""
    card = ScoreCard.empty(rules)
    saved = 0
    while not card.is_complete:
        dice = tuple(sorted(die() for _ in range(rules.dice)))
        unused = 0
        for rolls_left in range(rules.rolls_per_turn - 1 + saved, 0, -1):
            keep = bot.choose_keep(rules, card, dice, rolls_left)
            assert not Counter(keep) - Counter(dice), f"kept {keep} from {dice}"
            if len(keep) == rules.dice:
                unused = rolls_left
                break
            dice = tuple(sorted((*keep, *(die() for _ in range(rules.dice - len(keep))))))
        saved = unused if rules.saved_rolls else 0
        placement = bot.choose_box(rules, card, dice)
        assert placement in card.placements(rules, dice)
        card = card.fill(rules, placement.column, placement.category, dice)
    return card


def _stream(seed: int) -> Callable[[], int]:
    """The numba playout's splitmix64 dice, in Python."""
    state = [int(seed)]
    mask = (1 << 64) - 1

    def die() -> int:
        state[0] = (state[0] + 0x9E3779B97F4A7C15) & mask
        z = state[0]
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        z ^= z >> 31
        return int((z >> 11) * (1.0 / 9007199254740992.0) * 6.0) + 1

    return die


def test_the_strategy_gates() -> None:
    assert is_supported(YATZY) and is_supported(FORCED) and not is_supported(MAXI)
    assert cpus_supported(MAXI) and not has_win_chances(MAXI)
    assert has_win_chances(YATZY)  # the moment tables follow any five-dice card
    assert has_win_chances(find_ruleset("classic"))
    # Maxi Yatzy's looking-ahead levels play the casual estimate, with fewer slips as they rise.
    slips = [profile_for(level, MAXI).slip for level in (Level.CASUAL, Level.STRONG, Level.EXPERT)]
    assert slips == sorted(slips, reverse=True) and slips[-1] == 0.0
    assert not any(
        profile_for(level, MAXI).optimal_values for level in Level if level != Level.BEGINNER
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "level"),
    [
        ("yatzy", Level.EXPERT),
        ("yatzy", Level.BEGINNER),
        ("forced", Level.CASUAL),
        ("maxi", Level.EXPERT),
        ("maxi", Level.BEGINNER),
        ("maxi", Level.CASUAL),
        ("kismet", Level.EXPERT),
        ("kismet", Level.CASUAL),
        ("yacht", Level.EXPERT),
        ("yacht-dice", Level.BEGINNER),
    ],
)
def test_simulated_games_match_the_core_move_for_move(
    name: str, level: Level, solved_table: Solved
) -> None:
    """The numba playout (six dice, 20 boxes, saved rolls, forced order) against the bots
    playing the core card with the same dice, without slips."""
    rules = {"yatzy": YATZY, "forced": FORCED, "maxi": MAXI}.get(name) or find_ruleset(name)
    bot = _bot(level, rules, solved_table)
    profile = profile_for(level, rules)
    bot.profile = type(profile)(profile.greedy, profile.optimal_values)
    values = bot.values_for(rules)
    seeds = game_seeds(5, 6)
    rt = h.rule_tables(rules)
    dt = h.dice_tables(rt.dice)
    out = np.zeros((len(seeds), 4), dtype=np.int64)
    h.play_games(
        profile.greedy,
        0.0,
        0.0,
        seeds,
        rt.multipliers,
        rt.arrays,
        values,
        h.typical_box_values(rules),
        dt.arrays,
        first_turn_values(rules, values, profile.greedy),
        out,
    )
    # All 6 games in the playout; the 3 most telling (most bonuses, best and worst totals)
    # replayed by the bots on the core card.
    chosen = telling_games(out, 3)
    for row, (dice_seed, _) in zip(out[chosen], seeds[chosen], strict=True):
        card = _play(bot, rules, _stream(int(dice_seed)))
        bonuses = sum(1 for column in card.columns if column.upper_bonus(rules))
        assert (int(row[0]), int(row[1])) == (card.total(rules), bonuses)


@pytest.mark.slow
def test_yatzy_levels_are_ordered_and_expert_is_optimal(solved_table: Solved) -> None:
    table = solved_table(YATZY)
    means = {
        level: float(simulate(YATZY, level, 1500, seed=4, use_cache=False,
                              values=None if level in (Level.BEGINNER, Level.CASUAL)
                              else values_from_table(table)).scores.mean())
        for level in (Level.BEGINNER, Level.CASUAL, Level.STRONG, Level.EXPERT)
    }  # fmt: skip
    ordered = [means[level] for level in (Level.BEGINNER, Level.CASUAL, Level.STRONG)]
    assert ordered == sorted(ordered) and ordered[-1] < means[Level.EXPERT]
    assert means[Level.EXPERT] == pytest.approx(table.expected_score, abs=3.0)


@pytest.mark.slow
def test_maxi_levels_are_ordered() -> None:
    """Calibration: over 4,000 games each, every level beats the one below by more than the
    noise (about ±2 points at 95% for a mean of 4,000 games)."""
    means = [
        float(simulate(MAXI, level, 4000, seed=8).scores.mean())
        for level in (Level.BEGINNER, Level.CASUAL, Level.STRONG, Level.EXPERT)
    ]
    assert all(low + 4.0 < high for low, high in itertools.pairwise(means)), means


@pytest.mark.slow
def test_two_column_yatzy_expert_plays_legally(solved_table: Solved) -> None:
    rules = YATZY.replace(column_multipliers=(2, 1))
    bot = Bot(Level.EXPERT, rules, random.Random(1), values=values_from_table(solved_table(YATZY)))
    card = _play(bot, rules, _stream(17))
    assert card.is_complete and card.total(rules) > 0
