import itertools
from collections import Counter
from fractions import Fraction

import pytest

from fivedice.core.dice import (
    ALL_KEEPS,
    ALL_ROLLS,
    RandomDice,
    ScriptedDice,
    keep_outcomes,
    parse_dice,
    roll_probability,
    sub_multisets,
)
from fivedice.core.errors import DiceError


def test_all_7776_ordered_rolls_map_onto_252_multisets_with_exact_probabilities():
    counts = Counter(tuple(sorted(r)) for r in itertools.product(range(1, 7), repeat=5))
    assert len(counts) == 252
    assert set(counts) == set(ALL_ROLLS)
    for roll, count in counts.items():
        assert roll_probability(roll) == Fraction(count, 7776)
    assert sum(roll_probability(r) for r in ALL_ROLLS) == 1


def test_462_distinct_keeps():
    assert len(ALL_KEEPS) == len(set(ALL_KEEPS)) == 462
    assert Counter(len(k) for k in ALL_KEEPS) == {0: 1, 1: 6, 2: 21, 3: 56, 4: 126, 5: 252}


@pytest.mark.parametrize("keep", ALL_KEEPS)
def test_every_keep_distribution_sums_to_one_and_contains_the_keep(keep):
    outcomes = keep_outcomes(keep)
    assert sum(p for _, p in outcomes) == 1
    for roll, p in outcomes:
        assert p > 0
        assert not Counter(keep) - Counter(roll)


@pytest.mark.parametrize("keep", [(), (6,), (1, 1), (2, 3, 5), (4, 4, 4, 4)])
def test_keep_outcomes_match_brute_force(keep):
    free = 5 - len(keep)
    brute: Counter[tuple[int, ...]] = Counter()
    for rolled in itertools.product(range(1, 7), repeat=free):
        brute[tuple(sorted(keep + rolled))] += 1
    expected = {roll: Fraction(n, 6**free) for roll, n in brute.items()}
    assert dict(keep_outcomes(keep)) == expected


def test_sub_multisets_of_a_roll():
    assert len(sub_multisets((1, 2, 3, 4, 5))) == 32
    assert sub_multisets((6, 6, 6, 6, 6)) == tuple((6,) * n for n in range(6))
    assert len(sub_multisets((1, 1, 6, 6, 6))) == 3 * 4


@pytest.mark.parametrize(
    "text, dice",
    [("33355", (3, 3, 3, 5, 5)), ("5 3 5 3 3", (3, 3, 3, 5, 5)), ("1,2,3,4,6", (1, 2, 3, 4, 6))],
)
def test_parse_dice(text, dice):
    assert parse_dice(text) == dice


@pytest.mark.parametrize("text", ["3335", "333555", "33375", "abcde", "", "0 1 2 3 4"])
def test_parse_dice_rejects_bad_input(text):
    with pytest.raises(DiceError):
        parse_dice(text)


def test_random_dice_are_reproducible_and_fair_faces():
    a, b = RandomDice(7), RandomDice(7)
    rolls = [a.roll(5) for _ in range(200)]
    assert rolls == [b.roll(5) for _ in range(200)]
    assert {d for r in rolls for d in r} == {1, 2, 3, 4, 5, 6}


def test_scripted_dice_run_out_with_a_clear_error():
    dice = ScriptedDice([1, 2, 3])
    assert dice.roll(2) == (1, 2)
    with pytest.raises(DiceError, match="ran out"):
        dice.roll(2)
    with pytest.raises(DiceError):
        ScriptedDice([7])
