"""Dice, rolls and the exact chance outcomes a solver enumerates.

A *roll* here is the multiset of five face values, kept as a sorted tuple; a *keep* is the
multiset of dice held back before a re-roll (0 to 5 dice). There are 252 rolls and 462 keeps.

>>> len(ALL_ROLLS), len(ALL_KEEPS)
(252, 462)
>>> roll_probability((1, 1, 1, 1, 1))
Fraction(1, 7776)
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from fractions import Fraction
from functools import cache
from math import factorial
from typing import Protocol

from fivedice.core.errors import N_, DiceError

FACES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
DICE_COUNT = 5
"""The classic number of dice (a rule set says its own: `RuleSet.dice`)."""
MAX_DICE = 6

Roll = tuple[int, ...]
"""A multiset of face values as a sorted tuple."""


def _multisets(size: int) -> tuple[Roll, ...]:
    return tuple(itertools.combinations_with_replacement(FACES, size))


ALL_ROLLS: tuple[Roll, ...] = _multisets(DICE_COUNT)
"""The 252 distinct five-dice rolls, sorted."""

ALL_KEEPS: tuple[Roll, ...] = tuple(
    keep for size in range(DICE_COUNT + 1) for keep in _multisets(size)
)
"""The 462 distinct keeps (multisets of 0 to 5 dice), by size then value."""


@cache
def all_rolls(count: int = DICE_COUNT) -> tuple[Roll, ...]:
    """The distinct rolls of `count` dice, sorted (252 for five, 462 for six)."""
    return ALL_ROLLS if count == DICE_COUNT else _multisets(count)


@cache
def all_keeps(count: int = DICE_COUNT) -> tuple[Roll, ...]:
    """The distinct keeps of 0 to `count` dice, by size then value."""
    if count == DICE_COUNT:
        return ALL_KEEPS
    return tuple(keep for size in range(count + 1) for keep in _multisets(size))


def normalize(dice: Iterable[int]) -> Roll:
    """Returns the dice as a sorted tuple after checking every value is a face 1-6.

    Raises:
        DiceError: a value is not an integer face from 1 to 6.
    """
    values = tuple(dice)
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or value not in FACES:
            raise DiceError(N_("a die shows 1 to 6, not {value!r}"), value=value)
    return tuple(sorted(values))


def parse_dice(text: str, count: int = DICE_COUNT) -> Roll:
    """Parses `count` dice written as digits, with or without separators ("33355", "3 3 3 5 5").

    Raises:
        DiceError: not exactly `count` faces from 1 to 6.
    """
    digits = [c for c in text if not c.isspace() and c not in ",-"]
    if not all(c in "0123456789" for c in digits):  # not isdigit(): "²" is a digit to it
        raise DiceError(
            N_("dice are written as five digits 1-6, e.g. 33355; got {text!r}"), text=text
        )
    dice = normalize(int(c) for c in digits)
    if len(dice) != count:
        raise DiceError(
            N_("a roll has {count} dice; {text!r} has {found}"),
            count=count,
            text=text,
            found=len(dice),
        )
    return dice


def check_roll(dice: Sequence[int], count: int = DICE_COUNT) -> Roll:
    """Returns the dice sorted; raises DiceError unless they are `count` faces 1-6."""
    roll = normalize(dice)
    if len(roll) != count:
        raise DiceError(
            N_("a roll has {count} dice, not {found}: {dice}"),
            count=count,
            found=len(roll),
            dice=tuple(dice),
        )
    return roll


def multiset_probability(dice: Roll) -> Fraction:
    """Probability that rolling len(dice) dice shows exactly this multiset."""
    counts = Counter(dice)
    ways = factorial(len(dice))
    for count in counts.values():
        ways //= factorial(count)
    return Fraction(ways, 6 ** len(dice))


def roll_probability(roll: Roll, count: int = DICE_COUNT) -> Fraction:
    """Probability that `count` fresh dice show this roll (any order)."""
    return multiset_probability(check_roll(roll, count))


@cache
def keep_outcomes(keep: Roll, count: int = DICE_COUNT) -> tuple[tuple[Roll, Fraction], ...]:
    """Every roll of `count` dice reachable by re-rolling the dice not in `keep`, with its
    probability.

    The probabilities are exact and sum to 1.

    >>> keep_outcomes((6, 6, 6, 6, 6))
    (((6, 6, 6, 6, 6), Fraction(1, 1)),)
    >>> sum(p for _, p in keep_outcomes((1, 2))) == 1
    True
    """
    keep = normalize(keep)
    if len(keep) > count:
        raise DiceError(
            N_("at most {count} dice can be kept, not {found}"), count=count, found=len(keep)
        )
    outcomes: list[tuple[Roll, Fraction]] = []
    for rolled in _multisets(count - len(keep)):
        outcomes.append((tuple(sorted(keep + rolled)), multiset_probability(rolled)))
    return tuple(outcomes)


def sub_multisets(roll: Roll) -> tuple[Roll, ...]:
    """The distinct keeps available from a roll, from keeping nothing to keeping all.

    >>> len(sub_multisets((1, 2, 3, 4, 5))), len(sub_multisets((6, 6, 6, 6, 6)))
    (32, 6)
    """
    counts = Counter(roll)
    faces = sorted(counts)
    keeps: list[Roll] = []
    for picks in itertools.product(*(range(counts[f] + 1) for f in faces)):
        keeps.append(tuple(f for f, n in zip(faces, picks, strict=True) for _ in range(n)))
    return tuple(sorted(keeps, key=lambda k: (len(k), k)))


class DiceSource(Protocol):
    """Where dice values come from: injected so that games are reproducible."""

    def roll(self, count: int) -> tuple[int, ...]:
        """Returns `count` face values in the order the dice landed."""
        ...


class RandomDice:
    """Fair dice from a seeded `random.Random` (same seed, same game)."""

    def __init__(self, rng: random.Random | int | None = None) -> None:
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)

    def roll(self, count: int) -> tuple[int, ...]:
        return tuple(self.rng.randint(1, 6) for _ in range(count))


class ScriptedDice:
    """Dice values taken in order from a script, for tests and replays.

    >>> ScriptedDice([3, 3, 3, 5, 5]).roll(5)
    (3, 3, 3, 5, 5)
    """

    def __init__(self, values: Iterable[int]) -> None:
        self._values: Iterator[int] = iter(normalize_sequence(values))

    def roll(self, count: int) -> tuple[int, ...]:
        taken = tuple(itertools.islice(self._values, count))
        if len(taken) < count:
            raise DiceError(
                N_("the dice script ran out: {count} dice needed, {left} left"),
                count=count,
                left=len(taken),
            )
        return taken


def normalize_sequence(values: Iterable[int]) -> tuple[int, ...]:
    """Checks every value is a face 1-6, keeping their order."""
    values = tuple(values)
    normalize(values)
    return values
