"""Exact odds: probabilities that sum to 1, agree with a Monte Carlo, and known values."""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction

import pytest

from fivedice.core.errors import DiceError
from fivedice.core.holdem import HandKey, best_hand, parse_dice
from fivedice.core.holdem.dice import COLOURS, Die
from fivedice.strategy.holdem.odds import (
    equity,
    exact_equity,
    hand_chances,
    monte_carlo_equity,
    samples_for,
)


@pytest.mark.parametrize("count", [5, 6, 7])
def test_the_chances_sum_to_exactly_one(count):
    chances = hand_chances(count)
    assert all(isinstance(p, Fraction) and p >= 0 for p in chances.values())
    assert sum(chances.values()) == 1


def test_a_yahtzee_flush_needs_five_dice_of_one_colour_showing_one_face():
    five_of_a_colour_7 = Fraction(4 * math.comb(15, 2), math.comb(20, 7))
    assert hand_chances(7)[HandKey.YAHTZEE_FLUSH] == five_of_a_colour_7 * Fraction(6, 6**5)
    assert hand_chances(5)[HandKey.YAHTZEE_FLUSH] == Fraction(4, math.comb(20, 5)) / 6**4


def test_seven_dice_always_hold_a_pair_and_six_faces_a_straight():
    assert hand_chances(7)[HandKey.HIGH_CARD] == 0
    assert hand_chances(7)[HandKey.ONE_PAIR] == 0
    # Five dice: five different faces that are no straight - 4 of the 6 sets of five faces.
    no_colour_five = 1 - Fraction(4, math.comb(20, 5))
    assert hand_chances(5)[HandKey.HIGH_CARD] == no_colour_five * 4 * 120 / 6**5


def draw_from_the_bag(count: int, rng: random.Random) -> list[Die]:
    bag = [Die(1, colour) for colour in COLOURS for _ in range(5)]
    return [Die(rng.randint(1, 6), die.colour) for die in rng.sample(bag, count)]


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
@pytest.mark.parametrize("count", [5, 7])
def test_the_exact_chances_agree_with_a_monte_carlo_within_four_standard_errors(count):
    rng = random.Random(2024 + count)
    samples = 20_000
    seen = Counter(best_hand(draw_from_the_bag(count, rng)).key for _ in range(samples))
    for key, chance in hand_chances(count).items():
        p = float(chance)
        error = math.sqrt(max(p * (1 - p), 1 / samples) / samples)
        assert abs(seen[key] / samples - p) <= 4 * error, key


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_exact_equity_agrees_with_a_monte_carlo():
    pocket, board = parse_dice("6r 5b"), parse_dice("6w 2y 3r 4b")
    exact = exact_equity(pocket, board, 2)
    assert exact.method == "exact" and exact.deals > 0
    assert exact.win + exact.tie + exact.lose == pytest.approx(1)
    sampled = monte_carlo_equity(pocket, board, 2, 8000, random.Random(5))
    assert abs(sampled.win - exact.win) <= 4 * sampled.standard_error


def test_a_board_everyone_plays_is_a_tie():
    result = equity(
        parse_dice("1r 2b"), parse_dice("5r 5b 5w 5y 5r"), 3, error=0.02, rng=random.Random(1)
    )
    assert result.tie == 1 and result.win == 0 and result.share == pytest.approx(1 / 3)


def test_a_sure_winner_at_the_river():
    result = exact_equity(parse_dice("6r 6r"), parse_dice("6r 6r 6r 1b 2w"), 2)
    assert result.win == pytest.approx(1)


def test_equity_refuses_impossible_dice():
    with pytest.raises(DiceError):
        equity(parse_dice("6r"), (), 2)
    with pytest.raises(DiceError):
        equity(parse_dice("6r 6r"), parse_dice("6r 6r 6r 6r"), 2)  # six red dice
    with pytest.raises(DiceError):
        equity(parse_dice("6r 6b"), (), 7)


def test_samples_for_a_standard_error():
    assert samples_for(0.001) == 250_000
