"""Hands of Texas Hold'em Yahtzee: the best five of seven coloured dice.

The hands, low to high (`HandKey`): high card, one pair, two pair, three of a kind, full
house, straight (1-2-3-4-5 or 2-3-4-5-6), four of a kind, flush (five dice of one colour),
Yahtzee (five of a face), straight flush, Yahtzee Flush (five of a face in one colour).
Between two hands of the same key the faces that make the hand decide, highest first, then
the other dice as kickers; colour never breaks a tie. A `HandValue` compares that way.

>>> from fivedice.core.holdem.dice import parse_dice
>>> best_hand(parse_dice("5r 5b 5w 2y 2r 6b 1w"))
HandValue(key=<HandKey.FULL_HOUSE: 'full_house'>, faces=(5, 2))
>>> best_hand(parse_dice("1r 2r 3r 4r 5r 6b 6w")).key
<HandKey.STRAIGHT_FLUSH: 'straight_flush'>
>>> best_hand(parse_dice("6r 6b 4w 4y 1r 3b 3w")) > best_hand(parse_dice("6r 6b 4w 4y 2r 1b 1w"))
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import cache, total_ordering

from fivedice.core.errors import N_, DiceError
from fivedice.core.holdem.dice import Die

__all__ = ["HAND_KEYS", "HandKey", "HandValue", "best_hand", "compare_hands"]


class HandKey(Enum):
    """The hands, weakest first (their order is their rank)."""

    HIGH_CARD = "high_card"
    ONE_PAIR = "one_pair"
    TWO_PAIR = "two_pair"
    THREE_OF_A_KIND = "three_of_a_kind"
    FULL_HOUSE = "full_house"
    STRAIGHT = "straight"
    FOUR_OF_A_KIND = "four_of_a_kind"
    FLUSH = "flush"
    YAHTZEE = "yahtzee"
    STRAIGHT_FLUSH = "straight_flush"
    YAHTZEE_FLUSH = "yahtzee_flush"

    @property
    def rank(self) -> int:
        """0 (high card) to 10 (Yahtzee Flush)."""
        return _RANKS[self]


HAND_KEYS: tuple[HandKey, ...] = tuple(HandKey)
_RANKS = {key: number for number, key in enumerate(HAND_KEYS)}


@total_ordering
@dataclass(frozen=True)
class HandValue:
    """A hand's key and the faces that rank it among hands of that key: the faces making
    the hand, highest first, then the kickers (a straight: its top face)."""

    key: HandKey
    faces: tuple[int, ...]
    order: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """The rank of the key, then the faces: hands compare by it."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "order", (_RANKS[self.key], *self.faces))

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.order < other.order


def _straight_top(faces: set[int]) -> int:
    """6 when the faces hold 2-3-4-5-6, 5 when they hold 1-2-3-4-5, else 0."""
    if {2, 3, 4, 5, 6} <= faces:
        return 6
    if {1, 2, 3, 4, 5} <= faces:
        return 5
    return 0


def _colour_hand(faces: list[int]) -> HandValue:
    """The best hand five or more dice of one colour make with their colour."""
    counts = Counter(faces)
    five = [face for face, count in counts.items() if count >= 5]
    if five:
        return HandValue(HandKey.YAHTZEE_FLUSH, (max(five),))
    top = _straight_top(set(faces))
    if top:
        return HandValue(HandKey.STRAIGHT_FLUSH, (top,))
    return HandValue(HandKey.FLUSH, tuple(sorted(faces, reverse=True)[:5]))


@cache
def _face_hand(faces: tuple[int, ...]) -> HandValue:
    """The best hand of five of the faces (sorted), colours aside; kept for each of the few
    hundred multisets of faces, as a hand's colours matter only with five of one colour."""
    counts = Counter(faces)
    # Faces by how many dice show them, then by face: the first is the biggest group.
    groups = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    face, count = groups[0]

    def kickers(*used: int, most: int) -> tuple[int, ...]:
        rest = sorted((f for f in faces if f not in used), reverse=True)
        return tuple(rest[:most])

    if count >= 5:
        return HandValue(HandKey.YAHTZEE, (face,))
    if count == 4:
        return HandValue(HandKey.FOUR_OF_A_KIND, (face, *kickers(face, most=1)))
    top = _straight_top(set(faces))
    if top:
        return HandValue(HandKey.STRAIGHT, (top,))
    pairs = sorted((f for f, c in counts.items() if c >= 2), reverse=True)
    if count == 3:
        others = [f for f in pairs if f != face]
        if others:
            return HandValue(HandKey.FULL_HOUSE, (face, others[0]))
        return HandValue(HandKey.THREE_OF_A_KIND, (face, *kickers(face, most=2)))
    if len(pairs) >= 2:
        high, low = pairs[0], pairs[1]
        return HandValue(HandKey.TWO_PAIR, (high, low, *kickers(high, low, most=1)))
    if len(pairs) == 1:
        return HandValue(HandKey.ONE_PAIR, (pairs[0], *kickers(pairs[0], most=3)))
    return HandValue(HandKey.HIGH_CARD, kickers(most=5))


def best_hand(dice: Sequence[Die]) -> HandValue:
    """The best hand of five of the dice (five to seven dice).

    Raises:
        DiceError: fewer than five dice or more than seven.
    """
    if not 5 <= len(dice) <= 7:
        raise DiceError(N_("a hand is made of 5 to 7 dice, not {count}"), count=len(dice))
    best = _face_hand(tuple(sorted([die.face for die in dice])))
    colours = [die.colour for die in dice]
    for colour in set(colours):
        if colours.count(colour) >= 5:
            best = max(best, _colour_hand([die.face for die in dice if die.colour is colour]))
    return best


def compare_hands(first: Sequence[Die], second: Sequence[Die]) -> int:
    """1 when `first` makes the better hand, -1 when `second` does, 0 for a tie."""
    one, two = best_hand(first), best_hand(second)
    return (one > two) - (one < two)
