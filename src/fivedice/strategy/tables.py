"""Index tables over the dice: every roll and keep of n dice, and how they connect.

A *roll* is a sorted multiset of n faces; a *keep* a sorted multiset of 0 to n faces. Keeps are
ordered by size, then lexicographically, so the n-dice keeps (= the rolls) come last, in roll
order: keep `K - R + r` is roll r. The keep expectimax (`kernel`) walks these tables; they are
the same for every rule set with the same number of dice, so they are built once per count.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache, cached_property
from math import factorial

import numpy as np
import numpy.typing as npt

from fivedice.core.dice import FACES
from fivedice.core.wild import WILD, has_wild, wild_rolls, yahtzee_face

# The array types of every strategy table and kernel argument (int64 and float64 in practice).
IntArray = npt.NDArray[np.integer]
FloatArray = npt.NDArray[np.floating]

__all__ = ["DiceTables", "dice_tables"]


@dataclass(frozen=True, eq=False)
class DiceTables:
    """The rolls and keeps of `dice` dice as index arrays (read-only).

    Attributes:
        dice: the number of dice.
        rolls: every sorted roll.
        keeps: every sorted keep, by size (the rolls last).
        add_face: (K, 6) the keep with one more die showing face f+1; -1 for a full keep.
        remove_face: (K, 6) the distinct keeps with one die fewer, -1 padded.
        probability: (R,) the chance of each roll when all dice are thrown.
        all_same: (R,) the face of a roll whose dice all show one face, else 0.
        sub_keeps: (R, 2**dice) the distinct keeps of each roll, ascending, -1 padded.
        wild: the last die is the wild die (`fivedice.core.wild`), coded apart in the rolls
            and keeps: a keep then adds regular dice up to dice - 1, then the wild die.
    """

    dice: int
    rolls: tuple[tuple[int, ...], ...]
    keeps: tuple[tuple[int, ...], ...]
    add_face: IntArray
    remove_face: IntArray
    probability: FloatArray
    all_same: IntArray
    sub_keeps: IntArray
    wild: bool = False

    @property
    def first_roll_keep(self) -> int:
        """Index of the first full keep (= roll 0)."""
        return len(self.keeps) - len(self.rolls)

    @cached_property
    def roll_index(self) -> dict[tuple[int, ...], int]:
        """Each roll's position in `rolls` (with the wild die: its coded rolls,
        `scoring.scoring_roll`)."""
        return {roll: i for i, roll in enumerate(self.rolls)}

    @cached_property
    def keep_index(self) -> dict[tuple[int, ...], int]:
        """Each keep's position in `keeps`."""
        return {keep: i for i, keep in enumerate(self.keeps)}


def _multiset_probability(dice: tuple[int, ...], wild: bool = False) -> float:
    """The chance that len(dice) fresh dice show exactly this multiset (int / int: correctly
    rounded, the same float as the exact fraction's); with `wild`, the last die is the wild
    one (one face of six, whatever the others show)."""
    regular = dice[:-1] if wild else dice
    ways = factorial(len(regular))
    for face in set(regular):
        ways //= factorial(regular.count(face))
    return float(ways / 6 ** len(dice))


def _sub_multisets(roll: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The distinct sub-multisets of a roll, ascending (size, then values)."""
    found = {
        tuple(sorted(c))
        for size in range(len(roll) + 1)
        for c in itertools.combinations(roll, size)
    }
    return sorted(found, key=lambda keep: (len(keep), keep))


def _wild_keeps(dice: int) -> tuple[tuple[int, ...], ...]:
    """The keeps with the wild die: up to dice - 1 regular dice, and the wild die or not."""
    regular = [
        keep
        for size in range(dice)
        for keep in itertools.combinations_with_replacement(FACES, size)
    ]
    found = [*regular, *((*keep, face + WILD) for keep in regular for face in FACES)]
    return tuple(sorted(found, key=lambda keep: (len(keep), keep)))


def _added(keep: tuple[int, ...], face: int, dice: int, wild: bool) -> tuple[int, ...] | None:
    """The keep with one more die showing `face` (with the wild die: a regular die while
    fewer than dice - 1 are kept, then the wild die), or None for a full keep."""
    if len(keep) >= dice:
        return None
    if wild and len(keep) - has_wild(keep) == dice - 1:
        face += WILD
    return tuple(sorted((*keep, face)))


@cache
def dice_tables(dice: int = 5, wild: bool = False) -> DiceTables:
    """The tables for this many dice (the last one wild, with `wild`), built once per
    process."""
    if wild:
        rolls = wild_rolls(dice)
        keeps = _wild_keeps(dice)
    else:
        rolls = tuple(itertools.combinations_with_replacement(FACES, dice))
        keeps = tuple(
            keep
            for size in range(dice + 1)
            for keep in itertools.combinations_with_replacement(FACES, size)
        )
    keep_index = {keep: i for i, keep in enumerate(keeps)}
    add_face = np.full((len(keeps), 6), -1, dtype=np.int64)
    remove_face = np.full((len(keeps), 6), -1, dtype=np.int64)
    for k, keep in enumerate(keeps):
        for face in FACES:
            added = _added(keep, face, dice, wild)
            if added is not None:
                add_face[k, face - 1] = keep_index[added]
        for slot, face in enumerate(sorted(set(keep))):
            rest = list(keep)
            rest.remove(face)
            remove_face[k, slot] = keep_index[tuple(rest)]
    probability = np.array([_multiset_probability(r, wild) for r in rolls], dtype=np.float64)
    all_same = np.array([yahtzee_face(r) for r in rolls], dtype=np.int64)
    sub_keeps = np.full((len(rolls), 1 << dice), -1, dtype=np.int64)
    for r, roll in enumerate(rolls):
        for slot, keep in enumerate(_sub_multisets(roll)):
            sub_keeps[r, slot] = keep_index[keep]
    for array in (add_face, remove_face, probability, all_same, sub_keeps):
        array.setflags(write=False)
    return DiceTables(
        dice, rolls, keeps, add_face, remove_face, probability, all_same, sub_keeps, wild
    )
