"""The hand evaluator against an independent brute force over every seven dice."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Sequence

import pytest

from fivedice.core.errors import DiceError
from fivedice.core.holdem.dice import COLOURS, Die, parse_dice
from fivedice.core.holdem.hands import HAND_KEYS, HandKey, best_hand, compare_hands

# -- the brute force: every five of the dice, each named by its pattern of counts ----------

_PATTERNS = {  # sorted counts of the faces -> the hand they make (no straight, no colour)
    (1, 1, 1, 1, 1): "high_card",
    (2, 1, 1, 1): "one_pair",
    (2, 2, 1): "two_pair",
    (3, 1, 1): "three_of_a_kind",
    (3, 2): "full_house",
    (4, 1): "four_of_a_kind",
    (5,): "yahtzee",
}
_ORDER = [
    "high_card",
    "one_pair",
    "two_pair",
    "three_of_a_kind",
    "full_house",
    "straight",
    "four_of_a_kind",
    "flush",
    "yahtzee",
    "straight_flush",
    "yahtzee_flush",
]


def five_dice_value(dice: Sequence[Die]) -> tuple[int, ...]:
    """Exactly five dice: (rank, faces in the order that ranks them)."""
    faces = sorted((die.face for die in dice), reverse=True)
    one_colour = len({die.colour for die in dice}) == 1
    counts = Counter(faces)
    run = sorted(counts) in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6])
    pattern = tuple(sorted(counts.values(), reverse=True))
    # Faces grouped: the biggest groups first, higher faces first within a size.
    grouped = tuple(sorted(counts, key=lambda face: (-counts[face], -face)))
    if one_colour and pattern == (5,):
        return (_ORDER.index("yahtzee_flush"), faces[0])
    if one_colour and run:
        return (_ORDER.index("straight_flush"), max(faces))
    if pattern == (5,):
        return (_ORDER.index("yahtzee"), faces[0])
    if one_colour:
        return (_ORDER.index("flush"), *faces)
    if pattern == (4, 1):
        return (_ORDER.index("four_of_a_kind"), *grouped)
    if run:
        return (_ORDER.index("straight"), max(faces))
    return (_ORDER.index(_PATTERNS[pattern]), *grouped)


def brute_force(dice: Sequence[Die]) -> tuple[int, ...]:
    return max(five_dice_value(five) for five in itertools.combinations(dice, 5))


def seven_dice_of_the_bag() -> Iterator[tuple[Die, ...]]:
    """Every face-and-colour combination of seven dice the bag can give, up to renaming the
    colours: colour counts in falling order, each colour's faces a multiset, and colours of
    equal counts taken in one order of their multisets only."""
    for counts in [(5, 2), (5, 1, 1), (4, 3), (4, 2, 1), (4, 1, 1, 1), (3, 3, 1), (3, 2, 2),
                   (3, 2, 1, 1), (2, 2, 2, 1)]:  # fmt: skip
        sizes = sorted(Counter(counts).items(), reverse=True)  # (size, how many colours)
        choices = [
            itertools.combinations_with_replacement(
                list(itertools.combinations_with_replacement(range(1, 7), size)), times
            )
            for size, times in sizes
        ]
        for picked in itertools.product(*choices):
            multisets = [faces for group in picked for faces in group]
            yield tuple(
                Die(face, colour)
                for colour, faces in zip(COLOURS, multisets, strict=False)
                for face in faces
            )


def test_the_keys_in_the_order_of_the_box():
    assert [key.value for key in HAND_KEYS] == _ORDER
    assert [key.rank for key in HAND_KEYS] == list(range(11))


@pytest.mark.slow  # (about 200,000 hands: `make test`, not the fast lane)
def test_every_seven_dice_against_the_brute_force():
    checked = 0
    for dice in seven_dice_of_the_bag():
        assert best_hand(dice).order == brute_force(dice), dice
        checked += 1
    # 252·21 + 252·21 + 126·56 + 126·21·6 + 126·56 + C(57,2)·6 + 56·C(22,2) + 56·21·21 + C(23,3)·6
    assert checked == 98_406


def test_a_sample_of_seven_dice_against_the_brute_force():
    everything = list(itertools.islice(seven_dice_of_the_bag(), 0, 20_000, 97))
    for dice in everything:
        shuffled = random.Random(len(dice)).sample(dice, len(dice))
        assert best_hand(shuffled).order == brute_force(dice), dice


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
def test_every_five_dice_against_the_brute_force():
    for counts in [(5,), (4, 1), (3, 2), (3, 1, 1), (2, 2, 1), (2, 1, 1, 1)]:
        groups = [
            [
                tuple(Die(face, colour) for face in faces)
                for faces in itertools.combinations_with_replacement(range(1, 7), count)
            ]
            for colour, count in zip(COLOURS, counts, strict=False)
        ]
        for parts in itertools.product(*groups):
            dice = tuple(itertools.chain.from_iterable(parts))
            assert best_hand(dice).order == five_dice_value(dice), dice


@pytest.mark.parametrize(
    ("dice", "key", "faces"),
    [
        ("3r 3r 3r 3r 3r 1b 2w", HandKey.YAHTZEE_FLUSH, (3,)),
        ("2y 3y 4y 5y 6y 6b 6w", HandKey.STRAIGHT_FLUSH, (6,)),
        ("4r 4b 4w 4y 4r 6r 6r", HandKey.YAHTZEE, (4,)),
        ("1b 3b 3b 5b 6b 6w 6r", HandKey.FLUSH, (6, 5, 3, 3, 1)),
        ("6r 6b 6w 6y 2r 2b 5w", HandKey.FOUR_OF_A_KIND, (6, 5)),
        ("1r 2b 3w 4y 5r 5b 5w", HandKey.STRAIGHT, (5,)),
        ("2r 2b 2w 5y 5r 1b 1w", HandKey.FULL_HOUSE, (2, 5)),
        ("6r 6b 6w 3y 1r 2b 2w", HandKey.FULL_HOUSE, (6, 2)),
        ("6r 6b 6w 3y 1r 2b 4w", HandKey.THREE_OF_A_KIND, (6, 4, 3)),
        ("6r 6b 4w 4y 1r 1b 3w", HandKey.TWO_PAIR, (6, 4, 3)),
        ("6r 6b 1w 2y 3r 5b 5w", HandKey.TWO_PAIR, (6, 5, 3)),
        ("1r 2b 4w 5y 6r", HandKey.HIGH_CARD, (6, 5, 4, 2, 1)),
        ("1r 1b 4w 5y 6r", HandKey.ONE_PAIR, (1, 6, 5, 4)),
    ],
)
def test_known_hands(dice, key, faces):
    value = best_hand(parse_dice(dice))
    assert (value.key, value.faces) == (key, faces)


def test_colour_never_breaks_a_tie():
    assert compare_hands(parse_dice("6r 6b 4w 4y 2r"), parse_dice("6y 6w 4b 4r 2y")) == 0
    assert compare_hands(parse_dice("6r 6b 4w 4y 3r"), parse_dice("6y 6w 4b 4r 2y")) == 1


def test_a_hand_is_five_to_seven_dice():
    with pytest.raises(DiceError):
        best_hand(parse_dice("1r 2r 3r 4r"))
